"""The Hobbit Card Game: eliminations (at once or at the round's end), the next leader, the round's
end, the next deal, the result and why, and what view and scores show."""

from __future__ import annotations

from typing import Any

import pytest
from hobbit_table import Table, of_type, types

# Cards: yellow is light (heals good, harms evil), green is dark (heals evil, harms good).
# Round robin with four players: ann holds values 1 5 9, bob 2 6 10, cy 3 7 11, dee 4 8 12.
QUAD = {"ann": "bilbo", "bob": "smaug", "cy": "thorin", "dee": "bolg"}
QUIET = {"ann": "gandalf", "bob": "smaug"}


def ann_falls(**options: Any) -> Table:
    """Four players, free distribution: dee wins trick 1 and gives ann two dark cards."""
    t = Table(QUAD, distribution="free", **options)
    t.start("ann")
    t.trick("green-1", "green-2", "green-3", "green-4")
    t.give(green_1="ann", green_2="ann", green_3="bob", green_4="dee")
    return t


# --- elimination -------------------------------------------------------------------------------


def test_a_character_whose_damage_reaches_two_is_eliminated_at_once() -> None:
    t = ann_falls()
    out = of_type(t.events, "PlayerEliminated")
    assert out == [
        {
            "player": "ann",
            "character": "bilbo",
            "side": "good",
            "round": 1,
            "trick": 1,
            "at": "trick",
            "discarded": 14,
        }
    ]
    ann = t.view["characters"]["ann"]
    assert ann["alive"] is False and ann["health"] == 0 and ann["cards_left"] == 0
    assert t.view["eliminated"] == ["ann"] and t.view["finished"] is False


def test_an_eliminated_player_no_longer_plays_receives_or_leads() -> None:
    t = ann_falls()
    assert t.view["trick"]["order"] == ["dee", "bob", "cy"]
    assert t.refused("play", player="ann", card="red-5").code == "player_eliminated"
    t.trick("red-4", "red-2", "red-3")
    error = t.refused("distribute", cards={"red-4": "ann", "red-2": "bob", "red-3": "cy"})
    assert error.code == "receiver_eliminated" and "ann" in error.message
    t.give(red_4="dee", red_2="bob", red_3="cy")
    t.finish_round()
    assert t.refused("start_round", leader="ann").code == "player_eliminated"


def test_the_next_round_deals_only_to_the_survivors() -> None:
    t = ann_falls()
    t.finish_round()
    assert of_type(t.events, "RoundEnded")[-1] == {"round": 1, "survivors": ["bob", "cy", "dee"]}
    hands = {"ann": ["red-1"], **t.deal()}
    error = t.refused("start_round", leader="bob", hands=hands)
    assert error.code == "player_eliminated" and "ann" in error.message
    started = of_type(t.start("bob"), "RoundStarted")[0]
    assert started["dealt"] == ["bob", "cy", "dee"] and started["hand_size"] == 20
    assert t.view["trick"]["order"] == ["bob", "cy", "dee"]


def test_with_end_of_round_elimination_a_character_at_two_damage_plays_on_until_the_round_ends() -> None:
    t = ann_falls(elimination="end_of_round")
    ann = t.view["characters"]["ann"]
    assert ann["alive"] is True and ann["damage"] == 2 and ann["cards_left"] == 14
    assert "PlayerEliminated" not in types(t.events)
    assert t.view["trick"]["order"] == ["dee", "ann", "bob", "cy"]
    tail = t.finish_round()
    assert types(tail)[-2:] == ["PlayerEliminated", "RoundEnded"]
    assert of_type(tail, "PlayerEliminated")[0]["at"] == "round_end"
    assert of_type(tail, "RoundEnded")[0]["survivors"] == ["bob", "cy", "dee"]


def test_with_end_of_round_elimination_a_character_healed_in_time_survives() -> None:
    t = ann_falls(elimination="end_of_round")
    t.trick("yellow-4", "yellow-1", "yellow-2", "yellow-3")
    t.give(yellow_4="cy", yellow_1="ann", yellow_2="cy", yellow_3="cy")
    assert t.view["characters"]["ann"]["damage"] == 1
    tail = t.finish_round()
    assert "PlayerEliminated" not in types(tail)
    assert t.view["characters"]["ann"]["alive"] is True


