"""Wizard's rules through the public contract: setup, decide, evolve, view, scores, validation."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.contract import InvalidAction, RuleViolation
from games.registry import all_games, get_game
from games.validation import validate_action, validate_match
from tests.support import games as support

GAME = get_game("wizard")
State = dict[str, Any]
THREE = ["ann", "bob", "cy"]
FOUR = ["ann", "bob", "cy", "dee"]


# --- helpers: build matches through the public contract --------------------------------------


def create(players: list[str] | None = None, first_dealer: str = "ann", **options: Any) -> State:
    """A new match folded from setup's events (first dealer ann unless said otherwise)."""
    return support.create(GAME, players or THREE, {"first_dealer": first_dealer}, options)


def act(state: State, type_: str, **fields: Any) -> tuple[State, list[dict[str, Any]]]:
    """Validate, decide and fold one action on a copy of ``state``; the new state and events."""
    return support.act(GAME, state, {"type": type_, **fields})


def run(state: State, *actions: dict[str, Any]) -> State:
    """The state after several actions."""
    return support.run(GAME, state, actions)


def refused(state: State, type_: str, **fields: Any) -> RuleViolation:
    """The RuleViolation an action meets; the state it was refused on is left unchanged."""
    return support.refused(GAME, state, {"type": type_, **fields})


types = support.types


def bids(*pairs: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"type": "bid", "player": p, "tricks": n} for p, n in pairs]


def plays(*pairs: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"type": "play", "player": p, "card": c} for p, c in pairs]


def zero_round(players: list[str], winner: str, round_no: int) -> dict[str, Any]:
    """A record_round where everyone bid 0 and ``winner`` took every trick."""
    return {
        "type": "record_round",
        "bids": {p: 0 for p in players},
        "tricks": {p: round_no if p == winner else 0 for p in players},
    }


def trick(cards: list[str], trump_card: str = "3C", suit: str | None = None) -> str:
    """Who wins a round-1 trick of four players (bob leads, then cy, dee, ann)."""
    state, _ = act(create(FOUR), "start_round", trump_card=trump_card)
    if suit:
        state, _ = act(state, "choose_trump", suit=suit)
    state = run(state, *bids(("bob", 0), ("cy", 0), ("dee", 0), ("ann", 0)))
    state = run(state, *plays(*zip(["bob", "cy", "dee"], cards[:3], strict=True)))
    _, events = act(state, "play", player="ann", card=cards[3])
    won = [e for e in events if e["type"] == "TrickWon"]
    return str(won[0]["data"]["player"])


def round_two(hands: dict[str, list[str]] | None = None, trump_card: str = "2C") -> State:
    """Three players in round 2 (dealer bob; cy bids and leads first), everyone bid 1."""
    state = run(create(), zero_round(THREE, "cy", 1))
    fields: dict[str, Any] = {"trump_card": trump_card}
    if hands is not None:
        fields["hands"] = hands
    state, _ = act(state, "start_round", **fields)
    return run(state, *bids(("cy", 1), ("ann", 1), ("bob", 1)))


# --- the registry, the schemas and setup -----------------------------------------------------


def test_the_registry_finds_wizard_by_itself() -> None:
    assert all_games()["wizard"] is GAME


def test_every_option_publishes_its_default_and_every_field_a_description() -> None:
    for prop in GAME.options_schema["properties"].values():
        assert "default" in prop and prop["description"]
    for schema in GAME.actions.values():
        assert schema["additionalProperties"] is False
        assert all(p.get("description") for p in schema["properties"].values())


def test_a_match_starts_with_match_created_and_the_options_defaults_filled_in() -> None:
    names, setup, options = validate_match(GAME, THREE, {"first_dealer": "bob"}, {})
    assert GAME.setup(names, setup, options) == [
        {
            "type": "MatchCreated",
            "data": {
                "players": THREE,
                "setup": {"first_dealer": "bob"},
                "options": {"bidding": "clockwise", "canadian_rule": False},
            },
        }
    ]


@pytest.mark.parametrize(("count", "rounds"), [(2, 30), (3, 20), (4, 15), (5, 12), (6, 10)])
def test_the_match_has_sixty_cards_divided_by_the_players_rounds(count: int, rounds: int) -> None:
    assert GAME.view(create(FOUR[:2] + ["eve", "fay", "gus", "hal"][: count - 2]))["rounds_total"] == rounds


def test_a_first_dealer_who_is_not_seated_is_refused_by_name() -> None:
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(THREE, {"first_dealer": "zed"}, {})
    assert caught.value.code == "unknown_player" and "'zed'" in caught.value.message


