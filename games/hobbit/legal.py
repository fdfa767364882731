"""What The Hobbit Card Game lets the table record now: the round's leader (and, optionally, the
hands), the cards that can still be played with their marks (with recorded hands and the match's
token: only the player's cards that follow colour), and the distributions of a won trick that
obey its winner's power."""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations
from math import factorial

from games.contract import Message, RuleViolation, State, words
from games.hobbit.constants import DECK, DISCARD, MARKS, colour, living
from games.hobbit.powers import FREE, POWERS, check_distribution
from games.legal import Answer, Entry, answer, described, entry, listed
from games.words import colour_words

# --- constants -------------------------------------------------------------------------------

# Beyond this many legal distributions the answer lists each card's receivers and says the rule
# in words, instead of every combination (five cards among five players: 3,125 free ones).
MOST_CHOICES = 200

# --- legal -----------------------------------------------------------------------------------


def legal(state: State, sees_hidden: bool) -> Answer:
    """Every action the rules allow now; recorded hands count only when ``sees_hidden``."""
    if state.get("finished"):
        return answer(state, [], [])
    phase = state["phase"]
    if phase == "round_start":
        return answer(state, [], [_start_round(state)])
    if phase == "playing":
        trick = state["trick"]
        if len(trick["plays"]) >= len(trick["order"]):
            return answer(state, [], [])
        player = trick["order"][len(trick["plays"])]
        return answer(state, [player], [_play(state, player, sees_hidden)])
    if phase == "distributing":
        winner = state["trick"]["winner"]
        return answer(state, [winner], [_distribute(state, winner)])
    return answer(state, [], [])


# --- actions ---------------------------------------------------------------------------------


def _start_round(state: State) -> Entry:
    dealt = living(state)
    size = len(DECK) // len(dealt)
    hand = {"type": "array", "items": {"enum": list(DECK)}, "minItems": size, "maxItems": size}
    hands = {
        "type": "object",
        "propertyNames": {"enum": dealt},
        "required": dealt,
        "additionalProperties": {**hand, "uniqueItems": True},
    }
    return entry("start_round", [listed("leader", dealt), described("hands", hands, optional=True)])


def _play(state: State, player: str, sees_hidden: bool) -> Entry:
    cards = [card for card in DECK if card not in state["seen"]]
    hands = state["hands"] if sees_hidden else None
    if hands is not None:
        hand = hands.get(player, [])
        cards = [card for card in cards if card in hand]
        led = state["trick"]["led"]
        if led is not None and any(colour(card) == led for card in hand):
            cards = [card for card in cards if colour(card) == led]
    flags = _revokes(state, player, cards)
    marks = state["marks"]
    card = listed("card", cards, flags=flags) if flags else listed("card", cards)
    if all(card in marks for card in cards):
        # Every mark is known (the match's mark table, or each card seen before): the card alone,
        # one tap; the rules write its mark.
        return entry("play", [card], player=player)
    choices = [{"card": card, "mark": mark} for card in cards for mark in _marks_of(marks, card)]
    note = words("a card seen for the first time carries its mark")
    return entry("play", [card, listed("mark", MARKS)], player=player, choices=choices, note=note)


def _distribute(state: State, winner: str) -> Entry:
    cards = [play["card"] for play in state["trick"]["plays"]]
    free = state["options"]["distribution"] == "free"
    note = words(FREE if free else POWERS[state["characters"][winner]])
    # A power says how many cards each player gets, never which: the receivers' counts decide.
    allowed = [
        counts
        for counts in combinations_with_replacement([*living(state), DISCARD], len(cards))
        if _obeys(state, winner, dict(zip(cards, counts, strict=True)))
    ]
    used = [to for to in [*living(state), DISCARD] if any(to in counts for counts in allowed)]
    fields = [listed(f"cards.{card}", used) for card in cards]
    if sum(_orders(counts) for counts in allowed) > MOST_CHOICES:
        return entry("distribute", fields, note=note)
    choices = [
        {f"cards.{card}": to for card, to in zip(cards, order, strict=True)}
        for counts in allowed
        for order in sorted(set(permutations(counts)))
    ]
    return entry("distribute", fields, choices=choices, note=note)


# --- private helpers -------------------------------------------------------------------------


def _revokes(state: State, player: str, cards: list[str]) -> dict[str, Message]:
    """The cards whose play the rules accept but flag as a revoke (no hands recorded), and why."""
    voids = state["void"].get(player, {}) if state["hands"] is None else {}
    return {
        card: words(
            "a revoke: {player} did not follow {colour} in trick {trick}; "
            "the play is recorded with a dispute",
            player=player,
            colour=colour_words(colour(card)),
            trick=voids[colour(card)],
        )
        for card in cards
        if colour(card) in voids
    }


def _marks_of(marks: dict[str, str], card: str) -> list[str]:
    """The marks ``card`` may show: the one it showed (or the table says), else any."""
    return [marks[card]] if card in marks else list(MARKS)


def _obeys(state: State, winner: str, given: dict[str, str]) -> bool:
    """Whether the winner's power (or the free rule) allows handing out the trick so."""
    try:
        check_distribution(state, winner, given)
    except RuleViolation:
        return False
    return True


def _orders(counts: tuple[str, ...]) -> int:
    """How many ways there are to hand out the trick's cards to these receivers."""
    ways = factorial(len(counts))
    for receiver in set(counts):
        ways //= factorial(counts.count(receiver))
    return ways
