"""Wizard, the trick-taking game where each round you bid the exact number of tricks you take.

Source: the Chinese translation of the Wizard Card Game rules (seed file
004_1f6a9b743a1cbea6.txt, itself from the Japanese and English rule sheets of wizardcards.com),
settled by the project's spec ``games/wizard.md``; the spec wins where they differ.

What the table records, round by round: the turned trump card (and, if the app knows them, the
hands dealt), the dealer's trump suit after a turned Wizard, each bid, and each card played; or,
for tables that keep score only, the whole round's bids and tricks in one action. tabletape
derives who wins each trick, the round's points (20 + 10 a trick for a bid met, -10 a trick off
otherwise), the totals and the winners, and flags a revoke found after the fact as a dispute.

The package holds the eight modules every game holds (``constants``, ``schemas``, ``rules``,
``evolve``, ``view``, ``legal``, ``example`` and this one) and two of its own: ``play`` (bids, plays and the
scoring they lead to) and ``turns`` (phases, whose turn it is, what the match waits for).
"""

from __future__ import annotations

from games.decider import assemble

GAME = assemble(
    __name__,
    source="Wizard Card Game rules, Chinese translation (seed "
    "004_1f6a9b743a1cbea6.txt), settled by the spec games/wizard.md",
)

__all__ = ["GAME"]
