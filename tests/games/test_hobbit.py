"""The Hobbit Card Game through the public contract: setup, round starts, plays, marks, following
colour and revokes, and who wins a trick. Distribution, effects and the end are in the sibling
modules test_hobbit_distribution and test_hobbit_end."""

from __future__ import annotations

from typing import Any

import pytest
from hobbit_table import DECK, MARKS, Table, of_type, types
from jsonschema import Draft202012Validator

from games.contract import InvalidAction, RuleViolation
from games.hobbit import GAME
from games.registry import all_games
from games.validation import validate_action
from tests.support import games as support

DUO = {"ann": "gandalf", "bob": "smaug"}
TRIO = {"ann": "gandalf", "bob": "smaug", "cy": "thorin"}
CAST = ["bilbo", "smaug", "thorin", "bolg", "gandalf"]
NAMES = ["ann", "bob", "cy", "dee", "eve"]


def create(players: list[str], setup: dict[str, Any], **options: Any) -> list[dict[str, Any]]:
    """Setup's events for a table, after the shape checks the service runs first."""
    return support.setup_events(GAME, players, setup, options)


def refused_setup(players: list[str], setup: dict[str, Any], **options: Any) -> RuleViolation:
    """The RuleViolation (or shape error) creating this match meets."""
    return support.refused_setup(GAME, players, setup, options)


def duo_after_discarding(*cards: str) -> Table:
    """Two players recorded without hands, after a first trick of ``cards`` that went to the discard."""
    t = Table(DUO)
    t.start("ann")
    t.trick(*cards)
    t.give(**{card.replace("-", "_"): "discard" for card in cards})
    return t


# --- the game as registered ----------------------------------------------------------------------


def test_the_registry_lists_hobbit_with_its_actions_setup_and_options() -> None:
    described = all_games()["hobbit"].describe()
    assert set(described["actions"]) == {"start_round", "play", "distribute"}
    assert described["players"] == {"min": 2, "max": 5}
    defaults = {k: v["default"] for k, v in described["options"]["properties"].items()}
    assert defaults == {"distribution": "powers", "elimination": "immediate", "rounds": 2}
    for schema in [*described["actions"].values(), described["setup"], described["options"]]:
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "start_round"},
        {"type": "start_round", "leader": "ann", "trump": "red"},
        {"type": "play", "player": "ann"},
        {"type": "play", "player": "ann", "card": "red-1", "mark": "grey"},
        {"type": "distribute", "cards": {}},
        {"type": "bid", "player": "ann", "tricks": 1},
    ],
)
def test_actions_of_the_wrong_shape_are_refused_before_the_rules_see_them(action: Any) -> None:
    with pytest.raises(InvalidAction):
        validate_action(GAME, action)


# --- setup -------------------------------------------------------------------------------------


def test_the_match_begins_with_match_created_and_the_options_defaults_filled_in() -> None:
    events = create(["ann", "bob"], {"characters": {"ann": "bilbo", "bob": "smaug"}})
    assert types(events) == ["MatchCreated"]
    assert events[0]["data"] == {
        "players": ["ann", "bob"],
        "setup": {"characters": {"ann": "bilbo", "bob": "smaug"}},
        "options": {"distribution": "powers", "elimination": "immediate", "rounds": 2},
    }
    view = Table({"ann": "bilbo", "bob": "smaug"}).view
    assert view["phase"] == "round_start" and view["to_act"] == [] and view["round"] == 0
    assert view["characters"]["ann"] == {
        "character": "bilbo",
        "side": "good",
        "health": 2,
        "damage": 0,
        "alive": True,
        "cards_left": 0,
        "pipes": 0,
        "tricks_won": 0,
    }


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_two_to_five_players_may_play(count: int) -> None:
    players = NAMES[:count]
    events = create(players, {"characters": dict(zip(players, CAST, strict=False))})
    assert events[0]["data"]["players"] == players


def test_every_player_needs_a_character() -> None:
    error = refused_setup(["ann", "bob", "cy"], {"characters": {"ann": "bilbo", "bob": "smaug"}})
    assert error.code == "missing_player" and "cy" in error.message


