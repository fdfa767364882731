"""Hats properties over random legal matches: the example match of any seed hypothesis draws."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.contract import RuleViolation
from games.registry import get_game
from games.validation import validate_action, validate_match
from tests.support.games import copied

# Random playouts and hypothesis searches: the quick run (`make test-quick`) leaves them out.
pytestmark = pytest.mark.slow

GAME = get_game("hats")
State = dict[str, Any]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=25, deadline=None)


@cache
def recorded(seed: int) -> tuple[list[dict[str, Any]], list[State], list[dict[str, Any]]]:
    """The example match of ``seed`` recorded: every event, the state after each, the actions."""
    script = GAME.example(seed)
    players, setup, options = validate_match(GAME, script["players"], script["setup"], script["options"])
    events = GAME.setup(players, setup, options)
    state: State = {}
    states = []
    for each in events:
        state = GAME.evolve(state, each)
        states.append(copied(state))
    for action in script["actions"]:
        new = GAME.decide(state, validate_action(GAME, action))
        for each in new:
            state = GAME.evolve(state, each)
            states.append(copied(state))
        events = events + new
    return events, states, script["actions"]


def named_cards(state: State) -> list[str]:
    """Every card the recorded facts place somewhere (face up, named hidden, a hand's candidate)."""
    cards = list(state["table"])
    for player in state["players"]:
        cards += state["collections"][player] + state["hands"][player]["known"]
        cards += [card for card in state["black_hats"][player] if card is not None]
        cards += [state["favourites"][player]] if state["favourites"][player] else []
    return cards + state["pile"]["known"]


def physical_count(state: State) -> int:
    """How many cards the state accounts for, wherever they are."""
    count = len(state["table"]) + state["deck"] + state["pile"]["size"]
    for player in state["players"]:
        count += len(state["collections"][player]) + len(state["black_hats"][player])
        count += state["hands"][player]["size"] + (1 if state["favourites"][player] else 0)
    return count


@FEW
@given(SEEDS)
def test_every_example_match_finishes_and_agrees_with_its_scoreboard(seed: int) -> None:
    events, states, _ = recorded(seed)
    final = GAME.scores(states[-1])
    assert final["finished"] and events[-1]["type"] == "MatchFinished"
    assert events[-1]["data"] == {k: final[k] for k in ("winners", "totals", "cookie", "decided_by")}
    assert set(final["winners"]) <= set(states[-1]["players"])


@FEW
@given(SEEDS)
def test_cards_are_conserved_and_no_card_is_in_two_places(seed: int) -> None:
    _, states, _ = recorded(seed)
    total = 30 if len(states[0]["players"]) == 2 else 42
    for state in states:
        assert physical_count(state) == total
        cards = named_cards(state)
        assert not [card for card, n in Counter(cards).items() if n > 1]
        assert all(card.split("-")[0] not in state["removed_types"] for card in cards)
        for hand in state["hands"].values():  # the recorded candidates and the unknown cover it
            assert 0 <= hand["unknown"] <= hand["size"] <= len(hand["known"]) + hand["unknown"]


@FEW
@given(SEEDS)
def test_everyone_plays_exactly_eight_cards_and_keeps_one_favourite(seed: int) -> None:
    _, states, _ = recorded(seed)
    final = states[-1]
    for player in final["players"]:
        assert final["plays"][player] == 8
        assert len(final["collections"][player]) + len(final["black_hats"][player]) == 8
        assert final["favourites"][player] is not None and final["hands"][player]["size"] == 0


@FEW
@given(SEEDS)
def test_the_categories_add_up_to_the_total_and_follow_the_rules_formula(seed: int) -> None:
    _, states, _ = recorded(seed)
    final = states[-1]
    board = GAME.scores(final)
    lowest: dict[str, int] = {}
    for space, card in enumerate(final["table"], start=1):
        lowest.setdefault(card.split("-")[0], space)
    for player in final["players"]:
        row = board["categories"][player]
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
        assert row["total"] == board["totals"][player]
        hats = final["collections"][player]
        assert row["collection"] == sum(lowest.get(card.split("-")[0], 0) for card in hats)
        assert row["black_hats"] == len(final["black_hats"][player])
        favourite = final["favourites"][player]
        same = [int(c.split("-")[1]) for c in hats if c.split("-")[0] == favourite.split("-")[0]]
        assert row["favourite"] == sum(same) - int(favourite.split("-")[1])
        assert row["cookie"] == (5 if board["cookie"] == player else 0)
    if final["teams"]:
        assert [t["total"] for t in board["teams"]] == [
            sum(board["totals"][p] for p in team) for team in final["teams"]
        ]


@FEW
@given(SEEDS)
def test_whoever_acts_next_is_always_among_the_players_the_view_says_may_act(seed: int) -> None:
    script = GAME.example(seed)
    players, setup, options = validate_match(GAME, script["players"], script["setup"], script["options"])
    state: State = {}
    for each in GAME.setup(players, setup, options):
        state = GAME.evolve(state, each)
    for action in script["actions"]:
        assert action["player"].lower() in GAME.view(state)["to_act"]
        before = copied(state)
        new = GAME.decide(state, validate_action(GAME, action))
        assert state == before, "decide changed the state it was given"
        for each in new:
            state = GAME.evolve(state, each)
    assert GAME.view(state)["to_act"] == []


@FEW
@given(SEEDS, st.data())
def test_a_card_already_face_up_is_refused_whoever_plays_it(seed: int, data: st.DataObject) -> None:
    _, states, _ = recorded(seed)
    state = states[data.draw(st.integers(min_value=0, max_value=len(states) - 2), label="step")]
    face_up = list(state["table"]) + [c for p in state["players"] for c in state["collections"][p]]
    card = data.draw(st.sampled_from(face_up), label="card")
    to_act = GAME.view(state)["to_act"]
    assume(to_act)  # not the instant between the last favourite and MatchFinished
    player = to_act[-1]
    action = {"type": "black_hat", "player": player, "card": card}
    if state["phase"] != "play":
        action = {"type": "favourite", "player": player, "card": card}
    with pytest.raises(RuleViolation) as refused:
        GAME.decide(state, validate_action(GAME, action))
    assert refused.value.code in {"card_on_table", "card_collected"}
