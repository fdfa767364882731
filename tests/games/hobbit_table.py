"""A Hobbit table for the tests: records actions through the public contract and knows the deal.

Not a test module: the Hobbit tests import ``Table`` from here. The table deals round robin
(seat k of n living players holds every n-th card of the deck), keeps the true hands whether or
not they are recorded, and can play a round out quietly (following colour, handing out only
cards that change nothing where it can).
"""

from __future__ import annotations

import copy
import functools
import itertools
from typing import Any

from games.contract import RuleViolation
from games.hobbit import GAME
from tests.support import games as support

Event = dict[str, Any]
COLOURS = ("red", "yellow", "green", "blue", "purple")
DECK = [f"{colour}-{value}" for colour in COLOURS for value in range(1, 13)]
# The tests' printed marks: yellow cards are light, green cards dark, every other card a pipe.
MARKS = {card: {"yellow": "light", "green": "dark"}.get(card.split("-")[0], "pipe") for card in DECK}
SIDE = {"bilbo": "good", "thorin": "good", "gandalf": "good", "smaug": "evil", "bolg": "evil"}


class Table:
    """One match being recorded, with the true deal of the current round."""

    def __init__(self, characters: dict[str, str], table: bool = True, **options: Any) -> None:
        self.with_table = table
        setup: dict[str, Any] = {"characters": characters}
        if table:
            setup["marks"] = dict(MARKS)
        self.events: list[Event] = support.setup_events(GAME, list(characters), setup, options)
        self.state: dict[str, Any] = support.fold(GAME, self.events)
        self.hands: dict[str, list[str]] = {}

    @property
    def view(self) -> dict[str, Any]:
        """What the API shows now."""
        return dict(GAME.view(self.state))

    @property
    def scores(self) -> dict[str, Any]:
        """The scoreboard now."""
        return dict(GAME.scores(self.state))

    def act(self, type_: str, **fields: Any) -> list[Event]:
        """Validate, decide and fold one action; its events."""
        self.state, events = support.act(GAME, self.state, {"type": type_, **fields})
        self.events += events
        return events

    def refused(self, type_: str, **fields: Any) -> RuleViolation:
        """The RuleViolation an action meets; the state is left as it was."""
        return support.refused(GAME, self.state, {"type": type_, **fields})

    def deal(self) -> dict[str, list[str]]:
        """The round-robin deal among the living players (seat order)."""
        alive = [p for p, c in self.view["characters"].items() if c["alive"]]
        return {p: DECK[i :: len(alive)] for i, p in enumerate(alive)}

    def start(self, leader: str, record: bool = False) -> list[Event]:
        """Start a round dealt round robin; the hands are sent only if ``record``."""
        self.hands = self.deal()
        fields: dict[str, Any] = {"leader": leader}
        if record:
            fields["hands"] = copy.deepcopy(self.hands)
        return self.act("start_round", **fields)

    def play(self, player: str, card: str, **fields: Any) -> list[Event]:
        """Play a card (with its true mark when the match has no table and none is known)."""
        if not self.with_table and "mark" not in fields and card not in self.view["marks"]:
            fields["mark"] = MARKS[card]
        events = self.act("play", player=player, card=card, **fields)
        self._take_from_hand(player, card)
        return events

    def trick(self, *cards: str) -> list[Event]:
        """Play the cards in turn order, whoever's turn it is; every event they caused."""
        events: list[Event] = []
        for card in cards:
            events += self.play(self.view["turn"], card)
        return events

    def give(self, **cards: str) -> list[Event]:
        """Distribute, written give(red_5="ann", red_6="discard")."""
        return self.act("distribute", cards={k.replace("_", "-"): v for k, v in cards.items()})

    def finish_round(self) -> list[Event]:
        """Play the round out quietly: follow colour, pipes first, hand out harmless cards."""
        events: list[Event] = []
        number = self.view["round"]
        while self.view["round"] == number and self.view["phase"] in ("playing", "distributing"):
            if self.view["phase"] == "playing":
                events += self._quiet_play()
            else:
                events += self.act("distribute", cards=self._quiet_distribution())
        return events

    def _take_from_hand(self, player: str, card: str) -> None:
        hand = self.hands.get(player, [])
        if card in hand:
            hand.remove(card)
            return
        holder = next((p for p, h in self.hands.items() if card in h), None)
        if holder is not None and hand:
            self.hands[holder].remove(card)
            self.hands[holder].append(hand.pop())

    def _quiet_play(self) -> list[Event]:
        player, led = self.view["turn"], self.view["trick"]["led"]
        hand = self.hands[player]
        choice = [c for c in hand if c.split("-")[0] == led] or hand
        return self.play(player, sorted(choice, key=lambda c: MARKS[c] != "pipe")[0])

    def _quiet_distribution(self) -> dict[str, str]:
        trick, view = self.view["trick"], self.view
        winner, cards = trick["winner"], [p["card"] for p in trick["plays"]]
        alive = [p for p, c in view["characters"].items() if c["alive"]]
        others = [p for p in alive if p != winner]
        power = view["characters"][winner]["character"]
        if view["options"]["distribution"] == "free":
            return {c: min(alive, key=functools.partial(self._stir, c)) for c in cards}
        patterns = {
            "bilbo": [[winner, o] for o in others],
            "bolg": [[o] for o in others],
            "thorin": [alive],
        }.get(power, [[]])
        tries = [(order, targets) for order in itertools.permutations(cards) for targets in patterns]
        order, targets = min(tries, key=lambda t: sum(map(self._stir, t[0], t[1])))
        handed = {c: "discard" for c in cards}
        handed.update(zip(order, targets, strict=False))
        return handed

    def _stir(self, card: str, player: str) -> int:
        """0: the card changes nothing for the player; 1: it heals them; 2: it harms them."""
        side = SIDE[self.view["characters"][player]["character"]]
        if MARKS[card] == "pipe":
            return 0
        if (MARKS[card] == "light") != (side == "good"):
            return 2
        return 1 if self.view["characters"][player]["damage"] else 0


types = support.types


of_type = support.of_type
