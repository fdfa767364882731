"""The event store: each match's log is a Redis stream, written by one Lua script.

Step ``seq`` of a match is the stream entry ``<seq>-0``; the match's hash ``meta`` holds its header
(game, created_at, …) and its ``version`` (the last step). Creating a match and appending a batch
are each one script run, so they are atomic: the version check, the idempotency check, the entries
and the new version happen together or not at all. Nothing is ever trimmed from a log.

Writes return their outcome or raise, so they take no ``pipeline=``: a caller cannot act on an
answer that a pipeline would only give later.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import Any, NamedTuple

import redis
from cachetools import LRUCache
from redis.commands.core import Script

from events.codec import as_text, as_texts, decode, encode, entry_id
from events.defaults import CARRY_INLINE_BYTES, HEADERS_KEPT, WAKE_SECONDS
from events.envelope import AppendResult, CarriedProjection, NewEvent, StoredEvent
from events.errors import (
    CredentialChanged,
    IdempotencyMismatch,
    MatchExists,
    NotReplicated,
    OverLimit,
    UnknownMatch,
    VersionConflict,
)
from events.extras import UNCHECKED, AppendExtras
from events.indexes import Indexes
from events.keys import Keys
from events.marks import Marks
from events.one_send import OneSend, attempt, following
from events.script_args import AppendArgs, carry_args, create_args, preamble
from events.servers import on_servers
from events.upcasting import Upcasters

log = logging.getLogger(__name__)

_WRITTEN, _DUPLICATE = 0, 1
_NO_MATCH, _EXISTS, _CONFLICT, _OTHER_REQUEST, _OVER_LIMIT, _STALE = -1, -2, -3, -4, -5, -6


class Opening(NamedTuple):
    """A writer's first look at a match (``EventStore.opening``)."""

    header: dict[str, str]
    version: int
    credentials: dict[str, str]
    # The projected position as stored (``tape.dump``'s bytes), when asked for and there is one.
    projected: bytes | None


@cache
def _script_source() -> str:
    # The script reads its arguments by the names the preamble gives their places, and publishes
    # to the feed with the function feed.lua shares (feed_steps.lua).
    parts = [
        files("events").joinpath(name).read_text(encoding="utf-8")
        for name in ("feed_steps.lua", "append.lua")
    ]
    return preamble() + "".join(parts)


