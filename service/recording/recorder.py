"""Recording: the commands that create a match and append its actions, undos and redos.

Every write follows the same path: check the token, take the current position (projection plus
the events after it), let the rules decide, fold the resulting events into the position after them,
and append them with the version they were decided on, carrying the projection of that position
(written in the same atomic run when the stored one was caught up; else the workers project the
match). A concurrent writer makes the append fail with a version conflict; the command then
decides again on the newer state (unless the client made the write conditional with If-Match,
which then answers 412).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial, partialmethod
from typing import Any

import redis

from events.codec import dumps_sorted, read_stored
from events.envelope import AppendResult, NewEvent, StoredEvent
from events.errors import VersionConflict
from events.store import EventStore, RateCounters
from games.contract import Game, RuleViolation, words
from games.registry import get_game
from games.validation import validate_action, validate_match
from projections.positions import tape
from projections.positions.rewind import MatchReader
from projections.positions.tape import Position
from projections.projecting.projector import Projector
from projections.queries.access import holds_token, token_hash
from projections.sharing.fork import fork_log
from projections.sharing.importing import Checked, check_log, parse_lines
from service.recording.credentials import OPERATOR, Credentials
from service.recording.ids import unique_hex

ATTEMPTS = 8
# How many matches' write tokens a process remembers as checked.
HOLDERS = 4096
# Seconds a process carries no projection for a match whose projection its last write found
# behind (the workers bring it up meanwhile; a write that carries one in vain costs more).
CARRY_PAUSE = 0.05
# The clock the pause is kept by.
monotonic = time.monotonic
log = logging.getLogger("tabletape.recorder")


class Unauthorized(Exception):
    """A write without a bearer token."""


class PreconditionFailed(Exception):
    """If-Match named a version that is not the match's current one."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(
            f"If-Match asked for version {expected} but the match is at version {actual}; "
            "read it again and decide on the newer state"
        )
        self.expected = expected
        self.actual = actual


class Busy(Exception):
    """Too many concurrent writers: the write was retried and still lost every race."""


@dataclass(frozen=True)
class Recorded:
    """The answer to a write: the new version, the events written and the state after them.

    The state is kept as the API writes it (``events.codec.dumps_sorted``): an answer is written
    as it was made, and no later write to the match can change it."""

    match_id: str
    version: int
    events: list[StoredEvent]
    state_json: bytes
    duplicate: bool = False

    @property
    def state(self) -> Any:
        """The state after the write (the view anyone may see), as a fresh value."""
        return read_stored(self.state_json)


def view_json(game: Game, state: Any) -> bytes:
    """What anyone may see of ``state``, written as the API writes it."""
    return dumps_sorted(game.view(state))


@dataclass(frozen=True)
class Folded:
    """A write's batch folded before it is sent: its steps, the position after them (the next
    writer's) and that position frozen."""

    events: list[StoredEvent]
    pos: Position
    dumped: bytes


@dataclass(frozen=True)
class Copied:
    """A match made from a log (a fork or an import): its id, its token, and where it came from."""

    match_id: str
    token: str
    game: str
    version: int
    finished: bool
    origin: dict[str, str]


@dataclass(frozen=True)
class Created:
    """A new match: its id, its write token (shown once) and its first events."""

    match_id: str
    token: str
    game: Game
    players: list[str]
    setup: dict[str, Any]
    options: dict[str, Any]
    recorded: Recorded


