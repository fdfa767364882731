"""Properties of random legal Wizard matches: cards conserved, tricks and scores add up, the
fold is consistent (rewind and fold forward equals the live state; states survive JSON)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.registry import get_game
from games.validation import validate_match

# Random playouts and hypothesis searches: the quick run (`make test-quick`) leaves them out.
pytestmark = pytest.mark.slow

GAME = get_game("wizard")
State = dict[str, Any]
Event = dict[str, Any]

# Recordings are cached by seed, so the tests over many matches share most of their work.
SEEDS = st.integers(min_value=0, max_value=299)
FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SUIT_CARDS = [r + s for s in "SHDC" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()]
RANK = {r: v for v, r in enumerate("2 3 4 5 6 7 8 9 10 J Q K A".split(), start=2)}


# --- recording a match through the public contract -------------------------------------------


@dataclass(frozen=True)
class Recording:
    """A whole match: every event in order, the events of each action, and the live state."""

    events: list[Event]
    batches: list[list[Event]]
    state: State


def fold(events: list[Event], state: State | None = None) -> State:
    state = {} if state is None else state
    for event in events:
        state = GAME.evolve(state, event)
    return state


@cache
def recorded(seed: int) -> Recording:
    """The example match of ``seed``, recorded action by action (cached)."""
    return record(seed)


def record(seed: int) -> Recording:
    """The example match of ``seed``, recorded action by action; decide must not touch its state."""
    script = GAME.example(seed)
    names, setup, options = validate_match(GAME, script["players"], script["setup"], script["options"])
    events = GAME.setup(names, setup, options)
    state = fold(events)
    batches = []
    for step, action in enumerate(script["actions"]):
        # Schema checks are their own test below; here they would triple the time.
        before = json.dumps(state) if step % 5 == 0 else None
        batch = GAME.decide(state, action)
        assert before is None or before == json.dumps(state), "decide changed its state"
        state = fold(batch, state)
        events.extend(batch)
        batches.append(batch)
    return Recording(events, batches, state)


def rounds_of(events: list[Event]) -> dict[int, list[Event]]:
    """The events of each round that was played card by card, by round number."""
    found: dict[int, list[Event]] = {}
    current = None
    for event in events:
        if event["type"] == "RoundStarted":
            current = event["data"]["round"]
        if current is not None:
            found.setdefault(current, []).append(event)
        if event["type"] in ("RoundScored", "RoundRecorded"):
            current = None
    return found


def points(bid: int, tricks: int) -> int:
    return 20 + 10 * tricks if bid == tricks else -10 * abs(bid - tricks)


# --- properties of whole matches -------------------------------------------------------------


@MANY
@given(SEEDS)
def test_every_random_legal_match_finishes_with_every_round_scored(seed: int) -> None:
    match = recorded(seed)
    scores = GAME.scores(match.state)
    total = 60 // len(match.state["players"])
    assert scores["finished"] is True and match.state["disputes"] == []
    assert [r["round"] for r in scores["rounds"]] == list(range(1, total + 1))
    assert match.events[-1]["type"] == "MatchFinished"


@MANY
@given(SEEDS)
def test_cards_are_conserved_in_every_round_played_card_by_card(seed: int) -> None:
    match = recorded(seed)
    players = match.state["players"]
    for round_no, events in rounds_of(match.events).items():
        started = events[0]["data"]
        played = [e["data"] for e in events if e["type"] == "CardPlayed"]
        cards = [p["card"] for p in played]
        turned = [started["trump_card"]] if started["trump_card"] else []
        assert len(cards) == len(players) * round_no
        counts = Counter(cards + turned)
        assert all(n == 1 for c, n in counts.items() if c in SUIT_CARDS)
        assert counts["wizard"] <= 4 and counts["jester"] <= 4
        for player, hand in started["hands"].items():
            assert sorted(p["card"] for p in played if p["player"] == player) == sorted(hand)
        assert Counter(p["player"] for p in played) == {p: round_no for p in players}


@MANY
@given(SEEDS)
def test_each_rounds_tricks_add_up_to_its_number_and_bids_stay_in_range(seed: int) -> None:
    match = recorded(seed)
    for entry in GAME.scores(match.state)["rounds"]:
        assert sum(entry["tricks"].values()) == entry["round"]
        assert all(0 <= bid <= entry["round"] for bid in entry["bids"].values())
    for round_no, events in rounds_of(match.events).items():
        won = Counter(e["data"]["player"] for e in events if e["type"] == "TrickWon")
        assert sum(won.values()) == round_no
        scored = [e for e in events if e["type"] == "RoundScored"][0]["data"]
        assert {p: won[p] for p in scored["tricks"]} == scored["tricks"]


@MANY
@given(SEEDS)
def test_totals_equal_the_sum_of_the_formula_over_the_rounds(seed: int) -> None:
    scores = GAME.scores(recorded(seed).state)
    expected = {p: 0 for p in scores["totals"]}
    for entry in scores["rounds"]:
        for player, bid in entry["bids"].items():
            assert entry["points"][player] == points(bid, entry["tricks"][player])
            expected[player] += entry["points"][player]
    assert scores["totals"] == expected
    best = max(expected.values())
    assert scores["winners"] == [p for p in expected if expected[p] == best]


@MANY
@given(SEEDS)
def test_under_the_canadian_rule_a_leading_dealer_never_makes_the_bids_add_up(seed: int) -> None:
    state = recorded(seed).state
    players, first = state["players"], state["setup"]["first_dealer"]
    totals = {p: 0 for p in players}
    for entry in GAME.scores(state)["rounds"]:
        dealer = players[(players.index(first) + entry["round"] - 1) % len(players)]
        leads = all(totals[dealer] > totals[p] for p in players if p != dealer)
        if state["options"]["canadian_rule"] and leads and entry["bids"][dealer] != 0:
            assert sum(entry["bids"].values()) != entry["round"]
        totals = {p: totals[p] + entry["points"][p] for p in players}


@MANY
@given(SEEDS)
def test_every_trick_goes_to_the_card_the_rules_name(seed: int) -> None:
    match = recorded(seed)
    for events in rounds_of(match.events).values():
        trump = events[0]["data"]["trump"]
        for event in events:
            if event["type"] == "TrumpChosen":
                trump = event["data"]["suit"]
            if event["type"] == "TrickWon":
                assert _winner_is_right(event["data"]["cards"], event["data"]["player"], trump)


# --- trick winners over tricks hypothesis builds ---------------------------------------------

_CARDS = st.sampled_from(SUIT_CARDS + ["wizard", "jester"])


def _no_suit_card_twice(cards: list[str]) -> bool:
    return all(n == 1 for card, n in Counter(cards).items() if card in SUIT_CARDS)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_CARDS, min_size=4, max_size=4).filter(_no_suit_card_twice),
    st.sampled_from(["2C", "5H", "9S", "QD", "jester"]),
)
def test_any_trick_of_four_goes_to_the_card_the_rules_name(cards: list[str], turned: str) -> None:
    if turned in cards:
        return
    players = ["ann", "bob", "cy", "dee"]
    names, setup, options = validate_match(GAME, players, {"first_dealer": "ann"}, {})
    state = fold(GAME.setup(names, setup, options))
    state = fold(GAME.decide(state, {"type": "start_round", "trump_card": turned}), state)
    for player in ["bob", "cy", "dee", "ann"]:
        state = fold(GAME.decide(state, {"type": "bid", "player": player, "tricks": 0}), state)
    events: list[Event] = []
    for player, card in zip(["bob", "cy", "dee", "ann"], cards, strict=True):
        events = GAME.decide(state, {"type": "play", "player": player, "card": card})
        state = fold(events, state)
    won = [e["data"] for e in events if e["type"] == "TrickWon"][0]
    trump = None if turned == "jester" else turned[-1]
    assert _winner_is_right(won["cards"], won["player"], trump)


def _winner_is_right(cards: list[dict[str, str]], winner: str, trump: str | None) -> bool:
    """The spec's winner, worked out independently: first Wizard, else highest trump, else
    highest of the suit set by the first non-Jester card; all Jesters: the first."""
    played = [c["card"] for c in cards]
    if "wizard" in played:
        return cards[played.index("wizard")]["player"] == winner
    suits = [c for c in played if c != "jester"]
    if not suits:
        return cards[0]["player"] == winner
    led = suits[0][-1]
    for suit in (trump, led):
        of_suit = [c for c in cards if suit and c["card"] != "jester" and c["card"][-1] == suit]
        if of_suit:
            return max(of_suit, key=lambda c: RANK[c["card"][:-1]])["player"] == winner
    return False
