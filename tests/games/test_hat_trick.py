"""Hat Trick, the stacking game: every rule and every catch of the spec, through the contract."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.contract import InvalidAction
from games.registry import all_games, get_game
from games.validation import validate_match
from tests.support import games as support

GAME = get_game("hat-trick")
State = dict[str, Any]


# --- helpers: a match driven through the public contract -------------------------------------


def start(players: tuple[str, ...] = ("ann", "bob", "cy"), **options: Any) -> State:
    """A new match, its options checked and filled in like the service does."""
    return support.create(GAME, list(players), {}, options)


def act(state: State, **action: Any) -> tuple[State, list[dict[str, Any]]]:
    """Record one action; return the new state and the events it caused."""
    return support.act(GAME, state, action)


def refused(state: State, code: str, **action: Any) -> str:
    """The message of the rule that refuses the action (asserting its code)."""
    return support.refused(GAME, state, action, code).message


def shape_error(**action: Any) -> InvalidAction:
    """The shape error validation finds in an action."""
    return support.shape_error(GAME, action)


def stack(text: str) -> list[dict[str, str]]:
    """'goblet on table, tube in goblet' -> [{"prop": "goblet", "on": "table"}, ...]."""
    placements = []
    for part in text.split(","):
        prop, relation, under = part.split()
        placements.append({"prop": prop, relation: under})
    return placements


def card(colour: str, grey: str = "") -> dict[str, list[str]]:
    """'hat* rabbit', 'coin' -> the card's colour, grey and starred (a * marks a star)."""
    colours, greys = colour.split(), grey.split()
    return {
        "colour": [p.rstrip("*") for p in colours],
        "grey": [p.rstrip("*") for p in greys],
        "starred": [p.rstrip("*") for p in colours + greys if p.endswith("*")],
    }


def revealed(state: State, number: int = 1, colour: str = "hat", grey: str = "rabbit") -> State:
    """The state with a card in play."""
    return act(state, type="reveal", card=number, **card(colour, grey))[0]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


HAT_OVER_RABBIT = stack("hat on table, rabbit in hat")
RABBIT_ON_HAT = stack("hat on table, rabbit on hat")


# --- registration and setup ------------------------------------------------------------------


def test_the_registry_lists_hat_trick_with_its_actions_setup_and_options() -> None:
    described = all_games()["hat-trick"].describe()
    assert set(described["actions"]) == {"reveal", "declare", "judge", "abandon_round"}
    assert described["players"] == {"min": 2, "max": 4}
    assert {name: p["default"] for name, p in described["options"]["properties"].items()} == {
        "target": 5,
        "full_deck": False,
        "stars": "off",
    }


def test_a_match_starts_with_match_created_and_the_default_options() -> None:
    names, setup, options = validate_match(GAME, ["ann", "bob"], None, None)
    events = GAME.setup(names, setup, options)
    assert events == [
        {
            "type": "MatchCreated",
            "data": {
                "players": ["ann", "bob"],
                "setup": {},
                "options": {"target": 5, "full_deck": False, "stars": "off"},
            },
        }
    ]


@pytest.mark.parametrize(
    "options",
    [{"target": 0}, {"target": 56}, {"stars": "always"}, {"full_deck": "yes"}, {"jokers": 1}],
)
def test_options_out_of_range_are_refused_as_bad_input(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidAction) as caught:
        validate_match(GAME, ["ann", "bob"], {}, options)
    assert caught.value.code == "invalid_options"


def test_any_target_from_1_to_55_is_accepted() -> None:
    assert start(target=1)["options"]["target"] == 1
    assert start(target=55)["options"]["target"] == 55


def test_setup_takes_no_facts() -> None:
    with pytest.raises(InvalidAction) as caught:
        validate_match(GAME, ["ann", "bob"], {"first_player": "ann"}, {})
    assert caught.value.code == "invalid_setup"


