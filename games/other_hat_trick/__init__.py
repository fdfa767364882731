"""The Other Hat Trick, the three-player bluffing game of props swapped unseen and tricks performed.

Source: The Other Hat Trick by Brett J. Gilbert (Good Little Games, 2013), from the Japanese rules
summary in seed file 003_d00fdd0f431a33f4.txt, settled by the project's spec
``games/other-hat-trick.md``; the spec wins where they differ.

What the table records: each trick turned from the deck, each player's compulsory swap, each
perform (both props shown) or fail (one prop turned face up), and at the end every prop revealed.
tabletape follows every prop through every swap and sleight of hand: it keeps the exact set of
arrangements of the seven props that agree with everything seen, shows what each of the seven
places may still hold, and refuses a perform, fail or reveal that contradicts it, with the reason.
It derives the sleight of hand after each perform, the end of the match (The Other Hat Trick
performed, or failed by three players in a row), trick points, the -3 penalties for the hat and the
other rabbit after three failures, the totals and the winners.

The package holds the eight modules every game holds (``constants``, ``schemas``, ``rules``,
``evolve``, ``view``, ``legal``, ``example`` and this one) and two of its own: ``knowledge`` (the deduction
of where the props are) and ``turns`` (whose turn it is, which phase, what comes next).
"""

from __future__ import annotations

from games.decider import assemble

GAME = assemble(
    __name__,
    source="The Other Hat Trick by Brett J. Gilbert (Good Little Games, 2013), Japanese rules "
    "summary (seed 003_d00fdd0f431a33f4.txt), settled by the spec games/other-hat-trick.md",
)

__all__ = ["GAME"]
