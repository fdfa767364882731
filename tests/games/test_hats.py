"""Hats' rules through the public contract: setup, decide, evolve, view, and shape validation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.contract import InvalidAction, RuleViolation
from games.registry import all_games, get_game
from games.validation import validate_action, validate_match
from tests.support import games as support

GAME = get_game("hats")
State = dict[str, Any]
TWO = ["ann", "bob"]
THREE = ["ann", "bob", "cy"]
FOUR = ["ann", "bob", "cy", "dee"]
TABLE = ["red-1", "orange-2", "yellow-3", "green-4", "blue-5", "purple-6"]
TWO_TABLE = ["red-1", "orange-2", "yellow-3", "green-4", "blue-5"]
ANN_HAND = [
    "red-2",
    "red-3",
    "red-4",
    "red-5",
    "red-6",
    "orange-1",
    "orange-3",
    "orange-4",
    "pink-1",
]
BOB_HAND = [
    "pink-2",
    "pink-3",
    "pink-4",
    "pink-5",
    "pink-6",
    "blue-1",
    "blue-2",
    "blue-3",
    "blue-4",
]
CY_HAND = [
    "green-1",
    "green-2",
    "green-3",
    "green-5",
    "green-6",
    "yellow-1",
    "yellow-2",
    "yellow-4",
    "yellow-5",
]


# --- helpers: build matches through the public contract --------------------------------------


def create(players: list[str] | None = None, options: dict[str, Any] | None = None, **setup: Any) -> State:
    """A new match folded from setup's events (ann starts; the usual tea table) unless told."""
    players = players or THREE
    facts: dict[str, Any] = {
        "start_player": "ann",
        "table": TWO_TABLE if len(players) == 2 else TABLE,
        **({"removed_types": ["pink", "purple"]} if len(players) == 2 else {}),
        **setup,
    }
    return support.create(GAME, players, facts, options or {})


def act(state: State, type_: str, **fields: Any) -> tuple[State, list[dict[str, Any]]]:
    """Validate, decide and fold one action on a copy of ``state``; the new state and events."""
    return support.act(GAME, state, {"type": type_, **fields})


def run(state: State, *actions: tuple[str, dict[str, Any]]) -> State:
    """The state after several (type, fields) actions."""
    return support.run(GAME, state, ({"type": type_, **fields} for type_, fields in actions))


def refused(state: State, type_: str, **fields: Any) -> RuleViolation:
    """The RuleViolation an action meets; the state is left as it was."""
    return support.refused(GAME, state, {"type": type_, **fields})


def black_hats(state: State, count: int) -> State:
    """``count`` turns in seat order, each an unnamed black hat by the player whose turn it is."""
    for _ in range(count):
        view = GAME.view(state)
        player = view["to_act"][-1]
        state, _ = act(state, "black_hat", player=player)
    return state


def played_out(state: State) -> State:
    """The state once every player has played 8 cards (all unnamed black hats)."""
    return black_hats(state, 8 * len(state["players"]) - sum(state["plays"].values()))


types = support.types


# --- the registry, the schemas and setup -----------------------------------------------------


def said_as(card: str) -> str:
    """A card as a refusal says it: "pink-5" is "pink 5"."""
    return card.replace("-", " ")


def test_the_registry_finds_hats_by_itself() -> None:
    assert all_games()["hats"] is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 4)


def test_every_option_publishes_its_default_and_every_field_a_description() -> None:
    assert set(GAME.actions) == {"swap", "black_hat", "redraw", "partner_trade", "favourite"}
    for prop in GAME.options_schema["properties"].values():
        assert "default" in prop and prop["description"]
    for schema in [*GAME.actions.values(), GAME.setup_schema]:
        assert schema["additionalProperties"] is False
        assert all(p.get("description") for p in schema["properties"].values())


def test_a_match_starts_with_match_created_in_canonical_spelling_and_defaults_filled_in() -> None:
    facts = {"start_player": "BOB", "table": ["Red-1", "ORANGE-2", *TABLE[2:]]}
    names, facts, options = validate_match(GAME, THREE, facts, {})
    assert GAME.setup(names, facts, options) == [
        {
            "type": "MatchCreated",
            "data": {
                "players": THREE,
                "setup": {"start_player": "bob", "table": TABLE},
                "options": {"partners": True},
            },
        }
    ]