def test_with_end_of_round_elimination_damage_is_not_capped_so_three_healed_once_is_still_out() -> None:
    t = ann_falls(elimination="end_of_round")
    t.trick("green-8", "green-5", "green-6", "green-7")  # dee wins
    events = t.give(green_8="ann", green_5="bob", green_6="bob", green_7="bob")
    assert of_type(events, "DamageChanged")[0] == {
        "player": "ann",
        "before": 2,
        "after": 3,
        "health": 0,
        "harm": 1,
        "heal": 0,
    }
    ann = t.view["characters"]["ann"]
    assert (ann["damage"], ann["health"], ann["alive"]) == (3, 0, True)
    t.trick("yellow-8", "yellow-5", "yellow-6", "yellow-7")  # dee wins
    t.give(yellow_5="ann", yellow_8="cy", yellow_6="cy", yellow_7="cy")
    assert t.view["characters"]["ann"]["damage"] == 2
    tail = t.finish_round()
    assert of_type(tail, "PlayerEliminated")[0]["player"] == "ann"


def test_with_immediate_elimination_damage_stays_within_two() -> None:
    t = ann_falls()
    assert t.view["characters"]["ann"]["damage"] == 2 and t.view["characters"]["ann"]["health"] == 0


# --- the next leader -----------------------------------------------------------------------------


def test_the_winner_of_a_trick_leads_the_next() -> None:
    t = Table(QUIET)
    t.start("ann")
    t.trick("red-1", "red-2")
    events = t.give(red_1="discard", red_2="discard")
    assert of_type(events, "LeaderChosen") == [
        {"round": 1, "trick": 2, "player": "bob", "winner": "bob", "skipped": False}
    ]
    assert t.view["to_act"] == ["bob"] and t.view["trick"]["number"] == 2


def test_an_eliminated_winner_is_followed_as_leader_by_the_next_living_player_clockwise() -> None:
    t = Table(QUAD, distribution="free")
    t.start("ann")
    t.trick("yellow-1", "yellow-10", "yellow-3", "yellow-4")
    events = t.give(yellow_10="bob", yellow_1="bob", yellow_3="ann", yellow_4="cy")
    assert of_type(events, "PlayerEliminated")[0]["player"] == "bob"
    assert of_type(events, "LeaderChosen")[0] == {
        "round": 1,
        "trick": 2,
        "player": "cy",
        "winner": "bob",
        "skipped": True,
    }
    assert t.view["trick"]["order"] == ["cy", "dee", "ann"]


# --- the end and the result ----------------------------------------------------------------------


def test_a_side_with_no_living_character_loses_at_once() -> None:
    t = Table({"ann": "bilbo", "bob": "smaug"}, distribution="free")
    t.start("ann")
    t.trick("green-1", "green-2")
    events = t.give(green_1="ann", green_2="ann")
    assert types(events)[-2:] == ["PlayerEliminated", "MatchFinished"]
    result = of_type(events, "MatchFinished")[0]
    assert result["side"] == "evil" and result["reason"] == "side_wiped_out"
    assert result["winners"] == ["bob"] and result["round"] == 1
    assert t.scores["finished"] is True and t.scores["winners"] == ["bob"]


def test_the_winners_are_every_player_of_the_winning_side_eliminated_or_not() -> None:
    t = ann_falls()
    t.trick("yellow-4", "yellow-2", "yellow-3")
    t.give(yellow_4="bob", yellow_2="bob", yellow_3="cy")
    t.trick("yellow-8", "yellow-7")
    t.give(yellow_8="dee", yellow_7="dee")
    assert t.scores["winners"] == ["ann", "cy"] and t.scores["side"] == "good"
    assert t.scores["reason"] == "side_wiped_out"
    assert t.scores["explanation"] == "good wins: evil has no living character left"


def test_after_the_last_round_the_side_with_more_survivors_wins() -> None:
    t = ann_falls(rounds=1)
    t.finish_round()
    board = t.scores
    assert board["finished"] is True and board["reason"] == "more_survivors"
    assert board["winners"] == ["bob", "dee"] and board["survivors"] == {"good": 1, "evil": 2}


