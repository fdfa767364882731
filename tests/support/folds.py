"""The naive fold: a match's position at a step folded from step 1, ignoring every stored position.

What rewinds, snapshots and remembered positions are checked against (and, in bench/, measured
against): one pass over the log, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from events.store import EventStore
from games.contract import Game
from projections.positions import tape
from projections.positions.tape import Position, Tape
from tests.support.games import copied


def naive_at(store: EventStore, game: Game, match_id: str, step: int) -> Position:
    """The position at ``step`` folded from step 1."""
    return Tape(game, tape.empty()).fold(store.iter_events(match_id, 1, step))


def naive_views(store: EventStore, game: Game, match_id: str, steps: Iterable[int]) -> dict[int, Any]:
    """The game's view at each of ``steps``, from one fold from step 1 (``naive_at`` at each,
    in one pass over the log)."""
    wanted = set(steps)
    views: dict[int, Any] = {}
    playing = Tape(game, tape.empty())
    for event in store.iter_events(match_id, 1, max(wanted, default=0)):
        pos = playing.advance(event)
        if event.seq in wanted:
            views[event.seq] = copied(game.view(pos["game"]))
    return views
