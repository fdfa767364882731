"""Hat Trick, the stacking game (帽子戏法): 2 to 4 players race to stack five props as a card asks.

Rules' source: shared/games/hat-trick.md, written from the Chinese rules 000_541fe7a985f596f8.txt.
What a table records: each challenge card as it is revealed (its number, the props in colour, in
grey and starred), each declaration in the order made (with the stack built, which tabletape
judges itself, or without one, for the table's verdict), the table's verdicts, and abandoned
rounds. Derived events record every judgement with the requirements that failed, the card won or
discarded, and the end of the match (the target reached, or the 55th card with full_deck).

The package is split by idea: ``stacks`` (props, physical sense, judging), ``rules`` (setup,
decide), ``state`` (evolve, view, scores), ``example`` (whole matches for tests), ``schemas``.
"""

from __future__ import annotations

from games.contract import Game
from games.hat_trick.example import example
from games.hat_trick.rules import MAX_PLAYERS, MIN_PLAYERS, decide, setup
from games.hat_trick.schemas import ACTIONS, OPTIONS_SCHEMA, SETUP_SCHEMA
from games.hat_trick.state import evolve, scores, view

__all__ = ["GAME", "decide", "evolve", "example", "scores", "setup", "view"]

GAME = Game(
    id="hat-trick",
    title="Hat Trick",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    source="Hat Trick (帽子戏法) rules in Chinese (seed 000_541fe7a985f596f8.txt), settled by "
    "the spec games/hat-trick.md",
    actions=ACTIONS,
    setup_schema=SETUP_SCHEMA,
    options_schema=OPTIONS_SCHEMA,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    scores=scores,
    example=example,
)
