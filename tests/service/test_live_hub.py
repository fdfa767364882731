"""The live hub and feed in process: one blocking read per hub, every watcher served in order."""

from __future__ import annotations

import dataclasses
import json
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from redis.cluster import RedisCluster

from games.registry import all_games
from projections.live.hub import Feed, LiveHub
from service.app import create_app
from service.bootstrap import connect_store
from service.config import Settings
from tests.service.conftest import Table


@pytest.fixture
def hubs(app: Flask, settings: Settings) -> Iterator[Callable[[], tuple[LiveHub, list[redis.Redis]]]]:
    """Make hubs (as separate API processes would have), counting the connections each opens."""
    made: list[LiveHub] = []
    parts = app.extensions["tabletape"]
    names.clear()

    def make() -> tuple[LiveHub, list[redis.Redis]]:
        opened: list[redis.Redis] = []

        def connect(group: str) -> redis.Redis:
            opened.append(connect_store(settings, 60, client_name=name))
            return opened[-1]

        name = f"tt-live-test-{uuid.uuid4().hex[:8]}"
        made.append(LiveHub(connect, parts.store, parts.keys, parts.hub.group_of))
        names[id(made[-1])] = name
        return made[-1], opened

    yield make
    for hub in made:
        hub.close()


names: dict[int, str] = {}


def parts_hub_group(hub: LiveHub, match_id: str) -> str:
    """The group (one Redis, or a cluster slot) whose reader follows the match."""
    return hub.group_of(hub.keys.log(match_id))


def hub_name(hub: LiveHub) -> str:
    """The client name the connections of a hub made by ``hubs`` carry."""
    return names[id(hub)]


def connections_named(client: redis.Redis, name: str) -> list[tuple[str, int]]:
    """(node, id) of every connection named ``name``, on the one Redis or on every cluster node."""
    if isinstance(client, RedisCluster):
        listed = client.client_list(target_nodes=RedisCluster.ALL_NODES)
        return [(node, int(c["id"])) for node, seen in listed.items() for c in seen if c.get("name") == name]
    return [("", int(c["id"])) for c in client.client_list() if c.get("name") == name]


def kill(client: redis.Redis, node: str, number: int) -> None:
    """Close one connection, as a network fault or a server timeout would."""
    if isinstance(client, RedisCluster):
        client.client_kill_filter(_id=number, target_nodes=client.get_node(node_name=node))
    else:
        client.client_kill_filter(_id=number)


def messages(feed: Feed, until: str = "end", limit: int = 10_000) -> list[tuple[str, Any, str | None]]:
    """(event, data, id) of each SSE message of a feed, up to the first ``until`` message."""
    found: list[tuple[str, Any, str | None]] = []
    for chunk in feed.lines():
        fields = dict(
            line.split(": ", 1) for line in chunk.strip().splitlines() if ": " in line and line[0] != ":"
        )
        if "event" in fields:
            found.append((fields["event"], json.loads(fields["data"]), fields.get("id")))
            if fields["event"] == until or len(found) >= limit:
                break
    return found


def test_many_watchers_of_several_matches_share_one_connection_and_see_every_step_once(
    recorded: Callable[..., Table], hubs: Any
) -> None:
    hub, opened = hubs()
    plays = [("hats", 0), ("hat-trick", 1)]
    matches = [recorded(game_id, seed, upto=2) for game_id, seed in plays]
    starts = [m.log_length() for m in matches]
    watches = [
        (i, hub.watch(m.id, m.created["game"], starts[i])) for i, m in enumerate(matches) for _ in range(5)
    ]
    for match, (game_id, seed) in zip(matches, plays, strict=True):
        for action in all_games()[game_id].example(seed)["actions"][2:6]:
            match.ok(action)
    for i, watch in watches:
        seen: list[int] = []
        while not seen or seen[-1] < matches[i].log_length():
            events = watch.next_events(timeout=10)
            assert events, "the hub delivered nothing for 10 s"
            seen += [e.seq for e in events]
        assert seen == list(range(starts[i] + 1, matches[i].log_length() + 1))
    # One connection on one Redis; on a cluster one per slot the watched matches hash to.
    groups = {parts_hub_group(hub, m.id) for m in matches}
    assert hub.watching() == 10 and len(opened) == len(groups)
    for _, watch in watches:
        watch.close()
    assert hub.watching() == 0


# It groups matches of different slots in one XREAD, as only one Redis takes: the cluster run
# leaves it out and checks the real grouping (by slot) in the tests above.
@pytest.mark.one_redis
def test_a_hub_over_several_groups_of_keys_reads_each_groups_logs_on_a_connection_of_its_own(
    app: Flask, redis_url: str, recorded: Callable[..., Table]
) -> None:
    # Two groups of keys on one real server, as a Cluster's slots split them: each reader blocks
    # only over the logs (and the wake stream) of its group.
    parts = app.extensions["tabletape"]
    opened: dict[str, int] = {}
    plays = [("hats", 0), ("hat-trick", 1), ("hats", 3), ("hat-trick", 11)]
    matches = [recorded(game_id, seed, upto=1) for game_id, seed in plays]
    first_group = {matches[0].id, matches[2].id}

    def group_of(key: str) -> str:
        # As a Cluster places a key: by its hash tag, the part between { and }.
        tag = key[key.index("{") + 1 : key.index("}")]
        return "one" if tag in first_group else "other"

    def connect(group: str) -> redis.Redis:
        opened[group] = opened.get(group, 0) + 1
        return redis.Redis.from_url(redis_url, socket_timeout=60)

    hub = LiveHub(connect, parts.store, parts.keys, group_of)
    try:
        starts = [m.log_length() for m in matches]
        watches = [hub.watch(m.id, m.created["game"], starts[i]) for i, m in enumerate(matches)]
        for match, (game_id, seed) in zip(matches, plays, strict=True):
            for action in all_games()[game_id].example(seed)["actions"][1:3]:
                match.ok(action)
        for match, start, watch in zip(matches, starts, watches, strict=True):
            seen: list[int] = []
            while not seen or seen[-1] < match.log_length():
                events = watch.next_events(timeout=10)
                assert events, "the hub delivered nothing for 10 s"
                seen += [e.seq for e in events]
            assert seen == list(range(start + 1, match.log_length() + 1))
        assert opened == {"one": 1, "other": 1}
        readers = hub._readers
        assert all(group_of(reader.wake_key) == group for group, reader in readers.items())
    finally:
        hub.close()


