"""Reading a match: its state now, at any step, and as replay frames, without folding the whole log.

Every read starts from the newest position at or before the step it needs (one this process
computed recently, the projected one, else the nearest snapshot) and folds only the events after
it. A position at a given step never changes, since the log is never edited, so keeping recent
ones in memory is safe with any number of API processes.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from cachetools import LRUCache

from events.defaults import BATCH_ENDS_KEPT, MATCHES_REMEMBERED, NEAR_ENOUGH
from events.envelope import StoredEvent
from events.store import EventStore, Opening
from games.contract import Game
from games.registry import get_game
from projections.positions import tape
from projections.positions.stored import StoredProjections, stored_position
from projections.positions.tape import Position, Tape
from projections.queries.access import Reader
from projections.queries.disclosure import Sight, sight


def frozen(value: Any) -> Any:
    """A deep copy of a JSON value, safe to keep while the state it came from moves on."""
    return tape.thaw(tape.dump(value))


class _NotRemembered(LookupError):
    """A correction's landing position is not among those this process remembers."""


def _no_jumps(step: int) -> Position:
    raise AssertionError(f"a fold without corrections jumped to step {step}")


class _Ring(LRUCache[int, bytes]):
    """A match's batch ends by step, frozen, the least recently used going first (an undo and a
    redo of one action keep both its ends); ``newest`` is its newest step (-1 when empty), which
    every write asks for, kept as steps come and go instead of found among them."""

    def __init__(self) -> None:
        super().__init__(maxsize=BATCH_ENDS_KEPT)
        self.newest = -1

    def __setitem__(self, step: int, frozen: bytes) -> None:
        super().__setitem__(step, frozen)
        if step > self.newest:
            self.newest = step

    def __delitem__(self, step: int) -> None:
        super().__delitem__(step)
        if step == self.newest:
            self.newest = max(self, default=-1)


class _Remembered(LRUCache[str, _Ring]):
    """The matches a process remembers batch ends of, the least recently used going first."""

    def __init__(self, maxsize: int, forget: Callable[[str], object]) -> None:
        super().__init__(maxsize=maxsize)
        self._forget = forget

    def popitem(self) -> tuple[str, _Ring]:
        """Evict the least recently used match, and what else is remembered of it."""
        gone, ring = super().popitem()
        self._forget(gone)
        return gone, ring


