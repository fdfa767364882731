"""The Other Hat Trick: every rule and every catch of the spec, through the public contract.

Most tests play on a ``Table`` whose hidden props the test knows: it records swaps, fails and
performs the way a scorekeeping app would (only what the table sees), follows the truth alongside,
and checks after every action that what tabletape deduces still contains the truth.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.contract import InvalidAction, RuleViolation
from games.other_hat_trick import GAME
from games.validation import validate_action, validate_match
from tests.support import games as support

PLAYERS = ["ann", "bob", "cy"]
Deal = dict[str, Any]


def deal(ann: str, bob: str, cy: str, middle: str) -> Deal:
    """The props as dealt: each player's two slots written "slot-0 slot-1", then the middle."""
    return {"ann": ann.split(), "bob": bob.split(), "cy": cy.split(), "middle": middle}


def place_of(player: str, slot: int = 0) -> int:
    """A place number: the players' slots in seat order, then the middle."""
    return 6 if player == "middle" else PLAYERS.index(player) * 2 + slot


def new_match(first_player: str = "ann", first_trick: str = "vegetable-patch") -> dict[str, Any]:
    """The state after setup, through validate_match, setup and evolve."""
    return support.create(GAME, PLAYERS, {"first_player": first_player, "first_trick": first_trick}, {})


def refusal(state: dict[str, Any], action: dict[str, Any]) -> RuleViolation:
    """The RuleViolation decide raises for this action (the state is left as it was)."""
    return support.refused(GAME, state, action)


