"""Hidden bids across undo and redo, and on a resumed live stream: a bid the table was shown stays
public, a bid it never saw stays hidden whatever the undos (docs/hidden-information.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from projections.live.hub import Feed
from tests.service.conftest import Table
from tests.service.test_hidden_bids import bids_in, export_of, fork, secret_round
from tests.service.test_live_hub import hubs, messages

__all__ = ["hubs"]  # the live hub fixture, shared with the live tests

ROUND_ONE = (
    {"type": "bid", "player": "bob", "tricks": 0},
    {"type": "bid", "player": "ann", "tricks": 0},
    {"type": "play", "player": "bob", "card": "AS"},
    {"type": "play", "player": "cy", "card": "KS"},
    {"type": "play", "player": "ann", "card": "3H"},
)


def bids_everywhere(client: FlaskClient, match: Table, app: Any, hubs: Any) -> dict[str, list[Any]]:
    """The bids each path shows a reader without the token, the live stream resumed from step 0."""
    ndjson = client.get(f"/v1/matches/{match.id}/events", headers={"Accept": "application/x-ndjson"})
    reader = app.extensions["tabletape"].positions
    feed = Feed(reader, hubs()[0], match.id, last_event_id=0, keepalive=10)
    live = [data["event"] for kind, data, _ in messages(feed, limit=match.log_length()) if kind == "frame"]
    return {
        "events": bids_in(match.get("events").json["events"]),
        "ndjson": bids_in([json.loads(line) for line in ndjson.data.decode().splitlines()]),
        "replay": bids_in([f["event"] for f in match.get("replay", raw="true").json["frames"]]),
        "export": bids_in(export_of(client, match)[1:]),
        "live": bids_in(live),
    }


def test_a_resumed_live_stream_shows_the_bids_of_a_scored_round_as_the_replay_does(
    client: FlaskClient, table: Callable[..., Table], app: Any, hubs: Any
) -> None:
    match = secret_round(table, "secret")
    for action in ROUND_ONE:
        match.ok(action)
    seen = bids_everywhere(client, match, app, hubs)
    assert seen == {path: [1, 0, 0] for path in seen}


def test_a_secret_bid_undone_with_its_round_stays_hidden_and_hidden_once_redone(
    client: FlaskClient, table: Callable[..., Table], app: Any, hubs: Any
) -> None:
    match = table(
        "wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"}, options={"bidding": "secret"}
    )
    zero = {"ann": 0, "bob": 0, "cy": 0}
    match.ok({"type": "record_round", "bids": zero, "tricks": zero | {"bob": 1}})
    match.ok({"type": "start_round", "trump_card": "7H"})
    match.ok({"type": "bid", "player": "bob", "tricks": 2})
    for _ in range(3):
        assert match.post("undo").status_code == 201
    seen = bids_everywhere(client, match, app, hubs)
    assert seen == {path: [None] for path in seen}
    assert export_of(client, match)[0]["partial"] is True
    copied = fork(client, match, match.log_length())  # the effective history: no bid in it
    assert (
        copied.status_code == 201
        and bids_in(client.get(f"/v1/matches/{copied.json['id']}/events").json["events"]) == []
    )
    for _ in range(3):
        assert match.post("redo").status_code == 201
    seen = bids_everywhere(client, match, app, hubs)
    assert seen == {path: [None] for path in seen}


@pytest.mark.parametrize(
    ("bidding", "taken_back"),
    [("secret", 1), ("simultaneous", 4)],
    ids=["secret-scoring-undone", "simultaneous-reveal-undone"],
)
def test_bids_the_table_was_shown_stay_public_after_an_undo_takes_back_the_showing(
    client: FlaskClient, table: Callable[..., Table], app: Any, hubs: Any, bidding: str, taken_back: int
) -> None:
    match = secret_round(table, bidding)
    for action in ROUND_ONE:
        match.ok(action)
    for _ in range(taken_back):  # the last play (the scoring), or every play and the last bid
        assert match.post("undo").status_code == 201
    seen = bids_everywhere(client, match, app, hubs)
    assert seen == {path: [1, 0, 0] for path in seen}
    assert "partial" not in export_of(client, match)[0]


def test_a_bid_undone_before_the_reveal_stays_hidden_once_the_round_is_revealed(
    client: FlaskClient, table: Callable[..., Table], app: Any, hubs: Any
) -> None:
    match = secret_round(table, "simultaneous")  # cy bids 1
    assert match.post("undo").status_code == 201
    for player in ("cy", "bob", "ann"):
        match.ok({"type": "bid", "player": player, "tricks": 0})
    seen = bids_everywhere(client, match, app, hubs)
    assert seen == {path: [None, 0, 0, 0] for path in seen}


def test_the_token_holder_reads_a_hidden_bid_on_every_path(
    client: FlaskClient, table: Callable[..., Table], app: Any, hubs: Any
) -> None:
    match = secret_round(table, "secret")  # cy's secret bid of 1
    base = f"/v1/matches/{match.id}"
    ndjson = client.get(f"{base}/events", headers=match.auth | {"Accept": "application/x-ndjson"})
    feed = Feed(app.extensions["tabletape"].positions, hubs()[0], match.id, last_event_id=0, everything=True)
    live = [data["event"] for kind, data, _ in messages(feed, limit=match.log_length()) if kind == "frame"]
    seen = {
        "events": bids_in(client.get(f"{base}/events", headers=match.auth).json["events"]),
        "ndjson": bids_in([json.loads(line) for line in ndjson.data.decode().splitlines()]),
        "replay": bids_in(
            [f["event"] for f in client.get(f"{base}/replay", headers=match.auth).json["frames"]]
        ),
        "export": bids_in(export_of(client, match, **match.auth)[1:]),
        "live": bids_in(live),
    }
    assert seen == {path: [1] for path in seen}
    assert bids_in(match.get("events").json["events"]) == [None]
