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

The package holds the eight modules every game holds (``constants``, ``schemas``, ``rules``,
``evolve``, ``view``, ``legal``, ``example`` and this one) and three of its own: ``powers`` (the
characters' distribution powers), ``distribution`` (what a distribution sets off) and ``creation``
(the characters and the mark table a match is created with).
"""

from __future__ import annotations

from games.decider import assemble

GAME = assemble(
    __name__,
    source="002_f1095ec0448b2b3d.txt (The Hobbit Card Game, Martin Wallace, Fantasy Flight "
    "Games, 2012); characters' powers from the character cards",
)

__all__ = ["GAME"]
