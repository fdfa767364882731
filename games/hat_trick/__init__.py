"""Hat Trick, the stacking game (帽子戏法): 2 to 4 players race to stack five props as a card asks.

Rules' source: shared/games/hat-trick.md, written from the Chinese rules 000_541fe7a985f596f8.txt.
What a table records: each challenge card as it is revealed (its number, the props in colour, in
grey and starred), each declaration in the order made (with the stack built, which tabletape
judges itself, or without one, for the table's verdict), the table's verdicts, and abandoned
rounds. Derived events record every judgement with the requirements that failed, the card won or
discarded, and the end of the match (the target reached, or the 55th card with full_deck).

The package holds the eight modules every game holds (``constants``, ``schemas``, ``rules``,
``evolve``, ``view``, ``legal``, ``example`` and this one) and one of its own: ``stacks`` (whether a stack
makes physical sense, and how it meets a card).
"""

from __future__ import annotations

from games.decider import assemble

GAME = assemble(
    __name__,
    source="Hat Trick (帽子戏法) rules in Chinese (seed 000_541fe7a985f596f8.txt), settled by "
    "the spec games/hat-trick.md",
)

__all__ = ["GAME"]