def test_a_character_for_someone_not_at_the_table_is_refused() -> None:
    error = refused_setup(["ann", "bob"], {"characters": {"ann": "bilbo", "zed": "smaug"}})
    assert error.code == "unknown_player" and "zed" in error.message


def test_characters_name_their_players_in_any_case_and_are_kept_in_seat_order() -> None:
    events = create(["ann", "bob"], {"characters": {"BOB": "smaug", "Ann": "bilbo"}})
    assert events[0]["data"]["setup"]["characters"] == {"ann": "bilbo", "bob": "smaug"}


def test_no_two_players_may_play_the_same_character() -> None:
    error = refused_setup(["ann", "bob"], {"characters": {"ann": "bilbo", "bob": "bilbo"}})
    assert error.code == "character_taken" and "bilbo" in error.message


@pytest.mark.parametrize(
    ("characters", "missing"),
    [({"ann": "bilbo", "bob": "thorin"}, "evil"), ({"ann": "smaug", "bob": "bolg"}, "good")],
)
def test_each_side_needs_at_least_one_character(characters: dict[str, str], missing: str) -> None:
    error = refused_setup(["ann", "bob"], {"characters": characters})
    assert error.code == "side_missing" and missing in error.message


def test_a_character_outside_the_game_is_a_shape_error() -> None:
    error = refused_setup(["ann", "bob"], {"characters": {"ann": "frodo", "bob": "smaug"}})
    assert isinstance(error, InvalidAction) and error.code == "invalid_setup"


def test_a_player_may_not_be_called_discard() -> None:
    error = refused_setup(["ann", "Discard"], {"characters": {"ann": "bilbo", "Discard": "bolg"}})
    assert error.code == "reserved_name"


@pytest.mark.parametrize("options", [{"rounds": 4}, {"distribution": "random"}, {"elimination": "never"}])
def test_options_outside_their_choices_are_refused(options: dict[str, Any]) -> None:
    error = refused_setup(["ann", "bob"], {"characters": DUO}, **options)
    assert isinstance(error, InvalidAction) and error.code == "invalid_options"


def test_a_full_mark_table_is_read_in_any_case_and_kept_canonical() -> None:
    table = {card.upper(): mark for card, mark in MARKS.items()}
    events = create(["ann", "bob"], {"characters": DUO, "marks": table})
    assert events[0]["data"]["setup"]["marks"] == MARKS


def test_a_mark_table_must_mark_all_sixty_cards() -> None:
    table = {card: mark for card, mark in MARKS.items() if card != "blue-7"}
    error = refused_setup(["ann", "bob"], {"characters": DUO, "marks": table})
    assert error.code == "marks_incomplete" and "blue-7" in error.message


def test_a_mark_table_may_only_mark_cards_of_the_deck() -> None:
    error = refused_setup(["ann", "bob"], {"characters": DUO, "marks": {**MARKS, "pink-3": "dark"}})
    assert error.code == "unknown_card" and "pink-3" in error.message