def test_a_match_without_a_first_dealer_is_a_shape_error() -> None:
    with pytest.raises(InvalidAction) as caught:
        validate_match(GAME, THREE, {}, {})
    assert caught.value.code == "invalid_setup"


def test_an_unknown_bidding_option_is_a_shape_error() -> None:
    with pytest.raises(InvalidAction) as caught:
        validate_match(GAME, THREE, {"first_dealer": "ann"}, {"bidding": "shouted"})
    assert caught.value.code == "invalid_options"


@pytest.mark.parametrize("bidding", ["simultaneous", "secret"])
def test_the_canadian_rule_needs_clockwise_bidding(bidding: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        create(bidding=bidding, canadian_rule=True)
    assert caught.value.code == "options_conflict"


def test_a_new_match_waits_for_the_first_dealer_to_deal_round_one() -> None:
    view = GAME.view(create(first_dealer="bob"))
    assert (view["phase"], view["round"], view["dealer"], view["to_act"]) == (
        "start_round",
        1,
        "bob",
        ["bob"],
    )
    assert view["players"] == THREE and view["finished"] is False and view["disputes"] == []


# --- action shapes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "shout"}, "unknown_action"),
        ({"type": "bid", "player": "bob"}, "invalid_action"),
        ({"type": "bid", "player": "bob", "tricks": "two"}, "invalid_action"),
        ({"type": "bid", "player": "bob", "tricks": -1}, "invalid_action"),
        ({"type": "play", "player": "bob", "card": "7H", "face": "up"}, "invalid_action"),
        ({"type": "start_round", "trump_card": 7}, "invalid_action"),
        ({"type": "record_round", "bids": {"ann": 0}}, "invalid_action"),
        ("not an object", "invalid_action"),
    ],
)
def test_actions_of_the_wrong_shape_are_refused_before_the_rules(action: Any, code: str) -> None:
    with pytest.raises(InvalidAction) as caught:
        validate_action(GAME, action)
    assert caught.value.code == code


# --- dealing and trump -----------------------------------------------------------------------


def test_a_turned_suit_card_makes_its_suit_trump_and_the_left_of_the_dealer_bids_first() -> None:
    state, events = act(create(), "start_round", trump_card="7h")
    assert events == [
        {
            "type": "RoundStarted",
            "data": {"round": 1, "dealer": "ann", "trump_card": "7H", "trump": "H", "hands": {}},
        }
    ]
    view = GAME.view(state)
    assert (view["phase"], view["trump"], view["to_act"]) == ("bidding", "H", ["bob"])


def test_a_turned_jester_means_no_trump() -> None:
    state, _ = act(create(), "start_round", trump_card="Jester")
    assert GAME.view(state)["trump"] == "none"
    assert GAME.view(state)["trump_card"] == "jester"


def test_a_turned_wizard_waits_for_the_dealer_to_choose_a_suit() -> None:
    state, _ = act(create(), "start_round", trump_card="WIZARD")
    view = GAME.view(state)
    assert (view["phase"], view["trump"], view["to_act"]) == (
        "choose_trump",
        "dealer_chooses",
        ["ann"],
    )
    assert refused(state, "bid", player="bob", tricks=0).code == "wrong_phase"
    state, events = act(state, "choose_trump", suit="h", player="ann")
    assert events == [{"type": "TrumpChosen", "data": {"round": 1, "dealer": "ann", "suit": "H"}}]
    assert (GAME.view(state)["trump"], GAME.view(state)["phase"]) == ("H", "bidding")


def test_the_dealer_may_name_the_suit_in_words() -> None:
    state, _ = act(create(), "start_round", trump_card="wizard")
    state, _ = act(state, "choose_trump", suit="Spades")
    assert state["trump"] == "S"


def test_after_a_turned_wizard_no_trump_is_not_allowed() -> None:
    state, _ = act(create(), "start_round", trump_card="wizard")
    assert refused(state, "choose_trump", suit="none").code == "no_trump_not_allowed"
    assert refused(state, "choose_trump", suit="stars").code == "unknown_suit"


def test_only_the_dealer_chooses_trump() -> None:
    state, _ = act(create(), "start_round", trump_card="wizard")
    violation = refused(state, "choose_trump", suit="H", player="bob")
    assert violation.code == "not_your_turn" and "ann" in violation.message


def test_choosing_trump_without_a_turned_wizard_is_the_wrong_phase() -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    assert refused(state, "choose_trump", suit="S").code == "wrong_phase"
    assert refused(create(), "choose_trump", suit="S").code == "wrong_phase"


def test_a_round_other_than_the_last_needs_its_turned_card() -> None:
    violation = refused(create(), "start_round")
    assert violation.code == "trump_card_required"
    assert refused(create(), "start_round", trump_card=None).code == "trump_card_required"


