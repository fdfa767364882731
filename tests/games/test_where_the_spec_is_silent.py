"""Decisions the rule documents leave open, each held by a test (the games' docs say them too):
the rest are held in the games' own test files, listed in docs/games/*.md."""

from __future__ import annotations

import pytest
from hobbit_table import Table, of_type

from games.contract import RuleViolation
from games.registry import get_game
from games.validation import validate_match

WIZARD = get_game("wizard")


def test_one_trick_that_wipes_out_both_sides_with_equal_damage_dealt_is_a_draw() -> None:
    t = Table({"ann": "bilbo", "bob": "smaug"}, distribution="free")
    t.start("ann")
    events = []
    for light, dark in [("yellow-1", "green-2"), ("yellow-3", "green-4")]:
        t.trick(light, dark)  # the light card harms smaug (evil), the dark one bilbo (good)
        events = t.give(**{light.replace("-", "_"): "bob", dark.replace("-", "_"): "ann"})
    assert [e["player"] for e in of_type(events, "PlayerEliminated")] == ["ann", "bob"]
    assert t.scores["damage_dealt"] == {"good": 2, "evil": 2}
    assert (t.scores["reason"], t.scores["winners"], t.scores["finished"]) == ("draw", [], True)


@pytest.mark.parametrize("bidding", ["simultaneous", "secret"])
def test_the_canadian_rule_with_hidden_bids_is_refused_with_the_reason(bidding: str) -> None:
    players, setup, options = validate_match(
        WIZARD, ["ann", "bob", "cy"], {"first_dealer": "ann"}, {"bidding": bidding, "canadian_rule": True}
    )
    with pytest.raises(RuleViolation) as refused:
        WIZARD.setup(players, setup, options)
    assert refused.value.code == "options_conflict"
    message = refused.value.message
    assert "dealer, who bids last" in message and f"with {bidding} bidding nobody bids last" in message
