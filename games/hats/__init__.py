"""Hats, the tea-table hat-collecting card game by Gabriele Bubola (ThunderGryph Games, 2019).

Rules' source: the Japanese rules text (seed 001_f90144f72e5c40fc.txt) as settled by the spec
``hats.md``. 2 to 4 players swap hat cards with a tea table of 6 spaces (5 with 2 players, who also
remove two of the 7 types); with 4 players partners sit opposite (seats 1+3 and 2+4).

What the table records: the setup (start player, the tea table's first cards, the removed types,
and optionally the hands dealt), then turn by turn one main action (``swap`` a card onto a space,
taking the card there face up; or ``black_hat``, one card face down) and at most one ``redraw``
(or, with partners, ``partner_trade``), 8 plays each, and finally every ``favourite`` revealed.
Hidden cards (hands, black hats, redrawn and traded cards) are optional facts, checked when given.

The package is split by idea, in the order of a game module's sections:
``table`` (constants, cards, seats, where a card lies), ``rules`` (setup, decide) with ``turns``
(the turn windows), ``fold`` (evolve), ``scoring`` (view, scores), ``example``, and ``schemas``
with ``GAME`` below. Docs: docs/games/hats.md.
"""

from __future__ import annotations

from games.contract import Game
from games.hats.example import example
from games.hats.fold import evolve
from games.hats.rules import decide, setup
from games.hats.schemas import ACTIONS, OPTIONS_SCHEMA, SETUP_SCHEMA
from games.hats.scoring import figures, scores, view

GAME = Game(
    id="hats",
    title="Hats",
    min_players=2,
    max_players=4,
    source="Hats by Gabriele Bubola (ThunderGryph Games, 2019); rules text 001_f90144f72e5c40fc",
    actions=ACTIONS,
    setup_schema=SETUP_SCHEMA,
    options_schema=OPTIONS_SCHEMA,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    scores=scores,
    example=example,
    figures=figures,
)

__all__ = ["GAME"]
