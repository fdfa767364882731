"""Hats, the tea-table hat-collecting card game by Gabriele Bubola (ThunderGryph Games, 2019).

Rules' source: the Japanese rules text (seed 001_f90144f72e5c40fc.txt) as settled by the spec
``hats.md``. 2 to 4 players swap hat cards with a tea table of 6 spaces (5 with 2 players, who also
remove two of the 7 types); with 4 players partners sit opposite (seats 1+3 and 2+4).

What the table records: the setup (start player, the tea table's first cards, the removed types,
and optionally the hands dealt), then turn by turn one main action (``swap`` a card onto a space,
taking the card there face up; or ``black_hat``, one card face down) and at most one ``redraw``
(or, with partners, ``partner_trade``), 8 plays each, and finally every ``favourite`` revealed.
Hidden cards (hands, black hats, redrawn and traded cards) are optional facts, checked when given.

The package holds the eight modules every game holds (``constants``, ``schemas``, ``rules``,
``evolve``, ``view``, ``legal``, ``example`` and this one) and two of its own: ``turns`` (the turn windows,
partners) and ``whereabouts`` (where each recorded card lies). Docs: docs/games/hats.md.
"""

from __future__ import annotations

from games.decider import assemble

GAME = assemble(
    __name__,
    source="Hats by Gabriele Bubola (ThunderGryph Games, 2019); rules text 001_f90144f72e5c40fc",
)

__all__ = ["GAME"]
