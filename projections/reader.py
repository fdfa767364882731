"""Reading a match: its state now, at any step, and as replay frames, without folding the whole log.

Every read starts from the newest position at or before the step it needs (one this process
computed recently, the projected one, else the nearest snapshot) and folds only the events after
it. A position at a given step never changes, since the log is never edited, so keeping recent
ones in memory is safe with any number of API processes.
"""

from __future__ import annotations

import copy
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from events.envelope import StoredEvent
from events.store import EventStore
from games.contract import Game
from games.registry import get_game
from projections import tape
from projections.cache import ProjectionCache
from projections.disclosure import disclosed
from projections.tape import Position, Rewind, Tape


def frozen(value: Any) -> Any:
    """A deep copy of a JSON value, safe to keep while the state it came from moves on."""
    return json.loads(json.dumps(value))


class MatchReader:
    """Rebuilds positions of a match from the log, the projection and the snapshots."""

    def __init__(self, store: EventStore, cache: ProjectionCache, memo_size: int = 256) -> None:
        self.store = store
        self.cache = cache
        self._memo: OrderedDict[str, Position] = OrderedDict()
        self._memo_size = memo_size
        self._lock = threading.Lock()

    def game_of(self, match_id: str) -> Game:
        """The rules the match is played by (UnknownMatch when there is no such match)."""
        return get_game(self.store.header(match_id)["game"])

    def head(self, match_id: str) -> tuple[Game, Position]:
        """The match's rules and its position at the newest step."""
        game = self.game_of(match_id)
        version = self.store.version(match_id)
        pos = self.position(game, match_id, version)
        self._remember(match_id, pos)
        return game, pos

    def at(self, match_id: str, step: int) -> tuple[Game, Position]:
        """The match's rules and its position right after ``step``."""
        game = self.game_of(match_id)
        return game, self.position(game, match_id, step)

    def describe(self, match_id: str) -> dict[str, Any]:
        """A match's players, setup, options, version, status, winners and disputes, now."""
        header = self.store.header(match_id)
        game, pos = self.head(match_id)
        created = self.store.read(match_id, 1, 1)[0].data
        board = game.scores(pos["game"])
        return {
            "id": match_id,
            "game": game.id,
            "players": created["players"],
            "setup": created["setup"],
            "options": created["options"],
            "version": pos["version"],
            "projected_version": self.cache.checkpoint(match_id),
            "created_at": header.get("created_at"),
            "timezone": header.get("timezone") or "UTC",
            "location": header.get("location"),
            "status": "finished" if board.get("finished") else "in_progress",
            "finished": bool(board.get("finished")),
            "winners": board.get("winners", []),
            "disputes": pos["game"].get("disputes", []),
            "forked_from": header.get("forked_from"),
        }

    def naive_at(self, game: Game, match_id: str, step: int) -> Position:
        """The position at ``step`` folded from step 1, ignoring every stored position.

        The baseline that snapshots are measured against: one pass over the log.
        """
        return Tape(game, tape.empty()).fold(self.store.iter_events(match_id, 1, step))

    def tape_at(self, game: Game, match_id: str, step: int, keep: bool = True) -> Tape:
        """A tape at the position right after ``step``, that rewinds through the stored positions."""
        return Tape(game, self.position(game, match_id, step), self._rewinder(game, match_id), keep)

    def frames(self, match_id: str, first: int, last: int, raw: bool = False) -> Iterator[dict[str, Any]]:
        """Frames first..last (each event with the game's view after it), in one pass."""
        game, head = self.head(match_id)
        # A page folds at most a few hundred steps: a rare correction among them is found from the
        # stored positions rather than by keeping a copy of every batch's end.
        playing = self.tape_at(game, match_id, first - 1, keep=False)
        for event in self.store.iter_events(match_id, first, last):
            pos = playing.advance(event)
            if raw or (event.type not in tape.CORRECTIONS and tape.is_effective(head, event.seq)):
                frame = self.frame(game, pos, event, tape.is_effective(head, event.seq))
                frame["event"] = disclosed(game, head["game"], frame["event"])
                yield frame

    @staticmethod
    def frame(game: Game, pos: Position, event: StoredEvent, effective: bool) -> dict[str, Any]:
        """One replay frame: the event, who sent it and when, and the state after it."""
        return {
            "step": event.seq,
            "event": event.as_dict(),
            "actor": event.meta.get("actor"),
            "ts": event.meta.get("ts"),
            "effective": effective and event.type not in tape.CORRECTIONS,
            "state": frozen(game.view(pos["game"])),
        }

    def advance(self, game: Game, match_id: str, pos: Position, events: Iterable[StoredEvent]) -> Position:
        """Fold events onto a position the caller owns."""
        events = list(events)
        corrected = any(event.type in tape.CORRECTIONS for event in events)
        pos = Tape(game, pos, self._rewinder(game, match_id), keep=corrected).fold(events)
        self._remember(match_id, pos)
        return pos

    def position(self, game: Game, match_id: str, step: int) -> Position:
        """The position right after ``step``, as a fresh value the caller owns."""
        base = self._base(match_id, step)
        if base["version"] >= step:
            return base
        events = list(self.store.iter_events(match_id, base["version"] + 1, step))
        # Without a correction in the fold nothing can jump back, so nothing need be kept.
        corrected = any(event.type in tape.CORRECTIONS for event in events)
        return Tape(game, base, self._rewinder(game, match_id), keep=corrected).fold(events)

    def _rewinder(self, game: Game, match_id: str) -> Rewind:
        return lambda n: self.position(game, match_id, n)

    def _base(self, match_id: str, step: int) -> Position:
        remembered = self._recall(match_id, step)
        if remembered is not None and remembered["version"] == step:
            return remembered
        projected = self.cache.position(match_id)
        if projected is not None and projected["version"] <= step:
            if remembered is None or remembered["version"] < projected["version"]:
                return projected
        if remembered is not None:
            return remembered
        snapshot = self.cache.nearest_snapshot(match_id, step)
        return snapshot if snapshot is not None else copy.deepcopy(tape.empty())

    def _remember(self, match_id: str, pos: Position) -> None:
        """Keep a copy of the newest position this process computed for the match."""
        with self._lock:
            known = self._memo.get(match_id)
            if known is None or known["version"] <= pos["version"]:
                self._memo[match_id] = frozen(pos)
                self._memo.move_to_end(match_id)
                while len(self._memo) > self._memo_size:
                    self._memo.popitem(last=False)

    def _recall(self, match_id: str, step: int) -> Position | None:
        """A fresh copy of the remembered position, if it is at or before ``step``."""
        with self._lock:
            known = self._memo.get(match_id)
            if known is None or known["version"] > step:
                return None
            return frozen(known)