def test_an_unknown_turned_card_is_refused_by_name() -> None:
    violation = refused(create(), "start_round", trump_card="joker")
    assert violation.code == "unknown_card" and "'joker'" in violation.message


def last_round_of_six() -> State:
    """Six players after nine rounds recorded whole: round 10, the last, is next."""
    players = ["ann", "bob", "cy", "dee", "eve", "fay"]
    state = create(players)
    return run(state, *[zero_round(players, "ann", r) for r in range(1, 10)])


def test_in_the_last_round_nothing_is_turned_and_there_is_no_trump() -> None:
    state = last_round_of_six()
    assert refused(state, "start_round", trump_card="7H").code == "no_trump_card_in_last_round"
    started, events = act(state, "start_round")
    assert events[0]["data"]["trump_card"] is None and events[0]["data"]["trump"] is None
    assert GAME.view(started)["trump"] == "none" and GAME.view(started)["round"] == 10
    assert act(state, "start_round", trump_card=None)[1] == events


def test_the_last_round_deals_the_whole_deck() -> None:
    state = last_round_of_six()
    deck = [r + s for s in "SHDC" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()]
    deck += ["wizard"] * 4 + ["jester"] * 4
    hands = {p: deck[i * 10 : (i + 1) * 10] for i, p in enumerate(state["players"])}
    started, _ = act(state, "start_round", hands=hands)
    assert sorted(c for h in GAME.view(started)["hands"].values() for c in h) == sorted(deck)


# --- recorded hands --------------------------------------------------------------------------


def test_recorded_hands_are_spelled_canonically_and_shown_in_the_view() -> None:
    state = run(create(), zero_round(THREE, "cy", 1))
    state, events = act(
        state, "start_round", trump_card="2c", hands={"ANN": ["qd", "10s"], "cy": ["Wizard", "ah"]}
    )
    assert events[0]["data"]["hands"] == {"ann": ["QD", "10S"], "cy": ["wizard", "AH"]}
    assert GAME.view(state)["hands"] == {"ann": ["QD", "10S"], "cy": ["wizard", "AH"]}


@pytest.mark.parametrize(
    ("hands", "trump_card", "code"),
    [
        ({"ann": ["QD"]}, "2C", "wrong_hand_size"),
        ({"ann": ["QD", "KD", "AD"]}, "2C", "wrong_hand_size"),
        ({"ann": ["QD", "KD"], "bob": ["QD", "2H"]}, "2C", "duplicate_card"),
        ({"ann": ["QD", "2C"]}, "2C", "card_in_two_places"),
        ({"ann": ["wizard", "wizard"], "bob": ["wizard", "wizard"]}, "wizard", "too_many_copies"),
        ({"ann": ["QD", "XX"]}, "2C", "unknown_card"),
        ({"zed": ["QD", "KD"]}, "2C", "unknown_player"),
    ],
)
def test_a_deal_that_cannot_be_is_refused(hands: dict[str, list[str]], trump_card: str, code: str) -> None:
    state = run(create(), zero_round(THREE, "cy", 1))
    assert refused(state, "start_round", trump_card=trump_card, hands=hands).code == code


def test_hands_shrink_as_their_cards_are_played() -> None:
    state = round_two(hands={"cy": ["5H", "6H"], "ann": ["7S", "KH"], "bob": ["9H", "3D"]})
    state = run(state, *plays(("cy", "5H")))
    assert GAME.view(state)["hands"]["cy"] == ["6H"]


# --- bidding ---------------------------------------------------------------------------------


def test_clockwise_bids_go_from_the_dealers_left_and_are_shown_as_they_come() -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    state, events = act(state, "bid", player="bob", tricks=1)
    assert events == [{"type": "BidPlaced", "data": {"round": 1, "player": "bob", "tricks": 1}}]
    view = GAME.view(state)
    assert (view["bids"], view["to_act"], view["have_bid"]) == ({"bob": 1}, ["cy"], ["bob"])


@pytest.mark.parametrize(
    ("player", "tricks", "code", "said"),
    [
        pytest.param("cy", 0, "not_your_turn", "bob", id="out_of_turn_naming_whose_turn_it_is"),
        pytest.param("bob", 2, "bid_out_of_range", "0 to 1", id="above_the_rounds_cards"),
        pytest.param("zed", 0, "unknown_player", "'zed'", id="by_someone_not_seated_by_name"),
    ],
)
def test_a_first_round_bid_is_refused_saying_why(player: str, tricks: int, code: str, said: str) -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    violation = refused(state, "bid", player=player, tricks=tricks)
    assert violation.code == code and said in violation.message


