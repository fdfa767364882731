"""Live follow: one blocking stream read per Redis node and API process feeds every spectator.

``LiveHub`` keeps one reader per group of keys one ``XREAD`` may name (one group on a single
server; a slot on a Redis Cluster): a thread and a connection that block in a single ``XREAD``
over the logs of every watched match of the group (plus the reader's wake stream, written when a
new match is first watched), and hand each batch of new events to the watchers' in-process
queues. A watcher therefore costs no Redis connection of its own: a process holds one per group,
however many spectators it serves. ``Feed`` turns one
watcher into Server-Sent Events: the state first, then a replay frame for every step, resumable
after any step (``Last-Event-ID``), and an ``end`` message with the final state once the match is
finished. See docs/live.md.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import redis

from events.codec import as_text, decode, entry_id, seq_of
from events.defaults import LIVE_BLOCK_MS, LIVE_KEEPALIVE_SECONDS, LIVE_WAKE_TTL_SECONDS, LIVE_XREAD_COUNT
from events.envelope import StoredEvent
from events.keys import Keys
from events.store import EventStore
from projections.positions import tape
from projections.positions.rewind import Positions, frozen
from projections.queries import fact_words
from projections.queries.access import Reader
from projections.queries.disclosure import Sight, sight

log = logging.getLogger("tabletape.live")


# --- the hub: one blocking read per group of keys (one server: one), per process ------------------

ONE_SERVER = "redis"


def one_server(key: str) -> str:
    """On a single Redis server (or a Sentinel-managed primary) one XREAD may name every key."""
    return ONE_SERVER


class LiveHub:
    """Reads the logs of every watched match, one blocking XREAD per group, and fans the events out.

    ``group_of(key)`` names the group of keys one XREAD may name together, and ``connect(group)``
    opens a connection that reaches them. On one server there is one group (one connection). On a
    Redis Cluster a multi-key command may only name keys of one slot, so a group is a slot (its
    node is where ``connect`` connects): the hub keeps a reader per watched slot, each blocking
    over the logs of that slot and a wake stream tagged like the first of them, so in it too.
    """

    def __init__(
        self,
        connect: Callable[[str], redis.Redis],
        store: EventStore,
        keys: Keys,
        group_of: Callable[[str], str] = one_server,
    ) -> None:
        self.connect = connect
        self.store = store
        self.keys = keys
        self.group_of = group_of
        self.hub_id = uuid.uuid4().hex
        self._lock = threading.Lock()
        self._watchers: dict[str, set[Watch]] = {}
        self._readers: dict[str, GroupReader] = {}
        self._stop = threading.Event()

    def watch(self, match_id: str, game_id: str, after: int) -> Watch:
        """Follow a match from the step after ``after``; close the watch when done."""
        watch = Watch(self, match_id, game_id, after)
        group = self.group_of(self.keys.log(match_id))
        with self._lock:
            self._watchers.setdefault(match_id, set()).add(watch)
            reader = self._readers.get(group)
            if reader is None:
                reader = self._readers[group] = GroupReader(self, group, match_id)
            reader.follow(match_id, after)
        reader.wake()
        watch.catch_up()
        return watch

    def forget(self, watch: Watch) -> None:
        """Stop delivering to a watch."""
        with self._lock:
            found = self._watchers.get(watch.match_id, set())
            found.discard(watch)
            if not found:
                self._watchers.pop(watch.match_id, None)
                for reader in self._readers.values():
                    reader.unfollow(watch.match_id)

    def watching(self) -> int:
        """How many watches the hub serves now."""
        with self._lock:
            return sum(len(found) for found in self._watchers.values())

    def close(self) -> None:
        """Stop the reader threads (watchers still open see no more events)."""
        self._stop.set()
        with self._lock:
            readers = list(self._readers.values())
        for reader in readers:
            reader.close()

    def deliver(self, match_id: str, events: list[StoredEvent]) -> None:
        """Hand a batch of a match's new events to its watchers."""
        with self._lock:
            watchers = list(self._watchers.get(match_id, ()))
        for watch in watchers:
            watch.inbox.put(events)


class GroupReader:
    """One thread and one connection that block in XREAD over the watched logs of one group."""

    def __init__(self, hub: LiveHub, group: str, first_match: str) -> None:
        self.hub = hub
        self.group = group
        # Tagged like the group's first match, so that it hashes where that match's log does.
        self.wake_key = hub.keys.live_wake(hub.hub_id, first_match)
        self._cursors: dict[str, int] = {}
        self._thread = threading.Thread(target=self._run, name=f"live-{group}", daemon=True)
        self._thread.start()

    def follow(self, match_id: str, after: int) -> None:
        """Read the match's log from after step ``after`` (called under the hub's lock)."""
        self._cursors.setdefault(match_id, after)

    def unfollow(self, match_id: str) -> None:
        """Read the match's log no more (called under the hub's lock)."""
        self._cursors.pop(match_id, None)

    def wake(self) -> None:
        """Cut the reader's blocking read short, so that it reads the logs it follows now."""
        with self.hub.store.client.pipeline(transaction=False) as pipe:
            pipe.xadd(self.wake_key, {"w": "1"}, maxlen=10, approximate=True)
            pipe.expire(self.wake_key, LIVE_WAKE_TTL_SECONDS)
            pipe.execute()

    def close(self) -> None:
        """Stop the thread, waking it if Redis answers."""
        try:
            self.wake()
        except redis.RedisError:
            pass  # Redis is away: the reader's own read fails too, and it then sees the stop
        self._thread.join(timeout=5)

    def _run(self) -> None:
        hub, keys = self.hub, self.hub.keys
        client: redis.Redis | None = None
        woken = "0-0"
        while not hub._stop.is_set():
            try:
                client = client or hub.connect(self.group)
                with hub._lock:
                    matches = {keys.log(m): m for m in self._cursors}
                    streams: dict[Any, Any] = {k: entry_id(self._cursors[m]) for k, m in matches.items()}
                streams[self.wake_key] = woken
                replies: Any = client.xread(streams, count=LIVE_XREAD_COUNT, block=LIVE_BLOCK_MS)
                for key, entries in replies or []:
                    name = as_text(key)
                    if name == self.wake_key:
                        woken = as_text(entries[-1][0])
                    elif name in matches:
                        self._deliver(matches[name], entries)
            except redis.RedisError as exc:
                log.warning("live: Redis (%s) unavailable (%s); reconnecting", self.group, exc)
                client = None
                hub._stop.wait(1.0)

    def _deliver(self, match_id: str, entries: list[Any]) -> None:
        events = [decode(entry, fields) for entry, fields in entries]
        with self.hub._lock:
            if match_id in self._cursors:
                self._cursors[match_id] = max(self._cursors[match_id], seq_of(entries[-1][0]))
        self.hub.deliver(match_id, events)


