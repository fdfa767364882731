"""Checking projections against the logs: what `tabletape verify` does.

The log is the only source of truth. ``Verifier.check`` folds a match's log from step 1, ignoring
every stored position, and compares the result with everything the projector keeps for the match:
the checkpoint, the position, the scoreboard, the summary, each snapshot, the index
entries and the players' statistics. projections.projecting.rebuild throws a match's projection away and
projects it again from the log.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from events.codec import as_text
from events.envelope import StoredEvent
from events.store import EventStore
from games.contract import Game
from games.registry import get_game
from projections.positions import tape
from projections.positions.stored import StoredProjections
from projections.positions.tape import Position, Tape
from projections.projecting.summary import readable, summary_of
from projections.readmodels.indexes import ReadModels


@dataclass(frozen=True)
class Difference:
    """One thing the projection says that the log does not."""

    match_id: str
    what: str
    detail: str

    def __str__(self) -> str:
        return f"{self.match_id}: {self.what}: {self.detail}"


@dataclass(frozen=True)
class Expected:
    """What a match's projection must hold, folded afresh from its log."""

    game: Game
    pos: Position
    scores: Any
    summary: dict[str, Any]
    snapshots: dict[int, Position]


class Verifier:
    """Compares and rebuilds the projections of the matches under one key prefix."""

    def __init__(
        self, store: EventStore, stored: StoredProjections, models: ReadModels, snapshot_every: int
    ) -> None:
        self.store = store
        self.stored = stored
        self.models = models
        self.client = stored.client
        self.keys = stored.keys
        self.snapshot_every = snapshot_every

    def expected(self, match_id: str) -> Expected:
        """The projection the log says the match must have."""
        header = self.store.header(match_id)
        game = get_game(header["game"])
        events = list(self.store.iter_events(match_id))
        version = events[-1].seq if events else 0
        stored = set(self._snapshot_steps(match_id))
        wanted = stored | set(range(self.snapshot_every, version + 1, self.snapshot_every))
        pos, snapshots = _fresh_fold(game, events, wanted)
        state = pos["game"]
        scores = game.scores(copy.deepcopy(state))
        summary = summary_of(match_id, header, game, state, scores, version)
        return Expected(game, pos, scores, summary, snapshots)

    def check(self, match_id: str) -> list[Difference]:
        """Every difference between the match's projection and a fresh fold of its log."""
        want = self.expected(match_id)
        found: list[Difference] = []

        def differ(what: str, detail: str) -> None:
            found.append(Difference(match_id, what, detail))

        checkpoint = self.stored.checkpoint(match_id)
        if checkpoint != want.pos["version"]:
            differ("checkpoint", f"projected to step {checkpoint}, the log has {want.pos['version']}")
        # The scoreboard is the game's scores of env, computed as it is read.
        fields = self.client.hmget(self.keys.proj(match_id), ["env", "summary"])
        for name, raw, value in zip(("env", "summary"), fields, (want.pos, want.summary), strict=True):
            stored = None if raw is None else _stored(raw) if name == "env" else readable(raw)
            if raw is None:
                differ(name, "missing")
            elif stored is None:
                differ(name, "unreadable (not what a projection writes)")
            elif stored != _plain(value):
                differ(name, "differs from a fresh fold of the log")
        self._check_snapshots(match_id, want, differ)
        for what, detail in self.models.differences(match_id, want.summary):
            differ(what, detail)
        return found

    def _check_snapshots(self, match_id: str, want: Expected, differ: Any) -> None:
        stored = self._snapshots(match_id)
        for step, pos in sorted(want.snapshots.items()):
            if step not in stored:
                if step % self.snapshot_every == 0:
                    differ(f"snapshot {step}", "missing")
            elif stored[step] != _plain(pos):
                differ(f"snapshot {step}", "differs from a fresh fold of the log")
        for step in sorted(set(stored) - set(want.snapshots)):
            differ(f"snapshot {step}", "beyond the log's last step")

    def _snapshot_steps(self, match_id: str) -> list[int]:
        return sorted(self._snapshots(match_id))

    def _snapshots(self, match_id: str) -> dict[int, Any]:
        found: dict[int, Any] = {}
        for raw in self.client.zrange(self.keys.snap(match_id), 0, -1):
            step, _, body = as_text(raw).partition("|")
            # A snapshot that cannot be read differs from every position.
            found[int(step) if step.isdigit() else 0] = _stored(body) or {"unreadable": body[:40]}
        return found


def _fresh_fold(
    game: Game, events: list[StoredEvent], wanted: set[int]
) -> tuple[Position, dict[int, Position]]:
    """The position after the last step, and the positions at the ``wanted`` steps on the way."""
    playing = Tape(game, tape.empty())
    found: dict[int, Position] = {}
    for event in events:
        pos = playing.advance(event)
        if event.seq in wanted:
            found[event.seq] = _plain(pos)
    return playing.position, found


def _stored(raw: Any) -> Any:
    """A stored JSON value, or None when it is not JSON."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None


def _plain(value: Any) -> Any:
    """The value as it reads back from stored JSON."""
    return json.loads(json.dumps(value))
