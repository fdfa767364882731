"""The writes that create a match: a new match from its players and setup, a fork of another's
history, an import of an exported log; each honours an Idempotency-Key (a retry makes no second
match) and an import recognises a log the store already holds.

``CreatingWrites`` is the part of ``Recorder`` (service/recording/recorder.py) that makes matches;
the recorder's common write path (decide, fold, append) is the rest of it.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from events.envelope import NewEvent
from events.errors import IdempotencyMismatch, MatchExists
from events.store import EventStore
from games.contract import Game
from games.registry import get_game
from games.validation import validate_match
from projections.positions import tape
from projections.positions.rewind import Positions
from projections.queries.access import RECOVERY_FIELD, token_hash
from projections.queries.answers import who
from projections.sharing.fork import fork_log
from projections.sharing.importing import MATCH_ID, Checked, check_log, log_digest, origin_of, parse_lines
from service.recording import idempotency
from service.recording.answers import Copied, Created, Recorded, fingerprint
from service.recording.credentials import OPERATOR, Credentials


class Opened(NamedTuple):
    """A match ``_open`` wrote, or found already written (``again``: by the same keyed request;
    ``existing``: at the import's own id, by another request)."""

    match_id: str
    token: str
    first: int
    again: bool = False
    existing: bool = False


@dataclass(frozen=True)
class Keyed:
    """A creating write sent with an Idempotency-Key: the match it makes has an id derived from it
    (``service.recording.idempotency``)."""

    kind: str
    key: str
    fingerprint: str
    credential: str | None

    @classmethod
    def of(cls, kind: str, key: str | None, body: Any, made_by: dict[str, str]) -> Keyed | None:
        """The keyed write of ``kind`` with ``body``, or None without a key."""
        return cls(kind, key, fingerprint(body), made_by.get("credential")) if key else None


class CreatingWrites:
    """Create, fork and import: the writes that make a match (a part of ``Recorder``)."""

    store: EventStore
    positions: Positions
    credentials: Credentials
    clock: Callable[[], datetime]

    # The recorder's own steps these writes share with its common write (``Recorder``'s methods).
    _new_events: Callable[..., list[NewEvent]]
    _answer: Callable[..., Recorded]
    _replayed: Callable[[Game, str, int, int], Recorded]
    _notify: Callable[[str], None]

    def create(
        self,
        game_id: str,
        players: Any,
        setup: Any,
        options: Any,
        where: dict[str, str] | None = None,
        api_key: str | None = None,
        idempotency_key: str | None = None,
    ) -> Created:
        """Create a match from its players, starting facts, rule options and where it is played.

        Under an ``idempotency_key`` already used for the same request, the match that request
        made (its first answer); for another request, IdempotencyMismatch."""
        made_by = self._made_by(self.credentials.identify(api_key))
        game = get_game(game_id)
        names, setup, options = validate_match(game, players, setup, options)
        events = game.setup(names, setup, options)
        body = {"game": game.id, "players": names, "setup": setup, "options": options}
        new = self._new_events(game, events, tape.CREATION, "table", body)
        placed = {k: v for k, v in (where or {}).items() if v}
        keyed = Keyed.of("create", idempotency_key, body | {"where": placed}, made_by)
        # A recovery code is shown once, its digest written by the create itself; a retried
        # create gets a new one (the first was never seen).
        recovery = secrets.token_urlsafe(16)
        kept = {RECOVERY_FIELD: token_hash(recovery)}
        match_id, token, first, again, _ = self._open(
            game, new, placed | made_by, keyed=keyed, credentials=kept
        )
        if again:
            self.store.set_credentials(match_id, kept)
            recorded = self._replayed(game, match_id, first, first + len(new) - 1)
        else:
            recorded = self._answer(game, match_id, tape.empty(), first, new)
        return Created(match_id, token, game, names, setup, options, recorded, recovery)

    def fork(
        self,
        match_id: str,
        at: int,
        token: str | None = None,
        api_key: str | None = None,
        idempotency_key: str | None = None,
    ) -> Copied:
        """A new match whose log is the effective history of ``match_id`` up to step ``at``:
        everything with the match's write token, the public history without it (under a used
        ``idempotency_key``, the fork that key made, as ``create``)."""
        made_by = self._made_by(self.credentials.identify(api_key))
        seen = who(self.store, match_id, token, "fork")
        logged = fork_log(self.positions, match_id, at, seen)
        request = {"fork": match_id, "at": at, "reader": seen.kind}
        keyed = Keyed.of("fork", idempotency_key, request, made_by)
        return self._copy(check_log(*logged, now_ms=self._now_ms()), made_by, keyed)

    def import_lines(
        self,
        lines: Iterable[str],
        api_key: str | None = None,
        operator: bool = False,
        idempotency_key: str | None = None,
        copy: bool = False,
    ) -> Copied:
        """A new match from an NDJSON export, every action checked by the rules (under a used
        ``idempotency_key``, the match that key made, as ``create``).

        A log the store already holds (the match it was exported from, or an earlier import of
        it: the same origin and the same log digest) is answered with that match (``existing``)
        unless ``copy`` asks for a copy. ``operator``: the import comes from an operator's
        command, which needs no API key.
        """
        made_by = self._made_by(OPERATOR if operator else self.credentials.identify(api_key))
        lines = [line for line in lines if line.strip()]
        header, events = parse_lines(lines)
        checked = check_log(header, events, now_ms=self._now_ms())
        if header.get("id"):
            checked.origin["imported_from"] = str(header["id"])
        keyed = Keyed.of("import", idempotency_key, {"lines": lines, "copy": copy}, made_by)
        origin, digest = origin_of(header), log_digest(event for _, event in events)
        # Kept with the match: statistics count one origin once, and a later import finds it.
        lineage = {"log_digest": digest} | ({"origin_id": origin} if origin else {})
        if copy:
            return self._copy(checked, made_by | lineage, keyed)
        if self._holds(origin, digest):
            return self._existing(origin, checked)
        own = idempotency.match_id_for("import-of", None, f"{origin}:{digest}")
        return self._copy(checked, made_by | lineage, keyed, own)

    def _holds(self, match_id: str, digest: str) -> bool:
        """Whether ``match_id`` is a match of this store whose log has ``digest``."""
        if not MATCH_ID.fullmatch(match_id) or not self.store.exists(match_id):
            return False
        return log_digest(self.store.iter_events(match_id)) == digest

    def _existing(self, match_id: str, checked: Checked) -> Copied:
        """The answer naming a match the store already held (no token: it was shown once)."""
        header = self.store.header(match_id)
        # A match whose first write was cut off before it was listed is listed now (idempotent).
        self.store.register(match_id, int(header.get("created_ms") or 0))
        origin: dict[str, str] = {
            k: header[k] for k in ("forked_from", "forked_at", "imported_from") if k in header
        }
        version = len(checked.events)
        return Copied(match_id, "", checked.game.id, version, checked.finished, origin, existing=True)

    @staticmethod
    def _made_by(credential: str | None) -> dict[str, str]:
        """The header field that says which credential created a match (none: made anonymously)."""
        return {"credential": credential} if credential else {}

    def _copy(
        self,
        checked: Checked,
        made_by: dict[str, str],
        keyed: Keyed | None = None,
        own: str | None = None,
    ) -> Copied:
        # A copy keeps the date it was first recorded on when the file's date was valid.
        origin = dict(checked.origin)
        dated = "created_ms" in origin
        opened = self._open(checked.game, checked.events, origin | made_by, dated, keyed, own)
        if opened.existing:
            return self._existing(opened.match_id, checked)
        match_id, token, first = opened.match_id, opened.token, opened.first
        # Where and when it is played are the match's own facts, not where the copy came from.
        kept = {
            k: v for k, v in origin.items() if k not in ("created_at", "created_ms", "timezone", "location")
        }
        version = first + len(checked.events) - 1
        return Copied(match_id, token, checked.game.id, version, checked.finished, kept)

    def _open(
        self,
        game: Game,
        events: list[NewEvent],
        origin: dict[str, str],
        dated: bool = False,
        keyed: Keyed | None = None,
        own: str | None = None,
        credentials: dict[str, str] | None = None,
    ) -> Opened:
        """Write a new match (new token) with its first events, under ``own`` id if given, else
        one derived from ``keyed``'s key, else a new one, with the ``credentials`` it starts with.
        Written already: by the same keyed
        request, that match (``again``); under ``own``, by another, that match (``existing``)."""
        token = secrets.token_urlsafe(32)
        header = {"game": game.id, "token_hash": token_hash(token)} | origin
        match_id = own or uuid.uuid4().hex[:16]
        if keyed is not None:
            match_id = own or idempotency.match_id_for(keyed.kind, keyed.credential, keyed.key)
            header[idempotency.FIELD] = idempotency.record(keyed.fingerprint, token, keyed.key)
        if not dated:
            now = self.clock()
            header["created_at"] = now.isoformat(timespec="milliseconds")
            header["created_ms"] = str(int(now.timestamp() * 1000))
        try:
            result = self.store.create(match_id, header, events, int(header["created_ms"]), credentials)
        except MatchExists:
            if keyed is None and own is None:
                raise
            return self._made_before(match_id, keyed, own is not None)
        if result.woke:
            self._notify(match_id)
        return Opened(match_id, token, result.first)

    def _made_before(self, match_id: str, keyed: Keyed | None, own: bool) -> Opened:
        """The match a write found at its id: made by the same keyed request (its token), or,
        at an import's ``own`` id, by another (``existing``); else IdempotencyMismatch."""
        header = self.store.header(match_id)
        kept = header.get(idempotency.FIELD)
        token = None if keyed is None else idempotency.recall(kept, keyed.fingerprint, keyed.key)
        if token is None:
            if own:
                return Opened(match_id, "", 1, existing=True)
            raise IdempotencyMismatch(keyed.key if keyed else "")
        # The first write may have been cut off before it listed its match (idempotent).
        self.store.register(match_id, int(header.get("created_ms") or 0))
        return Opened(match_id, token, 1, again=True)

    def _now_ms(self) -> int:
        return int(self.clock().timestamp() * 1000)
