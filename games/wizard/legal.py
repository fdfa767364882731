"""What Wizard lets the table record now: the round's start (or the whole round, scores only),
the trump suit after a turned Wizard, each bid the rules allow (the canadian rule applied to the
dealer's), and the cards that can still be in play (with a recorded hand: only its cards, and
only those that follow suit)."""

from __future__ import annotations

from typing import Any

from games.contract import Message, State, words
from games.legal import Answer, Entry, answer, described, entry, listed
from games.wizard.constants import (
    BIDDING,
    CHOOSE_TRUMP,
    DECK,
    PLAYING,
    SPECIALS,
    START_ROUND,
    SUITS,
    copies_allowed,
    suit_name,
    suit_of,
    suit_to_follow,
)
from games.wizard.turns import sole_leader, to_act

# --- constants -------------------------------------------------------------------------------

# Every card once, in deck order (suit cards, then a Wizard and a Jester).
CARDS = list(dict.fromkeys(DECK))

# --- legal -----------------------------------------------------------------------------------


def legal(state: State, sees_hidden: bool) -> Answer:
    """Every action the rules allow now; recorded hands count only when ``sees_hidden``."""
    if state.get("finished"):
        return answer(state, [], [])
    hands: dict[str, list[str]] = state["hands"] if sees_hidden else {}
    phase = state["phase"]
    if phase == START_ROUND:
        actions = [_start_round(state), _record_round(state)]
    elif phase == CHOOSE_TRUMP:
        actions = [entry("choose_trump", [listed("suit", SUITS)], player=state["dealer"])]
    elif phase == BIDDING:
        actions = [_bid(state, player) for player in to_act(state)]
    elif phase == PLAYING:
        actions = [_play(state, player, hands) for player in to_act(state)]
    else:
        actions = []
    return answer(state, to_act(state), actions)


# --- actions ---------------------------------------------------------------------------------


def _start_round(state: State) -> Entry:
    round_no, last = state["round"], state["rounds_total"]
    trump = [None] if round_no == last else CARDS
    hand: dict[str, Any] = {"type": "array", "items": {"enum": CARDS}, "minItems": round_no}
    hands = {
        "type": "object",
        "propertyNames": {"enum": state["players"]},
        "additionalProperties": {**hand, "maxItems": round_no},
    }
    note = words("the last round turns no card") if round_no == last else None
    fields = [listed("trump_card", trump), described("hands", hands, optional=True)]
    return entry("start_round", fields, note=note)


def _record_round(state: State) -> Entry:
    round_no, players = state["round"], state["players"]
    counts = list(range(round_no + 1))
    fields = [listed(f"bids.{p}", counts) for p in players] + [listed(f"tricks.{p}", counts) for p in players]
    note = words("the tricks add up to {round_no}", round_no=round_no)
    if state["options"]["canadian_rule"] and sole_leader(state["totals"]) == state["dealer"]:
        note = words(
            "the tricks add up to {round_no}; "
            "the bids may not add up to {round_no} unless {dealer} (dealing) bids 0",
            round_no=round_no,
            dealer=state["dealer"],
        )
    found = entry("record_round", fields, note=note)
    found["sum"] = {"fields": [f"tricks.{p}" for p in players], "equals": round_no}
    return found


def _bid(state: State, player: str) -> Entry:
    counts = [n for n in range(state["round"] + 1) if n != _forbidden_bid(state, player)]
    return entry("bid", [listed("tricks", counts)], player=player)


def _play(state: State, player: str, hands: dict[str, list[str]]) -> Entry:
    cards = [card for card in CARDS if _in_play(state, player, card, hands)]
    hand = hands.get(player)
    if hand is not None:
        cards = [card for card in cards if card in hand]
        led = suit_to_follow([t["card"] for t in state["trick"]])
        if led is not None and any(suit_of(card) == led for card in hand):
            cards = [card for card in cards if suit_of(card) in (None, led)]
    flags = _revokes(state, player, cards)
    field = listed("card", cards, flags=flags) if flags else listed("card", cards)
    return entry("play", [field], player=player)


# --- private helpers -------------------------------------------------------------------------


def _forbidden_bid(state: State, player: str) -> int | None:
    """The dealer's bid the canadian rule forbids (never 0), or None."""
    dealer, round_no, bids = state["dealer"], state["round"], state["bids"]
    if not state["options"]["canadian_rule"] or player != dealer:
        return None
    if len(bids) != len(state["players"]) - 1 or sole_leader(state["totals"]) != dealer:
        return None
    forbidden = round_no - sum(bids.values())
    return forbidden if forbidden > 0 else None


def _revokes(state: State, player: str, cards: list[str]) -> dict[str, Message]:
    """The cards whose play the rules accept but flag as a revoke, each with the sentence why."""
    voids = state["voids"].get(player, {})
    flags = {}
    for card in cards:
        suit = suit_of(card)
        if suit is not None and suit in voids:
            flags[card] = words(
                "a revoke: {player} did not follow {suit} in trick {trick}; "
                "the play is recorded with a dispute",
                player=player,
                suit=suit_name(suit),
                trick=voids[suit],
            )
    return flags


def _in_play(state: State, player: str, card: str, hands: dict[str, list[str]]) -> bool:
    """Whether ``card`` may still be in ``player``'s hand, from what the answer may know."""
    others = [c for holder, hand in hands.items() if holder != player for c in hand]
    seen = [p["card"] for p in state["played"]] + [state["trump_card"]] + others
    if card in SPECIALS:
        return seen.count(card) < copies_allowed(card)
    return card not in seen
