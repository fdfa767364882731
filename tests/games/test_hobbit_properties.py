"""Properties of every legal Hobbit match: random matches from ``GAME.example(seed)`` with seeds
drawn by hypothesis, folded event by event, and random actions thrown at them."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import RuleViolation
from games.hobbit import GAME
from games.validation import validate_action, validate_match
from tests.support.games import copied

# Random playouts and hypothesis searches: the quick run (`make test-quick`) leaves them out.
pytestmark = pytest.mark.slow

Event = dict[str, Any]
SEEDS = st.integers(min_value=0, max_value=100_000)
FEW = settings(max_examples=20, deadline=None)
SIDE = {"bilbo": "good", "thorin": "good", "gandalf": "good", "smaug": "evil", "bolg": "evil"}


def record(seed: int) -> tuple[list[Event], list[dict[str, Any]]]:
    """Every event of the seed's example match, and the state after each event."""
    script = GAME.example(seed)
    players, setup, options = validate_match(GAME, script["players"], script["setup"], script["options"])
    events: list[Event] = []
    states: list[dict[str, Any]] = []
    state: dict[str, Any] = {}

    def fold(new: list[Event]) -> None:
        nonlocal state
        for ev in new:
            state = GAME.evolve(state, ev)
            events.append(ev)
            states.append(copied(state))

    fold(GAME.setup(players, setup, options))
    for action in script["actions"]:
        fold(GAME.decide(state, validate_action(GAME, action)))
    return events, states


def fold_all(events: list[Event], state: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state after folding ``events`` onto ``state`` (a new match when None)."""
    state = {} if state is None else state
    for ev in events:
        state = GAME.evolve(state, ev)
    return state


@FEW
@given(SEEDS)
def test_every_example_match_is_legal_finished_and_free_of_disputes(seed: int) -> None:
    events, states = record(seed)
    board = GAME.scores(states[-1])
    assert board["finished"] is True and events[-1]["type"] == "MatchFinished"
    assert states[-1]["disputes"] == []
    assert set(board["winners"]) <= set(states[-1]["players"])


@FEW
@given(SEEDS)
def test_cards_are_conserved_in_every_round(seed: int) -> None:
    events, _ = record(seed)
    played: Counter[int] = Counter()
    discarded: Counter[int] = Counter()
    ended, now = set(), 0
    for ev in events:
        data = ev["data"]
        if ev["type"] == "RoundStarted":
            now = data["round"]
            seen: set[str] = set()
            assert data["hand_size"] * len(data["dealt"]) == 60
        elif ev["type"] == "CardPlayed":
            assert data["card"] not in seen
            seen.add(data["card"])
            played[now] += 1
        elif ev["type"] == "PlayerEliminated":
            discarded[now] += data["discarded"]
        elif ev["type"] == "RoundEnded":
            ended.add(now)
    for number in ended:
        assert played[number] + discarded[number] == 60


@FEW
@given(SEEDS)
def test_each_won_trick_hands_out_exactly_its_own_cards(seed: int) -> None:
    events, _ = record(seed)
    won = [e["data"] for e in events if e["type"] == "TrickWon"]
    handed = [e["data"] for e in events if e["type"] == "CardsDistributed"]
    assert len(won) == len(handed)
    for trick, out in zip(won, handed, strict=True):
        assert list(out["cards"]) == trick["cards"] and out["player"] == trick["player"]


@FEW
@given(SEEDS)
def test_health_stays_within_zero_and_two_at_every_step(seed: int) -> None:
    _, states = record(seed)
    for state in states:
        for character in GAME.view(state)["characters"].values():
            assert 0 <= character["health"] <= 2


@FEW
@given(SEEDS)
def test_the_eliminated_never_play_receive_or_lead_again(seed: int) -> None:
    events, _ = record(seed)
    out: set[str] = set()
    for ev in events:
        data = ev["data"]
        if ev["type"] == "PlayerEliminated":
            out.add(data["player"])
        elif ev["type"] == "CardPlayed":
            assert data["player"] not in out
        elif ev["type"] == "CardsDistributed":
            assert not out & set(data["cards"].values())
        elif ev["type"] in ("LeaderChosen", "RoundStarted"):
            assert data.get("player", data.get("leader")) not in out
            assert not out & set(data.get("dealt", []))


@FEW
@given(SEEDS)
def test_the_result_follows_survivors_then_damage_dealt(seed: int) -> None:
    events, states = record(seed)
    final = GAME.view(states[-1])
    alive = Counter(c["side"] for c in final["characters"].values() if c["alive"])
    harm = Counter(
        "evil" if SIDE[final["characters"][e["data"]["player"]]["character"]] == "good" else "good"
        for e in events
        if e["type"] == "CardTookEffect" and e["data"]["effect"] == "damage"
    )
    assert final["damage_dealt"] == {"good": harm["good"], "evil": harm["evil"]}
    good, evil = alive["good"], alive["evil"]
    expected = (
        ("good" if good > evil else "evil")
        if good != evil
        else ("good" if harm["good"] > harm["evil"] else "evil")
        if harm["good"] != harm["evil"]
        else None
    )
    assert final["result"]["side"] == expected
    winners = [p for p, c in final["characters"].items() if c["side"] == expected]
    assert GAME.scores(states[-1])["winners"] == winners


ANY_ACTION = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("start_round"), "leader": st.sampled_from(["ann", "bob", "eve", "zed"])}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("play"),
            "player": st.sampled_from(["ann", "bob", "cy", "dee", "eve", "zed"]),
            "card": st.sampled_from(["red-1", "purple-12", "GREEN-7", "blue-13", "x"]),
        },
        optional={"mark": st.sampled_from(["light", "dark", "pipe"])},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("distribute"),
            "cards": st.dictionaries(
                st.sampled_from(["red-1", "purple-12", "green-7", "yellow-3"]),
                st.sampled_from(["ann", "bob", "cy", "discard", "zed"]),
                min_size=1,
                max_size=4,
            ),
        }
    ),
)


@FEW
@given(SEEDS, st.floats(min_value=0, max_value=1), st.lists(ANY_ACTION, max_size=8))
def test_any_action_at_any_step_is_either_refused_cleanly_or_recorded(
    seed: int, where: float, actions: list[dict[str, Any]]
) -> None:
    script = GAME.example(seed)
    state = fold_all(GAME.setup(script["players"], script["setup"], script["options"]))
    for action in script["actions"][: int(where * len(script["actions"]))]:
        state = fold_all(GAME.decide(state, validate_action(GAME, action)), state)
    for action in actions:
        before = copied(state)
        try:
            new = GAME.decide(state, validate_action(GAME, action))
        except RuleViolation as refusal:
            assert state == before and refusal.code and refusal.message
            continue
        state = fold_all(new, state)
        assert json.loads(json.dumps(state)) == state
