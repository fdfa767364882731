"""Each game's board shows what its view says at the step, in a real Chromium."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests

from tests.web.conftest import open_viewer, record, record_seed

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
Frame = dict[str, Any]


def open_at(site: str, page: Any, game: str, seed: int, wanted: Callable[[Frame], bool]) -> Frame:
    """Record a game's example, open its viewer at the first step ``wanted`` picks, return that frame."""
    match = record_seed(site, game, seed)
    frames = requests.get(f"{site}/v1/matches/{match.id}/replay", params={"limit": 1000}, timeout=30).json()
    frame = next(f for f in frames["frames"] if wanted(f))
    open_viewer(page, site, match.id, frame["step"])
    return dict(frame)


def test_wizard_shows_the_trick_on_the_table_the_bids_and_the_recorded_hands(site: str, page: Any) -> None:
    frame = open_at(site, page, "wizard", 1, lambda f: len(f["state"]["trick"]) >= 2 and f["state"]["hands"])
    state = frame["state"]
    assert page.locator("#board .trick li").count() == len(state["trick"])
    assert page.locator("#board .hands li").count() == len(state["hands"])
    rows = page.locator("#board table.grid tbody tr")
    assert rows.count() == len(state["players"])
    for i, player in enumerate(state["players"]):
        assert rows.nth(i).locator("td").last.text_content() == str(state["totals"][player])


def test_the_hobbit_shows_each_characters_health_and_the_trick(site: str, page: Any) -> None:
    frame = open_at(site, page, "hobbit", 0, lambda f: len((f["state"]["trick"] or {}).get("plays", [])) == 2)
    state = frame["state"]
    assert page.locator("#board .trick li").count() == 2
    text = page.text_content("#board table.grid")
    for character in state["characters"].values():
        assert f"{character['health']}/{character['health'] + character['damage']}" in text


def test_hats_shows_every_space_of_the_tea_table_and_the_black_hats(site: str, page: Any) -> None:
    frame = open_at(site, page, "hats", 0, lambda f: f["event"]["type"] == "BlackHatMade" and f["step"] > 5)
    state = frame["state"]
    assert page.locator("#board .tea-table .space").count() == len(state["tea_table"])
    rows = page.locator("#board table.grid tbody tr")
    for i, player in enumerate(state["players"]):
        black_hats = rows.nth(i).locator("td").nth(1).text_content()
        assert black_hats == str(state["collections"][player]["black_hats"])


def test_the_other_hat_trick_shows_seven_places_with_what_is_still_possible(site: str, page: Any) -> None:
    def unsure(frame: Frame) -> bool:
        props = frame["state"]["props"]
        places = [p for name, two in props.items() if name != "middle" for p in two] + [props["middle"]]
        return any(p["prop"] is None for p in places)

    frame = open_at(site, page, "other-hat-trick", 0, unsure)
    assert page.locator("#board .places .place").count() == 7
    assert "could be" in page.text_content("#board .places")
    # Tricks are named by their printed titles, never by their ids.
    pile = page.locator("#board .pile li").all_text_contents()
    titles = frame["state"]["titles"]
    assert [item.removesuffix("top") for item in pile] == [titles[t] for t in frame["state"]["pile"]]


def frames_of(site: str, page: Any) -> list[Frame]:
    """The frames of the match the page shows, newest last."""
    match_id = page.get_attribute("#viewer", "data-match")
    frames = requests.get(f"{site}/v1/matches/{match_id}/replay", params={"limit": 1000}, timeout=30).json()
    return list(frames["frames"])


def test_hat_trick_shows_each_judged_stack_with_the_reasons_of_its_verdict(site: str, page: Any) -> None:
    def judged(frame: Frame) -> bool:
        return frame["event"]["type"] == "DeclarationJudged" and bool(frame["event"]["data"]["reasons"])

    frame = open_at(site, page, "hat-trick", 1, judged)
    data = frame["event"]["data"]
    verdict = page.locator("#board .verdict").last
    assert data["player"] in verdict.text_content()
    assert data["reasons"][0]["message"] in verdict.text_content()
    assert "Stack:" in verdict.text_content()
    # The stack is drawn: one box per prop placed, what is in a prop inside its box.
    stack = next(
        f
        for f in frames_of(site, page)
        if f["event"]["type"] == "DeclarationMade"
        and f["step"] < frame["step"]
        and f["event"]["data"]["player"] == data["player"]
    )["event"]["data"]["stack"]
    assert verdict.locator(".drawn-stack .prop-box").count() == len(stack)
    for place in (p for p in stack if "in" in p):
        assert verdict.locator(f".prop-{place['in']} .inside .prop-{place['prop']}").count() == 1


def test_a_secret_wizard_bid_stays_hidden_on_the_page(site: str, page: Any) -> None:
    script = {"players": ["ann", "bob"], "setup": {"first_dealer": "ann"}, "options": {"bidding": "secret"}}
    match = record(site, "wizard", {**script, "actions": []})
    match.act(site, {"type": "start_round", "trump_card": "7H"})
    match.act(site, {"type": "bid", "player": "bob", "tricks": 1})
    open_viewer(page, site, match.id)
    bob = page.locator("#board table.grid tbody tr").nth(1)
    assert bob.locator("td").first.text_content() == "hidden"
    assert "bob bids (hidden until revealed)" in page.text_content("#events")
    assert "bids 1" not in page.text_content("body")


def test_a_wizard_round_just_over_shows_its_last_trick_and_no_trick_past_it(site: str, page: Any) -> None:
    def last_trick_won(frame: Frame) -> bool:
        event = frame["event"]
        return event["type"] == "TrickWon" and event["data"]["trick"] == frame["state"]["round"] > 1

    frame = open_at(site, page, "wizard", 3, last_trick_won)
    last = frame["state"]["round"]
    headings = page.locator("#board h3").all_text_contents()
    assert not any(h.startswith(f"Trick {last + 1}") for h in headings), headings
    assert f"Trick {last} was:" in page.text_content("#board")
