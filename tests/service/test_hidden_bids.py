"""Bids the table cannot see yet stay out of every open read: the log, replays and exports."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.service.conftest import Table


def secret_round(table: Callable[..., Table], bidding: str) -> Table:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"}, options={"bidding": bidding})
    match.ok({"type": "start_round", "trump_card": "7H"})
    match.ok({"type": "bid", "player": "cy", "tricks": 1})
    return match


def bids_in(events: list[dict[str, Any]]) -> list[Any]:
    return [e["data"]["tricks"] for e in events if e["type"] == "BidPlaced"]


def open_reads(client: FlaskClient, match: Table) -> dict[str, list[Any]]:
    """The bids each open read shows."""
    ndjson = client.get(
        f"/v1/matches/{match.id}/events", headers={"Accept": "application/x-ndjson"}
    ).data.decode()
    exported = client.get(f"/v1/matches/{match.id}/export").data.decode().splitlines()[1:]
    return {
        "events": bids_in(match.get("events").json["events"]),
        "ndjson": bids_in([json.loads(line) for line in ndjson.splitlines()]),
        "replay": bids_in([f["event"] for f in match.get("replay", raw="true").json["frames"]]),
        "export": bids_in([json.loads(line) for line in exported]),
    }


def test_a_secret_bid_is_held_back_from_every_open_read_until_the_round_is_scored(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = secret_round(table, "secret")
    assert open_reads(client, match) == {k: [None] for k in ("events", "ndjson", "replay", "export")}
    events = match.get("events").json["events"]
    assert events[-1]["data"]["hidden"] is True and events[-1]["meta"]["action"]["tricks"] is None
    for action in (
        {"type": "bid", "player": "bob", "tricks": 0},
        {"type": "bid", "player": "ann", "tricks": 0},
        {"type": "play", "player": "bob", "card": "AS"},
        {"type": "play", "player": "cy", "card": "KS"},
    ):
        match.ok(action)
    assert open_reads(client, match)["events"] == [None, None, None]
    match.ok({"type": "play", "player": "ann", "card": "3H"})  # the round is scored
    assert open_reads(client, match) == {k: [1, 0, 0] for k in ("events", "ndjson", "replay", "export")}


def test_simultaneous_bids_show_once_everyone_has_bid(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = secret_round(table, "simultaneous")
    assert open_reads(client, match)["events"] == [None]
    match.ok({"type": "bid", "player": "ann", "tricks": 0})
    match.ok({"type": "bid", "player": "bob", "tricks": 0})
    assert open_reads(client, match)["events"] == [1, 0, 0]


def test_clockwise_bids_are_public_at_once(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    match.ok({"type": "bid", "player": "bob", "tricks": 1})
    assert open_reads(client, match)["events"] == [1]