# --- reveal ----------------------------------------------------------------------------------


def test_a_revealed_card_opens_a_round_for_every_player() -> None:
    state = revealed(start(), 7, colour="hat", grey="rabbit")
    shown = GAME.view(state)
    assert shown["phase"] == "build"
    assert shown["card"] == {"card": 7, "colour": ["hat"], "grey": ["rabbit"], "starred": []}
    assert shown["to_act"] == shown["in_round"] == ["ann", "bob", "cy"]
    assert shown["cards_revealed"] == 1 and shown["cards_left"] == 54


def test_a_card_is_recorded_with_its_props_in_canonical_order() -> None:
    state, events = act(start(), type="reveal", card=3, colour=["hat", "coin"], grey=["rabbit"])
    assert events[0]["data"] == {
        "card": 3,
        "colour": ["coin", "hat"],
        "grey": ["rabbit"],
        "starred": [],
    }


def test_a_card_may_show_props_in_colour_only_or_grey_only() -> None:
    assert act(start(), type="reveal", card=1, colour=["hat"])[0]["round"] is not None
    assert act(start(), type="reveal", card=1, grey=["coin"])[0]["round"] is not None


def test_a_card_number_is_revealed_once_per_match() -> None:
    state, _ = act(revealed(start(), 9), type="abandon_round")
    message = refused(state, "card_already_revealed", type="reveal", card=9, colour=["hat"])
    assert "9" in message


def test_a_card_cannot_be_revealed_while_another_is_in_play() -> None:
    message = refused(revealed(start(), 4), "round_in_progress", type="reveal", card=5, colour=["hat"])
    assert "card 4" in message


def test_a_prop_cannot_be_both_in_colour_and_in_grey() -> None:
    message = refused(
        start(), "colour_and_grey", type="reveal", card=1, colour=["hat", "coin"], grey=["coin"]
    )
    assert "coin" in message


def test_a_card_must_show_at_least_one_prop() -> None:
    refused(start(), "empty_card", type="reveal", card=1, colour=[], grey=[])
    refused(start(), "empty_card", type="reveal", card=1)


def test_stars_are_refused_when_the_match_plays_without_them() -> None:
    message = refused(start(), "stars_off", type="reveal", card=1, colour=["hat"], starred=["hat"])
    assert "hat" in message and "stars" in message


@pytest.mark.parametrize("stars", ["contain", "empty"])
def test_stars_are_recorded_when_the_match_plays_with_them(stars: str) -> None:
    state = revealed(start(stars=stars), colour="hat*", grey="rabbit")
    assert GAME.view(state)["card"]["starred"] == ["hat"]


def test_a_star_must_sit_on_a_prop_of_the_card() -> None:
    message = refused(
        start(stars="contain"),
        "star_off_card",
        type="reveal",
        card=1,
        colour=["hat"],
        starred=["goblet"],
    )
    assert "goblet" in message


@pytest.mark.parametrize(
    "fields",
    [
        {"card": 0, "colour": ["hat"]},
        {"card": 56, "colour": ["hat"]},
        {"card": "7", "colour": ["hat"]},
        {"colour": ["hat"]},
        {"card": 1, "colour": ["wand"]},
        {"card": 1, "colour": ["Hat"]},
        {"card": 1, "colour": ["hat", "hat"]},
        {"card": 1, "colour": ["hat"], "shiny": True},
    ],
)
def test_a_badly_shaped_card_is_bad_input(fields: dict[str, Any]) -> None:
    assert shape_error(type="reveal", **fields).code == "invalid_action"


# --- declare ---------------------------------------------------------------------------------


def test_nobody_can_declare_before_a_card_is_revealed() -> None:
    refused(start(), "no_card_in_play", type="declare", player="ann")


def test_an_unknown_player_cannot_declare() -> None:
    message = refused(revealed(start()), "unknown_player", type="declare", player="zed")
    assert "zed" in message and "ann, bob, cy" in message