def fingerprint(body: Any) -> str:
    """A stable digest of a request, to tell a retry from a different request under one key."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


class Recorder:
    """The write side of the API."""

    def __init__(
        self,
        store: EventStore,
        reader: MatchReader,
        notify: Callable[[str], None],
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        credentials: Credentials | None = None,
        projector: Projector | None = None,
    ) -> None:
        self.store = store
        self.reader = reader
        self.notify = notify
        self.clock = clock
        self.credentials = credentials or Credentials(())
        # What a write carries of its projection (none without one: the workers project all).
        self.projector = projector
        # When each match whose projection a write here found behind may carry one again.
        self._behind: dict[str, float] = {}
        # The token each match was last written with, once its hash was found to match: the
        # next write with the same token is compared with it instead of hashing it again.
        self._holders: dict[str, str] = {}

    def create(
        self,
        game_id: str,
        players: Any,
        setup: Any,
        options: Any,
        where: dict[str, str] | None = None,
        api_key: str | None = None,
    ) -> Created:
        """Create a match from its players, starting facts, rule options and where it is played."""
        made_by = self._made_by(self.credentials.identify(api_key))
        game = get_game(game_id)
        names, setup, options = validate_match(game, players, setup, options)
        events = game.setup(names, setup, options)
        body = {"game": game.id, "players": names, "setup": setup, "options": options}
        new = self._new_events(game, events, tape.CREATION, "table", body)
        placed = {k: v for k, v in (where or {}).items() if v}
        match_id, token, first = self._open(game, new, placed | made_by)
        recorded = self._answer(game, match_id, tape.empty(), first, new)
        return Created(match_id, token, game, names, setup, options, recorded)

    def fork(self, match_id: str, at: int, token: str | None = None, api_key: str | None = None) -> Copied:
        """A new match whose log is the effective history of ``match_id`` up to step ``at``:
        everything with the match's write token, the public history without it."""
        made_by = self._made_by(self.credentials.identify(api_key))
        everything = holds_token(self.store.header(match_id), token, "fork everything of")
        logged = fork_log(self.reader, match_id, at, everything)
        return self._copy(check_log(*logged, now_ms=self._now_ms()), made_by)

    def import_lines(
        self, lines: Iterable[str], api_key: str | None = None, operator: bool = False
    ) -> Copied:
        """A new match from an NDJSON export, every action checked by the rules.

        ``operator``: the import comes from an operator's command, which needs no API key.
        """
        made_by = self._made_by(OPERATOR if operator else self.credentials.identify(api_key))
        header, events = parse_lines(lines)
        checked = check_log(header, events, now_ms=self._now_ms())
        if header.get("id"):
            checked.origin["imported_from"] = str(header["id"])
        return self._copy(checked, made_by)

    @staticmethod
    def _made_by(credential: str | None) -> dict[str, str]:
        """The header field that says which credential created a match (none: made anonymously)."""
        return {"credential": credential} if credential else {}

    def _copy(self, checked: Checked, made_by: dict[str, str]) -> Copied:
        # A copy keeps the date it was first recorded on when the file's date was valid.
        origin = dict(checked.origin)
        dated = "created_ms" in origin
        match_id, token, first = self._open(checked.game, checked.events, origin | made_by, dated)
        # Where and when it is played are the match's own facts, not where the copy came from.
        kept = {
            k: v for k, v in origin.items() if k not in ("created_at", "created_ms", "timezone", "location")
        }
        version = first + len(checked.events) - 1
        return Copied(match_id, token, checked.game.id, version, checked.finished, kept)

    def _open(
        self, game: Game, events: list[NewEvent], origin: dict[str, str], dated: bool = False
    ) -> tuple[str, str, int]:
        """Write a new match (new id, new token) with its first events; (id, token, first step)."""
        match_id = uuid.uuid4().hex[:16]
        token = secrets.token_urlsafe(32)
        header = {"game": game.id, "token_hash": token_hash(token)} | origin
        if not dated:
            now = self.clock()
            header["created_at"] = now.isoformat(timespec="milliseconds")
            header["created_ms"] = str(int(now.timestamp() * 1000))
        result = self.store.create(match_id, header, events, int(header["created_ms"]))
        if result.woke:
            self._notify(match_id)
        return match_id, token, result.first

    def _now_ms(self) -> int:
        return int(self.clock().timestamp() * 1000)

    def act(
        self,
        match_id: str,
        token: str | None,
        action: Any,
        if_match: int | None = None,
        idempotency_key: str | None = None,
        rates: RateCounters | None = None,
    ) -> Recorded:
        """Record one action: decided by the rules, appended atomically, projected later.

        ``rates``: counters the append counts this write against (``events.store.RateCounters``);
        over one, OverLimit and nothing recorded."""
        game, header = self._authorised(match_id, token)
        action = validate_action(game, action)

        def decide(pos: Position) -> list[NewEvent]:
            if pos["game"].get("finished"):
                raise RuleViolation("match_finished", "the match is over; undo to change its end")
            events = game.decide(pos["game"], action)
            actor = str(action.get("player") or "table")
            return self._new_events(game, events, unique_hex(), actor, action)

        return self._write(game, header, match_id, decide, if_match, idempotency_key, action, rates)

    def correct(
        self,
        kind: str,
        match_id: str,
        token: str | None,
        if_match: int | None = None,
        idempotency_key: str | None = None,
        rates: RateCounters | None = None,
    ) -> Recorded:
        """Append a correction of ``kind``: an undo (``tape.UNDONE``) takes back the last effective
        action, a redo (``tape.REDONE``) re-applies the action the last undo took back."""
        game, header = self._authorised(match_id, token)
        make = tape.undo_event if kind == tape.UNDONE else tape.redo_event
        word = "undo" if kind == tape.UNDONE else "redo"

        def decide(pos: Position) -> list[NewEvent]:
            data = make(pos)
            if data is None:
                raise RuleViolation(
                    f"nothing_to_{word}",
                    words("there is no action to undo")
                    if word == "undo"
                    else words("there is no action to redo"),
                )
            meta = self._meta("table", unique_hex(), 1, {"type": word}, self._now())
            return [NewEvent(kind, data, meta)]

        return self._write(game, header, match_id, decide, if_match, idempotency_key, {"type": word}, rates)

    # ``recorder.undo(match_id, token, if_match, idempotency_key, rates)``, and redo alike.
    undo = partialmethod(correct, tape.UNDONE)
    redo = partialmethod(correct, tape.REDONE)

    def _write(
        self,
        game: Game,
        header: dict[str, str],
        match_id: str,
        decide: Callable[[Position], list[NewEvent]],
        if_match: int | None,
        idempotency_key: str | None,
        body: Any,
        rates: RateCounters | None = None,
    ) -> Recorded:
        # The common write is one round trip: it decides on the newest position this process
        # knows and lets the conditional append (which checks the idempotency key first) tell
        # whether the match moved on. Only a refusal or a conflict reads the log again.
        # Only a keyed write is told apart from a retry under its key.
        digest = fingerprint(body) if idempotency_key else ""
        pos, fresh = self.reader.latest(game, match_id)
        for _ in range(ATTEMPTS):
            try:
                if if_match is not None and if_match != pos["version"]:
                    raise PreconditionFailed(if_match, pos["version"])
                new = decide(pos)
                start = pos["version"]
                # The batch is folded before it is sent, so that the append carries the
                # projection it leaves; the answer's view is written while Redis appends it. A
                # correction that lands where this process remembers nothing is folded once the
                # reply is in, and carries none (the workers project it).
                done = self._fold(game, match_id, pos, new)
                carried = self._carried(game, header, match_id, start, done)
                answer: list[bytes] = []
                view = partial(self._view, game, done, answer)
                # The rates are counted by the first append that reaches Redis, never again.
                result = self.store.append(
                    match_id, new, start, idempotency_key, digest, view, rates, carried
                )
            except (RuleViolation, PreconditionFailed, VersionConflict) as refusal:
                if not fresh or (isinstance(refusal, VersionConflict) and if_match is None):
                    actual = refusal.actual if isinstance(refusal, VersionConflict) else None
                    pos, fresh = self.reader.current(game, match_id, actual), True
                    continue
                # A concurrent send of the same key may have been recorded just before this one
                # read the log: then its answer is this request's answer too.
                earlier = self._earlier(match_id, idempotency_key, digest)
                if earlier is not None:
                    return self._replayed(game, match_id, earlier.first, earlier.last)
                if isinstance(refusal, VersionConflict):
                    raise PreconditionFailed(if_match or 0, refusal.actual) from refusal
                raise
            if result.duplicate:
                return self._replayed(game, match_id, result.first, result.last)
            if carried:
                self._carried_in(match_id, result.projected)
            if result.woke:
                self._notify(match_id)
            return self._answer(game, match_id, pos, result.first, new, done, answer)
        raise Busy(f"the match changed {ATTEMPTS} times while this write was decided; send it again")

    def _earlier(self, match_id: str, key: str | None, digest: str) -> AppendResult | None:
        return self.store.recall(match_id, key, digest) if key else None

    def _fold(self, game: Game, match_id: str, pos: Position, new: list[NewEvent]) -> Folded | None:
        """Fold a batch onto ``pos`` (the writer's own, folded in place) as the steps right after
        it, which a conditional append writes it as; None, ``pos`` unchanged, when the fold needs
        the log (``MatchReader.fold_own``)."""
        first = pos["version"] + 1
        events = [StoredEvent(first + i, e.type, e.data, e.meta) for i, e in enumerate(new)]
        done = self.reader.fold_own(game, match_id, pos, events)
        if done is None:
            return None
        return Folded(events, *done)

    def _carried(
        self, game: Game, header: dict[str, str], match_id: str, start: int, done: Folded | None
    ) -> list[Any]:
        """The projection the append of a folded batch carries (``EventStore.append``): none
        when the match's projection was found behind a moment ago (``CARRY_PAUSE``)."""
        if done is None or self.projector is None or not self.store.projects:
            return []
        paused = self._behind.get(match_id)
        if paused is not None and monotonic() < paused:
            return []
        return self.projector.through(match_id, header, game, start, done.pos, done.dumped)

    def _carried_in(self, match_id: str, projected: bool) -> None:
        """Note whether the projection a write carried took its place (else it was behind)."""
        if projected:
            self._behind.pop(match_id, None)
            return
        if len(self._behind) >= HOLDERS:
            self._behind.pop(next(iter(self._behind)), None)
        self._behind[match_id] = monotonic() + CARRY_PAUSE

    @staticmethod
    def _view(game: Game, done: Folded | None, into: list[bytes]) -> None:
        # The next write here decides on the position itself (the reader hands it over
        # uncopied), so the answer keeps its view written out, which is smaller than the position.
        if done is not None:
            into.append(view_json(game, done.pos["game"]))

    def _answer(
        self,
        game: Game,
        match_id: str,
        pos: Position,
        first: int,
        new: list[NewEvent],
        done: Folded | None = None,
        answer: list[bytes] | None = None,
    ) -> Recorded:
        # Built from what was appended, not read back: once the append is done the answer needs
        # Redis only for a rewind, so a store that fails now does not turn a recorded write into
        # an error that invites a second one.
        if done is not None:
            self.reader.keep(match_id, done.pos, done.dumped)
            state = answer[0] if answer else view_json(game, done.pos["game"])
            return Recorded(match_id, done.pos["version"], done.events, state)
        events = [StoredEvent(first + i, e.type, e.data, e.meta) for i, e in enumerate(new)]
        pos = self.reader.advance(game, match_id, pos, events)
        state = view_json(game, pos["game"])
        self.reader.hand_back(match_id, pos)
        return Recorded(match_id, first + len(events) - 1, events, state)

    def _notify(self, match_id: str) -> None:
        """Ask for a projection; if Redis fails now, the write stands and the sweep projects it."""
        try:
            self.notify(match_id)
        except redis.RedisError as exc:
            log.warning("could not enqueue the projection of %s (%s); the sweep will", match_id, exc)

    def _replayed(self, game: Game, match_id: str, first: int, last: int) -> Recorded:
        events = self.store.read(match_id, first, last)
        pos = self.reader.position(game, match_id, last)
        return Recorded(match_id, last, events, view_json(game, pos["game"]), duplicate=True)

    def _authorised(self, match_id: str, token: str | None) -> tuple[Game, dict[str, str]]:
        """The match's rules and header, once ``token`` is found to be its write token."""
        header = self.store.header(match_id)
        known = self._holders.get(match_id)
        if not (token and known and hmac.compare_digest(known, token)):
            if not holds_token(header, token):
                raise Unauthorized("this write needs the match's token: Authorization: Bearer <token>")
            if len(self._holders) >= HOLDERS:
                self._holders.pop(next(iter(self._holders)), None)
            self._holders[match_id] = str(token)
        return get_game(header["game"]), header

    def _new_events(
        self, game: Game, events: list[dict[str, Any]], action_id: str, actor: str, action: Any
    ) -> list[NewEvent]:
        now = self._now()
        new = []
        for i, ev in enumerate(events):
            schema = game.event_schemas.get(ev["type"], 1)
            meta = self._meta(actor, action_id, schema, action if i == 0 else None, now)
            new.append(NewEvent(ev["type"], ev["data"], meta))
        return new

    def _now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    @staticmethod
    def _meta(actor: str, action_id: str, schema: int, action: Any, ts: str) -> dict[str, Any]:
        meta = {"ts": ts, "actor": actor, "action_id": action_id, "schema": schema}
        if action is not None:
            meta["action"] = action
        return meta