class EventStore:
    """Create matches, append events atomically and read them back, one stream per match."""

    def __init__(
        self,
        client: redis.Redis,
        keys: Keys,
        upcasters: Upcasters | None = None,
        replicas: int = 0,
        replica_timeout_ms: int = 1000,
    ) -> None:
        self.client = client
        self.keys = keys
        self.upcasters = upcasters
        # Each write waits (Redis WAIT) until this many replicas hold it, else NotReplicated.
        self.replicas = replicas
        self.replica_timeout_ms = replica_timeout_ms
        self._script: Script = client.register_script(_script_source())
        # A cluster keeps the dirty set and the wake flag in other slots than a match's keys.
        self._cluster = hasattr(client, "get_node_from_key")
        # A header never changes once written, so each process reads it once per match.
        self._headers: LRUCache[str, dict[str, str]] = LRUCache(maxsize=HEADERS_KEPT)
        # The dirty marks and wake flags every write names beside the match's own keys.
        self.marks = Marks(client, keys)
        # The registry and the indexes (sharded on a cluster), read and written through these.
        self.indexes = Indexes(client, keys)
        self.registry = self.indexes.registry()
        # The common write's one send, on connections this process keeps (events/one_send.py).
        self._send = OneSend(client, self._script)

    @property
    def counts(self) -> bool:
        """Whether an append may count itself against rate counters: only where they share its
        server (one Redis; on a cluster they are other slots)."""
        return not self._cluster

    @property
    def projects(self) -> bool:
        """Whether an append may carry its match's projection (``append``): only on one Redis,
        where the script also takes the dirty mark that it then leaves out, and not while it
        waits for replicas."""
        return not self._cluster and not self.replicas

    # -- writes ----------------------------------------------------------------------------------

    def create(
        self,
        match_id: str,
        header: Mapping[str, str],
        events: Sequence[NewEvent],
        created_ms: int,
        credentials: Mapping[str, str] | None = None,
    ) -> AppendResult:
        """Start a match: its header, the ``credentials`` it starts with (digests, written in the
        same run) and its first events, as steps 1..n; MatchExists if taken."""
        if "version" in header:
            raise ValueError("the header may not set 'version': the store keeps it")
        args = create_args(match_id, str(WAKE_SECONDS), header, _event_args(events), credentials)
        reply, woke, _ = self._run(match_id, args)
        result = _result(match_id, reply, woke)
        # Registered only once the match exists, never before (nor in the script's pipeline,
        # which would run whatever the script answered): a create that fails lists nothing. The
        # registry is a cross-match key (another slot on a Cluster), so it cannot join the
        # script; a process lost between the two leaves a match the registry misses, which
        # ``unregistered`` finds and ``register`` mends.
        self.register(match_id, created_ms)
        return result

    def register(self, match_id: str, created_ms: int) -> None:
        """List a created match in the registry, by creation time (idempotent)."""
        self.registry.add({match_id: created_ms}, only_new=True)

    def unregistered(self, batch: int = 500) -> Iterator[str]:
        """Every match whose header exists but whose registry entry does not (a scan of all keys)."""
        for raw in self.client.scan_iter(match=self.keys.meta_pattern(), count=batch):
            match_id = self.keys.match_of_meta(as_text(raw))
            if match_id is not None and self.registry.score(match_id) is None:
                yield match_id

    def unregister(self, match_id: str) -> None:
        """Drop a registry entry whose match has neither a header nor a log."""
        if not self.exists(match_id) and not self.client.exists(self.keys.log(match_id)):
            self.registry.remove([match_id])

    def append(
        self,
        match_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        fingerprint: str = "",
        extras: AppendExtras | None = None,
    ) -> AppendResult:
        """Append a batch atomically after the match's last step.

        A known idempotency key returns the first request's steps (duplicate) when the
        fingerprint matches and raises IdempotencyMismatch when not; then a given
        ``expected_version`` that differs from the match's raises VersionConflict.
        An empty idempotency key counts as none.

        ``extras`` (``AppendExtras``): the work done while Redis appends, the rate counters the
        append counts itself against, and the projection it carries. The carried projection,
        what a projection run would write (``Projector.carried``), goes among the script's
        arguments, for a conditional append (``expected_version``), or for a large position
        (``CARRY_INLINE_BYTES``) as a hash staged ahead of the script in one transaction on the
        same connection (with ``meanwhile``), and moves in (takes the stored projection's place)
        in the script's run when that one was caught up and its read models current; its steps
        in the feed's form (``carried.feed``) are then published in the same run, instead of the
        dirty mark, when the feed has the match up to the step the batch follows
        (events/append.lua).
        Only one Redis without replicas to wait for takes it (``projects``); elsewhere it is left
        out, and the workers project the batch.

        ``extras.follow`` instead (with ``meanwhile``, for a conditional append on such a
        store): the projection is worked out once the append is on its way and sent right
        behind it on the same connection, its reply skipped (``_following``); the append marks
        nothing, and that run moves it in by the same rule, or marks the match without a wake-up.
        """
        extras = extras or AppendExtras()
        meanwhile, rates = extras.meanwhile, extras.rates
        expected = "" if expected_version is None else str(expected_version)
        counted = rates.counters if rates is not None and not rates.sent else []
        if counted and not self.counts:
            raise ValueError("an append on a Redis Cluster cannot count rate counters in its run")
        extra = [key for key, _, _ in counted]
        carried_hset: list[Any] = []
        projection: list[Any] | None = None
        carried = extras.carried
        if not (carried and self.projects and expected_version is not None):
            carried = None
        else:
            checkpoint = expected_version + len(events)
            extra += self._carried_keys(match_id, carried)
            if len(carried.frozen) > CARRY_INLINE_BYTES and meanwhile is not None:
                # Staged beside the script in one transaction (``OneSend.run``).
                carried_hset = [self.keys.carried(match_id), *carried.fields(checkpoint)]
                projection = carried.arguments(None)
            else:
                projection = carried.arguments(checkpoint)
        event_args = _event_args(events)
        then: Callable[[], bytes | None] | None = None
        if (
            extras.follow is not None
            and not carried
            and self.projects
            and expected_version is not None
            and meanwhile is not None
        ):
            then = lambda: self._following(  # noqa: E731
                match_id, expected_version, expected_version + len(events), event_args[-1], extras
            )
        credential = extras.credential or UNCHECKED
        args = AppendArgs(
            match_id,
            str(WAKE_SECONDS),
            expected,
            idempotency_key or "",
            fingerprint,
            credential.field,
            credential.fallback,
            credential.digest,
            [(limit, window) for _, limit, window in counted],
            projection,
            carried.feed if carried else None,
            event_args,
            then is not None,
        )
        try:
            reply, woke, failed = self._run(match_id, args, meanwhile, extra, carried_hset, then)
        finally:
            if counted and rates is not None:
                # Sent, whatever came back: a lost reply may have counted them.
                rates.sent = True
        if reply[0] == _STALE:
            raise CredentialChanged(match_id)
        if reply[0] == _OVER_LIMIT:
            raise OverLimit(reply[1], match_id)
        if reply[0] == _CONFLICT:
            raise VersionConflict(expected_version or 0, reply[1], match_id)
        if reply[0] == _OTHER_REQUEST:
            raise IdempotencyMismatch(idempotency_key or "", match_id)
        result = _result(match_id, reply, woke)
        if failed is not None and reply[0] == _WRITTEN:
            raise failed
        return result

    def _run(
        self,
        match_id: str,
        args: AppendArgs | list[str],
        meanwhile: Callable[[], object] | None = None,
        more: Sequence[str] = (),
        carried_hset: Sequence[Any] = (),
        then: Callable[[], bytes | None] | None = None,
    ) -> tuple[list[int], bool, Exception | None]:
        """Run the script, marking the match dirty and raising the wake flag in the same round trip;
        the reply, whether this write raised the flag, and what ``meanwhile`` raised.

        On one Redis the script makes the marks itself, in the same atomic run: the common write
        is one EVALSHA. On a cluster they are cross-match keys (other slots), sent in the same
        round trip to their own servers: a process that dies after the script leaves a log ahead
        of its projection's checkpoint, which the workers' periodic full sweep finds.

        ``more``: the keys an append names after the marks (its rate counters, then those of the
        projection it carries); ``carried_hset``: the HSET arguments of a projection staged
        beside the script (``append``), sent ahead of it on one Redis.
        """
        keys = self._match_keys(match_id)
        dirty, wake = self.marks.of(match_id)
        if not self._cluster and not self.replicas:
            raw, failed = self._evalsha([*keys, dirty, wake, *more], args, meanwhile, carried_hset, then)
            reply = [int(x) for x in raw]
            return reply, len(reply) > 3 and reply[3] == 1, failed
        argv = args.argv() if isinstance(args, AppendArgs) else args
        if not self._cluster:
            keys += [dirty, wake, *more]
        script: list[tuple[Any, ...]] = [("EVALSHA", self._script.sha, len(keys), *keys, *argv)]
        if self.replicas:
            # WAIT counts the replicas that hold the writes of its own connection: it follows the
            # script on the connection to the match's server.
            script.append(("WAIT", self.replicas, self.replica_timeout_ms))
        # One round trip on one Redis, whose script marks the match itself.
        ran = on_servers(self.client, [(keys[0], script)], [_script_source()])[0]
        _raise_any(ran)
        reply = [int(x) for x in ran[0]]
        woke = len(reply) > 3 and reply[3] == 1
        if self._cluster and reply[0] in (_WRITTEN, _DUPLICATE):
            # The match's shard of the marks (its set and its flag share a slot, one server), sent
            # only once the script has run, also when its server had to load it first (NOSCRIPT):
            # a pass that found the mark before the match was written would drop it, and the match
            # would wait for the full sweep (FULL_SWEEP_EVERY). Only a written batch marks (or the
            # retry of one, whose first request may have ended before its marks): a refused append
            # wrote nothing for a pass to do, as the script on one Redis marks nothing for one.
            marks = [("SADD", dirty, match_id), ("SET", wake, 1, "NX", "EX", WAKE_SECONDS)]
            marked = on_servers(self.client, [(dirty, marks)])[0]
            _raise_any(marked)
            woke = bool(marked[1])
        if self.replicas:
            self._replicated(match_id, args, reply, int(ran[-1]))
        failed = attempt(meanwhile) if reply[0] == _WRITTEN else None
        return reply, woke, failed

    def _evalsha(
        self,
        keys: list[str],
        args: AppendArgs | list[str],
        meanwhile: Callable[[], object] | None,
        carried_hset: Sequence[Any] = (),
        then: Callable[[], bytes | None] | None = None,
    ) -> tuple[Any, Exception | None]:
        """The script's reply on one Redis, ``meanwhile`` run between sending it and reading it
        (``OneSend.run``), and ``then`` behind it; sent again carrying no projection (none
        following) when a send with a staged or following one fails."""
        argv = args.argv() if isinstance(args, AppendArgs) else args
        if (carried_hset or then is not None) and isinstance(args, AppendArgs):
            return self._send.run(
                keys, argv, meanwhile, carried_hset, lambda: args.carrying_none().argv(), then
            )
        return self._send.run(keys, argv, meanwhile)

    def _match_keys(self, match_id: str) -> list[str]:
        """The match's own keys the append script names first: meta, log, idem, creds."""
        return [
            self.keys.meta(match_id),
            self.keys.log(match_id),
            self.keys.idem(match_id),
            self.keys.credentials(match_id),
        ]

    def _carried_keys(self, match_id: str, carried: CarriedProjection) -> list[str]:
        """The keys a carried projection names after the marks and counters: carried and proj,
        then, when it publishes its steps, its feed partition's stream and seen hash."""
        keys = [self.keys.carried(match_id), self.keys.proj(match_id)]
        if carried.feed is not None:
            partition = self.keys.feed_partition(match_id)
            keys += [self.keys.feed(partition), self.keys.feed_seen(partition)]
        return keys

    def _following(
        self, match_id: str, version: int, last: int, meta: str, extras: AppendExtras
    ) -> bytes | None:
        """The projection that follows an append of steps ``version``+1..``last`` (whose last
        event's meta is ``meta``) on its connection, its reply skipped: the script's op "carry"
        (events/append.lua), which moves it in as the append would have or marks the match for
        the workers; with no projection to carry after all, it only marks the match."""
        try:
            carried = extras.follow() if extras.follow is not None else None
        except Exception:  # the workers project what a write could not carry
            log.exception("the projection of %s's step %d could not be worked out", match_id, last)
            carried = None
        keys = [*self._match_keys(match_id), *self.marks.of(match_id)]
        wake_seconds = str(WAKE_SECONDS)
        if carried is None:
            argv = carry_args(match_id, wake_seconds, version, last, meta, None, None)
            return following(self._script.sha, keys, argv)
        keys += self._carried_keys(match_id, carried)
        projection = carried.arguments(last)
        argv = carry_args(match_id, wake_seconds, version, last, meta, projection, carried.feed)
        return following(self._script.sha, keys, argv)

    def _replicated(
        self, match_id: str, args: AppendArgs | list[str], reply: list[int], acknowledged: int
    ) -> None:
        """NotReplicated unless enough replicas hold what this write (or the one it repeats) wrote."""
        if reply[0] == _DUPLICATE and isinstance(args, AppendArgs):
            self._confirm(match_id, args.key, f"{reply[1]} {reply[2]} {args.fingerprint}")
        elif reply[0] == _WRITTEN and acknowledged < self.replicas:
            raise NotReplicated(match_id, self.replicas, acknowledged)

    def _confirm(self, match_id: str, key: str, value: str) -> None:
        """NotReplicated unless enough replicas hold what an earlier write under ``key`` wrote.

        That write was on another connection, which WAIT cannot see: writing its idempotency
        entry again (the same value) here puts a write after it in the replication stream.
        """
        idem = self.keys.idem(match_id)
        wait = ("WAIT", self.replicas, self.replica_timeout_ms)
        [[written, acknowledged]] = on_servers(self.client, [(idem, [("HSET", idem, key, value), wait])])
        for answer in (written, acknowledged):
            if isinstance(answer, Exception):
                raise answer
        if int(acknowledged) < self.replicas:
            raise NotReplicated(match_id, self.replicas, int(acknowledged))

    # -- reads -----------------------------------------------------------------------------------

    def read(
        self, match_id: str, start: int = 1, end: int | None = None, count: int | None = None
    ) -> list[StoredEvent]:
        """Steps ``start..end`` (inclusive; ``end`` None: to the last), at most ``count``."""
        start = max(start, 1)
        if (end is not None and end < start) or (count is not None and count <= 0):
            self._require(match_id)
            return []
        pipe = self.client.pipeline(transaction=False)
        pipe.exists(self.keys.meta(match_id))
        pipe.hget(self.keys.meta(match_id), "game")
        upper = "+" if end is None else entry_id(end)
        pipe.xrange(self.keys.log(match_id), entry_id(start), upper, count=count)
        found, game, entries = pipe.execute()
        if not found:
            raise UnknownMatch(match_id)
        events = [decode(entry, fields) for entry, fields in entries]
        if self.upcasters is None or game is None:
            return events
        name = as_text(game)
        return [self.upcasters.upcast(name, event) for event in events]

    def read_tails(self, starts: Mapping[str, int], count: int) -> dict[str, list[StoredEvent]]:
        """For each match, at most ``count`` steps from its start on, in one round trip.

        Matches must exist (their headers are read first, once per process, for upcasting).
        """
        games = {match_id: self.header(match_id).get("game") for match_id in starts}
        with self.client.pipeline(transaction=False) as pipe:
            for match_id, start in starts.items():
                pipe.xrange(self.keys.log(match_id), entry_id(max(start, 1)), "+", count=count)
            replies = pipe.execute()
        return {
            match_id: self.events_of(games[match_id], entries)
            for (match_id, _), entries in zip(starts.items(), replies, strict=True)
        }

    def events_of(
        self, game: str | None, entries: Iterable[tuple[Any, Mapping[Any, Any] | Sequence[Any]]]
    ) -> list[StoredEvent]:
        """The stored events of stream entries (ids and fields, as XRANGE gives them or as a
        script's reply holds them), upcast for ``game``."""
        events = [decode(entry, fields) for entry, fields in entries]
        if self.upcasters is not None and game is not None:
            events = [self.upcasters.upcast(game, event) for event in events]
        return events

    def iter_events(
        self, match_id: str, start: int = 1, end: int | None = None, batch: int = 1000
    ) -> Iterator[StoredEvent]:
        """Steps ``start..end`` one by one, read ``batch`` at a time (for logs of any length)."""
        if batch < 1:
            raise ValueError("batch must be at least 1")
        while end is None or start <= end:
            events = self.read(match_id, start, end, count=batch)
            yield from events
            if len(events) < batch:
                return
            start = events[-1].seq + 1

    def recall(self, match_id: str, idempotency_key: str, fingerprint: str = "") -> AppendResult | None:
        """What an earlier append under this key wrote (duplicate), or None if the key is new.

        Lets a retry be answered before its action is decided again against a newer state;
        IdempotencyMismatch when the key was used for a different request.
        """
        pipe = self.client.pipeline(transaction=False)
        pipe.exists(self.keys.meta(match_id))
        pipe.hget(self.keys.idem(match_id), idempotency_key)
        found, seen = pipe.execute()
        if not found:
            raise UnknownMatch(match_id)
        if seen is None or not idempotency_key:
            return None
        first, last, known = as_text(seen).split(" ", 2)
        if known != fingerprint:
            raise IdempotencyMismatch(idempotency_key, match_id)
        if self.replicas:
            self._confirm(match_id, idempotency_key, as_text(seen))
        return AppendResult(first=int(first), last=int(last), duplicate=True)

    def version(self, match_id: str) -> int:
        """The match's last step (0 for a match created without events)."""
        value = self.client.hget(self.keys.meta(match_id), "version")
        if value is None:
            raise UnknownMatch(match_id)
        return int(value)

    def header(self, match_id: str) -> dict[str, str]:
        """The header the match was created with (its version is read with ``version``)."""
        known = self._headers.get(match_id)
        if known is not None:
            return dict(known)
        fields = self.client.hgetall(self.keys.meta(match_id))
        if not fields:
            raise UnknownMatch(match_id)
        return dict(self._keep_header(match_id, as_texts(fields)))

    def _keep_header(self, match_id: str, named: dict[str, str]) -> dict[str, str]:
        """Remember a header read as text (its version, which changes, left out)."""
        named.pop("version", None)
        self._headers[match_id] = named
        return named

    def headers(self, match_ids: Sequence[str]) -> dict[str, dict[str, str]]:
        """The headers of those of ``match_ids`` that exist, read in one round trip at most."""
        missing = [m for m in match_ids if m not in self._headers]
        if missing:
            with self.client.pipeline(transaction=False) as pipe:
                for match_id in missing:
                    pipe.hgetall(self.keys.meta(match_id))
                for match_id, fields in zip(missing, pipe.execute(), strict=True):
                    if fields:
                        self._keep_header(match_id, as_texts(fields))
        return {m: dict(self._headers[m]) for m in match_ids if m in self._headers}

    def credentials(self, match_id: str) -> dict[str, str]:
        """The digests of a match's seat tokens, reset table token and recovery code
        (``Keys.credentials``), read fresh: a reset or a revocation counts at once everywhere."""
        return as_texts(self.client.hgetall(self.keys.credentials(match_id)))

    def opening(self, match_id: str, projection: bool = True) -> Opening:
        """What a writer this process has not met needs of a match, in one round trip: its header
        and version, its credentials (read fresh, as ``credentials`` reads them) and, with
        ``projection``, its projected position as stored. UnknownMatch when there is no such match."""
        with self.client.pipeline(transaction=False) as pipe:
            # One key per command: a cluster's pipeline sends each to the node that holds it.
            pipe.hgetall(self.keys.meta(match_id))
            pipe.hgetall(self.keys.credentials(match_id))
            if projection:
                pipe.hget(self.keys.proj(match_id), "env")
            fields, credentials, *projected = pipe.execute()
        if not fields:
            raise UnknownMatch(match_id)
        named = as_texts(fields)
        version = int(named.get("version") or 0)
        found = projected[0] if projected else None
        return Opening(dict(self._keep_header(match_id, named)), version, as_texts(credentials), found)

    def set_credentials(self, match_id: str, fields: Mapping[str, str]) -> None:
        """Store digests among a match's credentials (replacing those of the same names)."""
        self._require(match_id)
        mapping: dict[Any, Any] = dict(fields)
        self.client.hset(self.keys.credentials(match_id), mapping=mapping)

    def drop_credential(self, match_id: str, field: str) -> bool:
        """Forget one of a match's credentials; whether there was one."""
        return bool(self.client.hdel(self.keys.credentials(match_id), field))

    def exists(self, match_id: str) -> bool:
        """Whether a match with this id has been created."""
        return bool(self.client.exists(self.keys.meta(match_id)))

    def match_ids(self, start: int = 0, count: int = 100) -> list[str]:
        """Match ids, newest first: ``count`` of them from position ``start``."""
        if count <= 0:
            return []
        return self.registry.newest(offset=max(start, 0), limit=count)

    def all_ids(self) -> Iterator[str]:
        """Every match id of the registry, in no particular order (``unregistered`` finds the
        others; ``created_ids`` every match by its header, on every master)."""
        yield from self.registry.members()

    def count(self) -> int:
        """How many matches there are."""
        return self.registry.size()

    def _require(self, match_id: str) -> None:
        if not self.exists(match_id):
            raise UnknownMatch(match_id)


