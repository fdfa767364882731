"""Hats ``example(seed)``: a whole legal match, played out with real cards and recorded in a style.

The match is simulated as it happens at a table (a shuffled deck, secret hands, a discard pile that
is reshuffled when the draw pile runs out), then written down the way one table might record it:
player counts, options, which hidden cards are named and the letter case all vary with the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.contract import Action, Script
from games.hats.constants import (
    ALL_CARDS,
    HAND_SIZE,
    PLAYS_EACH,
    TYPES,
    card_type,
    card_value,
    table_size,
)
from games.players import left_of

NAMES = ["ann", "bob", "cy", "dee"]

# --- example ----------------------------------------------------------------------------------


def example(seed: int) -> Script:
    """A complete legal Hats match for this seed (2, 3 or 4 players; varied recording)."""
    rng = random.Random(seed)
    count = 2 + seed % 3
    players = NAMES[:count]
    table = _Table(rng, players, _Style.draw(rng, count))
    script: Script = {
        "players": players,
        "setup": table.setup_facts(),
        "options": table.style.options(),
        "actions": [],
    }
    actions: list[Action] = script["actions"]
    for number in range(PLAYS_EACH * count):
        player = table.order[number % count]
        when = rng.choice(["before", "after", None, None, None])
        if when == "before":
            actions.append(table.extra(player))
        actions.append(table.main(player))
        last = number == PLAYS_EACH * count - 1
        if when == "after" or (when is None and last and rng.random() < 0.3):
            actions.append(table.extra(player))
    for player in rng.sample(players, count):
        actions.append(table.favourite(player))
    return script


# --- private helpers --------------------------------------------------------------------------


@dataclass
class _Style:
    """How one table records: which hidden cards it names, and how it spells."""

    partners: bool
    explicit_options: bool
    mixed_case: bool
    recorded_hands: int
    name_black_hats: float
    name_redraws: float
    name_trades: float

    @classmethod
    def draw(cls, rng: random.Random, count: int) -> _Style:
        """A recording style picked at random."""
        return cls(
            partners=count == 4 and rng.random() < 0.75,
            explicit_options=rng.random() < 0.5,
            mixed_case=rng.random() < 0.3,
            recorded_hands=rng.choice([0, 0, 1, count]),
            name_black_hats=rng.choice([0.0, 0.5, 1.0]),
            name_redraws=rng.choice([0.0, 0.5, 1.0]),
            name_trades=rng.choice([0.0, 1.0]),
        )

    def options(self) -> dict[str, Any]:
        """The options as this table sends them (defaults left out or spelled out)."""
        if self.partners or not self.explicit_options:
            return {"partners": True} if self.explicit_options else {}
        return {"partners": False}


@dataclass
class _Table:
    """The physical table: deck, tea table, hands and discard pile, and how it is recorded."""

    rng: random.Random
    players: list[str]
    style: _Style
    order: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    tea: list[str] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)
    dealt: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        count = len(self.players)
        self.removed = self.rng.sample(TYPES, 2) if count == 2 else []
        self.deck = [c for c in ALL_CARDS if card_type(c) not in self.removed]
        self.rng.shuffle(self.deck)
        self.tea = [self.deck.pop() for _ in range(table_size(count))]
        start = self.rng.randrange(count)
        self.order = self.players[start:] + self.players[:start]
        self.hands = {p: [self.deck.pop() for _ in range(HAND_SIZE)] for p in self.order}
        self.dealt = {p: list(cards) for p, cards in self.hands.items()}

    def setup_facts(self) -> dict[str, Any]:
        """The setup as the table records it."""
        facts: dict[str, Any] = {
            "start_player": self.spell(self.order[0]),
            "table": [self.spell(c) for c in self.tea],
        }
        if self.removed:
            facts["removed_types"] = [self.spell(kind) for kind in self.removed]
        shown = self.rng.sample(self.players, self.style.recorded_hands)
        if shown:
            facts["hands"] = {self.spell(p): [self.spell(c) for c in self.dealt[p]] for p in shown}
        return facts

    def main(self, player: str) -> Action:
        """A swap when one is legal (mostly), else a black hat."""
        hand = self.hands[player]
        legal = [
            (card, space)
            for card in hand
            for space, on in enumerate(self.tea, start=1)
            if card_type(card) == card_type(on) or card_value(card) > card_value(on)
        ]
        if legal and self.rng.random() < 0.85:
            card, space = self.rng.choice(legal)
            hand.remove(card)
            self.tea[space - 1] = card
            return {
                "type": "swap",
                "player": self.spell(player),
                "card": self.spell(card),
                "space": space,
            }
        card = self.rng.choice(hand)
        hand.remove(card)
        action = {"type": "black_hat", "player": self.spell(player)}
        return self._named(action, card=card, chance=self.style.name_black_hats)

    def extra(self, player: str) -> Action:
        """A partner trade (with partners, half the time) or a redraw."""
        if self.style.partners and self.rng.random() < 0.5:
            return self._trade(player)
        hand = self.hands[player]
        discarded = self.rng.choice(hand)
        hand.remove(discarded)
        self.pile.append(discarded)
        if not self.deck:
            self.deck, self.pile = self.pile, []
            self.rng.shuffle(self.deck)
        drawn = self.deck.pop()
        hand.append(drawn)
        action = {"type": "redraw", "player": self.spell(player)}
        chance = self.style.name_redraws
        return self._named(action, discarded=discarded, drawn=drawn, chance=chance)

    def favourite(self, player: str) -> Action:
        """The reveal of the last card in hand."""
        (card,) = self.hands[player]
        return {"type": "favourite", "player": self.spell(player), "card": self.spell(card)}

    def spell(self, word: str) -> str:
        """A name as this table types it (some tables shout)."""
        if not self.style.mixed_case:
            return word
        return self.rng.choice([word, word.upper(), word.capitalize()])

    def _trade(self, player: str) -> Action:
        partner = left_of(self.players, player, 2)
        given = self.rng.choice(self.hands[player])
        received = self.rng.choice(self.hands[partner])
        self.hands[player].remove(given)
        self.hands[partner].remove(received)
        self.hands[player].append(received)
        self.hands[partner].append(given)
        action = {"type": "partner_trade", "player": self.spell(player)}
        return self._named(action, given=given, received=received, chance=self.style.name_trades)

    def _named(self, action: Action, chance: float, **cards: str) -> Action:
        for key, card in cards.items():
            if self.rng.random() < chance:
                action[key] = self.spell(card)
        return action
