"""Wizard as data: the deck, the phases, card notation, and the two pure rules every round
needs: who wins a trick and what a bid scores."""

from __future__ import annotations

from collections import Counter

from games.contract import N_, Message, fail, words

# --- constants -------------------------------------------------------------------------------

GAME_ID = "wizard"
TITLE = "Wizard"

SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_ORDER = {rank: value for value, rank in enumerate(RANKS, start=2)}
WIZARD = "wizard"
JESTER = "jester"
SPECIALS = (WIZARD, JESTER)
COPIES = {WIZARD: 4, JESTER: 4}
DECK = [rank + suit for suit in SUITS for rank in RANKS] + [WIZARD] * 4 + [JESTER] * 4
MIN_PLAYERS = 2
MAX_PLAYERS = 6

# Phases of a match, in the order a round walks through them.
START_ROUND = "start_round"  # between rounds: waiting for start_round or record_round
CHOOSE_TRUMP = "choose_trump"  # a Wizard was turned: waiting for the dealer's suit
BIDDING = "bidding"
PLAYING = "playing"
SCORED = "scored"  # the last round is scored; MatchFinished follows in the same batch
FINISHED = "finished"

# Points: a bid met scores a base plus a bonus per trick; a miss costs a penalty per trick off.
MET_BASE = 20
MET_PER_TRICK = 10
MISS_PER_TRICK = 10


# --- notation --------------------------------------------------------------------------------


def parse_card(text: str) -> str | None:
    """The canonical spelling of a card (``10S``, ``QD``, ``wizard``), or None if it is no card."""
    word = text.strip()
    if word.lower() in SPECIALS:
        return word.lower()
    word = word.upper()
    rank, suit = word[:-1], word[-1:]
    if suit in SUITS and rank in RANK_ORDER:
        return rank + suit
    return None


def read_card(text: str) -> str:
    """The canonical card for ``text`` (any case), or ``unknown_card`` naming it."""
    card = parse_card(text)
    if card is None:
        fail(
            "unknown_card",
            "{text!r} is not a Wizard card; write rank then suit (7H, 10S, QD, AC) or 'wizard' / 'jester'",
            text=text,
        )
    return card


def parse_suit(text: str) -> str | None:
    """The suit letter for ``h``, ``H`` or ``hearts`` (any case), or None."""
    word = text.strip().upper()
    if word in SUITS:
        return word
    for letter, name in SUIT_NAMES.items():
        if word == name.upper():
            return letter
    return None


def suit_of(card: str) -> str | None:
    """The suit of a card; None for a Wizard or a Jester."""
    return None if card in SPECIALS else card[-1]


def rank_of(card: str) -> int:
    """The rank of a suit card, 2 (two) to 14 (ace)."""
    return RANK_ORDER[card[:-1]]


def copies_allowed(card: str) -> int:
    """How many copies of this card the deck holds."""
    return COPIES.get(card, 1)


def too_many_copies(cards: list[str]) -> str | None:
    """A card that appears more often than the deck holds it, or None."""
    for card, count in Counter(cards).items():
        if count > copies_allowed(card):
            return card
    return None


def suit_name(suit: str) -> Message:
    """A suit letter in words."""
    return words(SUIT_NAMES[suit])


def rounds_for(players: int) -> int:
    """How many rounds a match has: the whole deck is dealt in the last one."""
    return len(DECK) // players


# --- tricks and points -----------------------------------------------------------------------


def suit_to_follow(cards: list[str]) -> str | None:
    """The suit a trick asks for: the first non-Jester card's, none if that is a Wizard."""
    for card in cards:
        if card != JESTER:
            return suit_of(card)
    return None


def trick_winner(cards: list[str], trump: str | None) -> int:
    """Index of the winning card: first Wizard, else highest trump, else highest of the led suit."""
    if WIZARD in cards:
        return cards.index(WIZARD)
    if all(card == JESTER for card in cards):
        return 0
    for suit in (trump, suit_to_follow(cards)):
        ranked = [(rank_of(c), i) for i, c in enumerate(cards) if suit and suit_of(c) == suit]
        if ranked:
            return max(ranked)[1]
    return 0  # unreachable: the first non-Jester card always sets a suit when no Wizard is played


def round_points(bid: int, tricks: int) -> int:
    """Points for one player's round: 20 + 10 a trick when the bid is met, else -10 a trick off."""
    if bid == tricks:
        return MET_BASE + MET_PER_TRICK * tricks
    return -MISS_PER_TRICK * abs(bid - tricks)


def describe_card(card: str) -> str | Message:
    """A card in words for messages: ``QH``, ``a Wizard``, ``a Jester``."""
    if card == WIZARD:
        return words("a Wizard")
    return words("a Jester") if card == JESTER else card
