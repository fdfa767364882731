"""The global feed: every match's public events, each once, in its match's order, resumable."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from redis.crc import key_slot

import service.recording.recorder
from events.keys import Keys
from games.registry import all_games
from projections.projecting.projector import Projector
from service.bootstrap import Services
from tests.service.conftest import SHORT, Table, record
from tests.service.test_hidden_bids import secret_round
from tests.support import wizard as wizard_actions


def follow(
    client: FlaskClient, after: str = "0", limit: int = 7, **query: Any
) -> tuple[list[dict[str, Any]], str]:
    """Every event after ``after``, page by page, and the position after the last page."""
    events: list[dict[str, Any]] = []
    while True:
        page = client.get("/v1/feed", query_string={"after": after, "limit": limit, **query})
        assert page.status_code == 200, page.json
        events += page.json["events"]
        if not page.json["events"] and page.json["position"] == after:
            return events, after
        after = page.json["position"]


def by_match(events: list[dict[str, Any]]) -> dict[str, list[int]]:
    steps: dict[str, list[int]] = defaultdict(list)
    for event in events:
        steps[event["match_id"]].append(event["seq"])
    return steps


def unsaid(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events without the ``said`` members the JSON reads add (always an object's last)."""
    text = re.sub(r',"said":"(?:[^"\\]|\\.)*"', "", json.dumps(events, separators=(",", ":")))
    return list(json.loads(text))