def test_a_player_name_is_matched_ignoring_case_and_recorded_canonically() -> None:
    _, events = act(revealed(start()), type="declare", player="ANN")
    assert events[0]["data"] == {"player": "ann", "stack": None}


def test_a_declaration_with_a_passing_stack_wins_the_card_at_once() -> None:
    state, events = act(revealed(start(), 12), type="declare", player="bob", stack=HAT_OVER_RABBIT)
    assert types(events) == ["DeclarationMade", "DeclarationJudged", "CardWon"]
    assert events[1]["data"] == {
        "player": "bob",
        "verdict": "pass",
        "by": "tabletape",
        "reasons": [],
    }
    assert events[2]["data"] == {"player": "bob", "card": 12}
    assert GAME.view(state)["cards_won"] == {"ann": [], "bob": [12], "cy": []}
    assert GAME.view(state)["phase"] == "reveal" and GAME.view(state)["to_act"] == []


def test_a_declared_stack_is_recorded_bottom_up() -> None:
    given = stack("rabbit in tube, tube in goblet, goblet on table")
    state = revealed(start(), colour="goblet", grey="tube rabbit")
    _, events = act(state, type="declare", player="ann", stack=given)
    assert events[0]["data"]["stack"] == stack("goblet on table, tube in goblet, rabbit in tube")


def test_a_failed_stack_puts_the_player_out_with_every_failed_requirement() -> None:
    state, events = act(revealed(start()), type="declare", player="ann", stack=RABBIT_ON_HAT)
    assert types(events) == ["DeclarationMade", "DeclarationJudged"]
    assert events[1]["data"]["verdict"] == "fail"
    assert [r["message"] for r in events[1]["data"]["reasons"]] == [
        "the rabbit must be hidden but stands on top of the hat"
    ]
    assert events[1]["data"]["reasons"][0]["requirement"] == "grey_hidden"
    shown = GAME.view(state)
    assert shown["in_round"] == ["bob", "cy"] and shown["out"] == ["ann"]
    assert shown["to_act"] == ["bob", "cy"]
    assert shown["judgements"][0]["player"] == "ann"


def test_a_player_who_failed_is_out_until_the_next_card() -> None:
    state, _ = act(revealed(start(), 1), type="declare", player="ann", stack=RABBIT_ON_HAT)
    assert "ann" in refused(state, "player_out", type="declare", player="ann")
    state, _ = act(state, type="abandon_round")
    state = revealed(state, 2)
    assert GAME.view(state)["in_round"] == ["ann", "bob", "cy"]
    assert act(state, type="declare", player="ann", stack=HAT_OVER_RABBIT)[0]["won"]["ann"] == [2]


def test_a_player_waiting_to_be_judged_cannot_declare_again() -> None:
    state, _ = act(revealed(start()), type="declare", player="ann")
    refused(state, "already_declared", type="declare", player="ann", stack=HAT_OVER_RABBIT)


def test_a_declaration_without_a_stack_waits_for_the_tables_judgement() -> None:
    state, events = act(revealed(start()), type="declare", player="ann")
    assert types(events) == ["DeclarationMade"]
    shown = GAME.view(state)
    assert shown["phase"] == "judge" and shown["awaiting_judgement"] == "ann"
    assert shown["queue"] == [{"player": "ann", "stack": None}]
    assert shown["to_act"] == ["bob", "cy"]


def test_a_stack_declared_behind_a_waiting_declaration_waits_its_turn() -> None:
    state, _ = act(revealed(start()), type="declare", player="ann")
    state, events = act(state, type="declare", player="bob", stack=HAT_OVER_RABBIT)
    assert types(events) == ["DeclarationMade"]
    assert [entry["player"] for entry in GAME.view(state)["queue"]] == ["ann", "bob"]