def test_a_new_match_waits_for_the_start_player_at_a_full_tea_table() -> None:
    view = GAME.view(create(start_player="cy"))
    assert (view["phase"], view["to_act"], view["turn"]["player"]) == ("play", ["cy"], "cy")
    assert [space["card"] for space in view["tea_table"]] == TABLE
    assert view["hands"]["ann"] == {"size": 9, "known": [], "maybe": [], "unknown": 9}
    assert view["draw_pile"] == 42 - 6 - 27 and view["finished"] is False
    assert view["disputes"] == []


def test_two_players_use_five_spaces_and_thirty_cards() -> None:
    view = GAME.view(create(TWO))
    assert len(view["tea_table"]) == 5 and view["removed_types"] == ["pink", "purple"]
    assert view["draw_pile"] == 30 - 5 - 18


@pytest.mark.parametrize(("players", "table"), [(TWO, TABLE), (THREE, TWO_TABLE)])
def test_a_tea_table_of_the_wrong_size_is_refused(players: list[str], table: list[str]) -> None:
    with pytest.raises(RuleViolation) as caught:
        create(players, table=table)
    assert caught.value.code == "wrong_table_size" and str(len(table)) in caught.value.message


def test_two_players_must_name_the_two_removed_types() -> None:
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(TWO, {"start_player": "ann", "table": TWO_TABLE}, {})
    assert caught.value.code == "removed_types_required"


def test_three_players_remove_no_type() -> None:
    with pytest.raises(RuleViolation) as caught:
        create(removed_types=["pink", "purple"])
    assert caught.value.code == "removed_types_not_used"


