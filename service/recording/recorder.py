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

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partialmethod
from typing import Any, NamedTuple

import redis
from cachetools import LRUCache

from events.codec import dumps_sorted, read_stored
from events.defaults import CARRY_PAUSE, TOKENS_KEPT, WRITE_ATTEMPTS
from events.envelope import AppendResult, CarriedProjection, NewEvent, StoredEvent
from events.errors import CredentialChanged, VersionConflict
from events.extras import AppendExtras, Credential, RateCounters
from events.store import EventStore
from games.contract import N_, Game, Message, RuleViolation, words
from games.decider import refuse_finished
from games.players import name_key
from games.registry import get_game
from games.validation import validate_action
from projections.positions import tape
from projections.positions.rewind import Positions
from projections.positions.tape import Position
from projections.projecting.projector import Projector
from projections.queries.access import (
    TABLE_FIELD,
    Forbidden,
    NotYourSeat,
    Reader,
    reader_of,
    seat_field,
    token_hash,
)
from projections.queries.disclosure import sight
from service.recording.answers import (
    Busy,
    Folded,
    PreconditionFailed,
    Recorded,
    Unauthorized,
    fingerprint,
    view_json,
)
from service.recording.creating import CreatingWrites
from service.recording.credentials import Credentials
from service.recording.ids import unique_hex

# The clock the pause is kept by.
monotonic = time.monotonic
log = logging.getLogger("tabletape.recorder")


# The refusal of a token that is not (or no longer) the match's table's or one of its seats'.
# What a seat may do with its own actions only, in a refusal's words.
_SEAT_DOING = {"record": N_("record"), "undo": N_("undo"), "redo": N_("redo")}
_NOT_A_WRITER = N_("this token is neither this match's nor one of its seats': it cannot write to it")


class _Write(NamedTuple):
    """One write being recorded: the match, how to decide it, and the request's conditions."""

    game: Game
    header: dict[str, str]
    match_id: str
    decide: Callable[[Position], list[NewEvent]]
    if_match: int | None
    idempotency_key: str | None
    # The request's fingerprint, to tell a retry under its key from another request ("": unkeyed).
    digest: str
    rates: RateCounters | None
    # The writer's credential, which the append checks is still current.
    credential: Credential
    # The token written with (``Recorder._writers`` forgets it once its credential changed).
    token: str

    @classmethod
    def of(
        cls,
        game: Game,
        header: dict[str, str],
        match_id: str,
        decide: Callable[[Position], list[NewEvent]],
        if_match: int | None,
        idempotency_key: str | None,
        body: Any,
        rates: RateCounters | None,
        writer: _Writer,
    ) -> _Write:
        """A write of ``body``: only a keyed write is told apart from a retry under its key."""
        digest = fingerprint(body) if idempotency_key else ""
        key, credential, token = idempotency_key, writer.credential, writer.token
        return cls(game, header, match_id, decide, if_match, key, digest, rates, credential, token)


class _Sent(NamedTuple):
    """An append the store answered: the batch, its fold (if folded before it was sent), the
    store's answer, the answer's view written meanwhile, and whether it carried its projection."""

    new: list[NewEvent]
    folded: Folded | None
    result: AppendResult
    view: bytes | None
    carried: bool


class _Writer(NamedTuple):
    """Who writes to a match with a token (``Recorder._authorised``): the match's rules and
    header, the reader the token is, and the credential its appends rely on."""

    game: Game
    header: dict[str, str]
    seat: Reader
    credential: Credential
    token: str


class _ViewWriter:
    """Writes the answer's view of a folded batch while Redis appends it (``AppendExtras.meanwhile``).

    The next write here decides on the position itself (``Positions`` hands it over uncopied),
    so the answer keeps its view written out, which is smaller than the position. A batch that
    carries no projection is folded here too (``fold``): nothing sent waits for its fold."""

    def __init__(
        self, game: Game, folded: Folded | None, fold: Callable[[], Folded | None] | None = None
    ) -> None:
        self.game = game
        self.folded = folded
        self.fold = fold
        self.json: bytes | None = None

    def __call__(self) -> None:
        """Fold the batch if it is left to fold, then write the view out (nothing for a batch
        folded only once the reply is in)."""
        if self.fold is not None:
            self.folded, self.fold = self.fold(), None
        if self.folded is not None:
            self.json = view_json(self.game, self.folded.pos["game"])