# --- starting a round ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_a_round_deals_all_sixty_cards_evenly_among_the_living(count: int) -> None:
    t = Table(dict(zip(NAMES[:count], CAST, strict=False)))
    started = of_type(t.start("ann"), "RoundStarted")[0]
    assert started["hand_size"] == 60 // count and started["dealt"] == NAMES[:count]
    assert {c["cards_left"] for c in t.view["characters"].values()} == {60 // count}


def test_the_named_leader_leads_the_first_trick() -> None:
    t = Table(TRIO)
    t.start("bob")
    assert t.view["phase"] == "playing" and t.view["to_act"] == ["bob"]
    assert t.view["trick"]["leader"] == "bob" and t.view["trick"]["order"] == ["bob", "cy", "ann"]


def test_a_round_led_by_someone_not_at_the_table_is_refused() -> None:
    assert Table(DUO).refused("start_round", leader="zed").code == "unknown_player"


def test_a_round_cannot_start_while_one_is_being_played() -> None:
    t = Table(DUO)
    t.start("ann")
    assert t.refused("start_round", leader="bob").code == "round_in_progress"


def test_recorded_hands_must_hold_as_many_cards_as_are_dealt() -> None:
    t = Table(DUO)
    hands = t.deal()
    hands["ann"] = hands["ann"][:-1]
    error = t.refused("start_round", leader="ann", hands=hands)
    assert error.code == "wrong_hand_size" and "29" in error.message and "30" in error.message


def test_recorded_hands_may_not_share_a_card() -> None:
    t = Table(DUO)
    hands = t.deal()
    hands["ann"][0] = hands["bob"][0]
    error = t.refused("start_round", leader="ann", hands=hands)
    assert error.code == "duplicate_card" and hands["bob"][0].replace("-", " ") in error.message


def test_recorded_hands_must_cover_every_living_player() -> None:
    t = Table(TRIO)
    hands = {p: h for p, h in t.deal().items() if p != "cy"}
    error = t.refused("start_round", leader="ann", hands=hands)
    assert error.code == "missing_player" and "cy" in error.message


def test_recorded_hands_hold_only_cards_of_the_deck() -> None:
    t = Table(DUO)
    hands = t.deal()
    hands["ann"][0] = "red-13"
    assert t.refused("start_round", leader="ann", hands=hands).code == "unknown_card"


def test_recorded_hands_are_shown_and_lose_each_card_played() -> None:
    t = Table(DUO)
    t.start("ann", record=True)
    t.play("ann", "red-1")
    assert "red-1" not in t.view["hands"]["ann"] and len(t.view["hands"]["ann"]) == 29
    assert t.view["characters"]["ann"]["cards_left"] == 29


# --- playing a card ----------------------------------------------------------------------------


def test_playing_before_any_round_has_started_is_refused() -> None:
    assert Table(DUO).refused("play", player="ann", card="red-1").code == "wrong_phase"


def test_playing_out_of_turn_is_refused_naming_whose_turn_it_is() -> None:
    t = Table(TRIO)
    t.start("ann")
    error = t.refused("play", player="cy", card="red-3")
    assert error.code == "not_your_turn" and "ann's turn" in error.message


def test_someone_not_at_the_table_cannot_play() -> None:
    t = Table(DUO)
    t.start("ann")
    assert t.refused("play", player="zed", card="red-1").code == "unknown_player"


@pytest.mark.parametrize("card", ["pink-3", "red-13", "red-0", "12-purple", "purple"])
def test_a_card_outside_the_deck_is_refused(card: str) -> None:
    t = Table(DUO)
    t.start("ann")
    error = t.refused("play", player="ann", card=card)
    assert error.code == "unknown_card" and card in error.message


def test_cards_and_players_are_read_in_any_case_and_recorded_canonically() -> None:
    t = Table(DUO)
    t.start("ann")
    played = of_type(t.act("play", player="ANN", card=" Purple-11 "), "CardPlayed")[0]
    assert played["player"] == "ann" and played["card"] == "purple-11"


def test_a_card_already_played_this_round_is_refused() -> None:
    t = duo_after_discarding("red-1", "red-2")
    error = t.refused("play", player="bob", card="red-1")
    assert error.code == "card_already_played" and "red 1" in error.message


def test_playing_while_a_won_trick_waits_for_its_distribution_is_refused() -> None:
    t = Table(DUO)
    t.start("ann")
    t.trick("red-1", "red-2")
    error = t.refused("play", player="bob", card="red-4")
    assert error.code == "distribution_pending" and "bob won trick 1" in error.message


# --- marks -------------------------------------------------------------------------------------


def test_with_a_mark_table_a_play_takes_its_cards_mark() -> None:
    t = Table(DUO)
    t.start("ann")
    assert of_type(t.play("ann", "green-1"), "CardPlayed")[0]["mark"] == "dark"


def test_with_a_mark_table_a_play_showing_another_mark_is_refused() -> None:
    t = Table(DUO)
    t.start("ann")
    error = t.refused("play", player="ann", card="green-1", mark="light")
    assert error.code == "wrong_mark" and "green 1" in error.message and "dark" in error.message


def test_without_a_mark_table_a_card_seen_for_the_first_time_needs_its_mark() -> None:
    t = Table(DUO, table=False)
    t.start("ann")
    error = t.refused("play", player="ann", card="red-1")
    assert error.code == "mark_required" and "red 1" in error.message
    t.play("ann", "red-1", mark="light")
    assert t.view["marks"] == {"red-1": "light"}


def test_a_card_shows_the_same_mark_whenever_it_appears_again_in_the_match() -> None:
    t = Table(DUO, table=False)
    t.start("ann")
    t.play("ann", "red-1", mark="light")
    t.finish_round()
    t.start("ann")
    error = t.refused("play", player="ann", card="red-1", mark="dark")
    assert error.code == "mark_changed" and "light" in error.message
    assert of_type(t.play("ann", "red-1"), "CardPlayed")[0]["mark"] == "light"


def test_a_card_played_last_round_may_be_played_again_this_round() -> None:
    t = Table(DUO)
    t.start("ann")
    t.play("ann", "red-1")
    t.finish_round()
    t.start("ann")
    assert types(t.play("ann", "red-1")) == ["CardPlayed"]


# --- following colour --------------------------------------------------------------------------


def test_with_hands_a_card_not_in_the_players_hand_is_refused() -> None:
    t = Table(DUO)
    t.start("ann", record=True)
    error = t.refused("play", player="ann", card="red-2")
    assert error.code == "card_not_in_hand" and "ann" in error.message


@pytest.mark.parametrize(
    ("led", "off_colour"),
    [
        pytest.param("red-1", "yellow-2", id="red_led"),
        pytest.param("purple-1", "red-2", id="purple_led_must_be_followed_with_purple"),
    ],
)
def test_with_hands_a_player_holding_the_led_colour_must_follow_it(led: str, off_colour: str) -> None:
    t = Table(DUO)
    t.start("ann", record=True)
    t.play("ann", led)
    error = t.refused("play", player="bob", card=off_colour)
    assert error.code == "must_follow_colour" and led.split("-")[0] in error.message


def test_with_hands_a_player_without_the_led_colour_may_play_any_card() -> None:
    t = Table(DUO)
    reds = [c for c in DECK if c.startswith("red")]
    rest = [c for c in DECK if not c.startswith("red")]
    t.act("start_round", leader="ann", hands={"ann": reds + rest[:18], "bob": rest[18:]})
    t.act("play", player="ann", card="red-1")
    assert of_type(t.act("play", player="bob", card="purple-1"), "TrickWon")[0]["player"] == "bob"


def test_without_hands_a_later_play_proving_a_revoke_is_accepted_with_a_dispute() -> None:
    t = duo_after_discarding("red-1", "yellow-2")
    t.play("ann", "blue-1")
    events = t.play("bob", "red-4")
    assert types(events)[:2] == ["CardPlayed", "DisputeRaised"]
    dispute = of_type(events, "DisputeRaised")[0]["dispute"]
    assert dispute["code"] == "revoke" and dispute["player"] == "bob" and dispute["trick"] == 1
    assert "red" in dispute["message"] and "trick 1" in dispute["message"]
    assert t.view["disputes"] == [dispute]


def test_a_revoke_is_disputed_once_however_often_the_colour_is_played_again() -> None:
    t = duo_after_discarding("red-1", "yellow-2")
    t.trick("blue-1", "red-4")
    t.give(blue_1="discard", red_4="discard")
    t.trick("blue-3", "red-6")
    assert len(t.view["disputes"]) == 1


def test_following_the_led_colour_raises_no_dispute() -> None:
    t = duo_after_discarding("red-1", "red-2")
    t.trick("red-4", "red-3")
    assert t.view["disputes"] == []


# --- who wins a trick --------------------------------------------------------------------------


def test_without_purple_the_highest_card_of_the_led_colour_wins() -> None:
    t = Table(TRIO)
    t.start("ann")
    won = of_type(t.trick("red-1", "red-5", "red-3"), "TrickWon")[0]
    assert won["player"] == "bob" and won["card"] == "red-5"
    assert won["cards"] == ["red-1", "red-5", "red-3"]
    assert t.view["phase"] == "distributing" and t.view["to_act"] == ["bob"]


def test_the_highest_purple_wins_the_trick() -> None:
    t = Table(TRIO)
    t.start("ann")
    assert of_type(t.trick("red-10", "purple-2", "purple-3"), "TrickWon")[0]["player"] == "cy"


def test_a_card_of_another_colour_never_wins_however_high() -> None:
    t = Table(TRIO)
    t.start("ann")
    assert of_type(t.trick("red-1", "blue-11", "red-3"), "TrickWon")[0]["player"] == "cy"