@pytest.mark.parametrize(
    ("removed", "code"), [(["pink", "PINK"], "duplicate_type"), (["pink", "black"], "unknown_type")]
)
def test_removed_types_must_be_two_different_types(removed: list[str], code: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        create(TWO, removed_types=removed)
    assert caught.value.code == code


def test_removed_types_are_read_in_any_letter_case() -> None:
    assert create(TWO, removed_types=["Pink", "PURPLE"])["removed_types"] == ["pink", "purple"]


@pytest.mark.parametrize(
    ("table", "code", "named"),
    [
        (["red-1", "orange-2", "yellow-3", "green-4", "pink-5"], "card_removed", "pink-5"),
        (["red-1", "orange-2", "yellow-3", "green-4", "red-1"], "duplicate_card", "red-1"),
        (["red-1", "orange-2", "yellow-3", "green-4", "black-5"], "unknown_card", "black-5"),
        (["red-1", "orange-2", "yellow-3", "green-4", "red-7"], "unknown_card", "red-7"),
    ],
)
def test_a_tea_table_card_that_cannot_be_there_is_refused_by_name(
    table: list[str], code: str, named: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        create(TWO, table=table)
    # A card that is none is quoted as written; a real one is said in words.
    said = named if code == "unknown_card" else said_as(named)
    assert caught.value.code == code and said in caught.value.message


def test_a_start_player_who_is_not_seated_is_refused_by_name() -> None:
    with pytest.raises(RuleViolation) as caught:
        create(start_player="zed")
    assert caught.value.code == "unknown_player" and "'zed'" in caught.value.message


@pytest.mark.parametrize(
    ("hands", "code"),
    [
        ({"zed": ANN_HAND}, "unknown_player"),
        ({"ann": ANN_HAND, "bob": ["red-2", *BOB_HAND[1:]]}, "duplicate_card"),
        ({"ann": ["red-1", *ANN_HAND[1:]]}, "duplicate_card"),
        ({"ann": ANN_HAND, "ANN": BOB_HAND}, "duplicate_player"),
    ],
)
def test_recorded_hands_must_be_seated_players_with_cards_found_nowhere_else(
    hands: dict[str, list[str]], code: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        create(hands=hands)
    assert caught.value.code == code


def test_a_recorded_hand_of_a_removed_type_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        create(TWO, hands={"bob": BOB_HAND})
    assert caught.value.code == "card_removed" and "pink 2" in caught.value.message


def test_a_recorded_hand_holds_nine_cards() -> None:
    with pytest.raises(InvalidAction) as caught:
        create(hands={"ann": ANN_HAND[:8]})
    assert caught.value.code == "invalid_setup"


def test_a_setup_without_a_tea_table_or_with_an_unknown_option_is_a_shape_error() -> None:
    with pytest.raises(InvalidAction) as caught:
        validate_match(GAME, THREE, {"start_player": "ann"}, {})
    assert caught.value.code == "invalid_setup"
    with pytest.raises(InvalidAction) as option:
        validate_match(GAME, THREE, {"start_player": "ann", "table": TABLE}, {"cookies": 2})
    assert option.value.code == "invalid_options"


def test_four_players_sit_as_partners_opposite_each_other() -> None:
    assert GAME.view(create(FOUR))["teams"] == [["ann", "cy"], ["bob", "dee"]]
    assert GAME.view(create(FOUR, {"partners": False}))["teams"] == []
    assert GAME.view(create(THREE))["teams"] == []


# --- action shapes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "steal", "player": "ann"}, "unknown_action"),
        ({"type": "swap", "player": "ann", "card": "red-4"}, "invalid_action"),
        ({"type": "swap", "player": "ann", "card": "red4", "space": 1}, "invalid_action"),
        ({"type": "swap", "player": "ann", "card": "red-4", "space": 7}, "invalid_action"),
        ({"type": "black_hat", "player": "ann", "hat": "red-4"}, "invalid_action"),
        ({"type": "favourite", "player": "ann"}, "invalid_action"),
    ],
)
def test_a_malformed_action_is_a_shape_error(action: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidAction) as caught:
        validate_action(GAME, action)
    assert caught.value.code == code


def test_hidden_cards_may_be_left_out_or_sent_as_null() -> None:
    state, events = act(create(), "black_hat", player="ann", card=None)
    assert events == [{"type": "BlackHatMade", "data": {"player": "ann", "card": None}}]
    state, events = act(state, "redraw", player="ann")
    assert events[0]["data"] == {
        "player": "ann",
        "discarded": None,
        "drawn": None,
        "returned": False,
    }


def test_players_and_cards_are_read_in_any_letter_case_and_recorded_canonically() -> None:
    _, events = act(create(), "swap", player="ANN", card="Pink-2", space=1)
    assert events == [
        {
            "type": "HatSwapped",
            "data": {"player": "ann", "card": "pink-2", "space": 1, "taken": "red-1"},
        }
    ]


def test_an_unknown_player_is_refused_by_name() -> None:
    caught = refused(create(), "black_hat", player="zed")
    assert caught.code == "unknown_player" and "'zed'" in caught.message


# --- the swap rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "space"),
    [("orange-1", 2), ("red-6", 1), ("pink-2", 1), ("pink-4", 3)],
    ids=["same-type-lower", "same-type-higher", "other-type-higher", "other-type-higher-again"],
)
def test_a_swap_of_the_same_type_or_a_higher_value_is_allowed(card: str, space: int) -> None:
    state, events = act(create(), "swap", player="ann", card=card, space=space)
    assert types(events) == ["HatSwapped"]
    assert state["table"][space - 1] == card


@pytest.mark.parametrize(("card", "space"), [("pink-2", 2), ("pink-1", 3)])
def test_a_swap_of_another_type_and_no_higher_value_is_refused_naming_both_cards(
    card: str, space: int
) -> None:
    caught = refused(create(), "swap", player="ann", card=card, space=space)
    assert caught.code == "swap_not_allowed"
    assert said_as(card) in caught.message and said_as(TABLE[space - 1]) in caught.message


def test_a_swap_puts_the_card_on_the_space_and_the_old_card_face_up_in_the_collection() -> None:
    state, _ = act(create(), "swap", player="ann", card="pink-5", space=4)
    view = GAME.view(state)
    assert view["tea_table"][3]["card"] == "pink-5"
    assert view["collections"]["ann"] == {
        "hats": ["green-4"],
        "black_hats": 0,
        "black_hats_named": [],
    }
    assert view["hands"]["ann"]["size"] == 8 and view["plays"]["ann"] == 1


def test_a_space_beyond_the_tea_table_is_refused() -> None:
    caught = refused(create(TWO), "swap", player="ann", card="red-6", space=6)
    assert caught.code == "space_out_of_range" and "1 to 5" in caught.message