def test_declarations_are_judged_in_the_order_they_were_made() -> None:
    state, _ = act(revealed(start(), 5), type="declare", player="ann")
    state, _ = act(state, type="declare", player="bob", stack=RABBIT_ON_HAT)
    state, _ = act(state, type="declare", player="cy", stack=HAT_OVER_RABBIT)
    state, events = act(state, type="judge", player="ann", verdict="fail")
    assert [(e["type"], e["data"].get("player")) for e in events] == [
        ("DeclarationJudged", "ann"),
        ("DeclarationJudged", "bob"),
        ("DeclarationJudged", "cy"),
        ("CardWon", "cy"),
    ]
    assert [e["data"]["by"] for e in events[:3]] == ["table", "tabletape", "tabletape"]


def test_a_pass_ends_the_round_and_later_declarations_are_not_judged() -> None:
    state, _ = act(revealed(start(), 5), type="declare", player="ann")
    state, _ = act(state, type="declare", player="bob", stack=HAT_OVER_RABBIT)
    state, events = act(state, type="judge", player="ann", verdict="pass")
    assert types(events) == ["DeclarationJudged", "CardWon"]
    assert GAME.scores(state)["totals"] == {"ann": 1, "bob": 0, "cy": 0}
    last = GAME.view(state)["last_round"]
    assert last["winner"] == "ann" and [j["player"] for j in last["judgements"]] == ["ann"]


def test_when_every_player_has_failed_the_card_is_discarded() -> None:
    state, _ = act(revealed(start(("ann", "bob")), 8), type="declare", player="ann")
    state, _ = act(state, type="declare", player="bob", stack=RABBIT_ON_HAT)
    state, events = act(state, type="judge", player="ann", verdict="fail")
    assert types(events) == ["DeclarationJudged", "DeclarationJudged", "CardDiscarded"]
    assert events[-1]["data"] == {"card": 8, "reason": "all_failed"}
    assert GAME.scores(state)["totals"] == {"ann": 0, "bob": 0}
    assert GAME.scores(state)["discarded"] == [8]
    assert GAME.view(state)["phase"] == "reveal"


@pytest.mark.parametrize(
    ("text", "code", "names"),
    [
        ("hat on table, goblet in tube", "prop_too_large", ["goblet", "tube"]),
        ("tube on table, hat in tube", "prop_too_large", ["hat", "tube"]),
        ("tube on table, goblet on tube, tube in goblet", "prop_placed_twice", ["tube"]),
        ("goblet on table, tube on table", "several_props_on_table", ["goblet", "tube"]),
        ("coin in tube, tube on coin", "nothing_on_table", []),
        ("hat on table, coin in tube, tube on coin", "stack_cycle", ["coin", "tube"]),
        ("hat on table, coin on coin", "stack_cycle", ["coin"]),
        ("hat on table, rabbit in coin", "not_a_container", ["rabbit", "coin"]),
        ("goblet on table, tube in rabbit", "not_a_container", ["tube", "rabbit"]),
        ("hat on table, coin on goblet", "support_not_in_stack", ["coin", "goblet"]),
        ("hat on table, rabbit in goblet", "support_not_in_stack", ["rabbit", "goblet"]),
    ],
)
def test_a_physically_impossible_stack_is_refused_not_judged(text: str, code: str, names: list[str]) -> None:
    state = revealed(start())
    message = refused(state, code, type="declare", player="ann", stack=stack(text))
    assert all(name in message for name in names)


