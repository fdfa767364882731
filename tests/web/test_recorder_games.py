"""A whole match of each game recorded on a phone by taps alone, through the new-match form and
the recorder, always taking the first choice the page offers (short matches: small options);
the score sheet then shows what GET /scores computes."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import requests

from tests.web.conftest import Recorded, Watched, start
from tests.web.recorder_support import (
    MATCHES,
    create_with_form,
    moved_on,
    no_sideways_scrolling,
    phone,
    record_path,
    settled,
    shown_totals,
    tap_random,
    tap_through,
)

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
__all__ = ["phone"]

# Taps of a random playout: enough to pass round starts, tricks, distributions and swaps.
RANDOM_TAPS = 30
# Optional fields the taps fill in (a challenge card shows some props); the others stay empty.
OPTIONAL = {"hat-trick": ("colour", "grey")}
HOBBIT_DUO = {"ann": "gandalf", "bob": "smaug"}


def scores_on_the_sheet(site: str, page: Any, match_id: str) -> None:
    """The sheet, one tap away, shows the winners and every total the API computes."""
    # The scoreboard is projected after the last step is logged: wait until it has the match's end
    # (on a loaded machine the workers may project it a moment after the page says it is over).
    deadline = time.monotonic() + 15
    scores = requests.get(f"{site}/v1/matches/{match_id}/scores", timeout=10).json()
    while not scores["finished"] and time.monotonic() < deadline:
        time.sleep(0.1)
        scores = requests.get(f"{site}/v1/matches/{match_id}/scores", timeout=10).json()
    sheet = shown_totals(page)
    assert scores["finished"] is True
    assert "Finished." in sheet
    for winner in scores.get("winners") or []:
        assert winner in sheet.split("Won by")[1]
    rows = page.eval_on_selector_all(
        "#sheet-body table:first-of-type tbody tr",
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))",
    )
    for player, total in (scores.get("totals") or {}).items():
        assert any(row[0] == player and str(total) in row for row in rows), (player, total, rows)


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_whole_match_is_recorded_by_taps_alone_and_the_sheet_shows_the_apis_scores(
    site: str, phone: Watched, game: str
) -> None:
    players, setup, options, prefer, most = MATCHES[game]
    page = phone.page
    match_id = create_with_form(page, site, game, players, setup, options)
    tap_through(page, most, prefer, OPTIONAL.get(game, ()))
    no_sideways_scrolling(page)
    scores_on_the_sheet(site, page, match_id)
    assert page.locator("#choices [data-value], #choices [data-submit]").count() == 0
    assert phone.problems == []


def test_undo_says_what_it_takes_back_and_takes_it_back_with_one_tap(site: str, phone: Watched) -> None:
    match = start(
        site, "wizard", {"players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}, "options": {}}
    )
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    assert page.is_disabled("[data-action='undo']")
    before = page.get_attribute("#recorder", "data-version")
    page.click("[data-action='start_round'][data-value='7H']")
    page.wait_for_selector("[data-action='start_round'] ~ * , [data-submit='start_round']")
    page.click("[data-submit='start_round']")
    moved_on(page, before)
    undo = page.locator("[data-action='undo']")
    assert "7" in undo.text_content() and undo.is_enabled()
    assert page.locator("[data-entry='bid']").count() == 1
    before = page.get_attribute("#recorder", "data-version")
    undo.click()
    moved_on(page, before)
    kinds = [
        e["type"] for e in requests.get(f"{site}/v1/matches/{match.id}/events", timeout=10).json()["events"]
    ]
    assert kinds[-1] == "ActionUndone"
    assert page.locator("[data-entry='start_round']").count() == 1
    assert "Redo" in page.text_content("[data-action='redo']") and page.is_enabled("[data-action='redo']")
    no_sideways_scrolling(page)
    assert phone.problems == []


def test_after_an_undo_or_a_redo_the_undo_button_names_the_action_it_would_take_back(
    site: str, phone: Watched
) -> None:
    # The label says what the next Undo takes back: after an Undo, the action before it; after a
    # Redo, the action redone. Never "Undo: Undo: …", and what an action derived stays said.
    match = start(
        site, "wizard", {"players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}, "options": {}}
    )
    match.act(site, {"type": "start_round", "trump_card": "7H"})
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    undo = page.locator("[data-action='undo']")
    redo = page.locator("[data-action='redo']")

    def api_undo() -> str:
        headers = {"Authorization": f"Bearer {match.token}"}
        answer = requests.get(f"{site}/v1/matches/{match.id}/next", headers=headers, timeout=10).json()
        return str(answer["undo"]["sentence"])

    before = page.get_attribute("#recorder", "data-version")
    page.locator("[data-entry='bid'] [data-value='1']").first.click()
    moved_on(page, before)
    assert "1" in undo.text_content()
    before = page.get_attribute("#recorder", "data-version")
    undo.click()
    moved_on(page, before)
    label = undo.text_content()
    assert label == f"Undo: {api_undo()}", label
    assert label.count("Undo") == 1 and "7" in label, label
    before = page.get_attribute("#recorder", "data-version")
    redo.click()
    moved_on(page, before)
    label = undo.text_content()
    assert label == f"Undo: {api_undo()}", label
    assert "Redo" not in label and label.count("Undo") == 1, label
    assert phone.problems == []


def wizard_before_a_revoke(site: str) -> Recorded:
    """Round 2 of a Wizard match in which bob played a spade on a heart lead in trick 1: his 7 of
    hearts now would be a revoke, seen from public facts."""
    match = start(
        site, "wizard", {"players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}, "options": {}}
    )
    round_one = {"bids": {"ann": 0, "bob": 0, "cy": 1}, "tricks": {"ann": 0, "bob": 0, "cy": 1}}
    match.act(site, {"type": "record_round", **round_one})
    match.act(site, {"type": "start_round", "trump_card": "2C"})
    for player in ("cy", "ann", "bob"):
        match.act(site, {"type": "bid", "player": player, "tricks": 0})
    for player, card in (("cy", "5H"), ("ann", "6H"), ("bob", "3S"), ("ann", "KD")):
        match.act(site, {"type": "play", "player": player, "card": card})
    return match


def test_a_revoke_the_rules_flag_is_marked_before_the_tap_and_said_in_words_after_it(
    site: str, phone: Watched
) -> None:
    match = wizard_before_a_revoke(site)
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    revoke = page.locator("[data-action='play'][data-player='bob'][data-value='7H']")
    assert "did not follow hearts" in (revoke.get_attribute("title") or "")
    assert "flagged" in (revoke.get_attribute("aria-label") or "")
    before = page.get_attribute("#recorder", "data-version")
    revoke.click()
    moved_on(page, before)
    assert "Recorded, with a dispute" in page.text_content("[role='alert']")
    assert "hearts" in page.text_content("[role='alert']")
    assert phone.problems == []


@pytest.mark.parametrize("game", ["wizard", "hobbit"])
def test_a_dispute_raised_by_a_tap_is_said_in_the_pages_language(
    site: str, phone: Watched, game: str
) -> None:
    # Wizard: bob showed out of hearts in trick 1, then plays a heart. The Hobbit: bob did not
    # follow red in trick 1, then plays a red card.
    if game == "wizard":
        match = wizard_before_a_revoke(site)
    else:
        match = start(
            site, game, {"players": ["ann", "bob"], "setup": {"characters": HOBBIT_DUO}, "options": {}}
        )
        match.act(site, {"type": "start_round", "leader": "ann"})
        match.act(site, {"type": "play", "player": "ann", "card": "red-1", "mark": "pipe"})
        match.act(site, {"type": "play", "player": "bob", "card": "yellow-2", "mark": "light"})
        match.act(site, {"type": "distribute", "cards": {"red-1": "discard", "yellow-2": "discard"}})
        match.act(site, {"type": "play", "player": "ann", "card": "blue-1", "mark": "pipe"})
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}?lang=ja#token={match.token}")
    settled(page)
    before = page.get_attribute("#recorder", "data-version")
    if game == "wizard":
        page.click("[data-action='play'][data-player='bob'][data-value='7H']")
    else:
        bob = page.locator("#choices .entry[data-entry='play'][data-player='bob']")
        bob.locator("[data-field='card'][data-value='red-4']").click()
        bob.locator("[data-field='mark'][data-value='pipe']").click()
        bob.locator("[data-submit='play']").click()
    moved_on(page, before)
    alert = page.text_content("[role='alert']") or ""
    assert "異議" in alert and "リボーク" in alert, alert
    assert "did not follow" not in alert and "revoke" not in alert, alert
    # The card and the colour not followed are said as the table says them, not by their ids.
    if game == "wizard":
        assert "7♥" in alert and "7H" not in alert, alert
    else:
        assert "赤 4" in alert and "red" not in alert, alert
    assert phone.problems == []


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_every_value_the_page_offers_in_a_random_playout_is_recorded_by_the_rules(
    site: str, phone: Watched, game: str
) -> None:
    players, setup, options, _, _ = MATCHES[game]
    rng = random.Random(f"{game}-7")
    match = start(site, game, {"players": players, "setup": setup, "options": options})
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    for _ in range(RANDOM_TAPS):
        settled(page)
        if page.text_content("#turn") == "The match is over.":
            break
        before = page.get_attribute("#recorder", "data-version")
        tap_random(page, rng, OPTIONAL.get(game, ()))
        moved_on(page, before)
    no_sideways_scrolling(page)
    assert phone.problems == []