# --- turns -----------------------------------------------------------------------------------


def test_only_the_start_player_may_act_first() -> None:
    caught = refused(create(start_player="bob"), "swap", player="ann", card="red-6", space=1)
    assert caught.code == "not_your_turn" and "bob" in caught.message


def test_turns_go_clockwise_from_the_start_player_and_wrap_around() -> None:
    state = create(start_player="cy")
    order = []
    for _ in range(4):
        order.append(GAME.view(state)["to_act"][-1])
        state = black_hats(state, 1)
    assert order == ["cy", "ann", "bob", "cy"]


def test_the_next_players_action_starts_their_turn() -> None:
    state, _ = act(create(), "black_hat", player="ann")
    state, events = act(state, "black_hat", player="bob")
    assert types(events) == ["TurnStarted", "BlackHatMade"]
    assert events[0]["data"] == {"player": "bob", "turn": 2}
    assert GAME.view(state)["turn"]["round"] == 1


def test_a_second_main_action_in_a_turn_is_refused() -> None:
    state, _ = act(create(), "black_hat", player="ann")
    caught = refused(state, "swap", player="ann", card="red-6", space=1)
    assert caught.code == "already_played" and "bob" in caught.message


def test_a_player_after_the_next_may_not_act() -> None:
    state, _ = act(create(), "black_hat", player="ann")
    assert refused(state, "black_hat", player="cy").code == "not_your_turn"


def test_a_redraw_may_come_before_or_after_the_main_action() -> None:
    state, _ = act(create(), "redraw", player="ann")
    state, _ = act(state, "black_hat", player="ann")
    state, _ = act(state, "black_hat", player="bob")
    state, events = act(state, "redraw", player="bob")
    assert types(events) == ["CardRedrawn"] and GAME.view(state)["to_act"] == ["cy"]


def test_a_second_redraw_in_a_turn_is_refused() -> None:
    state, _ = act(create(), "redraw", player="ann")
    assert refused(state, "redraw", player="ann").code == "second_redraw"
    state, _ = act(state, "black_hat", player="ann")
    assert refused(state, "redraw", player="ann").code == "second_redraw"


def test_the_turn_ends_when_the_next_player_acts() -> None:
    state = run(create(), ("black_hat", {"player": "ann"}), ("redraw", {"player": "bob"}))
    assert refused(state, "redraw", player="ann").code == "not_your_turn"


def test_four_partners_may_trade_instead_of_redrawing_once_a_turn() -> None:
    state, events = act(create(FOUR), "partner_trade", player="ann")
    assert events[0]["data"] == {"player": "ann", "partner": "cy", "given": None, "received": None}
    assert refused(state, "redraw", player="ann").code == "second_redraw"
    state = run(create(FOUR), ("redraw", {"player": "ann"}))
    assert refused(state, "partner_trade", player="ann").code == "second_redraw"


@pytest.mark.parametrize(("players", "options"), [(THREE, {}), (FOUR, {"partners": False})])
def test_a_partner_trade_without_partners_is_refused(players: list[str], options: dict[str, Any]) -> None:
    assert refused(create(players, options), "partner_trade", player="ann").code == "no_partners"


def test_everyone_plays_eight_cards_and_then_the_play_ends() -> None:
    state = black_hats(create(TWO), 15)
    state, events = act(state, "black_hat", player="bob")
    assert types(events) == ["TurnStarted", "BlackHatMade", "PlayEnded"]
    assert state["plays"] == {"ann": 8, "bob": 8}
    view = GAME.view(state)
    assert (view["phase"], view["to_act"]) == ("favourites", ["ann", "bob"])
    caught = refused(state, "black_hat", player="ann")
    assert caught.code == "too_many_plays" and "8" in caught.message


def test_the_last_player_may_still_redraw_until_a_favourite_is_shown() -> None:
    state = played_out(create())
    assert GAME.view(state)["turn"]["left"] == ["redraw"]
    assert refused(state, "redraw", player="ann").code == "play_over"
    state, _ = act(state, "favourite", player="ann", card="red-2")
    assert refused(state, "redraw", player="cy").code == "play_over"


