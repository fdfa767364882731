"""Live follow on a Redis Cluster: one reader per master, woken by each match's shard channel.

On one Redis the hub blocks in a single XREAD over every watched log. A cluster refuses a command
whose keys hash to different slots, and each match is a slot of its own, so here each master that
holds watched matches gets one reader thread with one connection: it subscribes (SSUBSCRIBE) to
the shard channel of each of its matches, which every write publishes to after its append, and
on each message reads that match's new entries (one XRANGE in the match's slot). A write whose
notice was lost (its API process died between the append and the publish) or that came while a
reader was reconnecting is found by a read of every watched match every ``RECHECK_SECONDS``,
so nothing waits longer than that. After a failover the hub groups the matches by their new
masters and starts readers there.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException

from events.codec import as_text, entry_id
from events.keys import Keys
from events.store import EventStore
from projections.live import BATCH, LiveHub

log = logging.getLogger("tabletape.live")
RECHECK_SECONDS = 2.0
# How long a reader waits for a notice before it looks at its set of matches again.
LISTEN_SECONDS = 0.2
_TROUBLE = (redis.RedisError, RedisClusterException)


class ClusterLiveHub(LiveHub):
    """A LiveHub over a Redis Cluster: the same watches, read by one thread per master."""

    def __init__(self, connect: Callable[[], redis.Redis], store: EventStore, keys: Keys) -> None:
        super().__init__(connect, store, keys)
        self._changed = threading.Event()
        self._readers: dict[str, NodeReader] = {}

    def _wake(self) -> None:
        # The set of matches changed: the hub's thread regroups them without a round trip.
        self._changed.set()

    def regroup(self) -> None:
        """Ask the hub's thread to group the watched matches by master again (a reader stopped)."""
        self._changed.set()

    def _run(self) -> None:
        client: Any = None
        while not self._stop.is_set():
            try:
                client = client or self.connect()
                self._assign(client)
            except _TROUBLE as exc:
                log.warning("live: the cluster is unavailable (%s); trying again", exc)
                client = None
                self._stop.wait(1.0)
                continue
            self._changed.wait(RECHECK_SECONDS)
            self._changed.clear()
            # A burst of changes (or of readers failing during a failover) is one regrouping.
            self._stop.wait(0.1)
        for reader in self._readers.values():
            reader.stop()

    def _assign(self, client: RedisCluster) -> None:
        """Give each master's reader the watched matches its slots hold; start and stop readers."""
        with self._lock:
            matches = list(self._cursors)
        if any(not reader.alive() for reader in self._readers.values()):
            # A reader that lost its node may mean a failover: ask the cluster where slots are now.
            client.nodes_manager.initialize()
        groups: dict[str, set[str]] = {}
        for match_id in matches:
            node = client.get_node_from_key(self.keys.live_channel(match_id))
            groups.setdefault(node.name, set()).add(match_id)
        for name, reader in list(self._readers.items()):
            if name not in groups or not reader.alive():
                reader.stop()
                del self._readers[name]
        for name, found in groups.items():
            if name not in self._readers:
                node = client.get_node(node_name=name)
                self._readers[name] = NodeReader(self, client, node.redis_connection)
            self._readers[name].follow(found)

    def read_new(self, client: RedisCluster, match_ids: set[str]) -> None:
        """Read what each match appended after its cursor, and hand it to the watchers."""
        with self._lock:
            cursors = {m: self._cursors[m] for m in match_ids if m in self._cursors}
        if not cursors:
            return
        with client.pipeline(transaction=False) as pipe:
            for match_id, after in cursors.items():
                pipe.xrange(self.keys.log(match_id), entry_id(after + 1), "+", count=BATCH)
            replies = pipe.execute()
        for match_id, entries in zip(cursors, replies, strict=True):
            if entries:
                self._deliver(match_id, entries)


class NodeReader:
    """One master's reader: a shard-channel subscription per match, a read per notice."""

    def __init__(self, hub: ClusterLiveHub, client: RedisCluster, node: redis.Redis) -> None:
        self.hub = hub
        self.client = client
        self.node = node
        self._wanted: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="live-node", daemon=True)
        self._thread.start()

    def follow(self, match_ids: set[str]) -> None:
        """Serve exactly these matches from now on."""
        with self._lock:
            self._wanted = set(match_ids)

    def alive(self) -> bool:
        """Whether the reader still runs (it ends when its node stops answering)."""
        return self._thread.is_alive() and not self._stop.is_set()

    def stop(self) -> None:
        """Stop reading; the thread ends within LISTEN_SECONDS."""
        self._stop.set()

    def _run(self) -> None:
        pubsub = self.node.pubsub()
        channels: dict[str, str] = {}
        checked = 0.0
        try:
            while not self._stop.is_set():
                woken = self._resubscribe(pubsub, channels)
                if time.monotonic() - checked >= RECHECK_SECONDS:
                    woken |= set(channels.values())
                    checked = time.monotonic()
                woken |= self._notices(pubsub, channels)
                if woken:
                    self.hub.read_new(self.client, woken)
        except _TROUBLE as exc:
            log.warning("live: a node's reader stopped (%s); the hub regroups its matches", exc)
            self.hub.regroup()
        finally:
            self._stop.set()
            try:
                pubsub.close()
            except _TROUBLE:
                pass

    def _resubscribe(self, pubsub: Any, channels: dict[str, str]) -> set[str]:
        """Subscribe to the channels of new matches, drop the others; the new ones, to read now."""
        with self._lock:
            wanted = {self.hub.keys.live_channel(m): m for m in self._wanted}
        gone = [c for c in channels if c not in wanted]
        fresh = {c: m for c, m in wanted.items() if c not in channels}
        if gone:
            pubsub.sunsubscribe(*gone)
            for channel in gone:
                del channels[channel]
        for channel, match_id in fresh.items():
            # One command per channel: a command may not name channels of two slots.
            pubsub.ssubscribe(channel)
            channels[channel] = match_id
        # A step appended before the subscription took sends no notice: read once now.
        return set(fresh.values())

    def _notices(self, pubsub: Any, channels: dict[str, str]) -> set[str]:
        """The matches whose channels had a message, waiting up to LISTEN_SECONDS for the first."""
        woken: set[str] = set()
        if not channels:
            self._stop.wait(LISTEN_SECONDS)
            return woken
        message = pubsub.get_message(timeout=LISTEN_SECONDS)
        while message is not None:
            if message.get("type") == "smessage":
                match_id = channels.get(as_text(message["channel"]))
                if match_id is not None:
                    woken.add(match_id)
            message = pubsub.get_message(timeout=0)
        return woken