def test_player_names_are_matched_regardless_of_case() -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    _, events = act(state, "bid", player="BOB", tricks=0)
    assert events[0]["data"]["player"] == "bob"


def test_a_bid_before_the_round_starts_is_the_wrong_phase() -> None:
    violation = refused(create(), "bid", player="bob", tricks=0)
    assert violation.code == "wrong_phase" and "start_round" in violation.message


def test_the_last_bid_opens_play_with_the_left_of_the_dealer_leading() -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    state = run(state, *bids(("bob", 0), ("cy", 1), ("ann", 0)))
    view = GAME.view(state)
    assert (view["phase"], view["to_act"], view["trick_number"]) == ("playing", ["bob"], 1)


def test_simultaneous_bids_come_in_any_order_and_are_revealed_together() -> None:
    state, _ = act(create(bidding="simultaneous"), "start_round", trump_card="7H")
    assert GAME.view(state)["to_act"] == ["bob", "cy", "ann"]
    state, _ = act(state, "bid", player="ann", tricks=1)
    view = GAME.view(state)
    assert (view["bids"], view["have_bid"], view["to_act"]) == ({}, ["ann"], ["bob", "cy"])
    assert refused(state, "bid", player="ann", tricks=0).code == "already_bid"
    state, _ = act(state, "bid", player="cy", tricks=0)
    state, events = act(state, "bid", player="bob", tricks=0)
    assert types(events) == ["BidPlaced", "BidsRevealed"]
    assert events[1]["data"] == {"round": 1, "bids": {"ann": 1, "bob": 0, "cy": 0}}
    assert GAME.view(state)["bids"] == {"ann": 1, "bob": 0, "cy": 0}


def test_secret_bids_stay_hidden_until_the_round_is_scored() -> None:
    state, _ = act(create(bidding="secret"), "start_round", trump_card="7H")
    state = run(state, *bids(("cy", 1), ("ann", 0), ("bob", 0)))
    view = GAME.view(state)
    assert (view["bids"], view["have_bid"], view["phase"]) == ({}, THREE, "playing")
    state = run(state, *plays(("bob", "2H"), ("cy", "AH")))
    assert GAME.view(state)["bids"] == {}
    state = run(state, *plays(("ann", "3H")))
    assert GAME.scores(state)["rounds"][0]["bids"] == {"ann": 0, "bob": 0, "cy": 1}
    assert GAME.view(state)["bids"] == {}  # the next round's bids, none yet


# --- the canadian rule -----------------------------------------------------------------------


def bob_deals_round_two(canadian: bool, round_one: dict[str, Any]) -> State:
    """Round 2 (dealer bob, who bids last after cy and ann) after ``round_one`` was recorded."""
    state = run(create(canadian_rule=canadian), {"type": "record_round", **round_one})
    state, _ = act(state, "start_round", trump_card="2C")
    return state


BOB_LEADS = {"bids": {"ann": 0, "bob": 1, "cy": 0}, "tricks": {"ann": 0, "bob": 1, "cy": 0}}
BOB_TIES_ANN = {"bids": {"ann": 0, "bob": 0, "cy": 0}, "tricks": {"ann": 0, "bob": 0, "cy": 1}}


def test_the_canadian_rule_stops_the_leading_dealer_making_the_bids_add_up() -> None:
    state = run(bob_deals_round_two(True, BOB_LEADS), *bids(("cy", 1), ("ann", 0)))
    violation = refused(state, "bid", player="bob", tricks=1)
    assert violation.code == "canadian_rule" and "bob" in violation.message
    assert act(state, "bid", player="bob", tricks=2)[0]["phase"] == "playing"


def test_under_the_canadian_rule_the_dealer_may_always_bid_zero() -> None:
    state = run(bob_deals_round_two(True, BOB_LEADS), *bids(("cy", 1), ("ann", 1)))
    assert act(state, "bid", player="bob", tricks=0)[0]["phase"] == "playing"


def test_the_canadian_rule_does_not_bind_a_dealer_who_shares_the_lead() -> None:
    state = run(bob_deals_round_two(True, BOB_TIES_ANN), *bids(("cy", 1), ("ann", 0)))
    assert act(state, "bid", player="bob", tricks=1)[0]["phase"] == "playing"


def test_without_the_canadian_rule_the_leading_dealer_may_make_the_bids_add_up() -> None:
    state = run(bob_deals_round_two(False, BOB_LEADS), *bids(("cy", 1), ("ann", 0)))
    assert act(state, "bid", player="bob", tricks=1)[0]["phase"] == "playing"