# --- favourites and the end ------------------------------------------------------------------


def test_a_favourite_before_every_player_has_played_eight_cards_is_refused() -> None:
    caught = refused(black_hats(create(), 5), "favourite", player="ann", card="red-2")
    assert caught.code == "favourite_too_early" and "5 of 24" in caught.message


def test_a_player_reveals_one_favourite_only() -> None:
    state, _ = act(played_out(create()), "favourite", player="bob", card="red-2")
    caught = refused(state, "favourite", player="bob", card="red-3")
    assert caught.code == "favourite_already_revealed" and "red-2" in caught.message


def test_the_last_favourite_finishes_the_match_with_its_result() -> None:
    state = run(
        played_out(create(TWO)),
        ("favourite", {"player": "bob", "card": "red-3"}),
    )
    state, events = act(state, "favourite", player="ann", card="red-2")
    assert types(events) == ["FavouriteRevealed", "MatchFinished"]
    assert events[1]["data"] == {
        "winners": ["ann"],
        "totals": {"ann": 6, "bob": 5},
        "cookie": None,
        "decided_by": "total",
    }
    assert state["finished"] and GAME.view(state)["to_act"] == []
    assert refused(state, "black_hat", player="ann").code == "match_finished"


# --- card identity ---------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["black-3", "red-9", "red-0"])
def test_a_card_that_does_not_exist_is_refused(card: str) -> None:
    caught = refused(create(), "black_hat", player="ann", card=card)
    assert caught.code == "unknown_card" and card in caught.message


def _after(state: State, kind: str, **fields: Any) -> State:
    """The state after one action."""
    return act(state, kind, **fields)[0]


@pytest.mark.parametrize(
    ("before", "tried", "code", "said"),
    [
        (lambda: create(TWO), ("swap", "ann", "purple-6"), "card_removed", "purple"),
        (create, ("swap", "ann", "purple-6"), "card_on_table", "space 6"),
        (
            lambda: _after(create(), "swap", player="ann", card="pink-2", space=1),
            ("black_hat", "bob", "red-1"),
            "card_collected",
            "ann's collection",
        ),
        (
            lambda: _after(create(), "black_hat", player="ann", card="pink-3"),
            ("swap", "bob", "pink-3"),
            "card_collected",
            "black hats",
        ),
        (
            lambda: _after(played_out(create()), "favourite", player="ann", card="pink-3"),
            ("favourite", "bob", "pink-3"),
            "card_revealed",
            "ann",
        ),
        (lambda: create(hands={"ann": ANN_HAND}), ("swap", "ann", "pink-6"), "card_not_in_hand", "red 2"),
        (lambda: create(hands={"bob": BOB_HAND}), ("swap", "ann", "pink-6"), "card_in_hand", "bob's hand"),
    ],
    ids=(
        "of_a_removed_type on_the_tea_table in_a_collection named_as_a_black_hat revealed_as_a_favourite "
        "outside_a_recorded_hand recorded_in_another_hand"
    ).split(),
)
def test_a_card_that_cannot_be_played_now_is_refused_with_where_it_is(
    before: Callable[[], State], tried: tuple[str, str, str], code: str, said: str
) -> None:
    kind, player, card = tried
    space = {"space": 1} if kind == "swap" else {}
    caught = refused(before(), kind, player=player, card=card, **space)
    assert caught.code == code and said in caught.message


def test_a_named_play_strikes_the_card_off_the_recorded_hand() -> None:
    state, _ = act(create(hands={"ann": ANN_HAND}), "black_hat", player="ann", card="red-2")
    assert GAME.view(state)["hands"]["ann"] == {"size": 8, "known": ANN_HAND[1:], "maybe": [], "unknown": 0}
    assert GAME.view(state)["collections"]["ann"]["black_hats_named"] == ["red-2"]


def test_an_unnamed_card_leaving_a_recorded_hand_keeps_its_cards_as_candidates() -> None:
    state, _ = act(create(hands={"ann": ANN_HAND}), "black_hat", player="ann")
    assert GAME.view(state)["hands"]["ann"] == {"size": 8, "known": [], "maybe": ANN_HAND, "unknown": 0}
    state, _ = act(state, "redraw", player="ann", drawn="pink-6")
    assert GAME.view(state)["hands"]["ann"] == {
        "size": 8,
        "known": [],
        "maybe": [*ANN_HAND, "pink-6"],
        "unknown": 0,
    }


