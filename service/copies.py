"""New matches made from logs: forks of a match at a step, and imports of an exported match.

Both go the same way: the log is checked by the rules (projections.importing), then written as a
new match with a new id and a new write token, in one atomic create, and projected by a worker.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from events.store import EventStore
from projections.fork import fork_log
from projections.importing import Checked, check_log, parse_lines
from projections.reader import MatchReader
from service.recorder import token_hash


@dataclass(frozen=True)
class Copied:
    """A match made from a log: its id, its token (shown once), and where it came from."""

    match_id: str
    token: str
    game: str
    version: int
    finished: bool
    origin: dict[str, str]


class Copier:
    """Creates matches from checked logs."""

    def __init__(
        self,
        store: EventStore,
        reader: MatchReader,
        notify: Callable[[str], None],
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.reader = reader
        self.notify = notify
        self.clock = clock

    def fork(self, match_id: str, at: int) -> Copied:
        """A new match whose log is the effective history of ``match_id`` up to step ``at``."""
        header, events = fork_log(self.reader, match_id, at)
        return self._create(check_log(header, events), keep_date=False)

    def import_lines(self, lines: Iterable[str]) -> Copied:
        """A new match from an NDJSON export, every action checked by the rules."""
        header, events = parse_lines(lines)
        checked = check_log(header, events)
        if header.get("id"):
            checked.origin["imported_from"] = str(header["id"])
        return self._create(checked, keep_date=True)

    def _create(self, checked: Checked, keep_date: bool) -> Copied:
        origin = dict(checked.origin)
        now = self.clock()
        created_ms = int(now.timestamp() * 1000)
        if keep_date and origin.get("created_ms", "").isdigit() and origin.get("created_at"):
            created_ms = int(origin["created_ms"])
        else:
            origin["created_at"] = now.isoformat(timespec="milliseconds")
        origin["created_ms"] = str(created_ms)
        match_id = uuid.uuid4().hex[:16]
        token = secrets.token_urlsafe(32)
        header = {"game": checked.game.id, "token_hash": token_hash(token)} | origin
        result = self.store.create(match_id, header, checked.events, created_ms)
        self.notify(match_id)
        kept = {k: v for k, v in origin.items() if k not in ("created_at", "created_ms")}
        return Copied(match_id, token, checked.game.id, result.last, checked.finished, kept)