class Table:
    """A table whose hidden props the test knows, recorded through decide and evolve."""

    def __init__(self, deal: Deal, first_player: str = "ann", first_trick: str = "vegetable-patch"):
        self.truth = [*deal["ann"], *deal["bob"], *deal["cy"], deal["middle"]]
        self.state = new_match(first_player, first_trick)

    def act(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        events = GAME.decide(self.state, validate_action(GAME, action))
        for event in events:
            self.state = GAME.evolve(self.state, event)
        for place, prop in enumerate(self.truth):
            assert prop in self.possible(place), f"{prop} at place {place} was ruled out"
        return events

    def refuse(self, action: dict[str, Any]) -> RuleViolation:
        return refusal(self.state, action)

    def turn(self, trick: str) -> list[dict[str, Any]]:
        return self.act({"type": "turn_trick", "trick": trick})

    def swap(self, player: str, slot: int, other: str, other_slot: int) -> list[dict[str, Any]]:
        a, b = place_of(player, slot), place_of(other, other_slot)
        self.truth[a], self.truth[b] = self.truth[b], self.truth[a]
        return self.act(
            {"type": "swap", "player": player, "slot": slot, "with_player": other, "with_slot": other_slot}
        )

    def fail(self, player: str, slot: int | None = None) -> list[dict[str, Any]]:
        """Fail, turning ``slot`` (or the first face-down slot) face up; truthfully."""
        hidden = [s for s in (0, 1) if not self.view()["props"][player][s]["face_up"]]
        slot = hidden[0] if slot is None and hidden else slot
        action: dict[str, Any] = {"type": "fail", "player": player}
        if slot is not None:
            action.update(slot=slot, prop=self.truth[place_of(player, slot)])
        return self.act(action)

    def perform(self, player: str, order: tuple[int, int, int] = (0, 1, 2)) -> list[dict[str, Any]]:
        """Perform with the props truly held; the sleight of hand deals them back in ``order``."""
        places = [place_of(player, 0), place_of(player, 1), 6]
        props = [self.truth[places[0]], self.truth[places[1]]]
        events = self.act({"type": "perform", "player": player, "props": props})
        gathered = [self.truth[p] for p in places]
        for place, index in zip(places, order, strict=True):
            self.truth[place] = gathered[index]
        return events

    def reveal(self) -> list[dict[str, Any]]:
        props: dict[str, Any] = {p: self.truth[place_of(p, 0) : place_of(p, 0) + 2] for p in PLAYERS}
        props["middle"] = self.truth[6]
        return self.act({"type": "reveal_all", "props": props})

    def view(self) -> dict[str, Any]:
        return GAME.view(self.state)

    def possible(self, place: int) -> list[str]:
        props = self.view()["props"]
        spot = props["middle"] if place == 6 else props[PLAYERS[place // 2]][place % 2]
        return list(spot["possible"])

    def spot(self, player: str, slot: int = 0) -> dict[str, Any]:
        props = self.view()["props"]
        return props["middle"] if player == "middle" else props[player][slot]


ALL = ["rabbit", "other-rabbit", "hat", "lettuce", "carrot"]
DEAL_A = deal(ann="lettuce carrot", bob="rabbit carrot", cy="hat other-rabbit", middle="carrot")


def swap(player: str, slot: int, other: str, other_slot: int) -> dict[str, Any]:
    return {"type": "swap", "player": player, "slot": slot, "with_player": other, "with_slot": other_slot}


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


NON_FINAL = [
    "vegetable-patch",
    "hungry-rabbit",
    "bunch-of-carrots",
    "rabbit-that-didnt-like-carrots",
    "pair-of-rabbits",
    "vegetable-hat-trick",
    "carrot-hat-trick",
    "slightly-easier-hat-trick",
    "hat-trick",
]


def run_the_deck(table: Table) -> None:
    """Turn by turn, turn the next trick, swap slot 1s and fail, until The Other Hat Trick is up."""
    turned = set(table.view()["pile"]).union(*table.view()["performed"].values())
    left = [trick for trick in NON_FINAL if trick not in turned]
    for trick in [*left, "other-hat-trick"]:
        player = table.view()["turn"]
        table.turn(trick)
        table.swap(player, 1, PLAYERS[(PLAYERS.index(player) + 1) % 3], 1)
        table.fail(player)


# --- setup -----------------------------------------------------------------------------------


def test_the_match_is_created_with_its_players_first_player_and_first_trick() -> None:
    players, setup, options = validate_match(
        GAME, PLAYERS, {"first_player": "BOB", "first_trick": "hat-trick"}, {}
    )
    (created,) = GAME.setup(players, setup, options)
    assert created == {
        "type": "MatchCreated",
        "data": {
            "players": PLAYERS,
            "setup": {"first_player": "bob", "first_trick": "hat-trick"},
            "options": {},
        },
    }


def test_the_first_player_must_sit_at_the_table() -> None:
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(PLAYERS, {"first_player": "dee", "first_trick": "hat-trick"}, {})
    assert caught.value.code == "unknown_player" and "'dee'" in caught.value.message


def test_the_other_hat_trick_is_never_the_first_trick_turned() -> None:
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(PLAYERS, {"first_player": "ann", "first_trick": "other-hat-trick"}, {})
    assert caught.value.code == "other_hat_trick_not_last"


def test_setup_called_directly_still_needs_the_first_player_and_the_first_trick() -> None:
    with pytest.raises(RuleViolation) as no_player:
        GAME.setup(PLAYERS, {"first_trick": "hat-trick"}, {})
    assert no_player.value.code == "first_player_required"
    with pytest.raises(RuleViolation) as no_trick:
        GAME.setup(PLAYERS, {"first_player": "ann"}, {})
    assert no_trick.value.code == "first_trick_required"


def test_a_player_may_not_be_called_middle() -> None:
    with pytest.raises(RuleViolation) as caught:
        GAME.setup(["ann", "Middle", "cy"], {"first_player": "ann", "first_trick": "hat-trick"}, {})
    assert caught.value.code == "reserved_name"


def test_setup_and_options_are_checked_against_their_schemas() -> None:
    for setup in ({"first_player": "ann"}, {"first_player": "ann", "first_trick": "card-trick"}):
        with pytest.raises(InvalidAction) as caught:
            validate_match(GAME, PLAYERS, setup, {})
        assert caught.value.code == "invalid_setup"
    with pytest.raises(InvalidAction) as options:
        validate_match(GAME, PLAYERS, {"first_player": "ann", "first_trick": "hat-trick"}, {"rounds": 2})
    assert options.value.code == "invalid_options"


def test_at_the_start_the_first_trick_is_on_the_pile_and_nothing_is_known() -> None:
    view = GAME.view(new_match("bob", "hat-trick"))
    assert (view["phase"], view["turn"], view["to_act"]) == ("choose", "bob", ["bob"])
    assert (view["pile"], view["top"], view["deck"]) == (["hat-trick"], "hat-trick", 9)
    assert view["arrangements"] == 840
    assert view["prop_set"] == {"rabbit": 1, "other-rabbit": 1, "hat": 1, "lettuce": 1, "carrot": 3}
    places = [*view["props"]["ann"], *view["props"]["bob"], *view["props"]["cy"], view["props"]["middle"]]
    assert all(p == {"face_up": False, "prop": None, "possible": ALL, "seen_at_step": None} for p in places)
    assert view["disputes"] == [] and view["finished"] is False


# --- the turn --------------------------------------------------------------------------------


def test_a_turn_is_a_swap_then_a_fail_and_passes_clockwise() -> None:
    table = Table(DEAL_A)
    events = table.swap("ann", 1, "bob", 1)
    assert types(events) == ["PropsSwapped"]
    assert events[0]["data"]["trick"] == "vegetable-patch"
    assert (table.view()["phase"], table.view()["attempting"]) == ("perform", "vegetable-patch")
    table.fail("ann", 0)
    assert (table.view()["phase"], table.view()["to_act"]) == ("choose", ["bob"])
    table.swap("bob", 0, "cy", 0)
    table.fail("bob", 0)
    table.swap("cy", 0, "ann", 1)
    table.fail("cy", 1)
    assert table.view()["to_act"] == ["ann"]


def test_turning_a_trick_puts_it_on_the_pile_to_be_attempted() -> None:
    table = Table(DEAL_A)
    events = table.turn("hat-trick")
    assert events == [{"type": "TrickTurned", "data": {"trick": "hat-trick", "player": "ann"}}]
    view = table.view()
    assert view["pile"] == ["vegetable-patch", "hat-trick"] and view["deck"] == 8
    assert (view["phase"], view["attempting"]) == ("swap", "hat-trick")
    assert table.swap("ann", 0, "cy", 0)[0]["data"]["trick"] == "hat-trick"


def test_after_turning_a_trick_the_player_must_swap() -> None:
    table = Table(DEAL_A)
    table.turn("hat-trick")
    assert table.refuse({"type": "turn_trick", "trick": "hungry-rabbit"}).code == "wrong_phase"
    failed = table.refuse({"type": "fail", "player": "ann", "slot": 0, "prop": "lettuce"})
    assert failed.code == "wrong_phase" and "ann must swap" in failed.message


def test_the_swap_comes_before_performing_or_failing() -> None:
    table = Table(DEAL_A)
    refused = table.refuse({"type": "perform", "player": "ann", "props": ["carrot", "lettuce"]})
    assert refused.code == "wrong_phase"
    assert table.refuse({"type": "fail", "player": "ann", "slot": 0, "prop": "lettuce"}).code == (
        "wrong_phase"
    )


def test_there_is_exactly_one_swap_a_turn() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 0, "bob", 0)
    refused = table.refuse(swap("ann", 1, "cy", 1))
    assert refused.code == "wrong_phase" and "perform or fail" in refused.message
    assert table.refuse({"type": "turn_trick", "trick": "hat-trick"}).code == "wrong_phase"


def test_only_the_player_whose_turn_it_is_may_act() -> None:
    table = Table(DEAL_A)
    refused = table.refuse(swap("bob", 0, "ann", 0))
    assert refused.code == "not_your_turn" and refused.message == "it is ann's turn, not bob's"
    table.swap("ann", 0, "bob", 0)
    assert table.refuse({"type": "fail", "player": "cy", "slot": 0, "prop": "hat"}).code == ("not_your_turn")


def test_a_swap_with_oneself_is_refused() -> None:
    refused = refusal(new_match(), swap("ann", 0, "ann", 1))
    assert refused.code == "swap_with_self"


def test_a_swap_with_the_middle_is_refused() -> None:
    refused = refusal(new_match(), swap("ann", 0, "middle", 0))
    assert refused.code == "swap_with_middle" and "middle prop is never swapped" in refused.message


def test_a_swap_with_someone_not_at_the_table_is_refused() -> None:
    refused = refusal(new_match(), swap("ann", 0, "dee", 0))
    assert refused.code == "unknown_player" and "'dee'" in refused.message


def test_player_names_are_read_without_regard_to_case_and_recorded_canonically() -> None:
    table = Table(DEAL_A)
    events = table.act(swap("ANN", 1, " Bob ", 0))
    assert (events[0]["data"]["player"], events[0]["data"]["with_player"]) == ("ann", "bob")


def test_a_trick_already_turned_cannot_be_turned_again() -> None:
    table = Table(DEAL_A)
    on_pile = table.refuse({"type": "turn_trick", "trick": "vegetable-patch"})
    assert on_pile.code == "trick_already_turned" and "on the trick pile" in on_pile.message


def test_a_performed_trick_cannot_be_turned_again() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    table.perform("ann")  # lettuce and carrot: The Vegetable Patch
    refused = table.refuse({"type": "turn_trick", "trick": "vegetable-patch"})
    assert refused.code == "trick_already_turned" and "ann performed it" in refused.message


def test_the_other_hat_trick_can_only_be_turned_last() -> None:
    refused = refusal(new_match(), {"type": "turn_trick", "trick": "other-hat-trick"})
    assert refused.code == "other_hat_trick_not_last"
    assert "8 other tricks are still above it" in refused.message


def test_the_deck_is_empty_once_the_other_hat_trick_is_turned() -> None:
    table = Table(
        {
            "ann": ["hat", "carrot"],
            "bob": ["other-rabbit", "carrot"],
            "cy": ["carrot", "rabbit"],
            "middle": "lettuce",
        }
    )
    run_the_deck(table)
    view = table.view()
    assert (view["deck"], view["top"], view["phase"]) == (0, "other-hat-trick", "choose")
    assert len(view["pile"]) == 10
    refused = table.refuse({"type": "turn_trick", "trick": "hat-trick"})
    assert refused.code == "deck_empty"


# --- perform ---------------------------------------------------------------------------------


def test_a_perform_whose_props_do_not_satisfy_the_trick_is_refused() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    refused = table.refuse({"type": "perform", "player": "ann", "props": ["lettuce", "hat"]})
    assert refused.code == "props_do_not_satisfy"
    assert refused.message == (
        "the lettuce and the hat do not perform The Vegetable Patch: it needs a carrot and the lettuce"
    )


def test_a_trick_is_performed_with_its_props_in_either_order() -> None:
    table = Table(DEAL_A)  # ann holds lettuce (slot 0) then carrot (slot 1)
    table.swap("ann", 1, "bob", 1)
    events = table.perform("ann")
    assert types(events) == ["TrickPerformed", "SleightOfHand"]
    assert events[0]["data"] == {
        "player": "ann",
        "trick": "vegetable-patch",
        "props": ["lettuce", "carrot"],
        "points": 3,
    }


def test_a_perform_takes_the_trick_and_uncovers_the_one_below() -> None:
    table = Table(DEAL_A)
    table.turn("hungry-rabbit")
    table.swap("ann", 1, "bob", 0)  # ann: lettuce, rabbit
    table.perform("ann")
    view = table.view()
    assert view["pile"] == ["vegetable-patch"] and view["performed"]["ann"] == ["hungry-rabbit"]
    assert (view["phase"], view["to_act"], view["totals"]["ann"]) == ("choose", ["bob"], 1)


def test_a_perform_ends_with_a_sleight_of_hand_that_turns_the_three_props_face_down() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    events = table.perform("ann", order=(2, 0, 1))
    assert events[1] == {"type": "SleightOfHand", "data": {"player": "ann", "places": [0, 1, 6]}}
    for player, slot in (("ann", 0), ("ann", 1), ("middle", 0)):
        assert table.spot(player, slot)["face_up"] is False


def test_an_empty_pile_is_refilled_before_the_next_turn() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    table.perform("ann")
    view = table.view()
    assert (view["pile"], view["phase"], view["to_act"]) == ([], "refill", ["ann"])
    refused = table.refuse(swap("bob", 0, "cy", 0))
    assert refused.code == "wrong_phase" and "turn the next trick" in refused.message
    table.turn("pair-of-rabbits")
    view = table.view()
    assert (view["pile"], view["phase"], view["to_act"]) == (["pair-of-rabbits"], "choose", ["bob"])


# --- fail ------------------------------------------------------------------------------------


def test_a_fail_turns_one_face_down_prop_face_up() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    events = table.fail("ann", 1)
    assert events == [
        {
            "type": "TrickFailed",
            "data": {"player": "ann", "trick": "vegetable-patch", "slot": 1, "prop": "carrot", "failures": 0},
        }
    ]
    assert table.spot("ann", 1) == {
        "face_up": True,
        "prop": "carrot",
        "possible": ["carrot"],
        "seen_at_step": 3,
    }


def test_a_fail_must_say_which_slot_while_both_are_face_down() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    refused = table.refuse({"type": "fail", "player": "ann", "prop": "lettuce"})
    assert refused.code == "slot_required"


def test_a_fail_must_say_what_the_prop_showed() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    refused = table.refuse({"type": "fail", "player": "ann", "slot": 0})
    assert refused.code == "prop_required" and "slot 0 of ann" in refused.message


def test_a_fail_may_leave_out_the_slot_when_only_one_is_face_down() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    table.fail("ann", 0)
    for player, slot, other in (("bob", 0, "cy"), ("cy", 1, "bob")):
        table.swap(player, 1, other, 1)
        table.fail(player, slot)
    table.swap("ann", 1, "bob", 1)
    events = table.act({"type": "fail", "player": "ann", "prop": table.truth[1]})
    assert events[0]["data"]["slot"] == 1


def each_failed_once() -> Table:
    """DEAL_A after each player has swapped and failed once, each slot 0 now face up; ann to act."""
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    table.fail("ann", 0)
    table.swap("bob", 0, "cy", 0)
    table.fail("bob", 0)
    table.swap("cy", 1, "bob", 1)
    table.fail("cy", 0)
    return table


def test_a_fail_cannot_turn_a_prop_that_is_already_face_up() -> None:
    table = each_failed_once()
    table.swap("ann", 1, "cy", 1)
    refused = table.refuse({"type": "fail", "player": "ann", "slot": 0, "prop": "lettuce"})
    assert refused.code == "slot_already_face_up" and "turns slot 1" in refused.message


def test_a_fail_with_both_props_face_up_turns_nothing_more() -> None:
    table = each_failed_once()
    table.swap("ann", 1, "cy", 0)  # cy's face-up prop comes to ann's slot 1
    assert table.spot("ann", 1)["face_up"] is True
    refused = table.refuse({"type": "fail", "player": "ann", "slot": 1, "prop": "hat"})
    assert refused.code == "nothing_to_turn"
    events = table.fail("ann")
    assert events[0]["data"] == {
        "player": "ann",
        "trick": "vegetable-patch",
        "slot": None,
        "prop": None,
        "failures": 0,
    }
    assert table.view()["to_act"] == ["bob"]


def test_a_swap_moves_a_face_up_prop_and_it_stays_face_up() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    table.fail("ann", 0)  # the lettuce, face up at ann's slot 0
    table.swap("bob", 1, "ann", 0)
    assert table.spot("bob", 1) == {
        "face_up": True,
        "prop": "lettuce",
        "possible": ["lettuce"],
        "seen_at_step": 3,
    }
    assert table.spot("ann", 0)["face_up"] is False
    assert "lettuce" not in table.spot("ann", 0)["possible"]


# --- what tabletape deduces ------------------------------------------------------------------


def test_a_prop_seen_and_swapped_twice_cannot_be_claimed_elsewhere() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)  # step 2
    table.fail("ann", 0)  # step 3: the lettuce at ann's slot 0
    table.swap("bob", 1, "ann", 0)  # step 4: the lettuce to bob's slot 1
    table.fail("bob", 0)  # step 5: the rabbit
    table.swap("cy", 0, "bob", 1)  # step 6: the lettuce to cy's slot 0
    table.fail("cy")  # step 7: cy's slot 1, the other rabbit
    table.swap("ann", 1, "bob", 1)  # step 8
    refused = table.refuse({"type": "perform", "player": "ann", "props": ["lettuce", "carrot"]})
    assert refused.code == "prop_contradiction"
    assert refused.message == (
        "slot 0 of ann cannot be the lettuce: slot 0 of cy is the lettuce, seen at slot 0 of ann "
        "at step 3 and moved there by the swaps at steps 4 and 6"
    )


def test_a_claim_on_a_prop_seen_face_up_is_refused_with_when_it_was_seen() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    table.fail("ann", 0)  # step 3: lettuce
    table.swap("bob", 1, "cy", 1)  # step 4: bob holds rabbit, other-rabbit
    table.fail("bob", 1)  # step 5: bob's slot 1 is the other rabbit
    table.swap("cy", 0, "ann", 1)  # cy: carrot, carrot; ann: lettuce, hat
    table.fail("cy", 0)  # step 7
    table.turn("hungry-rabbit")
    table.swap("ann", 1, "cy", 1)  # ann: lettuce, carrot; cy: carrot, hat
    refused = table.refuse({"type": "fail", "player": "ann", "slot": 1, "prop": "other-rabbit"})
    assert refused.message == (
        "slot 1 of ann cannot be the other rabbit: slot 1 of bob was seen to be the other rabbit "
        "at step 5 and has not moved since"
    )
    table.fail("ann", 1)
    table.swap("bob", 0, "cy", 1)  # bob: hat, other-rabbit
    lie = table.refuse({"type": "perform", "player": "bob", "props": ["carrot", "rabbit"]})
    assert lie.message == ("slot 1 of bob was seen to be the other rabbit at step 5 and has not moved since")


THREE_CARROTS = deal(ann="carrot hat", bob="carrot lettuce", cy="carrot rabbit", middle="other-rabbit")


def three_carrots_seen() -> Table:
    table = Table(THREE_CARROTS, first_trick="hungry-rabbit")
    table.swap("ann", 1, "bob", 1)  # ann: carrot, lettuce; bob: carrot, hat
    table.fail("ann", 0)  # step 3
    table.swap("bob", 1, "cy", 1)  # bob: carrot, rabbit; cy: carrot, hat
    table.fail("bob", 0)  # step 5
    table.swap("cy", 1, "ann", 1)  # cy: carrot, lettuce; ann: carrot, hat
    table.fail("cy", 0)  # step 7
    return table


def test_once_three_carrots_are_seen_no_other_place_may_hold_one() -> None:
    table = three_carrots_seen()
    for player, slot in (("ann", 1), ("bob", 1), ("cy", 1), ("middle", 0)):
        assert table.spot(player, slot)["possible"] == ["rabbit", "other-rabbit", "hat", "lettuce"]
    assert table.view()["arrangements"] == 24
    table.swap("ann", 1, "bob", 1)
    refused = table.refuse({"type": "fail", "player": "ann", "prop": "carrot"})
    assert refused.message == (
        "slot 1 of ann cannot be a carrot: slot 0 of ann was seen to be a carrot at step 3 and has "
        "not moved since; slot 0 of bob was seen to be a carrot at step 5 and has not moved since; "
        "slot 0 of cy was seen to be a carrot at step 7 and has not moved since"
    )


def test_counting_the_props_pins_down_the_ones_still_face_down() -> None:
    table = three_carrots_seen()
    table.swap("ann", 1, "bob", 1)  # ann: carrot, rabbit; bob: carrot, hat
    table.fail("ann")  # rabbit
    table.swap("bob", 1, "cy", 1)  # bob: carrot, lettuce; cy: carrot, hat
    table.fail("bob")  # lettuce
    assert table.spot("cy", 1)["possible"] == ["other-rabbit", "hat"]
    table.swap("cy", 1, "bob", 1)  # cy: carrot, lettuce (face up); bob: carrot, hat
    table.fail("cy")  # both face up: nothing more
    table.swap("ann", 1, "bob", 1)  # ann: carrot, hat (face down); bob: carrot, rabbit
    table.fail("ann")  # the hat
    middle = table.spot("middle")
    assert middle == {
        "face_up": False,
        "prop": "other-rabbit",
        "possible": ["other-rabbit"],
        "seen_at_step": None,
    }
    assert table.view()["arrangements"] == 1


def assert_two_carrots_refused(table: Table, player: str, elsewhere: str) -> None:
    """Each of the player's slots may hold a carrot, yet performing with two carrots is refused."""
    assert all("carrot" in table.spot(player, slot)["possible"] for slot in (0, 1))
    refused = table.refuse({"type": "perform", "player": player, "props": ["carrot", "carrot"]})
    assert refused.code == "prop_contradiction"
    assert refused.message == (
        f"slot 1 of {player} cannot be a carrot as well as slot 0 of {player}: there are only three carrots, "
        f"and at least two are elsewhere ({elsewhere})"
    )


def test_two_carrots_cannot_be_claimed_where_only_one_is_left() -> None:
    table = Table(THREE_CARROTS, first_trick="bunch-of-carrots")
    table.swap("ann", 1, "bob", 1)
    table.fail("ann", 0)
    table.swap("bob", 1, "cy", 1)
    table.fail("bob", 0)
    table.swap("cy", 1, "ann", 1)  # cy: carrot, lettuce
    assert_two_carrots_refused(table, "cy", elsewhere="slot 0 of ann and slot 0 of bob show two")


SLEIGHT = deal(ann="lettuce carrot", bob="rabbit other-rabbit", cy="hat carrot", middle="carrot")


def after_a_sleight_of_hand() -> Table:
    table = Table(SLEIGHT, first_trick="carrot-hat-trick")
    table.swap("ann", 1, "bob", 1)  # ann: lettuce, other-rabbit; bob: rabbit, carrot
    table.fail("ann", 0)  # step 3: lettuce
    table.swap("bob", 1, "ann", 1)  # bob: rabbit, other-rabbit; ann: lettuce, carrot
    table.fail("bob", 0)  # step 5: rabbit
    table.swap("cy", 1, "ann", 1)  # carrot for carrot
    table.perform("cy", order=(2, 0, 1))  # steps 7-8: cy holds carrot, hat; the middle a carrot
    return table


def test_a_sleight_of_hand_leaves_each_of_the_three_places_any_of_the_three_props() -> None:
    table = after_a_sleight_of_hand()
    # Before it, ann's slot 1, bob's slot 1 and the middle held the other rabbit and two carrots.
    for player, slot in (("cy", 0), ("cy", 1), ("middle", 0)):
        assert table.spot(player, slot)["possible"] == ["other-rabbit", "hat", "carrot"]
        assert table.spot(player, slot)["face_up"] is False
    for player in ("ann", "bob"):
        assert table.spot(player, 1)["possible"] == ["other-rabbit", "carrot"]
    assert table.view()["arrangements"] == 12


def test_what_is_seen_after_a_sleight_of_hand_tells_what_went_into_it() -> None:
    table = after_a_sleight_of_hand()
    table.turn("hat-trick")
    table.swap("ann", 1, "bob", 1)  # ann: lettuce, other-rabbit
    table.fail("ann")  # the other rabbit was not in the middle: a carrot was
    assert table.spot("bob", 1) == {
        "face_up": False,
        "prop": "carrot",
        "possible": ["carrot"],
        "seen_at_step": None,
    }
    for player, slot in (("cy", 0), ("cy", 1), ("middle", 0)):
        assert table.spot(player, slot)["possible"] == ["hat", "carrot"]
    assert table.view()["arrangements"] == 3
    table.swap("bob", 0, "ann", 0)  # bob: lettuce (face up), carrot
    refused = table.refuse({"type": "fail", "player": "bob", "prop": "hat"})
    assert refused.message == (
        "slot 1 of bob cannot be the hat: from what the table has seen it can only be a carrot, "
        "and the hat can only be at slot 0 of cy, slot 1 of cy or the middle"
    )


def test_props_that_fit_one_by_one_but_not_together_are_refused() -> None:
    dealt = deal(ann="hat lettuce", bob="rabbit carrot", cy="carrot carrot", middle="other-rabbit")
    table = Table(dealt, first_player="cy", first_trick="vegetable-hat-trick")
    table.swap("cy", 0, "ann", 0)  # cy: hat, carrot
    table.perform("cy")  # steps 3-4; the hat, a carrot and the middle prop are mixed
    table.turn("bunch-of-carrots")
    table.swap("ann", 1, "cy", 1)  # ann's slot 1 now holds one of the mixed props
    table.fail("ann", 0)  # a carrot
    table.swap("bob", 0, "cy", 1)  # bob: lettuce, carrot
    assert_two_carrots_refused(table, "bob", elsewhere="slot 0 of ann shows one")


# --- the end ---------------------------------------------------------------------------------

END_DEAL = deal(ann="hat carrot", bob="other-rabbit carrot", cy="carrot rabbit", middle="lettuce")


def test_performing_the_other_hat_trick_ends_the_match() -> None:
    table = Table(END_DEAL)
    run_the_deck(table)
    table.swap("ann", 1, "bob", 0)  # ann: hat, other-rabbit
    events = table.perform("ann")
    assert types(events) == ["TrickPerformed", "SleightOfHand", "MatchEnded"]
    assert events[2]["data"] == {"reason": "performed", "player": "ann"}
    view = table.view()
    assert (view["phase"], view["turn"], view["to_act"]) == ("reveal", None, PLAYERS)
    assert view["ended_by"] == "performed" and view["finished"] is False
    assert GAME.scores(table.state)["winners"] == []


def test_three_failures_of_the_other_hat_trick_in_a_row_end_the_match() -> None:
    table = Table(END_DEAL)
    run_the_deck(table)  # cy failed it once
    assert table.view()["other_hat_trick_failures"] == 1
    table.swap("ann", 1, "bob", 1)
    table.fail("ann")
    table.swap("bob", 1, "cy", 1)
    events = table.fail("bob")
    assert types(events) == ["TrickFailed", "MatchEnded"]
    assert events[0]["data"]["failures"] == 3
    assert events[1]["data"] == {"reason": "three_failures", "player": None}
    assert (table.view()["phase"], table.view()["ended_by"]) == ("reveal", "three_failures")


def test_failing_other_tricks_does_not_count_towards_the_end() -> None:
    table = Table(DEAL_A)
    for player, other in (("ann", "bob"), ("bob", "cy"), ("cy", "ann"), ("ann", "bob")):
        table.swap(player, 1, other, 1)
        table.fail(player)
    assert table.view()["other_hat_trick_failures"] == 0 and table.view()["phase"] == "choose"


def test_only_the_reveal_is_recorded_once_the_match_has_ended() -> None:
    table = Table(END_DEAL)
    run_the_deck(table)
    table.swap("ann", 1, "bob", 0)
    table.perform("ann")
    refused = table.refuse(swap("bob", 0, "cy", 0))
    assert refused.code == "wrong_phase" and "reveal_all" in refused.message
    assert table.refuse({"type": "turn_trick", "trick": "hat-trick"}).code == "wrong_phase"


def test_the_reveal_waits_for_the_end_of_the_match() -> None:
    refused = refusal(
        new_match(),
        {
            "type": "reveal_all",
            "props": {
                "ann": ["hat", "carrot"],
                "bob": ["carrot", "carrot"],
                "cy": ["rabbit", "lettuce"],
                "middle": "other-rabbit",
            },
        },
    )
    assert refused.code == "match_not_ended"


def ended_by_performance() -> Table:
    table = Table(END_DEAL)
    run_the_deck(table)
    table.swap("ann", 1, "bob", 0)
    table.perform("ann", order=(2, 1, 0))
    return table


def revealed(table: Table, **changes: Any) -> dict[str, Any]:
    props: dict[str, Any] = {p: table.truth[place_of(p) : place_of(p) + 2] for p in PLAYERS}
    props["middle"] = table.truth[6]
    props.update(changes)
    return {"type": "reveal_all", "props": props}


def test_the_reveal_names_every_player_and_the_middle() -> None:
    table = ended_by_performance()
    action = revealed(table)
    del action["props"]["bob"]
    refused = table.refuse(action)
    assert refused.code == "missing_player" and refused.message.endswith("missing: bob")
    action = revealed(table, dee=["carrot", "carrot"])
    assert table.refuse(action).code == "unknown_player"
    action = revealed(table, ANN=table.truth[0:2])
    assert table.refuse(action).code == "duplicate_player"
    with pytest.raises(InvalidAction):
        validate_action(GAME, {"type": "reveal_all", "props": {"ann": ["hat", "carrot"]}})


def test_the_reveal_shows_exactly_the_seven_props() -> None:
    table = ended_by_performance()
    refused = table.refuse(revealed(table, middle="carrot"))
    assert refused.code == "reveal_wrong_props"
    assert table.truth[6] == "hat"
    assert refused.message == ("the reveal shows 0 hats and 4 carrots, but the game has 1 hat and 3 carrots")


def test_a_reveal_that_contradicts_what_was_seen_is_refused() -> None:
    table = Table(END_DEAL)
    run_the_deck(table)
    table.swap("ann", 1, "bob", 1)
    table.fail("ann")
    table.swap("bob", 1, "cy", 1)
    table.fail("bob")
    lie = revealed(table)
    truth = lie["props"]
    truth["ann"], truth["bob"] = truth["bob"], truth["ann"]  # ann's and bob's props face up
    refused = table.refuse(lie)
    assert refused.code == "prop_contradiction" and "was seen to be" in refused.message


def test_a_truthful_reveal_is_accepted_and_finishes_the_match() -> None:
    table = ended_by_performance()
    action = revealed(table)
    action["props"]["ANN"] = action["props"].pop("ann")  # names in any case
    events = table.act(action)
    assert events[0]["data"]["props"]["ann"] == table.truth[0:2]
    assert types(events) == ["PropsRevealed", "MatchFinished"]
    assert table.view()["arrangements"] == 1 and table.view()["phase"] == "finished"
    refused = table.refuse({"type": "turn_trick", "trick": "hat-trick"})
    assert refused.code == "match_finished"


# --- scores ----------------------------------------------------------------------------------


def test_after_the_other_hat_trick_is_performed_nobody_loses_points_for_props() -> None:
    table = ended_by_performance()
    table.reveal()
    board = GAME.scores(table.state)
    assert board == {
        "finished": True,
        "winners": ["ann"],
        "totals": {"ann": 6, "bob": 0, "cy": 0},
        "points": {"ann": 6, "bob": 0, "cy": 0},
        "penalties": {"ann": 0, "bob": 0, "cy": 0},
        "tricks": {"ann": ["other-hat-trick"], "bob": [], "cy": []},
        "ended_by": "performed",
    }


def test_after_three_failures_the_hat_and_the_other_rabbit_cost_three_points_each() -> None:
    table = Table(END_DEAL, first_trick="hungry-rabbit")
    table.swap("ann", 1, "cy", 1)  # ann: hat, rabbit; cy: carrot, carrot
    table.fail("ann", 0)
    table.swap("bob", 1, "cy", 0)  # carrot for carrot: bob keeps other-rabbit, carrot
    table.perform("bob")  # The Hungry Rabbit, 1 point
    table.turn("pair-of-rabbits")
    run_the_deck(table)
    while table.view()["phase"] != "reveal":
        player = table.view()["turn"]
        table.swap(player, 0, PLAYERS[(PLAYERS.index(player) + 1) % 3], 0)
        table.fail(player)
    assert table.view()["ended_by"] == "three_failures"
    table.reveal()
    board = GAME.scores(table.state)
    holders = {p: [prop for prop in table.truth[place_of(p) : place_of(p) + 2]] for p in PLAYERS}
    assert holders == {
        "ann": ["other-rabbit", "carrot"],
        "bob": ["carrot", "carrot"],
        "cy": ["hat", "rabbit"],
    }
    assert board["points"] == {"ann": 0, "bob": 1, "cy": 0}
    assert board["penalties"] == {"ann": -3, "bob": 0, "cy": -3}
    assert board["totals"] == {"ann": -3, "bob": 1, "cy": -3}
    assert board["winners"] == ["bob"] and board["finished"] is True
    finished = table.state
    assert GAME.view(finished)["revealed"] == {**holders, "middle": table.truth[6]}


def test_equal_totals_share_the_win() -> None:
    table = Table(END_DEAL)
    run_the_deck(table)  # ann kept the hat in slot 0, bob the other rabbit in slot 0
    while table.view()["phase"] != "reveal":
        player = table.view()["turn"]
        if player == "ann":
            table.swap("ann", 1, "bob", 0)  # ann takes the other rabbit, and fails anyway
        else:
            table.swap(player, 1, "cy" if player == "bob" else "bob", 1)
        table.fail(player)
    table.reveal()
    board = GAME.scores(table.state)
    assert table.truth[0:2] == ["hat", "other-rabbit"]
    assert board["totals"] == {"ann": -6, "bob": 0, "cy": 0}
    assert board["winners"] == ["bob", "cy"]


def test_no_one_wins_while_the_match_is_unfinished() -> None:
    table = Table(DEAL_A)
    table.swap("ann", 1, "bob", 1)
    table.perform("ann")
    board = GAME.scores(table.state)
    assert board["finished"] is False and board["winners"] == []
    assert board["totals"] == {"ann": 3, "bob": 0, "cy": 0}


# --- shapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        {"type": "juggle", "player": "ann"},
        {"type": "swap", "player": "ann", "slot": 2, "with_player": "bob", "with_slot": 0},
        {"type": "swap", "player": "ann", "slot": 0, "with_player": "bob"},
        {"type": "perform", "player": "ann", "props": ["hat"]},
        {"type": "perform", "player": "ann", "props": ["hat", "wand"]},
        {"type": "fail", "player": "ann", "slot": 0, "prop": "carrot", "loudly": True},
        {"type": "turn_trick", "trick": "card-trick"},
        {"type": "reveal_all", "props": {"middle": "hat", "ann": ["hat", "carrot", "carrot"]}},
    ],
)
def test_actions_of_the_wrong_shape_are_refused_before_the_rules(action: dict[str, Any]) -> None:
    with pytest.raises(InvalidAction):
        validate_action(GAME, action)


def test_the_game_describes_its_five_actions_setup_and_options() -> None:
    described = GAME.describe()
    assert described["players"] == {"min": 3, "max": 3}
    assert set(described["actions"]) == {"turn_trick", "swap", "perform", "fail", "reveal_all"}
    assert described["setup"]["required"] == ["first_player", "first_trick"]
    assert described["options"]["properties"] == {}