# Each second's part of the events' timestamps (``stamp``), by the second: every write stamps its
# events, and the writes of one second share it.
_SECONDS: dict[tuple[Any, ...], tuple[str, str]] = {}


def stamp(now: datetime) -> str:
    """``now.isoformat(timespec="milliseconds")``, its second's part written once a second."""
    second = (now.tzinfo, now.year, now.month, now.day, now.hour, now.minute, now.second, now.fold)
    parts = _SECONDS.get(second)
    if parts is None:
        text = now.replace(microsecond=0).isoformat()  # YYYY-MM-DDTHH:MM:SS and the offset, if any
        if len(_SECONDS) >= 64:
            _SECONDS.clear()
        parts = _SECONDS[second] = (text[:19], text[19:])
    return f"{parts[0]}.{now.microsecond // 1000:03d}{parts[1]}"


class Recorder(CreatingWrites):
    """The write side of the API (its creating writes: ``CreatingWrites``)."""

    def __init__(
        self,
        store: EventStore,
        positions: Positions,
        notify: Callable[[str], None],
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        credentials: Credentials | None = None,
        projector: Projector | None = None,
        apart: bool = True,
    ) -> None:
        self.store = store
        self.positions = positions
        self.notify = notify
        self.clock = clock
        self.credentials = credentials or Credentials(())
        # What a write carries of its projection (none without one: the workers project all).
        self.projector = projector
        # Whether a write alone here may send its projection apart from its append: not with
        # inline projections (no worker's sweep finds a match it marks without a wake-up).
        self.apart = apart
        self._under_way: dict[int, None] = {}
        # The HTTP requests this process is answering, each by an id of its own, while the app
        # answers it (``service.api.lean_actions``): a write sends its projection apart only
        # when nothing else is under way here.
        self.requests: dict[int, None] = {}
        # When each match whose projection a write here found behind may carry one again.
        self._behind: LRUCache[str, float] = LRUCache(maxsize=TOKENS_KEPT)
        # Whom each (match, token) was found to be, with the match's rules and header: a
        # remembered token is not read again, since each append checks in its own run that the
        # credential it relies on is current.
        self._writers: LRUCache[tuple[str, str], _Writer] = LRUCache(maxsize=TOKENS_KEPT)

    def act(
        self,
        match_id: str,
        token: str | None,
        action: Any,
        if_match: int | None = None,
        idempotency_key: str | None = None,
        rates: RateCounters | None = None,
    ) -> Recorded:
        """Record one action: decided by the rules, appended atomically with the projection it leaves
        (or, when that cannot move in, marked for the workers to project).

        ``rates``: counters the append counts this write against (``events.store.RateCounters``);
        over one, OverLimit and nothing recorded."""
        writer = self._authorised(match_id, token)
        game, header, seat = writer.game, writer.header, writer.seat
        action = validate_action(game, action)
        if not seat.table:
            _own_action(seat, action.get("player"), "record")

        def decide(pos: Position) -> list[NewEvent]:
            refuse_finished(pos["game"])
            events = game.decide(pos["game"], action)
            actor = str(action.get("player") or "table")
            return self._new_events(game, events, unique_hex(), actor, action, seat)

        done = self._write(
            _Write.of(game, header, match_id, decide, if_match, idempotency_key, action, rates, writer)
        )
        return done if seat.table else self._as_seen(game, seat, done)

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
        writer = self._authorised(match_id, token)
        game, header, seat = writer.game, writer.header, writer.seat
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
            if not seat.table:
                taken = self.store.read(match_id, int(data["first"]), int(data["first"]))[0]
                _own_action(seat, (taken.meta.get("action") or {}).get("player"), word)
            meta = self._meta(seat.seat or "table", unique_hex(), 1, {"type": word}, self._now())
            return [NewEvent(kind, data, meta)]

        body = {"type": word}
        write = _Write.of(game, header, match_id, decide, if_match, idempotency_key, body, rates, writer)
        done = self._write(write)
        return done if seat.table else self._as_seen(game, seat, done)

    # ``recorder.undo(match_id, token, if_match, idempotency_key, rates)``, and redo alike.
    undo = partialmethod(correct, tape.UNDONE)
    redo = partialmethod(correct, tape.REDONE)

    def _write(self, write: _Write) -> Recorded:
        """Decide on the newest position this process knows and append conditionally on it; on a
        conflict or a refusal read the log and decide again (docs/design.md, the way of one action)."""
        # Writes under way in this process, each by its id (a dict's insertion and deletion are
        # atomic, whichever thread or greenlet makes them): ``_send`` sends a projection apart
        # only for a write alone here.
        mine = id(write)
        self._under_way[mine] = None
        try:
            return self._attempts(write)
        finally:
            del self._under_way[mine]

    def _attempts(self, write: _Write) -> Recorded:
        """``_write``'s tries, each deciding on the newest position known."""
        # The common write is one round trip: only a refusal or a conflict reads the log again.
        pos, fresh = self.positions.latest(write.game, write.match_id)
        for _ in range(WRITE_ATTEMPTS):
            try:
                sent = self._send(write, pos)
            except (RuleViolation, PreconditionFailed, VersionConflict) as refusal:
                conflict = isinstance(refusal, VersionConflict)
                if fresh and not (conflict and write.if_match is None):
                    return self._refused(write, refusal)
                actual = refusal.actual if isinstance(refusal, VersionConflict) else None
                pos, fresh = self.positions.current(write.game, write.match_id, actual), True
                continue
            return self._recorded(write, pos, sent)
        raise Busy(f"the match changed {WRITE_ATTEMPTS} times while this write was decided; send it again")

    def _send(self, write: _Write, pos: Position) -> _Sent:
        """Decide on ``pos``, fold the batch and append it conditionally on ``pos``'s version,
        carrying the projection it leaves; the answer's view is written while Redis appends (and
        the batch folded then, when the append carries no projection)."""
        if write.if_match is not None and write.if_match != pos["version"]:
            raise PreconditionFailed(write.if_match, pos["version"])
        new = write.decide(pos)
        start = pos["version"]
        # A correction that lands where this process remembers nothing is folded once the reply
        # is in, and carries no projection (the workers project it).
        carried: CarriedProjection | None = None
        follows = False
        if not self._may_carry(write):
            # Nothing sent needs the fold: it is done while Redis appends.
            view = _ViewWriter(write.game, None, lambda: self._fold(write.game, write.match_id, pos, new))
        elif not self.apart or len(self._under_way) > 1 or len(self.requests) > 1:
            # Other writes or requests are under way here (or projections are inline): the append
            # carries its projection in its own send, which costs the processes less than a
            # second send would (folded before the send).
            folded = self._fold(write.game, write.match_id, pos, new)
            carried = self._carried(write, start, folded)
            view = _ViewWriter(write.game, folded)
        else:
            # The write alone here: folded while Redis appends, and its projection follows the
            # append on the same connection (``EventStore.append``), unless a snapshot's step is
            # among its steps (the workers write that, with its snapshot).
            view = _ViewWriter(write.game, None, lambda: self._fold(write.game, write.match_id, pos, new))
            follows = self.projector is not None and not self.projector.snapshot_among(
                start, start + len(new)
            )
        # The rates are counted by the first append that reaches Redis, never again.
        extras = AppendExtras(meanwhile=view, rates=write.rates, carried=carried)
        if follows:
            extras.follow = lambda: self._carried(write, start, view.folded)
        extras.credential = write.credential
        key, digest = write.idempotency_key, write.digest
        try:
            result = self.store.append(write.match_id, new, start, key, digest, extras)
        except CredentialChanged:
            # Reset or revoked since this process checked it: forgotten, and refused as any
            # token that is not the match's.
            self._writers.pop((write.match_id, write.token), None)
            raise Forbidden(Message(_NOT_A_WRITER)) from None
        return _Sent(new, view.folded, result, view.json, carried is not None)

    def _refused(self, write: _Write, refusal: Exception) -> Recorded:
        """The answer to a write refused on a position just read: the first answer of a concurrent
        send of the same key recorded meanwhile, else the refusal (a conflict as a 412)."""
        earlier = self._earlier(write.match_id, write.idempotency_key, write.digest)
        if earlier is not None:
            return self._replayed(write.game, write.match_id, earlier.first, earlier.last)
        if isinstance(refusal, VersionConflict):
            raise PreconditionFailed(write.if_match or 0, refusal.actual) from refusal
        raise refusal

    def _recorded(self, write: _Write, pos: Position, sent: _Sent) -> Recorded:
        """The answer to an append the store took (or recognised as a retry)."""
        result = sent.result
        if sent.carried:
            self._note_moved_in(write.match_id, result.moved_in)
        if result.duplicate:
            return self._replayed(write.game, write.match_id, result.first, result.last)
        if result.woke:
            self._notify(write.match_id)
        return self._answer(write.game, write.match_id, pos, result.first, sent.new, sent.folded, sent.view)

    def _as_seen(self, game: Game, seat: Reader, done: Recorded) -> Recorded:
        """A seat's answer: its events and the state after them as the seat may see them (its
        own hand, not the others'), at the step the write ended on (known: no read of it)."""
        now = self.positions.current(game, done.match_id, done.version)
        seen = sight(game, now, seat)
        events = [StoredEvent(e.seq, e.type, **_parts(seen.event(e.as_dict()))) for e in done.events]
        state = dumps_sorted(seen.view(read_stored(done.state_json)))
        return Recorded(done.match_id, done.version, events, state, done.duplicate)

    def _earlier(self, match_id: str, key: str | None, digest: str) -> AppendResult | None:
        return self.store.recall(match_id, key, digest) if key else None

    def _fold(self, game: Game, match_id: str, pos: Position, new: list[NewEvent]) -> Folded | None:
        """Fold a batch onto ``pos`` (the writer's own, folded in place) as the steps right after
        it, which a conditional append writes it as; None, ``pos`` unchanged, when the fold needs
        the log (``Positions.fold_own``)."""
        first = pos["version"] + 1
        events = [StoredEvent(first + i, e.type, e.data, e.meta) for i, e in enumerate(new)]
        done = self.positions.fold_own(game, match_id, pos, events)
        if done is None:
            return None
        return Folded(events, *done)

    def _may_carry(self, write: _Write) -> bool:
        """Whether the append may carry a projection: a projector here, a store that takes one
        (``EventStore.projects``), and the match's projection not found behind a moment ago
        (``CARRY_PAUSE``)."""
        if self.projector is None or not self.store.projects:
            return False
        paused = self._behind.get(write.match_id)
        return paused is None or monotonic() >= paused

    def _carried(self, write: _Write, start: int, folded: Folded | None) -> CarriedProjection | None:
        """The projection the append of a folded batch carries (``EventStore.append``), once it
        may carry one (``_may_carry``)."""
        if folded is None or self.projector is None:
            return None
        return self.projector.carried(
            write.match_id, write.header, write.game, start, folded.pos, folded.dumped, folded.events
        )

    def _note_moved_in(self, match_id: str, moved_in: bool) -> None:
        """Note whether the projection a write carried moved in (else the stored one was behind)."""
        if moved_in:
            self._behind.pop(match_id, None)
        else:
            self._behind[match_id] = monotonic() + CARRY_PAUSE

    def _answer(
        self,
        game: Game,
        match_id: str,
        pos: Position,
        first: int,
        new: list[NewEvent],
        done: Folded | None = None,
        view: bytes | None = None,
    ) -> Recorded:
        # Built from what was appended, not read back: once the append is done the answer needs
        # Redis only for a rewind, so a store that fails now does not turn a recorded write into
        # an error that invites a second one.
        if done is not None:
            self.positions.keep(match_id, done.pos, done.dumped)
            state = view if view is not None else view_json(game, done.pos["game"])
            return Recorded(match_id, done.pos["version"], done.events, state)
        events = [StoredEvent(first + i, e.type, e.data, e.meta) for i, e in enumerate(new)]
        pos = self.positions.advance(game, match_id, pos, events)
        state = view_json(game, pos["game"])
        self.positions.hand_back(match_id, pos)
        return Recorded(match_id, first + len(events) - 1, events, state)

    def _notify(self, match_id: str) -> None:
        """Ask for a projection; if Redis fails now, the write stands and the sweep projects it."""
        try:
            self.notify(match_id)
        except redis.RedisError as exc:
            log.warning("could not enqueue the projection of %s (%s); the sweep will", match_id, exc)

    def _replayed(self, game: Game, match_id: str, first: int, last: int) -> Recorded:
        events = self.store.read(match_id, first, last)
        pos = self.positions.position(game, match_id, last)
        return Recorded(match_id, last, events, view_json(game, pos["game"]), duplicate=True)

    def _authorised(self, match_id: str, token: str | None) -> _Writer:
        """The match's rules, header, writer and the credential its writes rely on, once ``token``
        is found to be its table's token or one of its seats'. A token this process found before
        is compared, not hashed nor read again: the append checks in its own run that the
        credential is current, so a reset or a revoked seat still counts at once in every process."""
        if not token:
            self.store.header(match_id)  # an unknown match is refused as such first
            raise Unauthorized(Message("this write needs the match's token: Authorization: Bearer <token>"))
        known = self._writers.get((match_id, token))
        if known is not None:
            return known
        # One round trip: the header, the credentials, and the projection to decide on (kept
        # only for a token that is the match's).
        opened = self.positions.opening(match_id)
        header = opened.header
        seat = reader_of(header, opened.credentials, token, "write to")
        self.positions.adopt(match_id, opened)
        digest = token_hash(token)
        if seat.table:
            credential = Credential(TABLE_FIELD, digest, fallback="token_hash")
        else:
            credential = Credential(seat_field(str(seat.seat)), digest)
        known = _Writer(get_game(header["game"]), header, seat, credential, token)
        self._writers[(match_id, token)] = known
        return known

    def _new_events(
        self,
        game: Game,
        events: list[dict[str, Any]],
        action_id: str,
        actor: str,
        action: Any,
        writer: Reader | None = None,
    ) -> list[NewEvent]:
        now = self._now()
        new = []
        for i, ev in enumerate(events):
            schema = game.event_schemas.get(ev["type"], 1)
            meta = self._meta(actor, action_id, schema, action if i == 0 else None, now)
            if writer is not None and not writer.table:
                # Recorded by the player's own seat: a secret of it stays the seat's until shown.
                meta["by"] = writer.kind
            new.append(NewEvent(ev["type"], ev["data"], meta))
        return new

    def _now(self) -> str:
        return stamp(self.clock())

    @staticmethod
    def _meta(actor: str, action_id: str, schema: int, action: Any, ts: str) -> dict[str, Any]:
        meta = {"ts": ts, "actor": actor, "action_id": action_id, "schema": schema}
        if action is not None:
            meta["action"] = action
        return meta


def _own_action(seat: Reader, player: Any, what: str) -> None:
    """Refuse a seat's write of an action that is not its own player's (NotYourSeat)."""
    if player is None or name_key(str(player)) != name_key(str(seat.seat)):
        whose = words("{player}'s action", player=player) if player else words("the table's action")
        raise NotYourSeat(
            Message(
                "{seat}'s seat may {what} only {seat}'s own actions, not {whose}: "
                "the table's token records every player's",
                seat=seat.seat,
                what=words(_SEAT_DOING.get(what, what)),
                whose=whose,
            )
        )


def _parts(event: dict[str, Any]) -> dict[str, Any]:
    """An event's data and meta, to build a StoredEvent from."""
    return {"data": event["data"], "meta": event["meta"]}