def test_the_canadian_rule_applies_to_a_round_recorded_whole() -> None:
    state = run(create(canadian_rule=True), {"type": "record_round", **BOB_LEADS})
    tricks = {"ann": 0, "bob": 1, "cy": 1}
    violation = refused(state, "record_round", bids={"ann": 0, "bob": 1, "cy": 1}, tricks=tricks)
    assert violation.code == "canadian_rule"
    state, _ = act(state, "record_round", bids={"ann": 0, "bob": 0, "cy": 2}, tricks=tricks)
    assert state["round"] == 3


# --- who wins a trick ------------------------------------------------------------------------


def test_of_several_wizards_the_first_wins() -> None:
    assert trick(["5H", "wizard", "wizard", "2H"]) == "cy"


def test_a_jester_led_then_a_wizard_the_wizard_wins() -> None:
    assert trick(["jester", "wizard", "AS", "2C"]) == "cy"


def test_when_all_play_jesters_the_first_jester_wins() -> None:
    assert trick(["jester", "jester", "jester", "jester"]) == "bob"


def test_a_trump_ten_beats_the_led_ace() -> None:
    assert trick(["AS", "10H", "KS", "2S"], trump_card="3H") == "cy"


def test_an_off_suit_ace_loses_to_the_led_suit() -> None:
    assert trick(["5S", "AD", "7S", "2H"], trump_card="3C") == "dee"


def test_after_a_jester_lead_the_first_suit_card_sets_the_suit() -> None:
    assert trick(["jester", "5D", "AS", "9D"], trump_card="jester") == "ann"


def test_with_no_trump_the_highest_card_of_the_led_suit_wins() -> None:
    assert trick(["QS", "KS", "AH", "3S"], trump_card="jester") == "cy"


def test_the_dealers_chosen_suit_is_trump_after_a_turned_wizard() -> None:
    assert trick(["AS", "KS", "2H", "QS"], trump_card="wizard", suit="H") == "dee"


def test_a_jester_never_wins_against_a_suit_card() -> None:
    assert trick(["2D", "jester", "jester", "jester"], trump_card="3C") == "bob"


def test_the_play_that_completes_a_trick_records_its_winner_who_leads_next() -> None:
    state = round_two()
    state = run(state, *plays(("cy", "5H"), ("ann", "7H")))
    state, events = act(state, "play", player="bob", card="6H")
    assert types(events) == ["CardPlayed", "TrickWon"]
    assert events[1]["data"] == {
        "round": 2,
        "trick": 1,
        "player": "ann",
        "cards": [
            {"player": "cy", "card": "5H"},
            {"player": "ann", "card": "7H"},
            {"player": "bob", "card": "6H"},
        ],
    }
    view = GAME.view(state)
    assert (view["to_act"], view["trick"], view["trick_number"]) == (["ann"], [], 2)
    assert view["tricks"] == {"ann": 1, "bob": 0, "cy": 0}
    assert [p["card"] for p in view["played"]] == ["5H", "7H", "6H"]


def test_the_trick_on_the_table_is_shown_as_it_grows() -> None:
    state = run(round_two(), *plays(("cy", "5H")))
    view = GAME.view(state)
    assert view["trick"] == [{"player": "cy", "card": "5H"}] and view["to_act"] == ["ann"]


# --- what can be played ----------------------------------------------------------------------


def test_cards_are_read_in_any_case_and_recorded_canonically() -> None:
    state = round_two()
    state, events = act(state, "play", player="cy", card="10s")
    state, more = act(state, "play", player="ann", card="qd")
    _, last = act(state, "play", player="bob", card="WiZaRd")
    assert [e["data"]["card"] for e in [events[0], more[0], last[0]]] == ["10S", "QD", "wizard"]


def test_a_play_out_of_turn_is_refused_naming_whose_turn_it_is() -> None:
    violation = refused(round_two(), "play", player="ann", card="5H")
    assert violation.code == "not_your_turn" and "cy" in violation.message


def test_a_play_during_bidding_is_the_wrong_phase() -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    assert refused(state, "play", player="bob", card="5H").code == "wrong_phase"


@pytest.mark.parametrize("card", ["1H", "11S", "ZZ", "joker", "H7"])
def test_a_card_that_does_not_exist_is_refused_by_name(card: str) -> None:
    violation = refused(round_two(), "play", player="cy", card=card)
    assert violation.code == "unknown_card" and repr(card) in violation.message


def test_a_card_already_played_this_round_is_refused() -> None:
    state = run(round_two(), *plays(("cy", "5H")))
    violation = refused(state, "play", player="ann", card="5h")
    assert violation.code == "card_already_played" and "cy" in violation.message


def test_the_turned_trump_card_cannot_be_played() -> None:
    assert refused(round_two(trump_card="2C"), "play", player="cy", card="2C").code == (
        "card_turned_for_trump"
    )