class Positions:
    """Rebuilds positions of a match from the log, the projection and the snapshots."""

    def __init__(
        self, store: EventStore, stored: StoredProjections, memo_size: int = MATCHES_REMEMBERED
    ) -> None:
        self.store = store
        self.stored = stored
        # The newest position of a match as the last write here left it, not copied: the next
        # writer takes it (and owns it) instead of thawing the same position from the ring.
        self._live: dict[str, Position] = {}
        # Per match, the batch ends remembered (a ring of BATCH_ENDS_KEPT): a match forgotten
        # takes its live position with it.
        self._memo = _Remembered(memo_size, lambda gone: self._live.pop(gone, None))
        self._lock = threading.Lock()

    def game_of(self, match_id: str) -> Game:
        """The rules the match is played by (UnknownMatch when there is no such match)."""
        return get_game(self.store.header(match_id)["game"])

    def head(self, match_id: str) -> tuple[Game, Position]:
        """The match's rules and its position at the newest step."""
        game = self.game_of(match_id)
        return game, self.current(game, match_id)

    def current(self, game: Game, match_id: str, version: int | None = None) -> Position:
        """The position at the newest step (``version``, when the caller has just learnt it).

        It starts from the position remembered here when that is close, else from the nearest
        of the projection, a snapshot or a remembered one, and folds the events after it.
        """
        if version is None:
            version = self.store.version(match_id)
        base = self._newest(match_id)
        if base is None or version - base["version"] > NEAR_ENOUGH:
            base = self._base(match_id, version, base if base and base["version"] <= version else None)
        return self.advance(
            game, match_id, base, self.store.iter_events(match_id, base["version"] + 1, version)
        )

    def at(self, match_id: str, step: int) -> tuple[Game, Position]:
        """The match's rules and its position right after ``step``."""
        game = self.game_of(match_id)
        return game, self.position(game, match_id, step)

    def latest(self, game: Game, match_id: str) -> tuple[Position, bool]:
        """The newest position this process knows, and whether it was just read from the log.

        A remembered position may be behind the log (another process wrote since): a writer
        decides on it and lets the conditional append tell, which spares a read per write.
        """
        with self._lock:
            live = self._live.pop(match_id, None)
            ring = self._memo.get(match_id)
            if live is not None and ring and live["version"] == ring.newest:
                return live, False
        remembered = self._newest(match_id)
        if remembered is not None:
            return remembered, False
        return self.current(game, match_id), True

    def opening(self, match_id: str) -> Opening:
        """A writer's first look at a match (``EventStore.opening``), in one round trip with its
        projection when this process remembers no position of it (``adopt`` keeps it)."""
        with self._lock:
            remembered = bool(self._memo.get(match_id))
        return self.store.opening(match_id, projection=not remembered)

    def adopt(self, match_id: str, opened: Opening) -> None:
        """Remember the projection a first look read (once its writer is known) as the match's
        newest position, which ``latest`` then hands the writer, when it is at the version the look
        read and nothing else is remembered of the match: the write's append is its next round
        trip. One behind the log is left alone (``latest`` reads the log)."""
        raw = opened.projected
        pos = stored_position(raw) if raw is not None else None
        if raw is None or pos is None or pos["version"] != opened.version:
            return
        with self._lock:
            if not self._memo.get(match_id):
                self._ring(match_id)[opened.version] = raw
                self._live[match_id] = pos

    def hand_back(self, match_id: str, pos: Position) -> None:
        """Give up a position ``advance`` returned, unchanged since: the next ``latest`` of the
        match hands it to its writer as it is, while it is still the newest one remembered."""
        with self._lock:
            ring = self._memo.get(match_id)
            if ring and ring.newest == pos["version"]:
                self._live[match_id] = pos

    def describe(self, match_id: str, everything: Reader | bool = False) -> dict[str, Any]:
        """A match's players, setup, options, version, status, winners and disputes, now (the
        setup as the reader may see it: ``everything`` for the write token's holder)."""
        header = self.store.header(match_id)
        game, pos = self.head(match_id)
        created = sight(game, pos, everything).event(self.store.read(match_id, 1, 1)[0].as_dict())["data"]
        board = game.scores(pos["game"])
        return {
            "id": match_id,
            "game": game.id,
            "players": created["players"],
            "setup": created["setup"],
            "options": created["options"],
            "version": pos["version"],
            "projected_version": self.stored.checkpoint(match_id),
            "created_at": header.get("created_at"),
            "timezone": header.get("timezone") or "UTC",
            "location": header.get("location"),
            "status": "finished" if board.get("finished") else "in_progress",
            "finished": bool(board.get("finished")),
            "winners": board.get("winners", []),
            "disputes": pos["game"].get("disputes", []),
            "forked_from": header.get("forked_from"),
        }

    def tape_at(self, game: Game, match_id: str, step: int, keep: bool = True) -> Tape:
        """A tape at the position right after ``step``, that rewinds through the stored positions."""
        return self.tape_from(game, match_id, self.position(game, match_id, step), keep)

    def frames(
        self, match_id: str, first: int, last: int, raw: bool = False, everything: Reader | bool = False
    ) -> Iterator[dict[str, Any]]:
        """Frames first..last (each event with the game's view after it), in one pass, as a reader
        sees them (``everything``: the write token's holder)."""
        game, head = self.head(match_id)
        seen = sight(game, head, everything)
        # A page folds at most a few hundred steps: a rare correction among them is found from the
        # stored positions rather than by keeping a copy of every batch's end.
        playing = self.tape_at(game, match_id, first - 1, keep=False)
        for event in self.store.iter_events(match_id, first, last):
            pos = playing.advance(event)
            if raw or (event.type not in tape.CORRECTIONS and tape.is_effective(head, event.seq)):
                yield self.frame(seen, pos, event, tape.is_effective(head, event.seq))

    @staticmethod
    def frame(seen: Sight, pos: Position, event: StoredEvent, effective: bool) -> dict[str, Any]:
        """One replay frame: the event, who sent it and when, and the state after it, as ``seen``."""
        return {
            "step": event.seq,
            "event": seen.event(event.as_dict()),
            "actor": event.meta.get("actor"),
            "ts": event.meta.get("ts"),
            "effective": effective and event.type not in tape.CORRECTIONS,
            "state": seen.view(frozen(seen.game.view(pos["game"]))),
        }

    def advance(self, game: Game, match_id: str, pos: Position, events: Iterable[StoredEvent]) -> Position:
        """Fold events onto a position the caller owns, remembering the batch ends on the way."""
        events = list(events)
        # Batch ends are kept when the fold crosses several (another process's writes): an undo
        # may land on any of them. One's own single batch ends where the previous write's did.
        corrected = any(event.type in tape.CORRECTIONS for event in events)
        several = len({event.meta.get("action_id") for event in events}) > 1
        if corrected or several:
            playing = self.tape_from(game, match_id, pos, keep=True)
            pos = playing.fold(events)
            self._remember(match_id, [*playing.kept(), (pos["version"], tape.dump(pos))])
            return pos
        pos = tape.fold(game, pos, events, _no_jumps)
        self._remember(match_id, [(pos["version"], tape.dump(pos))])
        return pos

    def fold_own(
        self, game: Game, match_id: str, pos: Position, events: list[StoredEvent]
    ) -> tuple[Position, bytes] | None:
        """A writer's own batch folded onto a position it owns, and the result frozen
        (``tape.dump``), for ``keep``; nothing is read from Redis. A correction lands on a
        position this process remembers at exactly that step, else None (``pos`` unchanged: a
        jump reads the position it lands on first) and the caller folds with ``advance``."""

        def remembered(step: int) -> Position:
            with self._lock:
                ring = self._memo.get(match_id)
                frozen_at = ring.get(step) if ring else None
            if frozen_at is None:
                raise _NotRemembered(step)
            return tape.thaw(frozen_at)

        try:
            pos = tape.fold(game, pos, events, remembered)
        except _NotRemembered:
            return None
        return pos, tape.dump(pos)

    def keep(self, match_id: str, pos: Position, dumped: bytes) -> None:
        """Remember the end of a batch this process wrote (``fold_own``'s) and give ``pos`` up,
        as ``hand_back`` does (in one look-up: every write passes here)."""
        step = pos["version"]
        with self._lock:
            ring = self._ring(match_id)
            ring[step] = dumped
            if ring.newest == step:
                self._live[match_id] = pos

    def _remember(self, match_id: str, kept: list[tuple[int, bytes]]) -> None:
        with self._lock:
            ring = self._ring(match_id)
            for step, text in kept:
                ring[step] = text

    def position(self, game: Game, match_id: str, step: int, near: Position | None = None) -> Position:
        """The position right after ``step``, as a fresh value the caller owns.

        ``near``, a position at or before ``step`` the caller holds, is started from when no
        remembered, projected or snapshot position is nearer.
        """
        base = self._base(match_id, step, near)
        if base["version"] >= step:
            return base
        events = list(self.store.iter_events(match_id, base["version"] + 1, step))
        # Without a correction in the fold nothing can jump back, so nothing need be kept.
        corrected = any(event.type in tape.CORRECTIONS for event in events)
        return self.tape_from(game, match_id, base, keep=corrected).fold(events)

    def tape_from(self, game: Game, match_id: str, start: Position, keep: bool) -> Tape:
        """A tape folding on from ``start`` whose jumps it cannot look up are found from the log."""
        playing = Tape(game, start, keep=keep)
        # A jump the tape cannot look up starts from the nearest position it kept, if no stored one
        # is nearer, so a rewind folds at most a tape's mark interval, however long the match.
        playing.fallback = lambda n: self.position(game, match_id, n, near=playing.nearest(n))
        return playing

    def _base(self, match_id: str, step: int, near: Position | None) -> Position:
        found = [p for p in (self._recall(match_id, step), near) if p is not None]
        best = max(found, key=lambda p: p["version"], default=None)
        if best is not None and step - best["version"] <= NEAR_ENOUGH:
            return best
        found += self.stored.bases(match_id, step)
        best = max(found, key=lambda p: p["version"], default=None)
        return best if best is not None else copy.deepcopy(tape.empty())

    def _ring(self, match_id: str) -> _Ring:
        ring = self._memo.get(match_id)
        if ring is None:
            ring = self._memo[match_id] = _Ring()
        return ring

    def _newest(self, match_id: str) -> Position | None:
        """A fresh copy of the newest position remembered for the match, if any."""
        with self._lock:
            ring = self._memo.get(match_id)
            if not ring:
                return None
            return tape.thaw(ring[ring.newest])

    def _recall(self, match_id: str, step: int) -> Position | None:
        """A fresh copy of the latest remembered position at or before ``step``, if any."""
        with self._lock:
            ring = self._memo.get(match_id)
            steps = [s for s in ring if s <= step] if ring else []
            if not ring or not steps:
                return None
            # Read through the cache, so the position found counts as recently used.
            return tape.thaw(ring[max(steps)])