def test_after_an_unnamed_black_hat_a_card_never_in_the_hand_is_still_refused() -> None:
    state, _ = act(create(hands={"ann": ANN_HAND, "bob": BOB_HAND}), "black_hat", player="ann")
    state = run(state, ("black_hat", {"player": "bob"}), ("black_hat", {"player": "cy"}))
    caught = refused(state, "swap", player="ann", card="green-6", space=1)  # in the draw pile
    assert caught.code == "card_not_in_hand" and "among" in caught.message and "red 2" in caught.message
    caught = refused(state, "swap", player="ann", card="purple-5", space=6)  # dealt to nobody known
    assert caught.code == "card_not_in_hand"
    state, _ = act(state, "swap", player="ann", card="red-3", space=1)  # still a candidate
    assert GAME.view(state)["hands"]["ann"]["size"] == 7


def test_an_unnamed_redraw_leaves_room_for_one_unrecorded_card_checked_when_it_is_named() -> None:
    state, _ = act(create(hands={"ann": ANN_HAND, "bob": BOB_HAND}), "redraw", player="ann")
    assert GAME.view(state)["hands"]["ann"]["unknown"] == 1
    caught = refused(state, "swap", player="ann", card="pink-6", space=1)  # bob holds it
    assert caught.code == "card_in_hand" and "bob's hand" in caught.message
    state, _ = act(state, "swap", player="ann", card="green-6", space=4)  # the card drawn
    assert GAME.view(state)["hands"]["ann"]["unknown"] == 0
    state = run(state, ("black_hat", {"player": "bob"}), ("black_hat", {"player": "cy"}))
    caught = refused(state, "black_hat", player="ann", card="green-5")  # a second outsider
    assert caught.code == "card_not_in_hand"


def test_a_candidate_seen_in_another_hand_is_no_candidate_any_more() -> None:
    state = create(FOUR, hands={"ann": ANN_HAND, "cy": CY_HAND})
    state, _ = act(state, "partner_trade", player="ann")  # one unnamed card each way
    state = run(state, ("black_hat", {"player": "ann"}), ("black_hat", {"player": "bob"}))
    state, _ = act(state, "swap", player="cy", card="red-6", space=1)  # it came from ann
    assert "red-6" not in GAME.view(state)["hands"]["ann"]["maybe"]
    caught = refused(
        run(state, ("black_hat", {"player": "dee"})), "swap", player="ann", card="red-6", space=2
    )
    assert caught.code == "card_on_table"


def test_the_last_card_of_a_recorded_hand_is_the_only_possible_favourite() -> None:
    hand = [*ANN_HAND[:8], "orange-5"]  # pink-1, the ninth, is never in it
    state = create(TWO, hands={"ann": hand})
    for card in hand[:8]:
        state = run(state, ("black_hat", {"player": "ann", "card": card}), ("black_hat", {"player": "bob"}))
    assert refused(state, "favourite", player="ann", card="red-2").code == "card_collected"
    caught = refused(state, "favourite", player="ann", card="pink-1")
    assert caught.code == "card_removed"
    caught = refused(state, "favourite", player="ann", card="yellow-6")
    assert caught.code == "card_not_in_hand" and "orange 5" in caught.message
    state, _ = act(state, "favourite", player="ann", card="orange-5")
    assert state["favourites"]["ann"] == "orange-5"


# --- redraws: the draw pile and the discard pile ---------------------------------------------


def test_a_named_redraw_moves_the_drawn_card_into_the_recorded_hand() -> None:
    state, events = act(
        create(hands={"ann": ANN_HAND}), "redraw", player="ann", discarded="red-2", drawn="pink-6"
    )
    assert events[0]["data"] == {
        "player": "ann",
        "discarded": "red-2",
        "drawn": "pink-6",
        "returned": False,
    }
    view = GAME.view(state)
    assert view["hands"]["ann"] == {"size": 9, "known": [*ANN_HAND[1:], "pink-6"], "maybe": [], "unknown": 0}
    assert (view["draw_pile"], view["discard_pile"]) == (8, 1)


