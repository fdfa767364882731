"""The viewer's routes as plain HTTP (no browser), and the games' example matches recorded over HTTP."""

from __future__ import annotations

import re

import pytest
import requests

from games.registry import all_games
from tests.web.conftest import record, start

pytestmark = pytest.mark.e2e


def test_the_index_and_the_viewer_are_html_pages(site: str) -> None:
    for path in ("/", "/matches/abc123"):
        answer = requests.get(f"{site}{path}", timeout=5)
        assert answer.status_code == 200
        assert answer.headers["Content-Type"].startswith("text/html")


def test_the_viewer_names_its_match_escaped(site: str) -> None:
    answer = requests.get(f"{site}/matches/%22%3E%3Cb%3Ex", timeout=5)
    assert answer.status_code == 200
    assert "<b>x" not in answer.text
    assert 'data-match="&#34;&gt;&lt;b&gt;x"' in answer.text


def test_the_id_form_redirects_to_the_viewer_even_without_javascript(site: str) -> None:
    answer = requests.get(f"{site}/matches", params={"id": " abc123 "}, allow_redirects=False, timeout=5)
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith("/matches/abc123")
    empty = requests.get(f"{site}/matches", allow_redirects=False, timeout=5)
    assert empty.headers["Location"].endswith("/")


def test_the_pages_static_files_are_served(site: str) -> None:
    for path in ("/assets/viewer.css", "/assets/js/viewer.js", "/assets/js/boards/wizard.js"):
        assert requests.get(f"{site}{path}", timeout=5).status_code == 200


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_games_example_records_cleanly_as_the_games_endpoint_gives_it(site: str, game: str) -> None:
    script = requests.get(f"{site}/v1/games/{game}", timeout=10).json()["example"]
    match = record(site, game, script)
    shown = requests.get(f"{site}/v1/matches/{match.id}", timeout=10).json()
    assert shown["finished"] is script["finished"]
    assert shown["players"] == script["players"]


def test_a_matchs_pages_name_the_modules_of_its_game_alone(site: str) -> None:
    match = start(site, "hobbit", requests.get(f"{site}/v1/games/hobbit", timeout=10).json()["example"])
    for path in (f"/matches/{match.id}/record", f"/matches/{match.id}/seat/ann"):
        page = requests.get(f"{site}{path}", timeout=5).text
        assert 'data-game="hobbit"' in page
        assert 'rel="modulepreload" href="/assets/js/recorder/labels/hobbit.js"' in page
        assert "/labels/wizard.js" not in page
    version = requests.get(f"{site}/v1/matches/{match.id}", timeout=5).json()["version"]
    for path in (f"/matches/{match.id}", f"/embed/{match.id}"):
        page = requests.get(f"{site}{path}", timeout=5).text
        assert f'data-game="hobbit" data-version="{version}"' in page
        named = re.findall(r'rel="modulepreload" href="/assets/js/boards/([a-z-]+)\.js"', page)
        assert "hobbit" in named and not {"wizard", "hats", "hat-trick", "other-hat-trick"} & set(named)
    # A page whose game is not known here (no such match, an id no match can have, the service
    # worker's copy for every match) names none, and opens to say so itself.
    for path in ("/matches/0123456789abcdef/record", "/matches/_/record", "/matches/%22%3E..x/record"):
        page = requests.get(f"{site}{path}", timeout=5)
        assert page.status_code == 200
        assert 'data-game=""' in page.text and "/labels/" not in page.text
    for path in ("/matches/0123456789abcdef", "/embed/0123456789abcdef"):
        page = requests.get(f"{site}{path}", timeout=5)
        assert page.status_code == 200 and not re.search(r"/boards/(?!common|registry)[a-z-]+\.js", page.text)


# What a browser sends with a page's address, and what a program sends.
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_an_address_that_leads_nowhere_is_a_page_for_a_browser_and_a_problem_for_a_program(site: str) -> None:
    page = requests.get(f"{site}/matches/abc/nowhere", headers={"Accept": BROWSER}, timeout=5)
    assert page.status_code == 404 and page.headers["Content-Type"].startswith("text/html")
    assert "There is no page at this address." in page.text
    assert 'href="/"' in page.text and 'href="/new"' in page.text
    ja = requests.get(f"{site}/nowhere", headers={"Accept": BROWSER, "Accept-Language": "ja"}, timeout=5)
    assert ja.status_code == 404 and "このアドレスにはページがありません。" in ja.text
    for path, accept in (("/nowhere", "*/*"), ("/nowhere", "application/json"), ("/v1/nowhere", BROWSER)):
        answer = requests.get(f"{site}{path}", headers={"Accept": accept}, timeout=5)
        assert answer.status_code == 404, path
        assert answer.headers["Content-Type"] == "application/problem+json", (path, accept)
        assert answer.json()["code"] == "not_found"