def test_a_fifth_wizard_is_refused() -> None:
    state, _ = act(create(FOUR), "start_round", trump_card="wizard")
    state, _ = act(state, "choose_trump", suit="H")
    state = run(state, *bids(("bob", 0), ("cy", 0), ("dee", 0), ("ann", 0)))
    state = run(state, *plays(("bob", "wizard"), ("cy", "wizard"), ("dee", "wizard")))
    assert refused(state, "play", player="ann", card="wizard").code == "no_copy_left"
    assert act(state, "play", player="ann", card="jester")[0]["round"] == 2


def test_a_wizard_held_in_another_recorded_hand_counts_against_the_four() -> None:
    hands = {"ann": ["wizard", "wizard"], "bob": ["wizard", "wizard"]}
    state = round_two(hands=hands, trump_card="jester")
    assert refused(state, "play", player="cy", card="wizard").code == "no_copy_left"


def test_a_card_dealt_to_another_recorded_hand_cannot_be_played() -> None:
    state = round_two(hands={"ann": ["7S", "KH"]})
    violation = refused(state, "play", player="cy", card="KH")
    assert violation.code == "card_in_another_hand" and "ann" in violation.message


def test_with_hands_recorded_a_card_not_in_the_hand_is_refused() -> None:
    state = round_two(hands={"cy": ["5H", "6H"]})
    violation = refused(state, "play", player="cy", card="7H")
    assert violation.code == "card_not_in_hand" and "5H, 6H" in violation.message


def test_with_hands_recorded_failing_to_follow_suit_is_refused_at_once() -> None:
    state = round_two(hands={"cy": ["5H", "6H"], "ann": ["7S", "KH"], "bob": ["9H", "3D"]})
    state = run(state, *plays(("cy", "5H")))
    violation = refused(state, "play", player="ann", card="7S")
    assert violation.code == "must_follow_suit" and "KH" in violation.message
    assert act(state, "play", player="ann", card="KH")[0]["trick"][-1]["card"] == "KH"


def test_a_wizard_or_a_jester_may_be_played_while_holding_the_led_suit() -> None:
    hands = {"cy": ["5H", "6H"], "ann": ["wizard", "KH"], "bob": ["jester", "9H"]}
    state = run(round_two(hands=hands), *plays(("cy", "5H"), ("ann", "wizard")))
    assert act(state, "play", player="bob", card="jester")[0]["tricks"]["ann"] == 1


def test_after_a_wizard_lead_anyone_may_play_anything() -> None:
    hands = {"cy": ["wizard", "6H"], "ann": ["7S", "KH"], "bob": ["9H", "3D"]}
    state = run(round_two(hands=hands), *plays(("cy", "wizard"), ("ann", "7S")))
    assert act(state, "play", player="bob", card="3D")[0]["tricks"]["cy"] == 1


def test_after_a_jester_lead_the_first_suit_card_must_be_followed() -> None:
    hands = {"cy": ["jester", "6H"], "ann": ["7S", "KH"], "bob": ["9H", "3D"]}
    state = run(round_two(hands=hands), *plays(("cy", "jester"), ("ann", "KH")))
    assert refused(state, "play", player="bob", card="3D").code == "must_follow_suit"
    assert act(state, "play", player="bob", card="9H")[0]["tricks"]["ann"] == 1


# --- revokes found later ---------------------------------------------------------------------


def revoked_in_trick_one() -> State:
    """Round 2 without hands: ann showed void in hearts in trick 1; bob won it and leads."""
    return run(round_two(), *plays(("cy", "5H"), ("ann", "7S"), ("bob", "9H")))


def test_a_revoke_found_later_is_accepted_and_raises_a_dispute_naming_the_earlier_trick() -> None:
    state = run(revoked_in_trick_one(), *plays(("bob", "3D"), ("cy", "4D")))
    state, events = act(state, "play", player="ann", card="KH")
    assert types(events) == ["CardPlayed", "DisputeRaised", "TrickWon", "RoundScored"]
    dispute = events[1]["data"]["dispute"]
    assert {k: dispute[k] for k in ("code", "round", "trick", "player", "suit")} == {
        "code": "revoke",
        "round": 2,
        "trick": 1,
        "player": "ann",
        "suit": "H",
    }
    assert all(word in dispute["message"] for word in ("ann", "hearts", "round 2", "trick 1"))
    assert GAME.view(state)["disputes"] == [dispute] and state["disputes"] == [dispute]


