"""The Hobbit Card Game (Martin Wallace, Fantasy Flight Games, 2012), recorded trick by trick.

Rules' source: seed document 002_f1095ec0448b2b3d.txt, as settled by the spec games/hobbit.md
(the characters' distribution powers are those of the character cards).

Two to five players each play one character, good (bilbo, thorin, gandalf) or evil (smaug, bolg).
Each round deals all 60 number cards evenly among the living players. Tricks are won by the highest
purple (trump), else the highest card of the led colour; the winner hands the trick's cards out by
their character's power, and each card's mark heals or damages its receiver (light helps good,
dark helps evil, a pipe does nothing). Two damage eliminates. A side wiped out loses at once;
otherwise, after the last round, more survivors win, then more damage dealt, else a draw.

The table records ``start_round {leader, hands?}``, ``play {player, card, mark?}`` and
``distribute {cards}``; tabletape derives the trick's winner, every card's effect, damage,
eliminations, the next leader, the round's end and the result, each as an event.

The package is split by idea: ``table`` (constants and card notation), ``rules`` (setup and
decide), ``powers`` (the distribution powers), ``settle`` (what a distribution sets off),
``evolve``, ``views`` (view and scores), ``example`` and ``schemas``.
"""

from __future__ import annotations

from games.contract import Game
from games.hobbit.evolve import evolve
from games.hobbit.example import example
from games.hobbit.rules import decide, setup
from games.hobbit.schemas import ACTIONS, OPTIONS, SETUP
from games.hobbit.views import scores, view

GAME = Game(
    id="hobbit",
    title="The Hobbit Card Game",
    min_players=2,
    max_players=5,
    source="002_f1095ec0448b2b3d.txt (The Hobbit Card Game, Martin Wallace, Fantasy Flight "
    "Games, 2012); characters' powers from the character cards",
    actions=ACTIONS,
    setup_schema=SETUP,
    options_schema=OPTIONS,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    scores=scores,
    example=example,
)

__all__ = ["GAME"]
