"""The recorder in 简体中文 and 日本語: the new-match form, the recorder and its status lines speak
the page's language, with no English interface word left once a Wizard match is created through
the form and a bid is recorded by a tap; and every other game's title, choices, refusals and score
sheet keep no English word once a few actions are tapped."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests

from tests.web.conftest import start
from tests.web.recorder_support import (
    MATCHES,
    create_with_form,
    moved_on,
    phone,
    record_path,
    settled,
    shown_totals,
    tap_first,
)
from tests.web.test_new_match_languages import latin_left
from tests.web.test_viewer_languages import english_left

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

__all__ = ["phone"]

PLAYERS = ["ann", "bob", "cy"]
# Card ids as the API spells them: the page says each card in words instead.
CARD_IDS = re.compile(r"\b[a-z]+-\d+\b|\b(?:10|[2-9JQKA])[SHDC]\b", re.IGNORECASE)
HTML_LANG = {"zh": "zh-Hans", "ja": "ja"}


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_the_recorder_under_lang_records_a_bid_with_no_english_interface_word(
    site: str, phone: Any, lang: str
) -> None:
    page = phone.page
    page.goto(f"{site}/new?game=wizard&lang={lang}")
    page.wait_for_function("document.getElementById('new-status').textContent === ''")
    assert page.get_attribute("html", "lang") == HTML_LANG[lang]
    assert english_left(page, []) == [], f"/new under ?lang={lang}"

    match_id = create_with_form(page, site, "wizard", PLAYERS, {"first_dealer": "ann"}, {})
    assert page.get_attribute("html", "lang") == HTML_LANG[lang]
    assert english_left(page, [*PLAYERS, match_id]) == [], "the recorder before the first action"

    version = page.get_attribute("#recorder", "data-version")
    assert tap_first(page, prefer=("start_round",)) == "start_round"
    moved_on(page, version)
    version = page.get_attribute("#recorder", "data-version")
    assert tap_first(page, prefer=("bid",)) == "bid"
    moved_on(page, version)

    status = page.text_content("#status") or ""
    assert status and english_left(page, [*PLAYERS, match_id]) == [], page.inner_text("body")
    assert phone.problems == []


# game: players, setup, options, the actions to prefer, taps before the sheet is read.
GAMES: dict[str, tuple[list[str], dict[str, Any], dict[str, Any], tuple[str, ...], int]] = {
    "hobbit": (["ann", "bob"], {"characters": {"ann": "bilbo", "bob": "smaug"}}, {"rounds": 1}, (), 12),
    "hats": (*MATCHES["hats"][:4], 4),
    "other-hat-trick": (
        ["ann", "bob", "cy"],
        {"first_player": "cy", "first_trick": "hungry-rabbit"},
        {},
        (),
        6,
    ),
    "hat-trick": (["ann", "bob"], {}, {"target": 1}, ("reveal", "judge", "declare"), 4),
}


def tapped(page: Any, prefer: tuple[str, ...]) -> None:
    """One tap of the first choice offered; recorded or refused, the page has answered."""
    settled(page)
    before = page.get_attribute("#recorder", "data-version")
    tap_first(page, prefer, ("colour", "grey"))
    page.wait_for_function(
        "v => { const r = document.getElementById('recorder');"
        " return r.dataset.busy === '0' && (r.dataset.version !== v"
        " || document.getElementById('alert').textContent !== ''); }",
        arg=before,
    )


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_recorder_title_choices_and_score_sheet_under_lang_keep_no_english_word(
    site: str, phone: Any, game: str, lang: str
) -> None:
    players, setup, options, prefer, taps = GAMES[game]
    page = phone.page
    page.goto(f"{site}/new?game={game}&lang={lang}")
    match_id = create_with_form(page, site, game, players, setup, options)
    title = page.text_content("#title") or ""
    assert latin_left(title, players) == [], title
    for _ in range(taps):
        if not page.locator("#choices .entry").count():
            break
        tapped(page, prefer)
    typed = [*players, match_id]
    spoken = " ".join(page.eval_on_selector_all("#choices [aria-label]", "es => es.map(e => e.ariaLabel)"))
    shown = " ".join(page.eval_on_selector_all("#choices [data-value]", "es => es.map(e => e.textContent)"))
    status = page.text_content("#status") or ""
    said = " ".join([title, page.text_content("#alert") or "", status, spoken, shown])
    # Every game's card colours, props and verdicts are shown in words, not as their ids.
    assert latin_left(said, typed) == [], said
    sheet = shown_totals(page)
    assert latin_left(sheet, typed) == [], sheet
    assert phone.problems == [] or all("status of 422" in p for p in phone.problems), phone.problems


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("game", sorted(MATCHES))
def test_halfway_through_each_example_the_choices_and_the_undo_keep_no_id_nor_english_word(
    site: str, phone: Any, game: str, lang: str
) -> None:
    # Halfway through each game's example the recorder offers what a few taps never reach
    # (Hats' partner trade, The Other Hat Trick's perform): its values and the undo button
    # say cards, props and slots in words, never as ids ("red-1", "0 hat, 1 carrot", "10S").
    script = requests.get(f"{site}/v1/games/{game}", timeout=10).json()["example"]
    match = start(site, game, script)
    for action in script["actions"][: len(script["actions"]) // 2]:
        match.act(site, action)
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}?lang={lang}#token={match.token}")
    settled(page)
    typed = [*script["players"], match.id]
    spoken = " ".join(page.eval_on_selector_all("#choices [aria-label]", "es => es.map(e => e.ariaLabel)"))
    shown = " ".join(page.eval_on_selector_all("#choices [data-value]", "es => es.map(e => e.textContent)"))
    undo = page.text_content("#undo") or ""
    assert page.locator("#choices [data-value]").count(), "nothing offered halfway"
    said = " ".join([shown, spoken, undo])
    assert latin_left(said, typed) == [], (shown, spoken, undo)
    assert not CARD_IDS.search(said), (shown, spoken, undo)
    assert phone.problems == []


# A finished example's sheet, and what it must say in the game's own words (catalog msgids).
SHEET_WORDS = {
    "hats": ("Teams", "the highest total"),
    "other-hat-trick": ("tricks performed", "The Other Hat Trick was performed"),
    "hat-trick": ("ended by", "a player won the cards to win"),
}
LOCALES = {"zh": "zh_Hans", "ja": "ja"}


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("game", sorted(SHEET_WORDS))
def test_a_finished_examples_score_sheet_says_every_figure_in_the_games_words(
    site: str, phone: Any, example: Any, game: str, lang: str
) -> None:
    # Hats' teams were "[object Object]", The Other Hat Trick's tricks performed were counted as
    # Wizard's tricks won and its ending was its code, Hat Trick's ending was "end target".
    match = example(game)
    players = requests.get(f"{site}/v1/matches/{match.id}", timeout=10).json()["players"]
    catalog = requests.get(f"{site}/i18n/{LOCALES[lang]}.json", timeout=10).json()
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}?lang={lang}#token={match.token}")
    settled(page)
    sheet = shown_totals(page)
    assert "object" not in sheet and latin_left(sheet, players) == [], sheet
    for said in SHEET_WORDS[game]:
        assert catalog[said] in sheet, (said, catalog[said], sheet)
    if game == "other-hat-trick":
        assert catalog["tricks"] not in sheet, sheet
    if game == "hats":
        teams = requests.get(f"{site}/v1/matches/{match.id}/scores", timeout=10).json()["teams"]
        for team in teams:
            assert all(player in sheet for player in team["players"]), sheet
    assert phone.problems == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_hats_swap_names_its_space_once(site: str, phone: Any, lang: str) -> None:
    # "ann: swap a hat onto the tea table: card 红 1, space 3", never "space space 3".
    players, setup, options, _, _ = MATCHES["hats"]
    match = start(site, "hats", {"players": players, "setup": setup, "options": options})
    catalog = requests.get(f"{site}/i18n/ja.json", timeout=10).json() if lang == "ja" else {}
    space = catalog.get("space", "space")
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}?lang={lang}#token={match.token}")
    settled(page)
    version = page.get_attribute("#recorder", "data-version")
    assert tap_first(page, prefer=("swap",)) == "swap"
    moved_on(page, version)
    status = page.text_content("#status") or ""
    assert status.count(space) == 1, status
    assert phone.problems == []
