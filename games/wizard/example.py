"""Wizard's example(seed): a complete, legal, finished match for tests and benchmarks.

The seed decides the number of players, the options, how the table records (card by card with
the hands, card by card without them, scores only, or a mix round by round) and how cards are
spelled, so different seeds exercise different paths; one seed always gives the same match.
"""

from __future__ import annotations

from random import Random
from typing import Any

from games.contract import Action, Script
from games.players import left_of, seats_from
from games.wizard.constants import (
    DECK,
    JESTER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SPECIALS,
    SUITS,
    WIZARD,
    round_points,
    rounds_for,
    suit_of,
    suit_to_follow,
    trick_winner,
)
from games.wizard.turns import dealer_of, sole_leader

_NAMES = ["ann", "bob", "cy", "dee", "eli", "fay", "gus", "hal", "ivy", "jo"]
_STYLES = ("hands", "no_hands", "scores_only", "mixed")

# --- example ---------------------------------------------------------------------------------


def example(seed: int) -> Script:
    """A whole legal match, different for each seed and always the same for one seed."""
    rng = Random(seed)
    players = rng.sample(_NAMES, rng.randint(MIN_PLAYERS, MAX_PLAYERS))
    bidding = rng.choice(("clockwise", "simultaneous", "secret"))
    options = {"bidding": bidding, "canadian_rule": bidding == "clockwise" and rng.random() < 0.5}
    first_dealer = rng.choice(players)
    style = rng.choice(_STYLES)
    totals = {p: 0 for p in players}
    actions: list[Action] = []
    for round_no in range(1, rounds_for(len(players)) + 1):
        table = {
            "players": players,
            "round": round_no,
            "dealer": dealer_of(players, first_dealer, round_no),
            "options": options,
            "totals": totals,
        }
        how = rng.choice(_STYLES[:3]) if style == "mixed" else style
        if how == "scores_only":
            bids, tricks = _bids(rng, table, list(players)), _random_tricks(rng, players, round_no)
            actions.append({"type": "record_round", "bids": bids, "tricks": tricks})
        else:
            bids, tricks = _played_round(rng, table, actions, with_hands=how == "hands")
        for p in players:
            totals[p] += round_points(bids[p], tricks[p])
    return {
        "players": players,
        "setup": {"first_dealer": first_dealer},
        "options": options,
        "actions": actions,
    }


# --- private helpers -------------------------------------------------------------------------


def _played_round(
    rng: Random, table: dict[str, Any], actions: list[Action], with_hands: bool
) -> tuple[dict[str, int], dict[str, int]]:
    """Deal, turn, bid and play a round card by card; return the bids and tricks won."""
    players, round_no = table["players"], table["round"]
    order = seats_from(players, left_of(players, table["dealer"]))
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {p: deck[i * round_no : (i + 1) * round_no] for i, p in enumerate(order)}
    last = round_no == rounds_for(len(players))
    turned = None if last else deck[len(players) * round_no]
    start: Action = {"type": "start_round", "trump_card": _spell(rng, turned)}
    if last and rng.random() < 0.5:
        del start["trump_card"]
    if with_hands:
        shown = players if rng.random() < 0.7 else rng.sample(players, rng.randint(1, len(players)))
        start["hands"] = {p: [_spell(rng, c) for c in hands[p]] for p in shown}
    actions.append(start)
    trump = suit_of(turned) if turned and turned != JESTER else None
    if turned == WIZARD:
        trump = rng.choice(SUITS)
        actions.append({"type": "choose_trump", "suit": rng.choice((trump, trump.lower()))})
    bid_order = list(order) if table["options"]["bidding"] == "clockwise" else rng.sample(order, len(order))
    bids = _bids(rng, table, bid_order)
    actions.extend({"type": "bid", "player": p, "tricks": bids[p]} for p in bid_order)
    return {p: bids[p] for p in players}, _play_tricks(rng, table, hands, trump, actions)


def _play_tricks(
    rng: Random,
    table: dict[str, Any],
    hands: dict[str, list[str]],
    trump: str | None,
    actions: list[Action],
) -> dict[str, int]:
    players = table["players"]
    tricks = {p: 0 for p in players}
    leader = left_of(players, table["dealer"])
    for _ in range(table["round"]):
        cards: list[str] = []
        seats = seats_from(players, leader)
        for player in seats:
            card = rng.choice(_legal(hands[player], cards))
            hands[player].remove(card)
            cards.append(card)
            actions.append({"type": "play", "player": player, "card": _spell(rng, card)})
        leader = seats[trick_winner(cards, trump)]
        tricks[leader] += 1
    return tricks


def _legal(hand: list[str], trick: list[str]) -> list[str]:
    """The cards of ``hand`` a player may play to ``trick``: follow suit if able."""
    led = suit_to_follow(trick)
    following = [c for c in hand if led is not None and suit_of(c) == led]
    if not following:
        return hand
    return following + [c for c in hand if c in SPECIALS]


def _bids(rng: Random, table: dict[str, Any], order: list[str]) -> dict[str, int]:
    """Plausible bids in bidding order; the canadian rule steers the dealer's when it applies."""
    round_no, dealer = table["round"], table["dealer"]
    guess = max(1, round_no // len(order))
    bids = {p: min(round_no, rng.randint(0, guess + 1)) for p in order}
    binding = table["options"]["canadian_rule"] and sole_leader(table["totals"]) == dealer
    if binding and bids[dealer] != 0 and sum(bids.values()) == round_no:
        forbidden = bids[dealer]
        bids[dealer] = rng.choice([n for n in range(round_no + 1) if n != forbidden])
    return bids


def _random_tricks(rng: Random, players: list[str], round_no: int) -> dict[str, int]:
    tricks = {p: 0 for p in players}
    for _ in range(round_no):
        tricks[rng.choice(players)] += 1
    return tricks


def _spell(rng: Random, card: str | None) -> str | None:
    """The card as a table might type it: usually canonical, sometimes in another case."""
    if card is None or rng.random() < 0.8:
        return card
    return rng.choice((card.lower(), card.upper(), card.capitalize()))