def test_a_discarded_card_cannot_be_drawn_before_the_discard_pile_is_reshuffled() -> None:
    caught = refused(create(), "redraw", player="ann", discarded="pink-6", drawn="pink-6")
    assert caught.code == "card_discarded"
    state = run(
        create(),
        ("redraw", {"player": "ann", "discarded": "pink-6"}),
        ("black_hat", {"player": "ann"}),
    )
    caught = refused(state, "redraw", player="bob", drawn="pink-6")
    assert caught.code == "card_discarded" and "discard pile" in caught.message


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile() -> None:
    state = create()
    discards = [
        "pink-1",
        "pink-2",
        "pink-3",
        "pink-4",
        "pink-5",
        "pink-6",
        "red-2",
        "red-3",
        "red-4",
    ]
    for card in discards:
        player = GAME.view(state)["to_act"][-1]
        state = run(
            state,
            ("redraw", {"player": player, "discarded": card}),
            ("black_hat", {"player": player}),
        )
    assert (GAME.view(state)["draw_pile"], GAME.view(state)["discard_pile"]) == (0, 9)
    state, _ = act(state, "redraw", player="ann", discarded="red-5", drawn="pink-1")
    view = GAME.view(state)
    assert (view["draw_pile"], view["discard_pile"]) == (9, 0)
    assert "pink-1" in view["hands"]["ann"]["known"]


def test_with_four_players_the_draw_pile_is_empty_so_a_redraw_gives_the_card_back() -> None:
    state, events = act(create(FOUR), "redraw", player="ann", discarded="pink-6")
    assert events[0]["data"] == {
        "player": "ann",
        "discarded": "pink-6",
        "drawn": "pink-6",
        "returned": True,
    }
    assert GAME.view(state)["hands"]["ann"] == {"size": 9, "known": ["pink-6"], "maybe": [], "unknown": 8}
    caught = refused(create(FOUR), "redraw", player="ann", discarded="pink-6", drawn="pink-5")
    assert caught.code == "deck_empty" and "pink-6" in caught.message


# --- partner trades --------------------------------------------------------------------------


def test_a_named_partner_trade_moves_both_cards_between_the_recorded_hands() -> None:
    state = create(FOUR, hands={"ann": ANN_HAND, "cy": CY_HAND})
    state, _ = act(state, "partner_trade", player="ann", given="red-2", received="green-1")
    hands = GAME.view(state)["hands"]
    assert hands["ann"]["known"] == [*ANN_HAND[1:], "green-1"]
    assert hands["cy"]["known"] == [*CY_HAND[1:], "red-2"]
    caught = refused(create(FOUR, hands={"cy": CY_HAND}), "partner_trade", player="ann", received="red-2")
    assert caught.code == "card_not_in_hand" and "cy" in caught.message


def test_a_partner_trade_swaps_two_different_cards() -> None:
    caught = refused(create(FOUR), "partner_trade", player="ann", given="red-2", received="red-2")
    assert caught.code == "same_card"


# --- the view --------------------------------------------------------------------------------


def test_the_view_shows_what_is_left_of_the_turn_and_who_may_act() -> None:
    view = GAME.view(create(FOUR))
    assert view["turn"]["left"] == ["swap", "black_hat", "redraw", "partner_trade"]
    state, _ = act(create(), "black_hat", player="ann")
    view = GAME.view(state)
    assert (view["to_act"], view["turn"]["left"]) == (["ann", "bob"], ["redraw"])
    state, _ = act(state, "redraw", player="ann")
    view = GAME.view(state)
    assert (view["to_act"], view["turn"]["left"], view["turn"]["extra"]) == (["bob"], [], "redraw")


def test_the_view_shows_each_spaces_type_value_and_whether_it_counts() -> None:
    table = ["orange-2", "red-1", "orange-5", "green-4", "blue-5", "purple-6"]
    spaces = GAME.view(create(table=table))["tea_table"]
    assert spaces[2] == {
        "space": 3,
        "card": "orange-5",
        "type": "orange",
        "type_value": 1,
        "counts": False,
    }
    assert spaces[1]["type_value"] == 2 and spaces[1]["counts"] is True
    assert GAME.view(create(table=table))["type_values"]["pink"] == 0
