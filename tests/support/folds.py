"""The naive fold: a match's position at a step folded from step 1, ignoring every stored position.

What rewinds, snapshots and remembered positions are checked against (and, in bench/, measured
against): one pass over the log, nothing else.
"""

from __future__ import annotations

from events.store import EventStore
from games.contract import Game
from projections.positions import tape
from projections.positions.tape import Position, Tape


def naive_at(store: EventStore, game: Game, match_id: str, step: int) -> Position:
    """The position at ``step`` folded from step 1."""
    return Tape(game, tape.empty()).fold(store.iter_events(match_id, 1, step))
