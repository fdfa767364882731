"""Reading a match: its state now, at any step, and as replay frames, without folding the whole log.

Every read starts from the newest stored envelope at or before the step it needs (the projected
envelope, else the nearest snapshot) and folds only the events after it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator
from typing import Any

from events.envelope import StoredEvent
from events.store import EventStore
from games.contract import Game
from games.registry import get_game
from projections import history
from projections.cache import ProjectionCache
from projections.history import Envelope


def frozen(value: Any) -> Any:
    """A deep copy of a JSON value, safe to keep while the state it came from moves on."""
    return json.loads(json.dumps(value))


class MatchReader:
    """Rebuilds envelopes of a match from the log, the projection and the snapshots."""

    def __init__(self, store: EventStore, cache: ProjectionCache) -> None:
        self.store = store
        self.cache = cache

    def game_of(self, match_id: str) -> Game:
        """The rules the match is played by (UnknownMatch when there is no such match)."""
        return get_game(self.store.header(match_id)["game"])

    def head(self, match_id: str) -> tuple[Game, Envelope]:
        """The match's rules and its envelope at the newest step."""
        game = self.game_of(match_id)
        version = self.store.version(match_id)
        return game, self.envelope(game, match_id, version)

    def at(self, match_id: str, step: int) -> tuple[Game, Envelope]:
        """The match's rules and its envelope right after ``step``."""
        game = self.game_of(match_id)
        return game, self.envelope(game, match_id, step)

    def naive_at(self, game: Game, match_id: str, step: int) -> Envelope:
        """The envelope at ``step`` folded from step 1, ignoring every stored envelope.

        The baseline that snapshots are measured against: one pass over the log, keeping a copy of
        the envelope only at the steps that an undo or redo in the log returns to.
        """
        targets = {
            int(e.data["restores"])
            for e in self.store.iter_events(match_id, 1, step)
            if e.type in history.CORRECTIONS
        }
        kept: dict[int, Envelope] = {0: history.empty()}
        env = history.empty()
        for event in self.store.iter_events(match_id, 1, step):
            env = history.step(game, env, event, lambda n: copy.deepcopy(kept[n]))
            if event.seq in targets:
                kept[event.seq] = copy.deepcopy(env)
        return env

    def frames(
        self, match_id: str, first: int, last: int, raw: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Frames first..last (each event with the game's view after it), in one pass."""
        game, head = self.head(match_id)
        env = self.envelope(game, match_id, first - 1)
        for event in self.store.iter_events(match_id, first, last):
            env = history.step(game, env, event, lambda n: self.envelope(game, match_id, n))
            if raw or (event.type not in history.CORRECTIONS and history.is_effective(head, event.seq)):
                yield self.frame(game, env, event, history.is_effective(head, event.seq))

    @staticmethod
    def frame(game: Game, env: Envelope, event: StoredEvent, effective: bool) -> dict[str, Any]:
        """One replay frame: the event, who sent it and when, and the state after it."""
        return {
            "step": event.seq,
            "event": event.as_dict(),
            "actor": event.meta.get("actor"),
            "ts": event.meta.get("ts"),
            "effective": effective and event.type not in history.CORRECTIONS,
            "state": frozen(game.view(env["game"])),
        }

    def advance(
        self, game: Game, match_id: str, env: Envelope, events: Iterable[StoredEvent]
    ) -> Envelope:
        """Fold events onto an envelope the caller owns."""
        return history.fold(game, env, events, lambda n: self.envelope(game, match_id, n))

    def envelope(self, game: Game, match_id: str, step: int) -> Envelope:
        """The envelope right after ``step``, as a fresh value the caller owns."""
        base = self._base(match_id, step)
        if base["version"] >= step:
            return base
        # Every envelope of this fold is kept, so an undo's rewind into it is a lookup: folding
        # again from an earlier base would, with undos inside, cost exponentially many folds.
        seen = {base["version"]: json.dumps(base)}

        def rewind(n: int) -> Envelope:
            kept = seen.get(n)
            return json.loads(kept) if kept is not None else self.envelope(game, match_id, n)

        env = base
        for event in self.store.iter_events(match_id, base["version"] + 1, step):
            env = history.step(game, env, event, rewind)
            seen[event.seq] = json.dumps(env)
        return env

    def _base(self, match_id: str, step: int) -> Envelope:
        projected = self.cache.envelope(match_id)
        if projected is not None and projected["version"] <= step:
            return projected
        snapshot = self.cache.nearest_snapshot(match_id, step)
        return snapshot if snapshot is not None else copy.deepcopy(history.empty())