def test_a_revoke_in_one_suit_is_disputed_once_per_round() -> None:
    state = run(create(), zero_round(THREE, "cy", 1), zero_round(THREE, "cy", 2))
    state, _ = act(state, "start_round", trump_card="2C")  # round 3: dealer cy, ann leads
    state = run(state, *bids(("ann", 0), ("bob", 0), ("cy", 0)))
    state = run(state, *plays(("ann", "5H"), ("bob", "7S"), ("cy", "9H")))  # bob void in H
    state = run(state, *plays(("cy", "3D"), ("ann", "4D"), ("bob", "KH")))  # revoke: dispute
    state = run(state, *plays(("ann", "6S"), ("bob", "QH"), ("cy", "8S")))
    assert [d["trick"] for d in state["disputes"]] == [1]


def test_every_revoke_is_its_own_dispute_even_in_the_same_suit_and_round() -> None:
    state = run(create(), *[zero_round(THREE, "cy", r) for r in (1, 2, 3)])
    state, _ = act(state, "start_round", trump_card="2C")  # round 4: dealer ann, bob leads
    state = run(state, *bids(("bob", 0), ("cy", 0), ("ann", 0)))
    state = run(state, *plays(("bob", "5H"), ("cy", "7S"), ("ann", "9H")))  # cy void in H
    state = run(state, *plays(("ann", "3D"), ("bob", "4D"), ("cy", "KH")))  # revoke 1
    state = run(state, *plays(("bob", "6H"), ("cy", "8S"), ("ann", "QH")))  # cy void in H again
    state, events = act(state, "play", player="ann", card="2D")
    state = run(state, *plays(("bob", "5D")))
    state, events = act(state, "play", player="cy", card="JH")  # revoke 2
    assert [(d["player"], d["suit"], d["trick"]) for d in state["disputes"]] == [
        ("cy", "H", 1),
        ("cy", "H", 3),
    ]
    assert "trick 3" in events[1]["data"]["dispute"]["message"]


def test_a_wizard_or_jester_instead_of_the_led_suit_shows_no_void() -> None:
    state = run(round_two(), *plays(("cy", "5H"), ("ann", "jester"), ("bob", "9H")))
    state = run(state, *plays(("bob", "3D"), ("cy", "4D"), ("ann", "KH")))
    assert state["disputes"] == []


def test_a_dispute_never_stops_the_recording() -> None:
    state = run(revoked_in_trick_one(), *plays(("bob", "3D"), ("cy", "4D"), ("ann", "KH")))
    assert GAME.view(state)["round"] == 3 and len(GAME.scores(state)["rounds"]) == 2


# --- scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [(0, 0, 20), (1, 1, 30), (5, 5, 70), (0, 2, -20), (4, 2, -20), (2, 3, -10)],
)
def test_a_round_scores_by_the_bid_and_the_tricks_won(bid: int, won: int, points: int) -> None:
    round_no = max(1, bid, won)
    state = create(["ann", "bob"])
    state = run(state, *[zero_round(["ann", "bob"], "bob", r) for r in range(1, round_no)])
    state, _ = act(
        state,
        "record_round",
        bids={"ann": bid, "bob": 0},
        tricks={"ann": won, "bob": round_no - won},
    )
    assert GAME.scores(state)["rounds"][-1]["points"]["ann"] == points


def test_the_last_trick_scores_the_round_and_the_next_dealer_deals() -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    state = run(state, *bids(("bob", 1), ("cy", 1), ("ann", 0)), *plays(("bob", "AH"), ("cy", "2H")))
    state, events = act(state, "play", player="ann", card="3H")
    assert types(events) == ["CardPlayed", "TrickWon", "RoundScored"]
    assert events[2]["data"] == {
        "round": 1,
        "bids": {"ann": 0, "bob": 1, "cy": 1},
        "tricks": {"ann": 0, "bob": 1, "cy": 0},
        "points": {"ann": 20, "bob": 30, "cy": -10},
        "totals": {"ann": 20, "bob": 30, "cy": -10},
    }
    view = GAME.view(state)
    assert (view["round"], view["dealer"], view["phase"], view["to_act"]) == (
        2,
        "bob",
        "start_round",
        ["bob"],
    )
    assert view["totals"] == {"ann": 20, "bob": 30, "cy": -10}


def test_a_round_recorded_whole_is_scored_like_a_played_one() -> None:
    state, events = act(
        create(),
        "record_round",
        bids={"ann": 0, "bob": 1, "cy": 1},
        tricks={"ann": 0, "bob": 1, "cy": 0},
    )
    assert types(events) == ["RoundRecorded", "RoundScored"]
    assert GAME.scores(state) == {
        "finished": False,
        "winners": [],
        "totals": {"ann": 20, "bob": 30, "cy": -10},
        "rounds": [
            {
                "round": 1,
                "bids": {"ann": 0, "bob": 1, "cy": 1},
                "tricks": {"ann": 0, "bob": 1, "cy": 0},
                "points": {"ann": 20, "bob": 30, "cy": -10},
            }
        ],
    }