def created_ids(client: redis.Redis, keys: Keys, batch: int = 1000) -> Iterator[str]:
    """Every match id under ``keys`` whose header exists (a SCAN; a cluster client scans every master)."""
    for raw in client.scan_iter(match=keys.meta_pattern(), count=batch):
        match_id = keys.match_of_meta(as_text(raw))
        if match_id is not None:
            yield match_id


def _result(match_id: str, reply: list[int], woke: bool) -> AppendResult:
    if reply[0] in (_WRITTEN, _DUPLICATE):
        duplicate, moved_in = reply[0] == _DUPLICATE, len(reply) > 4 and reply[4] == 1
        return AppendResult(reply[1], reply[2], duplicate, woke=woke, moved_in=moved_in)
    if reply[0] == _NO_MATCH:
        raise UnknownMatch(match_id)
    if reply[0] == _EXISTS:
        raise MatchExists(match_id)
    raise RuntimeError(f"the append script answered {reply!r}")


def _raise_any(replies: Sequence[Any]) -> None:
    """Raise the first error among one server's replies."""
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply


def _event_args(events: Sequence[NewEvent]) -> list[str]:
    args: list[str] = []
    for event in events:
        fields = encode(event)
        args += [fields["type"], fields["data"], fields["meta"]]
    return args