def test_a_refused_stack_leaves_the_player_free_to_declare_again() -> None:
    state = revealed(start())
    impossible = stack("tube on table, hat in tube")
    refused(state, "prop_too_large", type="declare", player="ann", stack=impossible)
    assert act(state, type="declare", player="ann", stack=HAT_OVER_RABBIT)[0]["won"]["ann"] == [1]


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"player": ""},
        {"player": "ann", "stack": []},
        {"player": "ann", "stack": [{"prop": "hat"}]},
        {"player": "ann", "stack": [{"prop": "hat", "on": "table", "in": "goblet"}]},
        {"player": "ann", "stack": [{"prop": "hat", "in": "table"}]},
        {"player": "ann", "stack": [{"prop": "wand", "on": "table"}]},
        {"player": "ann", "stack": [{"prop": "hat", "under": "table"}]},
        {"player": "ann", "stack": [{"prop": "hat", "on": "table"}] * 6},
        {"player": "ann", "verdict": "pass"},
    ],
)
def test_a_badly_shaped_declaration_is_bad_input(fields: dict[str, Any]) -> None:
    assert shape_error(type="declare", **fields).code == "invalid_action"


# --- judge -----------------------------------------------------------------------------------


def test_the_tables_verdict_and_reason_are_recorded_as_given() -> None:
    state, _ = act(revealed(start()), type="declare", player="ann")
    state, events = act(state, type="judge", player="ann", verdict="fail", reason="ears showing")
    assert events[0]["data"] == {
        "player": "ann",
        "verdict": "fail",
        "by": "table",
        "reasons": [{"requirement": "table", "prop": None, "message": "ears showing"}],
    }
    assert GAME.view(state)["out"] == ["ann"]


def test_a_table_pass_gives_the_player_the_card() -> None:
    state, _ = act(revealed(start(), 30), type="declare", player="cy")
    state, events = act(state, type="judge", player="cy", verdict="pass")
    assert types(events) == ["DeclarationJudged", "CardWon"] and state["won"]["cy"] == [30]


def test_the_table_judges_the_first_waiting_declaration_first() -> None:
    state, _ = act(revealed(start()), type="declare", player="ann")
    state, _ = act(state, type="declare", player="bob")
    message = refused(state, "judge_out_of_order", type="judge", player="bob", verdict="pass")
    assert "judge ann first" in message


def test_the_table_does_not_judge_a_declaration_that_carries_a_stack() -> None:
    state, _ = act(revealed(start()), type="declare", player="ann")
    state, _ = act(state, type="declare", player="bob", stack=RABBIT_ON_HAT)
    refused(state, "judged_by_stack", type="judge", player="bob", verdict="pass")


def test_only_a_waiting_declaration_can_be_judged() -> None:
    state = revealed(start())
    judge = {"type": "judge", "player": "bob", "verdict": "fail"}
    assert "has not declared" in refused(state, "not_declared", **judge)
    state, _ = act(state, type="declare", player="bob", stack=RABBIT_ON_HAT)
    assert "already failed" in refused(state, "not_declared", **judge)


def test_nothing_can_be_judged_without_a_card_in_play() -> None:
    refused(start(), "no_card_in_play", type="judge", player="ann", verdict="pass")


@pytest.mark.parametrize(
    "fields",
    [
        {"player": "ann"},
        {"player": "ann", "verdict": "maybe"},
        {"verdict": "pass"},
        {"player": "ann", "verdict": "pass", "reason": "x" * 501},
    ],
)
def test_a_badly_shaped_judgement_is_bad_input(fields: dict[str, Any]) -> None:
    assert shape_error(type="judge", **fields).code == "invalid_action"


# --- abandon_round ---------------------------------------------------------------------------


def test_an_abandoned_round_discards_the_card_for_nobody() -> None:
    state, _ = act(revealed(start(), 44), type="declare", player="ann")
    state, events = act(state, type="abandon_round")
    assert events == [{"type": "CardDiscarded", "data": {"card": 44, "reason": "abandoned"}}]
    board = GAME.scores(state)
    assert board["totals"] == {"ann": 0, "bob": 0, "cy": 0}
    assert board["rounds"] == [{"card": 44, "outcome": "abandoned", "winner": None}]


def test_no_round_can_be_abandoned_without_a_card_in_play() -> None:
    refused(start(), "no_card_in_play", type="abandon_round")


def test_abandon_round_takes_no_fields() -> None:
    assert shape_error(type="abandon_round", card=3).code == "invalid_action"