# --- one watcher --------------------------------------------------------------------------------


class Watch:
    """One spectator's view of a match's new events: in order, none lost, none repeated."""

    def __init__(self, hub: LiveHub, match_id: str, game_id: str, after: int) -> None:
        self.hub = hub
        self.match_id = match_id
        self.game_id = game_id
        self.last = after
        self.inbox: queue.Queue[list[StoredEvent]] = queue.Queue()

    def catch_up(self) -> None:
        """Queue what was appended between ``after`` and the hub's first delivery."""
        missed = self.hub.store.read(self.match_id, self.last + 1)
        if missed:
            self.inbox.put(missed)

    def next_events(self, timeout: float) -> list[StoredEvent]:
        """The events after the last one returned, waiting up to ``timeout`` seconds for some."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                batch = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return []
            fresh = self._fresh(batch)
            if fresh:
                upcasters = self.hub.store.upcasters
                if upcasters is None:
                    return fresh
                return [upcasters.upcast(self.game_id, e) for e in fresh]

    def _fresh(self, batch: list[StoredEvent]) -> list[StoredEvent]:
        """The events of a delivery not returned yet, a gap before them filled from the log."""
        fresh: list[StoredEvent] = []
        for event in batch:
            if event.seq <= self.last:
                continue
            if event.seq > self.last + 1:
                fresh += self.hub.store.read(self.match_id, self.last + 1, event.seq - 1)
            fresh.append(event)
            self.last = event.seq
        return fresh

    def close(self) -> None:
        """Stop following."""
        self.hub.forget(self)


# --- Server-Sent Events -------------------------------------------------------------------------


def sse(kind: str, data: Any, event_id: int | None = None) -> str:
    """One Server-Sent Events message."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class Feed:
    """A match as Server-Sent Events; opened eagerly so an unknown match is an error, not a stream."""

    def __init__(
        self,
        positions: Positions,
        hub: LiveHub,
        match_id: str,
        last_event_id: int | None = None,
        keepalive: float = LIVE_KEEPALIVE_SECONDS,
        everything: Reader | bool = False,
        say: fact_words.Say = None,
    ) -> None:
        self.positions = positions
        self.say = say
        self.match_id = match_id
        self.everything = everything
        self.game, head = positions.head(match_id)
        # Frames of steps before the head (a resumed stream catching up) are shown as a replay of
        # them shows them: judged against the match now, not against the step being sent.
        self.head = head
        self.resumed = last_event_id is not None
        start = head["version"] if last_event_id is None else min(last_event_id, head["version"])
        self.pos = positions.position(self.game, match_id, start)
        self.keepalive = keepalive
        self.hub = hub

    def lines(self) -> Iterator[str]:
        """The stream: retry hint, state (unless resumed), a frame per step, then the end."""
        # Watching starts with the stream, so a stream never started leaves no watch behind;
        # the watch catches up from the position's step, so nothing appended meanwhile is lost.
        self.watch = self.hub.watch(self.match_id, self.game.id, self.pos["version"])
        try:
            yield "retry: 2000\n\n"
            if not self.resumed:
                yield sse("state", self._state(), self.pos["version"])
            while not self.pos["game"].get("finished"):
                events = self.watch.next_events(self.keepalive)
                if not events:
                    yield ": keepalive\n\n"
                for event in events:
                    yield self._frame(event)
                    if self.pos["game"].get("finished"):
                        break
            yield sse("end", self._state())
        finally:
            self.watch.close()

    def _frame(self, event: StoredEvent) -> str:
        own = StoredEvent(event.seq, event.type, frozen(event.data), event.meta)
        self.pos = tape.step(
            self.game, self.pos, own, lambda n: self.positions.position(self.game, self.match_id, n)
        )
        shown = self.positions.frame(self._sight(), self.pos, event, True)
        return sse("frame", fact_words.frame(shown, self.say), event.seq)

    def _sight(self) -> Sight:
        now = self.head if self.head["version"] > self.pos["version"] else self.pos
        return sight(self.game, now, self.everything)

    def _state(self) -> dict[str, Any]:
        return {
            "id": self.match_id,
            "version": self.pos["version"],
            "finished": bool(self.pos["game"].get("finished")),
            "state": fact_words.state(self._sight().view(frozen(self.game.view(self.pos["game"]))), self.say),
        }