def test_equal_survivors_are_parted_by_the_damage_each_side_dealt_even_if_healed() -> None:
    t = Table(QUIET, rounds=1)
    t.start("ann")
    t.trick("yellow-1", "yellow-2")
    t.give(yellow_1="discard", yellow_2="bob")
    t.trick("green-2", "green-1")
    t.give(green_2="bob", green_1="discard")
    assert t.view["characters"]["bob"]["damage"] == 0
    t.finish_round()
    board = t.scores
    assert board["reason"] == "more_damage_dealt" and board["winners"] == ["ann"]
    assert board["damage_dealt"] == {"good": 1, "evil": 0}
    assert "good dealt 1 damage against 0" in board["explanation"]


def test_equal_survivors_and_equal_damage_dealt_make_a_draw() -> None:
    t = Table(QUIET, rounds=1)
    t.start("bob")
    t.finish_round()
    board = t.scores
    assert board["finished"] is True and board["reason"] == "draw"
    assert board["winners"] == [] and board["side"] is None


def test_sides_wiped_out_together_are_judged_by_damage_dealt() -> None:
    t = Table({"ann": "bilbo", "bob": "smaug"}, distribution="free")
    t.start("ann")
    t.trick("yellow-1", "green-2")
    t.give(yellow_1="bob", green_2="bob")
    for light, dark in [("yellow-3", "green-4"), ("yellow-5", "green-6")]:
        t.trick(light, dark)
        events = t.give(**{light.replace("-", "_"): "bob", dark.replace("-", "_"): "ann"})
    assert [e["player"] for e in of_type(events, "PlayerEliminated")] == ["ann", "bob"]
    assert t.scores["reason"] == "more_damage_dealt" and t.scores["winners"] == ["ann"]
    assert t.scores["damage_dealt"] == {"good": 3, "evil": 2}


def test_a_match_lasts_two_rounds_by_default() -> None:
    t = Table(QUIET)
    t.start("ann")
    t.finish_round()
    assert t.view["finished"] is False and t.view["phase"] == "round_start"
    t.start("bob")
    t.finish_round()
    assert t.view["finished"] is True and of_type(t.events, "MatchFinished")[0]["round"] == 2


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_rounds_option_sets_how_many_rounds_are_played(rounds: int) -> None:
    t = Table(QUIET, rounds=rounds)
    while not t.view["finished"]:
        t.start("ann")
        t.finish_round()
    assert len(of_type(t.events, "RoundEnded")) == rounds


def test_nothing_more_is_recorded_once_the_match_is_over() -> None:
    t = Table(QUIET, rounds=1)
    t.start("ann")
    t.finish_round()
    assert t.refused("start_round", leader="ann").code == "match_finished"


# --- view and scores -----------------------------------------------------------------------------


def test_the_view_shows_the_characters_the_trick_on_the_table_and_whose_turn() -> None:
    t = Table(QUAD)
    t.start("cy")
    t.trick("blue-3", "blue-4")
    view = t.view
    assert view["phase"] == "playing" and view["turn"] == "ann" and view["to_act"] == ["ann"]
    assert view["trick"]["led"] == "blue" and view["trick"]["leader"] == "cy"
    assert [p["card"] for p in view["trick"]["plays"]] == ["blue-3", "blue-4"]
    assert view["characters"]["dee"] == {
        "character": "bolg",
        "side": "evil",
        "health": 2,
        "damage": 0,
        "alive": True,
        "cards_left": 14,
        "pipes": 0,
        "tricks_won": 0,
    }
    assert view["damage_dealt"] == {"good": 0, "evil": 0} and view["result"] is None


def test_the_view_shows_the_result_and_why() -> None:
    t = Table(QUIET, rounds=1)
    t.start("ann")
    t.finish_round()
    result = t.view["result"]
    assert result["reason"] == "draw" and result["explanation"].startswith("draw: 1 living")
    assert t.view["phase"] == "finished" and t.view["to_act"] == []


def test_the_scoreboard_names_no_winner_and_no_points_while_the_match_is_on() -> None:
    t = Table(QUAD)
    t.start("ann")
    board = t.scores
    assert board["finished"] is False and board["winners"] == [] and board["reason"] is None
    assert "totals" not in board
    assert board["characters"]["ann"] == {
        "character": "bilbo",
        "side": "good",
        "health": 2,
        "damage": 0,
        "alive": True,
        "pipes": 0,
    }
