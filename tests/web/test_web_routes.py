"""The viewer's HTML routes as plain HTTP: shells that name the match, and the id form's redirect."""

from __future__ import annotations

import pytest
import requests

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


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
