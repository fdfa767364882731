"""The pages in 简体中文 and 日本語: ?lang= chooses, a cookie remembers, the switcher offers the
three languages, and no English interface word is left on the index or any game's viewer."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.registry import all_games
from tests.web.conftest import record_seed, viewer_path, wait_for_viewer

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Words of the English interface; the player names, ids and card codes tests record are not words.
ENGLISH = re.compile(
    r"\b(?:the|and|of|step|steps|round|trick|card|cards|player|players|turn|plays|wins|won|match|"
    r"matches|points|phase|score|loading|finished|progress|nobody|hidden|dealer|trump|hand|"
    r"bids|table|deck|pile|open|filter|game|every|skip)\b",
    re.IGNORECASE,
)
# What is rightly left as it is: the brand, the API's name, game names as the seeds print them,
# card and prop ids (machine-read), player names of the examples.
KEPT = re.compile(r"tabletape|API|JSON|Wizard|Hats|English|\b[a-z]+-\d+\b|\b[A-Z0-9]{1,2}[SHDC]\b")


def english_left(page: Any, names: list[str]) -> list[str]:
    """The English words the page shows, once names, ids and kept words are taken out."""
    text = page.inner_text("body")
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return ENGLISH.findall(KEPT.sub(" ", text))


def players_of(site: str, match_id: str) -> list[str]:
    """The players of a recorded match."""
    import requests

    return list(requests.get(f"{site}/v1/matches/{match_id}", timeout=10).json()["players"])


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_the_index_under_lang_shows_no_english_interface_word(site: str, page: Any, lang: str) -> None:
    page.goto(f"{site}/?lang={lang}")
    page.wait_for_function("!document.getElementById('list-status').textContent.includes('…')")
    assert page.get_attribute("html", "lang") == ("zh-Hans" if lang == "zh" else "ja")
    assert english_left(page, []) == []


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_games_viewer_under_lang_shows_no_english_interface_word(
    site: str, page: Any, game: str, lang: str
) -> None:
    match = record_seed(site, game, 1)
    page.goto(f"{site}{viewer_path(match.id)}?lang={lang}")
    wait_for_viewer(page)
    left = english_left(page, players_of(site, match.id))
    assert left == [], f"{game} under ?lang={lang} still shows: {sorted(set(left))}"


def test_the_chosen_language_is_remembered_and_the_switcher_changes_it(site: str, page: Any) -> None:
    page.goto(f"{site}/?lang=ja")
    page.goto(f"{site}/")
    assert page.get_attribute("html", "lang") == "ja"
    assert page.inner_text("h1") == "最近の試合"
    page.click("nav.languages a[hreflang='zh-Hans']")
    page.wait_for_load_state()
    assert page.inner_text("h1") == "最近的比赛"
    page.click("nav.languages a[hreflang='en']")
    page.wait_for_load_state()
    assert page.inner_text("h1") == "Recent matches"