def test_two_hubs_as_two_api_processes_both_follow_the_same_match(
    recorded: Callable[..., Table], hubs: Any
) -> None:
    match = recorded("hats", 3, upto=1)
    start = match.log_length()
    watches = [hubs()[0].watch(match.id, "hats", start) for _ in range(2)]
    for action in all_games()["hats"].example(3)["actions"][1:4]:
        match.ok(action)
    for watch in watches:
        seen: list[int] = []
        while not seen or seen[-1] < match.log_length():
            events = watch.next_events(timeout=10)
            assert events
            seen += [e.seq for e in events]
        assert seen == list(range(start + 1, match.log_length() + 1))


def test_a_feed_starts_with_the_state_streams_frames_and_ends_with_the_final_state(
    app: Flask, recorded: Callable[..., Table], hubs: Any
) -> None:
    script = all_games()["hats"].example(0)
    match = recorded("hats", 0, upto=3)
    start = match.log_length()
    # The table's own stream (with its token): the hands it recorded are in every state.
    feed = Feed(app.extensions["tabletape"].positions, hubs()[0], match.id, keepalive=10, everything=True)
    for action in script["actions"][3:]:
        match.ok(action)
    found = messages(feed)
    assert found[0][0] == "state" and found[0][2] == str(start)
    assert found[0][1]["state"] == match.get("state", at=start).json["state"]
    frames = [m for m in found if m[0] == "frame"]
    assert [int(m[2] or 0) for m in frames] == list(range(start + 1, match.log_length() + 1))
    assert frames[-1][1]["state"] == match.get("state").json["state"]
    assert found[-1][0] == "end" and found[-1][1]["finished"] is True


def test_a_resumed_feed_sends_only_the_steps_after_the_last_event_id(
    app: Flask, recorded: Callable[..., Table], hubs: Any
) -> None:
    match = recorded("hats", 0)
    feed = Feed(app.extensions["tabletape"].positions, hubs()[0], match.id, last_event_id=5, keepalive=10)
    found = messages(feed)
    assert [m[0] for m in found][:1] == ["frame"] and found[0][2] == "6"
    assert [int(m[2] or 0) for m in found if m[0] == "frame"] == list(range(6, match.log_length() + 1))
    assert found[-1][0] == "end"


def test_a_hub_whose_connection_is_killed_reconnects_and_loses_no_step(
    recorded: Callable[..., Table], hubs: Any, redis_client: redis.Redis
) -> None:
    hub, opened = hubs()
    match = recorded("hats", 3, upto=1)
    start = match.log_length()
    watch = hub.watch(match.id, "hats", start)
    actions = all_games()["hats"].example(3)["actions"]
    match.ok(actions[1])
    seen = [e.seq for e in watch.next_events(timeout=10)]
    name = hub_name(hub)
    killed = connections_named(redis_client, name)
    # One blocking read on one Redis; a subscription per master holding watched matches, and the
    # reads it wakes, on a cluster.
    assert killed
    for node, number in killed:
        kill(redis_client, node, number)
    for action in actions[2:5]:
        match.ok(action)
    while seen[-1] < match.log_length():
        events = watch.next_events(timeout=10)
        assert events, "the hub did not come back within 10 s"
        seen += [e.seq for e in events]
    assert seen == list(range(start + 1, match.log_length() + 1))
    serving = connections_named(redis_client, name)
    assert serving and not set(serving) & set(killed)


def test_a_quiet_feed_says_it_is_alive_as_often_as_the_deployment_sets(settings: Settings) -> None:
    # Every 15 s by default; a deployment behind a proxy that cuts idle connections sooner sets
    # TABLETAPE_LIVE_KEEPALIVE_SECONDS below the proxy's timeout.
    app = create_app(dataclasses.replace(settings, live_keepalive=0.5, sync_projections=True))
    try:
        http = app.test_client()
        script = all_games()["hats"].example(0)
        made = http.post("/v1/matches", json={"game": "hats", **{k: script[k] for k in ("players", "setup")}})
        assert made.status_code == 201, made.json
        answer = http.get(f"/v1/matches/{made.json['id']}/live", buffered=False)
        began = time.monotonic()
        seen = ""
        chunks = iter(answer.response)
        while seen.count(": keepalive") < 2:
            seen += next(chunks).decode()
        # Two keep-alives, each after half a second of nothing: far sooner than the default 15 s.
        assert time.monotonic() - began < 10, seen
        assert "event: state" in seen.split(": keepalive")[0]
        answer.close()
    finally:
        app.extensions["tabletape"].close()


def test_a_keepalive_outside_half_a_second_to_five_minutes_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="TABLETAPE_LIVE_KEEPALIVE_SECONDS"):
        Settings.from_env({"TABLETAPE_LIVE_KEEPALIVE_SECONDS": "0"})
    assert Settings.from_env({"TABLETAPE_LIVE_KEEPALIVE_SECONDS": "5"}).live_keepalive == 5
    assert Settings.from_env({}).live_keepalive == 15