def test_the_feed_holds_every_step_of_every_game_once_in_each_matchs_order(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    matches = [record(table, game_id, SHORT[game_id]) for game_id in sorted(all_games())]
    work()
    events, _ = follow(client)
    assert by_match(events) == {m.id: list(range(1, m.log_length() + 1)) for m in matches}
    places = [(e["partition"], e["position"]) for e in events]
    assert len(set(places)) == len(places)
    # The feed is the log as stored: without the ``said`` the JSON reads add for a person.
    logged = {m.id: unsaid(m.get("events", limit=1000).json["events"]) for m in matches}
    for event in events:
        assert {k: event[k] for k in ("seq", "type", "data", "meta")} == logged[event["match_id"]][
            event["seq"] - 1
        ]


def test_a_consumer_resumes_after_its_position_without_missing_or_repeating(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    first = record(table, "hats", SHORT["hats"], upto=6)
    work()
    seen, position = follow(client, limit=4)
    # The consumer stops here; more is recorded while it is away.
    second = record(table, "hat-trick", SHORT["hat-trick"])
    for action in all_games()["hats"].example(SHORT["hats"])["actions"][6:]:
        first.ok(action)
    work()
    rest, _ = follow(client, after=position, limit=4)
    assert by_match(seen + rest) == {m.id: list(range(1, m.log_length() + 1)) for m in (first, second)}


def test_writes_whose_projection_moved_in_are_in_the_feed_after_the_next_pass(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    actions = all_games()["wizard"].example(SHORT["wizard"])["actions"]
    match = record(table, "wizard", SHORT["wizard"], upto=1)
    # A worker keeps up between writes, so each write carries its projection and moves it in.
    for action in actions[1:8]:
        work()
        match.ok(action)
    work()
    events, _ = follow(client)
    assert by_match(events)[match.id] == list(range(1, match.log_length() + 1))


def carrying(app: Flask) -> Services:
    """The app's parts, on a store where a write carries its projection (one Redis: on a Redis
    Cluster the workers publish every write's steps, and the cluster run leaves these tests out)."""
    services: Services = app.extensions["tabletape"]
    assert services.store.projects, "a write carries its projection only on one Redis"
    return services


def marked(services: Services, match_id: str) -> bool:
    return bool(services.store.marks.marked(match_id))


@pytest.mark.one_redis
def test_a_write_whose_projection_moves_in_publishes_its_steps_with_no_pass_and_holds_back_a_secret_bid(
    app: Flask, client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    services = carrying(app)
    match = table(
        "wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"}, options={"bidding": "secret"}
    )
    work()  # the create's steps, and its projection, from a pass
    for action in ({"type": "start_round", "trump_card": "7H"}, {"type": "bid", "player": "cy", "tricks": 1}):
        match.ok(action)
    # No pass has run since: the projection that followed each append took back its mark, and
    # every step is in the feed.
    assert not marked(services, match.id)
    assert services.stored.checkpoint(match.id) == match.log_length()
    events, position = follow(client)
    assert by_match(events)[match.id] == list(range(1, match.log_length() + 1))
    bids = [e for e in events if e["type"] == "BidPlaced"]
    assert [(b["data"]["tricks"], b["data"]["hidden"], b["meta"]["action"]["tricks"]) for b in bids] == [
        (None, True, None)
    ]
    # As the open reads show them then, a pass's form exactly (test_the_feed_holds_every_step...).
    shown = unsaid(match.get("events", limit=1000).json["events"])
    assert [{k: e[k] for k in ("seq", "type", "data", "meta")} for e in events] == shown
    # A pass that runs later has nothing to add.
    work()
    assert follow(client, after=position)[0] == []


@pytest.mark.one_redis
def test_a_write_that_finds_the_feed_behind_leaves_its_steps_to_a_pass_with_no_gap_or_double(
    app: Flask,
    client: FlaskClient,
    table: Callable[..., Table],
    work: Callable[[], int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    services = carrying(app)
    # The first action found the projection behind; the next carries one all the same.
    monkeypatch.setattr(service.recording.recorder, "CARRY_PAUSE", 0.0)
    actions = all_games()["wizard"].example(SHORT["wizard"])["actions"]
    match = record(table, "wizard", SHORT["wizard"], upto=1)
    # The projection brought up by a run that publishes nothing: the feed is behind it.
    Projector(services.positions, services.models, services.projector.snapshot_every).project(match.id)
    assert not marked(services, match.id)
    match.ok(actions[1])
    # Its projection moved in, but the feed lacks the steps before it: marked, published by none.
    assert services.stored.checkpoint(match.id) == match.log_length()
    assert marked(services, match.id)
    assert match.id not in by_match(follow(client)[0])
    work()
    events, position = follow(client)
    assert by_match(events)[match.id] == list(range(1, match.log_length() + 1))
    assert not marked(services, match.id)
    # Caught up again: the next write publishes its own steps, after the pass's, none twice.
    match.ok(actions[2])
    assert not marked(services, match.id)
    events += follow(client, after=position)[0]
    assert by_match(events)[match.id] == list(range(1, match.log_length() + 1))
    places = [(e["partition"], e["position"]) for e in events]
    assert len(set(places)) == len(places)


def test_a_projection_pass_run_again_publishes_nothing_twice(
    app: Flask, client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    match = record(table, "wizard", SHORT["wizard"], upto=12)
    work()
    assert app.extensions["tabletape"].projector.publisher.publish([match.id]) == 0
    events, _ = follow(client)
    assert by_match(events)[match.id] == list(range(1, match.log_length() + 1))


def test_each_partition_read_alone_gives_the_merged_view_between_them(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    for game_id in sorted(all_games()):
        record(table, game_id, SHORT[game_id], upto=5)
    work()
    merged, _ = follow(client)
    partitions = range(client.application.extensions["tabletape"].keys.feed_partitions)
    alone = [e for k in partitions for e in follow(client, partition=k)[0]]
    assert sorted(map(json.dumps, merged)) == sorted(map(json.dumps, alone))
    assert all(e["partition"] == k for k in partitions for e in follow(client, partition=k)[0])


def test_the_feed_filters_by_game_and_event_type(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    wizard = record(table, "wizard", SHORT["wizard"])
    record(table, "hats", SHORT["hats"])
    work()
    only, _ = follow(client, game="wizard", limit=3)
    assert {e["match_id"] for e in only} == {wizard.id}
    finishes, _ = follow(client, type=["MatchFinished", "MatchCreated"])
    assert {e["type"] for e in finishes} <= {"MatchFinished", "MatchCreated"}
    assert [e["match_id"] for e in finishes if e["type"] == "MatchFinished"].count(wizard.id) == 1


def test_a_secret_bid_is_in_the_feed_only_held_back_and_its_number_comes_with_the_scoring(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    match = secret_round(table, "secret")
    work()
    events, position = follow(client)
    bids = [e["data"] for e in events if e["type"] == "BidPlaced"]
    assert bids == [{**bids[0], "tricks": None, "hidden": True}]
    assert [e["meta"]["action"]["tricks"] for e in events if e["type"] == "BidPlaced"] == [None]
    for action in (*wizard_actions.bids(bob=0, ann=0), *wizard_actions.plays(bob="AS", cy="KS", ann="3H")):
        match.ok(action)
    work()
    later, _ = follow(client, after=position)
    scored = [e for e in later if e["type"] == "RoundScored"]
    assert len(scored) == 1 and "cy" in json.dumps(scored[0]["data"])


@pytest.mark.parametrize("after", ["x", "1.2", "-1", "1..2"])
def test_a_position_the_feed_never_gave_is_a_400_with_a_sentence(client: FlaskClient, after: str) -> None:
    answer = client.get("/v1/feed", query_string={"after": after})
    assert answer.status_code == 400
    assert "position" in json.dumps(answer.json)


def test_the_live_streams_resume_after_the_last_event_id(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    match = record(table, "hats", SHORT["hats"], upto=4)
    work()
    ndjson = client.get("/v1/feed?seconds=1", headers={"Accept": "application/x-ndjson"}).data.decode()
    lines = [json.loads(line) for line in ndjson.splitlines()]
    assert [e["seq"] for e in lines] == list(range(1, match.log_length() + 1))
    sse = client.get(
        "/v1/feed?seconds=1", headers={"Accept": "text/event-stream", "Last-Event-ID": lines[1]["after"]}
    ).data.decode()
    data = [json.loads(line[6:]) for line in sse.splitlines() if line.startswith("data: ")]
    assert [e["seq"] for e in data] == list(range(3, match.log_length() + 1))


def test_a_client_that_accepts_anything_gets_a_json_page(client: FlaskClient) -> None:
    answer = client.get("/v1/feed", headers={"Accept": "*/*"})
    partitions = client.application.extensions["tabletape"].keys.feed_partitions
    assert answer.status_code == 200 and answer.json["position"] == ".".join(["0"] * partitions)


def test_each_partition_has_a_slot_of_its_own_and_its_seen_hash_shares_it(keys: Keys) -> None:
    slots = [key_slot(keys.feed(k).encode()) for k in range(keys.feed_partitions)]
    assert len(set(slots)) == keys.feed_partitions
    assert slots == [key_slot(keys.feed_seen(k).encode()) for k in range(keys.feed_partitions)]
