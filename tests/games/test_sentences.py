"""Schema errors as sentences: the field, what it holds and what would be right, never the validator's
own words; the validator's details are kept for programs."""

from __future__ import annotations

import pytest

from games.contract import InvalidAction
from games.registry import get_game
from games.validation import validate_action, validate_match


def _refusal(game: str, action: dict[str, object]) -> InvalidAction:
    with pytest.raises(InvalidAction) as refused:
        validate_action(get_game(game), action)
    return refused.value


def test_a_card_written_with_a_space_is_explained_with_how_cards_are_written() -> None:
    refusal = _refusal("hats", {"type": "swap", "player": "ann", "card": "red 4", "space": 1})
    assert refusal.message.startswith("'red 4' is not written as 'card' takes it: ")
    assert "does not match" not in refusal.message and "^" not in refusal.message
    assert refusal.extra["errors"][0]["path"] == ["card"]
    assert refusal.extra["errors"][0]["validator"] == "pattern"


def test_an_unknown_field_names_the_fields_the_place_takes() -> None:
    stack = [{"prop": "hat", "under": "table"}]
    refusal = _refusal("hat-trick", {"type": "declare", "player": "ann", "stack": stack})
    assert refusal.message.startswith("unexpected field 'under' in 'stack[0]': it takes 'prop', 'in', 'on'")
    assert "Additional properties" not in refusal.message


def test_a_missing_field_is_named() -> None:
    refusal = _refusal("wizard", {"type": "record_round", "tricks": {}})
    assert refusal.message == "the action record_round needs the field 'bids'"
    assert refusal.extra["errors"][0]["validator"] == "required"


def test_an_option_out_of_its_choices_lists_them() -> None:
    with pytest.raises(InvalidAction) as refused:
        validate_match(get_game("wizard"), ["ann", "bob", "cy"], {"first_dealer": "ann"}, {"bidding": "loud"})
    assert refused.value.message.startswith("'loud' is not a choice for 'bidding': choose 'clockwise'")