# --- the end of the match --------------------------------------------------------------------


def win_round(state: State, number: int, player: str) -> tuple[State, list[dict[str, Any]]]:
    state = revealed(state, number)
    return act(state, type="declare", player=player, stack=HAT_OVER_RABBIT)


def discard_round(state: State, number: int) -> State:
    return act(revealed(state, number), type="abandon_round")[0]


def test_the_first_player_to_reach_the_target_wins_at_once() -> None:
    state = start(("ann", "bob"), target=2)
    state, _ = win_round(state, 1, "ann")
    state, _ = win_round(state, 2, "bob")
    assert not state["finished"]
    state, events = win_round(state, 3, "ann")
    assert types(events)[-2:] == ["CardWon", "MatchFinished"]
    assert events[-1]["data"] == {
        "winners": ["ann"],
        "reason": "target",
        "totals": {"ann": 2, "bob": 1},
    }
    board = GAME.scores(state)
    assert board["finished"] and board["winners"] == ["ann"] and board["end"] == "target"
    assert GAME.view(state)["phase"] == "finished" and GAME.view(state)["to_act"] == []


def test_a_full_deck_match_ignores_the_target_and_ends_after_the_55th_card() -> None:
    state = start(("ann", "bob"), full_deck=True, target=1)
    for number in range(1, 55):
        state, _ = win_round(state, number, "ann" if number % 3 else "bob")
    assert not state["finished"] and GAME.view(state)["cards_left"] == 1
    state, events = win_round(state, 55, "bob")
    assert events[-1]["type"] == "MatchFinished"
    assert events[-1]["data"]["reason"] == "deck_exhausted"
    assert GAME.scores(state)["winners"] == ["ann"]
    assert GAME.scores(state)["totals"] == {"ann": 36, "bob": 19}


def test_a_full_deck_match_ends_even_when_the_last_card_is_discarded() -> None:
    state = start(("ann", "bob"), full_deck=True)
    for number in range(1, 55):
        state = discard_round(state, number) if number > 2 else win_round(state, number, "bob")[0]
    state, events = act(revealed(state, 55), type="abandon_round")
    assert types(events) == ["CardDiscarded", "MatchFinished"]
    assert GAME.scores(state)["winners"] == ["bob"]


def test_equal_counts_at_the_end_share_the_win() -> None:
    state = start(("ann", "bob", "cy"), full_deck=True)
    for number, player in ((1, "ann"), (2, "cy"), (3, "bob"), (4, "cy"), (5, "ann")):
        state, _ = win_round(state, number, player)
    for number in range(6, 56):
        state = discard_round(state, number)
    assert GAME.scores(state)["winners"] == ["ann", "cy"]
    assert GAME.scores(state)["totals"] == {"ann": 2, "bob": 1, "cy": 2}


def test_a_standard_match_whose_deck_runs_out_ends_with_the_most_cards() -> None:
    state = start(("ann", "bob"), target=30)
    state, _ = win_round(state, 1, "bob")
    for number in range(2, 56):
        state = discard_round(state, number)
    assert state["finished"] and GAME.scores(state)["end"] == "deck_exhausted"
    assert GAME.scores(state)["winners"] == ["bob"]


def test_when_no_card_was_won_every_player_shares_the_win() -> None:
    state = start(("ann", "bob", "cy"), full_deck=True)
    for number in range(1, 55):
        state = discard_round(state, number)
    state, events = act(revealed(state, 55), type="abandon_round")
    assert events[-1]["data"]["winners"] == ["ann", "bob", "cy"]
    assert state["finished"] and GAME.scores(state)["winners"] == ["ann", "bob", "cy"]
    assert GAME.scores(state)["totals"] == {"ann": 0, "bob": 0, "cy": 0}


# --- view, scores and the contract's promises ------------------------------------------------


