"""A recorded hand the reader may not see shows on the board as its number of cards, in Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from games.registry import all_games
from tests.web.conftest import open_viewer, record

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_hidden_hand_shows_as_its_number_of_cards_and_none_of_them(site: str, page: Any) -> None:
    hats = {k: v for k, v in all_games()["hats"].example(0).items() if k != "actions"}
    match = record(site, "hats", {**hats, "actions": []})
    open_viewer(page, site, match.id)
    body = page.text_content("body") or ""
    assert "9 cards" in body
    assert not [card for card in hats["setup"]["hands"]["ann"] if card in body]

    script = {"players": ["ann", "bob"], "setup": {"first_dealer": "ann"}, "options": {}}
    wizard = record(site, "wizard", {**script, "actions": []})
    wizard.act(site, {"type": "record_round", "bids": {"ann": 0, "bob": 0}, "tricks": {"ann": 1, "bob": 0}})
    deal = {"ann": ["3H", "4H"], "bob": ["AS", "KS"]}
    wizard.act(site, {"type": "start_round", "trump_card": "7C", "hands": deal})
    open_viewer(page, site, wizard.id)
    hands = page.text_content("#board .hands") or ""
    assert hands.count("2 cards") == 2
    assert not [card for cards in deal.values() for card in cards if card in hands]
