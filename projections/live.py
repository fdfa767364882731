"""Live follow: one blocking stream read per API process feeds every spectator of every match.

``LiveHub`` owns one Redis connection and one thread. The thread blocks in a single ``XREAD``
over the logs of every match someone watches (plus the process's wake stream, written when a new
match is first watched), and hands each batch of new events to the watchers' in-process queues. A
watcher therefore costs no Redis connection of its own: a process holds one, however many
spectators it serves. ``Feed`` turns one watcher into Server-Sent Events: the state first, then a
replay frame for every step, resumable after any step (``Last-Event-ID``), and an ``end`` message
with the final state once the match is finished. See docs/live.md.
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
from events.envelope import StoredEvent
from events.keys import Keys
from events.store import EventStore
from projections import tape
from projections.disclosure import disclosed
from projections.reader import MatchReader, frozen

log = logging.getLogger("tabletape.live")
BLOCK_MS = 30_000
BATCH = 500
KEEPALIVE_SECONDS = 15.0
WAKE_TTL_SECONDS = 3600


# --- the hub: one blocking read per process -----------------------------------------------------


class LiveHub:
    """Reads the logs of every watched match with one blocking XREAD and fans the events out."""

    def __init__(self, connect: Callable[[], redis.Redis], store: EventStore, keys: Keys) -> None:
        self.connect = connect
        self.store = store
        self.keys = keys
        self.wake_key = keys.live_wake(uuid.uuid4().hex)
        self._lock = threading.Lock()
        self._watchers: dict[str, set[Watch]] = {}
        self._cursors: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, match_id: str, game_id: str, after: int) -> Watch:
        """Follow a match from the step after ``after``; close the watch when done."""
        watch = Watch(self, match_id, game_id, after)
        with self._lock:
            self._watchers.setdefault(match_id, set()).add(watch)
            self._cursors.setdefault(match_id, after)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="live-hub", daemon=True)
                self._thread.start()
        self._wake()
        watch.catch_up()
        return watch

    def forget(self, watch: Watch) -> None:
        """Stop delivering to a watch."""
        with self._lock:
            found = self._watchers.get(watch.match_id, set())
            found.discard(watch)
            if not found:
                self._watchers.pop(watch.match_id, None)
                self._cursors.pop(watch.match_id, None)

    def watching(self) -> int:
        """How many watches the hub serves now."""
        with self._lock:
            return sum(len(found) for found in self._watchers.values())

    def close(self) -> None:
        """Stop the reader thread (watchers still open see no more events)."""
        self._stop.set()
        if self._thread is None:
            return  # never started: nothing blocks, nothing to wake
        try:
            self._wake()
        except redis.RedisError:
            pass  # Redis is away: the reader's own read fails too, and it then sees the stop
        self._thread.join(timeout=5)

    def _wake(self) -> None:
        with self.store.client.pipeline(transaction=False) as pipe:
            pipe.xadd(self.wake_key, {"w": "1"}, maxlen=10, approximate=True)
            pipe.expire(self.wake_key, WAKE_TTL_SECONDS)
            pipe.execute()

    def _run(self) -> None:
        client: redis.Redis | None = None
        woken = "0-0"
        while not self._stop.is_set():
            try:
                client = client or self.connect()
                with self._lock:
                    matches = {self.keys.log(m): m for m in self._cursors}
                    streams: dict[Any, Any] = {k: entry_id(self._cursors[m]) for k, m in matches.items()}
                streams[self.wake_key] = woken
                replies: Any = client.xread(streams, count=BATCH, block=BLOCK_MS)
                for key, entries in replies or []:
                    name = as_text(key)
                    if name == self.wake_key:
                        woken = as_text(entries[-1][0])
                    elif name in matches:
                        self._deliver(matches[name], entries)
            except redis.RedisError as exc:
                log.warning("live: Redis unavailable (%s); reconnecting", exc)
                client = None
                self._stop.wait(1.0)

    def _deliver(self, match_id: str, entries: list[Any]) -> None:
        events = [decode(entry, fields) for entry, fields in entries]
        with self._lock:
            watchers = list(self._watchers.get(match_id, ()))
            if match_id in self._cursors:
                self._cursors[match_id] = max(self._cursors[match_id], seq_of(entries[-1][0]))
        for watch in watchers:
            watch.inbox.put(events)


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
        reader: MatchReader,
        hub: LiveHub,
        match_id: str,
        last_event_id: int | None = None,
        keepalive: float = KEEPALIVE_SECONDS,
    ) -> None:
        self.reader = reader
        self.match_id = match_id
        self.game, head = reader.head(match_id)
        self.resumed = last_event_id is not None
        start = head["version"] if last_event_id is None else min(last_event_id, head["version"])
        self.pos = reader.position(self.game, match_id, start)
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
            self.game, self.pos, own, lambda n: self.reader.position(self.game, self.match_id, n)
        )
        frame = self.reader.frame(self.game, self.pos, event, True)
        frame["event"] = disclosed(self.game, self.pos["game"], frame["event"])
        return sse("frame", frame, event.seq)

    def _state(self) -> dict[str, Any]:
        return {
            "id": self.match_id,
            "version": self.pos["version"],
            "finished": bool(self.pos["game"].get("finished")),
            "state": frozen(self.game.view(self.pos["game"])),
        }
