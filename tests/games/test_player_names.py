"""A player's name is one person however it is typed: NFC stored, compared by NFKC with case
folding, and invisible or text-direction control characters refused (games/players.py)."""

from __future__ import annotations

import unicodedata

import pytest

from games.contract import InvalidAction
from games.players import find_player, name_key
from games.registry import all_games, get_game
from games.validation import validate_action, validate_match

WIZARD = get_game("wizard")
NFC_ZOE = unicodedata.normalize("NFC", "Zoë")
NFD_ZOE = unicodedata.normalize("NFD", "Zoë")


def seats(*players: str) -> list[str]:
    names, _, _ = validate_match(WIZARD, list(players), {"first_dealer": players[0]}, {})
    return names


@pytest.mark.parametrize(
    ("first", "second"),
    [("ann", "ａｎｎ"), (NFC_ZOE, NFD_ZOE), ("ann", "ANN"), ("Ⅸ", "ix"), ("ﬁona", "Fiona")],
    ids=["full-width", "nfd", "case", "roman-numeral", "ligature"],
)
def test_two_seats_that_are_one_name_are_refused_with_a_sentence_naming_both(first: str, second: str) -> None:
    for game in all_games().values():
        players = [first, second] + ["cy", "dee", "eve"][: max(0, game.min_players - 2)]
        with pytest.raises(InvalidAction) as refused:
            validate_match(game, players, {}, {})
        assert refused.value.code == "invalid_players"
        stored = unicodedata.normalize("NFC", second)
        assert repr(first) in refused.value.message and repr(stored) in refused.value.message


def test_a_name_is_stored_in_nfc() -> None:
    assert seats(NFD_ZOE, "bob") == [NFC_ZOE, "bob"]


def test_an_action_naming_a_player_in_another_form_is_taken_as_that_player() -> None:
    players = seats(NFC_ZOE, "ａｎｎ")
    assert find_player(players, NFD_ZOE) == NFC_ZOE
    assert find_player(players, "ANN") == "ａｎｎ"
    state: dict = {}
    for new in WIZARD.setup(
        players, {"first_dealer": NFC_ZOE}, {"bidding": "clockwise", "canadian_rule": False}
    ):
        state = WIZARD.evolve(state, new)
    for action in (
        {"type": "start_round", "trump_card": "7H"},
        {"type": "bid", "player": "Ann", "tricks": 0},
    ):
        events = WIZARD.decide(state, validate_action(WIZARD, action))
        for new in events:
            state = WIZARD.evolve(state, new)
    assert events[0]["data"]["player"] == "ａｎｎ"


@pytest.mark.parametrize(
    ("name", "code_point"),
    [
        ("an\u200bn", "U+200B"),
        ("\u202eann", "U+202E"),
        ("bob\u2066", "U+2066"),
        ("\ufeffcy", "U+FEFF"),
        ("d\u200dee", "U+200D"),
    ],
)
def test_invisible_and_text_direction_characters_in_a_name_are_refused(name: str, code_point: str) -> None:
    with pytest.raises(InvalidAction) as refused:
        seats(name, "zed")
    assert refused.value.code == "invalid_players" and code_point in refused.value.message
    assert "invisible or text-direction" in refused.value.message


def test_the_name_key_folds_case_width_and_unicode_forms_only() -> None:
    assert name_key("ＡＮＮ") == name_key("ann") == name_key(" Ann ")
    assert name_key(NFD_ZOE) == name_key(NFC_ZOE) == name_key("ZOË")
    assert name_key("Zoe") != name_key("Zoë") and name_key("李") != name_key("季")