def test_the_scoreboard_counts_one_point_per_card_won() -> None:
    state = start(("ann", "bob"))
    state, _ = win_round(state, 10, "bob")
    state = discard_round(state, 11)
    state, _ = win_round(state, 12, "bob")
    board = GAME.scores(state)
    assert board == {
        "finished": False,
        "winners": [],
        "totals": {"ann": 0, "bob": 2},
        "end": None,
        "cards": {"ann": [], "bob": [10, 12]},
        "discarded": [11],
        "rounds": [
            {"card": 10, "outcome": "won", "winner": "bob"},
            {"card": 11, "outcome": "abandoned", "winner": None},
            {"card": 12, "outcome": "won", "winner": "bob"},
        ],
    }


def test_a_new_match_waits_for_the_first_card() -> None:
    shown = GAME.view(start())
    assert shown["phase"] == "reveal" and shown["to_act"] == [] and shown["card"] is None
    assert shown["finished"] is False and shown["winners"] == [] and shown["disputes"] == []
    assert GAME.scores(start())["totals"] == {"ann": 0, "bob": 0, "cy": 0}


def test_decide_leaves_the_state_it_is_given_unchanged() -> None:
    state, _ = act(revealed(start()), type="declare", player="ann")
    before = copy.deepcopy(state)
    GAME.decide(state, {"type": "judge", "player": "ann", "verdict": "fail"})
    GAME.decide(state, {"type": "declare", "player": "bob", "stack": HAT_OVER_RABBIT})
    assert state == before


def test_evolve_leaves_the_state_as_it_is_for_an_unknown_event() -> None:
    state = start()
    assert GAME.evolve(copy.deepcopy(state), {"type": "Sneezed", "data": {}}) == state


# --- the stack table: stacks against cards ---------------------------------------------------

