"""What ``legal`` offers in positions whose legal choices the rules name exactly, one game at a time."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from games.contract import Game
from games.legal import Entry, build
from games.registry import get_game
from tests.games.test_legal import takes
from tests.support import games as support
from tests.support.offers import honours

State = dict[str, Any]


def position(
    game_id: str, players: list[str], setup: dict[str, Any], *actions: dict[str, Any], **options: Any
) -> State:
    """The state after creating a match and recording ``actions``."""
    game = get_game(game_id)
    return support.run(game, support.create(game, players, setup, options), actions)


def offered(game: Game, state: State, kind: str, player: str | None = None, hidden: bool = True) -> Entry:
    """The entry of ``kind`` (for ``player``) that ``legal`` offers."""
    assert game.legal is not None
    found = [
        e
        for e in game.legal(state, hidden)["actions"]
        if e["type"] == kind and (player is None or e["fixed"].get("player") == player)
    ]
    assert len(found) == 1, found
    return found[0]


def kinds(game: Game, state: State) -> set[str]:
    """The action types offered now."""
    assert game.legal is not None
    return {e["type"] for e in game.legal(state, True)["actions"]}


# --- Wizard ----------------------------------------------------------------------------------

WIZARD = get_game("wizard")


def test_after_a_turned_wizard_only_the_dealer_chooses_one_of_the_four_suits() -> None:
    state = position(
        "wizard",
        ["ann", "bob", "cy"],
        {"first_dealer": "bob"},
        {"type": "start_round", "trump_card": "wizard"},
    )
    assert kinds(WIZARD, state) == {"choose_trump"}
    choose = offered(WIZARD, state, "choose_trump")
    assert choose["fixed"] == {"player": "bob"} and choose["fields"][0]["values"] == ["S", "H", "D", "C"]


def test_the_last_round_turns_no_card() -> None:
    whole = {"bids": {"ann": 0, "bob": 0}, "tricks": {"ann": 0, "bob": 0}}
    rounds = [
        {"type": "record_round", "bids": whole["bids"], "tricks": {"ann": n, "bob": 0}} for n in range(1, 30)
    ]
    state = position("wizard", ["ann", "bob"], {"first_dealer": "ann"}, *rounds)
    start = offered(WIZARD, state, "start_round")
    assert start["fields"][0] == {"name": "trump_card", "values": [None]}


def test_a_wizard_and_a_jester_stay_offered_until_all_four_copies_are_seen() -> None:
    state = position(
        "wizard",
        ["ann", "bob", "cy", "dee"],
        {"first_dealer": "dee"},
        {
            "type": "record_round",
            "bids": {p: 0 for p in ("ann", "bob", "cy", "dee")},
            "tricks": {"ann": 1, "bob": 0, "cy": 0, "dee": 0},
        },
        {
            "type": "record_round",
            "bids": {p: 0 for p in ("ann", "bob", "cy", "dee")},
            "tricks": {"ann": 2, "bob": 0, "cy": 0, "dee": 0},
        },
        {"type": "start_round", "trump_card": "wizard"},
        {"type": "choose_trump", "suit": "S"},
        *({"type": "bid", "player": p, "tricks": 0} for p in ("cy", "dee", "ann", "bob")),
        {"type": "play", "player": "cy", "card": "wizard"},
        {"type": "play", "player": "dee", "card": "wizard"},
        {"type": "play", "player": "ann", "card": "wizard"},
    )
    # The turned one and three played: bob cannot hold a fifth.
    cards = offered(WIZARD, state, "play", "bob")["fields"][0]["values"]
    assert "wizard" not in cards and "jester" in cards and "2S" in cards


# --- The Hobbit ------------------------------------------------------------------------------

HOBBIT = get_game("hobbit")


def hobbit_trick(winner_character: str, **options: Any) -> State:
    """Three players; ann (``winner_character``) wins the first trick with purple-12."""
    others = {"bilbo": ("smaug", "bolg"), "smaug": ("bilbo", "thorin")}.get(
        winner_character, ("bilbo", "smaug")
    )
    characters = {"ann": winner_character, "bob": others[0], "cy": others[1]}
    return position(
        "hobbit",
        ["ann", "bob", "cy"],
        {"characters": characters},
        {"type": "start_round", "leader": "ann"},
        {"type": "play", "player": "ann", "card": "purple-12", "mark": "light"},
        {"type": "play", "player": "bob", "card": "red-3", "mark": "dark"},
        {"type": "play", "player": "cy", "card": "red-4", "mark": "pipe"},
        **options,
    )


def receivers(choice: dict[str, str]) -> list[str]:
    """Who a distribution gives a card to, discards left out, sorted."""
    return sorted(to for to in choice.values() if to != "discard")


def test_bilbo_gives_one_card_to_himself_and_one_to_another_player() -> None:
    choices = offered(HOBBIT, hobbit_trick("bilbo"), "distribute", None)["choices"]
    assert len(choices) == 3 * 2 * 2  # his card, the other's card, which other player
    assert all(receivers(c) in (["ann", "bob"], ["ann", "cy"]) for c in choices)


def test_thorin_gives_each_living_player_one_card() -> None:
    choices = offered(HOBBIT, hobbit_trick("thorin"), "distribute", None)["choices"]
    assert len(choices) == 6 and all(receivers(c) == ["ann", "bob", "cy"] for c in choices)


def test_the_free_distribution_gives_every_card_to_someone() -> None:
    entry = offered(HOBBIT, hobbit_trick("bilbo", distribution="free"), "distribute", None)
    assert len(entry["choices"]) == 27 and all(f["values"] == ["ann", "bob", "cy"] for f in entry["fields"])


def test_a_card_not_seen_yet_may_show_any_mark_and_a_card_played_is_not_offered_again() -> None:
    state = position(
        "hobbit",
        ["ann", "bob", "cy"],
        {"characters": {"ann": "bilbo", "bob": "smaug", "cy": "bolg"}},
        {"type": "start_round", "leader": "ann"},
        {"type": "play", "player": "ann", "card": "purple-12", "mark": "light"},
    )
    choices = offered(HOBBIT, state, "play", "bob")["choices"]
    assert {c["mark"] for c in choices if c["card"] == "red-3"} == {"light", "dark", "pipe"}
    assert all(c["card"] != "purple-12" for c in choices)


def test_with_every_mark_known_a_card_is_offered_alone_and_played_with_the_mark_the_table_says() -> None:
    example = HOBBIT.example(0)
    state = position("hobbit", example["players"], example["setup"], {"type": "start_round", "leader": "ann"})
    entry = offered(HOBBIT, state, "play", "ann")
    # One tap in the recorder: no mark to pick when the match's mark table has it.
    assert [f["name"] for f in entry["fields"]] == ["card"] and "choices" not in entry
    card = entry["fields"][0]["values"][0]
    events = HOBBIT.decide(state, {"type": "play", "player": "ann", "card": card})
    played = [e["data"]["mark"] for e in events if e["type"] == "CardPlayed"]
    assert played == [example["setup"]["marks"][card]]


# --- Hats ------------------------------------------------------------------------------------

HATS = get_game("hats")
FOUR = {"start_player": "ann", "table": ["red-1", "orange-1", "yellow-1", "green-1", "blue-1", "purple-1"]}


def test_partners_trade_instead_of_redrawing_and_only_with_four_players() -> None:
    four = position("hats", ["ann", "bob", "cy", "dee"], FOUR)
    assert {"swap", "black_hat", "redraw", "partner_trade"} <= kinds(HATS, four)
    alone = position("hats", ["ann", "bob", "cy", "dee"], FOUR, partners=False)
    assert "partner_trade" not in kinds(HATS, alone)
    traded = position("hats", ["ann", "bob", "cy", "dee"], FOUR, {"type": "partner_trade", "player": "ann"})
    assert {"redraw", "partner_trade"}.isdisjoint(kinds(HATS, traded))


def test_after_a_play_the_next_player_may_act_and_the_last_may_still_redraw() -> None:
    state = position("hats", ["ann", "bob", "cy", "dee"], FOUR, {"type": "black_hat", "player": "ann"})
    assert HATS.legal is not None
    assert HATS.legal(state, True)["to_act"] == ["ann", "bob"]
    assert kinds(HATS, state) >= {"redraw", "swap", "black_hat"}
    assert all(
        e["type"] in ("redraw", "partner_trade")
        for e in HATS.legal(state, True)["actions"]
        if e["fixed"]["player"] == "ann"
    )


# --- The Other Hat Trick ---------------------------------------------------------------------

OTHER = get_game("other-hat-trick")


def test_a_perform_offers_only_props_that_do_the_trick() -> None:
    state = position(
        "other-hat-trick",
        ["ann", "bob", "cy"],
        {"first_player": "ann", "first_trick": "bunch-of-carrots"},
        {"type": "swap", "player": "ann", "slot": 0, "with_player": "bob", "with_slot": 1},
    )
    pairs = offered(OTHER, state, "perform", "ann")["fields"][0]["values"]
    assert pairs == [["carrot", "carrot"]]
    assert offered(OTHER, state, "fail", "ann")["choices"]


# --- Hat Trick -------------------------------------------------------------------------------

HAT_TRICK = get_game("hat-trick")


def test_only_the_first_declaration_without_a_stack_is_judged_by_the_table() -> None:
    state = position(
        "hat-trick",
        ["ann", "bob", "cy"],
        {},
        {"type": "reveal", "card": 7, "colour": ["hat"], "grey": ["coin"]},
        {"type": "declare", "player": "bob"},
        {"type": "declare", "player": "cy"},
    )
    assert offered(HAT_TRICK, state, "judge")["fixed"] == {"player": "bob"}
    assert HAT_TRICK.legal is not None
    offers = HAT_TRICK.legal(state, True)["actions"]
    assert [e["fixed"]["player"] for e in offers if e["type"] == "declare"] == ["ann"]
    reveal_again = kinds(HAT_TRICK, state)
    assert "reveal" not in reveal_again and "abandon_round" in reveal_again


@pytest.mark.parametrize("stars", ["off", "contain"])
def test_the_reveal_states_as_data_exactly_which_cards_exist(stars: str) -> None:
    # Every way of marking each prop colour, grey or absent, and of starring some of the props
    # on a card: the rules take a reveal exactly when the bonds the entry states hold, so a
    # recorder that reads them never offers Send for a card the rules refuse.
    state = position("hat-trick", ["ann", "bob"], {}, stars=stars)
    found = offered(HAT_TRICK, state, "reveal")
    assert found["together"] == {"fields": ["colour", "grey"], "min": 1}
    assert ("within" in found) == (stars != "off")
    props = [v for f in found["fields"] if f["name"] == "colour" for v in f["values"]]
    checked = 0
    for marks in product(["colour", "grey", None], repeat=len(props)):
        shown = [p for p, m in zip(props, marks, strict=True) if m]
        for stars_on in product([False, True], repeat=len(props) if stars != "off" else 0):
            chosen: dict[str, Any] = {"card": 9}
            for place in ("colour", "grey"):
                if any(m == place for m in marks):
                    chosen[place] = [p for p, m in zip(props, marks, strict=True) if m == place]
            starred = [p for p, on in zip(props, stars_on, strict=False) if on]
            if starred:
                chosen["starred"] = starred
            assert honours(found, chosen) == takes(HAT_TRICK, state, build(found, chosen)), (chosen, shown)
            checked += 1
    assert checked == 3 ** len(props) * (2 ** len(props) if stars != "off" else 1)