@pytest.mark.parametrize(
    ("bids_", "tricks", "code"),
    [
        ({"ann": 0, "bob": 0, "cy": 0}, {"ann": 0, "bob": 0, "cy": 0}, "tricks_do_not_add_up"),
        ({"ann": 0, "bob": 0}, {"ann": 0, "bob": 0, "cy": 1}, "missing_player"),
        ({"ann": 0, "bob": 0, "cy": 2}, {"ann": 0, "bob": 0, "cy": 1}, "bid_out_of_range"),
        ({"ann": 0, "bob": 0, "cy": 0}, {"ann": 0, "bob": 0, "cy": 2}, "tricks_out_of_range"),
        ({"ann": 0, "bob": 0, "zed": 0}, {"ann": 0, "bob": 0, "cy": 1}, "unknown_player"),
    ],
)
def test_a_round_recorded_whole_that_cannot_be_is_refused(
    bids_: dict[str, int], tricks: dict[str, int], code: str
) -> None:
    assert refused(create(), "record_round", bids=bids_, tricks=tricks).code == code


def test_a_round_cannot_be_recorded_whole_once_it_has_started() -> None:
    state, _ = act(create(), "start_round", trump_card="7H")
    assert (
        refused(
            state,
            "record_round",
            bids={"ann": 0, "bob": 0, "cy": 0},
            tricks={"ann": 0, "bob": 0, "cy": 1},
        ).code
        == "wrong_phase"
    )
    assert refused(state, "start_round", trump_card="8H").code == "wrong_phase"


def test_rounds_may_mix_both_ways_of_recording() -> None:
    state = run(create(), zero_round(THREE, "bob", 1))
    state, _ = act(state, "start_round", trump_card="2C")
    state = run(state, *bids(("cy", 0), ("ann", 0), ("bob", 2)))
    state = run(state, *plays(("cy", "3H"), ("ann", "4H"), ("bob", "AH")))
    state = run(state, *plays(("bob", "KH"), ("cy", "5H"), ("ann", "6H")))
    state = run(state, zero_round(THREE, "ann", 3))
    assert GAME.scores(state)["totals"] == {"ann": 40 - 30, "bob": -10 + 40 + 20, "cy": 60}


# --- the end of the match --------------------------------------------------------------------


def test_the_match_ends_after_the_last_round_and_the_highest_total_wins() -> None:
    state = last_round_of_six()
    state, events = act(
        state,
        "record_round",
        bids={p: 0 for p in state["players"]},
        tricks={p: 10 if p == "bob" else 0 for p in state["players"]},
    )
    assert types(events) == ["RoundRecorded", "RoundScored", "MatchFinished"]
    scores = GAME.scores(state)
    assert scores["finished"] is True and scores["winners"] == ["cy", "dee", "eve", "fay"]
    assert scores["totals"]["cy"] == 200 and len(scores["rounds"]) == 10
    view = GAME.view(state)
    assert (view["phase"], view["to_act"], view["finished"]) == ("finished", [], True)


def test_equal_top_totals_share_the_win() -> None:
    state = run(create(), *[zero_round(THREE, "cy", r) for r in range(1, 21)])
    scores = GAME.scores(state)
    assert scores["totals"] == {"ann": 400, "bob": 400, "cy": -2100}
    assert scores["finished"] and scores["winners"] == ["ann", "bob"]


def test_scores_name_no_winner_while_the_match_is_unfinished() -> None:
    state = run(create(), zero_round(THREE, "ann", 1))
    assert GAME.scores(state)["winners"] == [] and GAME.scores(state)["finished"] is False


# --- the contract's promises -----------------------------------------------------------------


def test_evolve_leaves_the_state_alone_for_an_event_it_does_not_know() -> None:
    state = create()
    assert GAME.evolve(copy.deepcopy(state), {"type": "Spilled", "data": {}}) == state


def test_views_and_scores_are_plain_json() -> None:
    state = revoked_in_trick_one()
    for shown in (GAME.view(state), GAME.scores(state), state):
        assert json.loads(json.dumps(shown)) == shown


def test_the_example_is_a_complete_legal_match() -> None:
    script = GAME.example(11)
    names, setup, options = validate_match(GAME, script["players"], script["setup"], script["options"])
    state: State = {}
    for event in GAME.setup(names, setup, options):
        state = GAME.evolve(state, event)
    state = run(state, *script["actions"])
    assert GAME.scores(state)["finished"] is True and state["disputes"] == []
