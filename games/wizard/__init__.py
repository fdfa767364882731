"""Wizard, the trick-taking game where each round you bid the exact number of tricks you take.

Source: the Chinese translation of the Wizard Card Game rules (seed file
004_1f6a9b743a1cbea6.txt, itself from the Japanese and English rule sheets of wizardcards.com),
settled by the project's spec ``games/wizard.md``; the spec wins where they differ.

What the table records, round by round: the turned trump card (and, if the app knows them, the
hands dealt), the dealer's trump suit after a turned Wizard, each bid, and each card played; or,
for tables that keep score only, the whole round's bids and tricks in one action. tabletape
derives who wins each trick, the round's points (20 + 10 a trick for a bid met, -10 a trick off
otherwise), the totals and the winners, and flags a revoke found after the fact as a dispute.

The package keeps the sections every game module has, one idea per module:
constants and card rules in ``cards``; setup and decide in ``rules`` (bids and plays in
``play``); evolve in ``fold``; view and scores in ``show``; example in ``example``; the JSON
Schemas in ``schemas``; shared facts about seats and turns in ``table``; ``GAME`` below.
"""

from __future__ import annotations

from games.contract import Game
from games.wizard.cards import MAX_PLAYERS, MIN_PLAYERS
from games.wizard.example import example
from games.wizard.fold import evolve
from games.wizard.rules import decide, setup
from games.wizard.schemas import ACTIONS, OPTIONS, SETUP
from games.wizard.show import figures, public, scores, view

__all__ = ["GAME", "decide", "evolve", "example", "scores", "setup", "view"]

GAME = Game(
    id="wizard",
    title="Wizard",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    source="Wizard Card Game rules, Chinese translation (seed "
    "004_1f6a9b743a1cbea6.txt), settled by the spec games/wizard.md",
    actions=ACTIONS,
    setup_schema=SETUP,
    options_schema=OPTIONS,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    scores=scores,
    example=example,
    figures=figures,
    public=public,
)