# (stars rule, card colour (a * marks a star), card grey, stack, the failed requirements' messages)
STACKS = [
    ("off", "hat", "", "hat on table", []),
    ("off", "hat rabbit", "", "hat on table, rabbit on hat", []),
    ("off", "hat", "rabbit", "hat on table, rabbit in hat", []),
    ("off", "hat", "rabbit", "hat on table, rabbit on hat",
     ["the rabbit must be hidden but stands on top of the hat"]),
    # nested chains
    ("off", "goblet", "tube rabbit", "goblet on table, tube in goblet, rabbit in tube", []),
    ("off", "hat", "goblet tube rabbit",
     "hat on table, goblet in hat, tube in goblet, rabbit in tube", []),
    ("off", "goblet", "tube rabbit", "rabbit in tube, tube in goblet, goblet on table", []),
    ("off", "hat", "goblet coin", "hat on table, goblet in hat, coin on goblet", []),
    ("off", "hat coin", "rabbit", "hat on table, rabbit in hat, coin on rabbit",
     ["the coin must be fully visible but stands on top of the rabbit, which is in the hat"]),
    ("off", "hat rabbit coin", "goblet",
     "hat on table, goblet in hat, rabbit on goblet, coin on rabbit",
     ["the coin must be fully visible but stands on top of the rabbit, which stands on top of "
      "the goblet, which is in the hat",
      "the rabbit must be fully visible but stands on top of the goblet, which is in the hat"]),
    # the tube over a prop
    ("off", "tube", "rabbit", "tube on table, rabbit in tube", []),
    ("off", "tube", "coin", "coin in tube, tube on table", []),
    ("off", "tube rabbit", "", "tube on table, rabbit in tube",
     ["the rabbit must be fully visible but is in the tube"]),
    ("off", "goblet", "tube coin", "goblet on table, tube on goblet, coin in tube",
     ["the tube must be hidden but stands on top of the goblet"]),
    # several props in the hat
    ("off", "hat", "coin rabbit goblet",
     "hat on table, coin in hat, rabbit in hat, goblet in hat", []),
    ("off", "hat", "coin rabbit tube goblet",
     "hat on table, coin in hat, rabbit in hat, tube in hat, goblet in hat", []),
    ("off", "hat coin", "rabbit", "hat on table, coin in hat, rabbit in hat",
     ["the coin must be fully visible but is in the hat"]),
    # a colour prop partly covered
    ("off", "goblet tube", "", "goblet on table, tube in goblet",
     ["the tube must be fully visible but is in the goblet"]),
    ("off", "hat goblet", "", "hat on table, goblet in hat",
     ["the goblet must be fully visible but is in the hat"]),
    # an unused prop left in the stack
    ("off", "hat", "rabbit", "hat on table, rabbit in hat, coin on hat",
     ["the coin is not on the card but is in the stack"]),
    ("off", "goblet", "", "goblet on table, coin in goblet",
     ["the coin is not on the card but is in the stack"]),
    # props missing from the stack, grey props in plain sight
    ("off", "hat rabbit", "", "hat on table",
     ["the rabbit must be fully visible but is not in the stack"]),
    ("off", "hat", "coin", "hat on table", ["the coin must be hidden but is not in the stack"]),
    ("off", "coin", "hat", "hat on table, coin on hat",
     ["the hat must be hidden but stands on the table"]),
    ("off", "hat", "rabbit", "rabbit on table, coin on rabbit, hat on coin",
     ["the rabbit must be hidden but stands on the table",
      "the coin is not on the card but is in the stack"]),
    # a tower of everything, with and without a prop inside
    ("off", "coin rabbit tube goblet hat", "",
     "hat on table, goblet on hat, tube on goblet, rabbit on tube, coin on rabbit", []),
    ("off", "rabbit tube goblet hat", "coin",
     "hat on table, goblet on hat, tube on goblet, rabbit on tube, coin in tube", []),
    # stars: contain
    ("contain", "hat*", "rabbit", "hat on table, rabbit in hat", []),
    ("contain", "hat* rabbit", "", "hat on table, rabbit on hat",
     ["the hat is starred and must hold another prop but holds nothing"]),
    ("contain", "hat", "goblet* coin", "hat on table, goblet in hat, coin on goblet",
     ["the goblet is starred and must hold another prop but holds nothing"]),
    ("contain", "hat", "goblet* coin", "hat on table, goblet in hat, coin in goblet", []),
    ("contain", "hat* rabbit", "", "rabbit on table",
     ["the hat must be fully visible but is not in the stack",
      "the hat is starred and must hold another prop but holds nothing"]),
    ("contain", "hat", "rabbit", "hat on table, rabbit on hat",
     ["the rabbit must be hidden but stands on top of the hat"]),
    # stars: empty
    ("empty", "hat* goblet", "", "hat on table, goblet on hat", []),
    ("empty", "hat*", "rabbit", "hat on table, rabbit in hat",
     ["the hat is starred and must hold nothing but holds the rabbit"]),
    ("empty", "hat*", "coin rabbit", "hat on table, coin in hat, rabbit in hat",
     ["the hat is starred and must hold nothing but holds the coin and the rabbit"]),
    ("empty", "goblet", "tube*", "goblet on table, tube in goblet", []),
    ("empty", "goblet", "tube* rabbit", "goblet on table, tube in goblet, rabbit in tube",
     ["the tube is starred and must hold nothing but holds the rabbit"]),
]  # fmt: skip


@pytest.mark.parametrize(("stars", "colour", "grey", "text", "messages"), STACKS)
def test_a_declared_stack_is_judged_against_the_card(
    stars: str, colour: str, grey: str, text: str, messages: list[str]
) -> None:
    state = revealed(start(stars=stars), 1, colour=colour, grey=grey)
    _, events = act(state, type="declare", player="ann", stack=stack(text))
    judged = events[1]["data"]
    assert judged["verdict"] == ("fail" if messages else "pass")
    assert [reason["message"] for reason in judged["reasons"]] == messages
