"""A secret bid entered on its owner's phone: nobody else, the table included, reads it before
the option shows it; then everyone does."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from projections.live.hub import Feed
from tests.service.conftest import Table
from tests.service.test_live_hub import hubs, messages
from tests.service.test_seats import HANDS, act, seat, wizard

__all__ = ["hubs"]  # the live hub fixture, shared with the live tests

PLAYERS = ("ann", "bob", "cy")


def bids_seen(client: FlaskClient, match: Table, auth: dict[str, str]) -> dict[str, Any]:
    """Every bid each read path shows this reader, by player, and what next's undo says."""
    base = f"/v1/matches/{match.id}"

    def bids(events: list[dict[str, Any]]) -> dict[str, Any]:
        return {e["data"]["player"]: e["data"]["tricks"] for e in events if e["type"] == "BidPlaced"}

    ndjson = client.get(f"{base}/events", headers=auth | {"Accept": "application/x-ndjson"}).data.decode()
    exported = client.get(f"{base}/export", headers=auth).data.decode().splitlines()[1:]
    seen = {
        "events": bids(client.get(f"{base}/events", headers=auth).json["events"]),
        "ndjson": bids([json.loads(line) for line in ndjson.splitlines()]),
        "replay": bids(
            [f["event"] for f in client.get(f"{base}/replay?raw=true", headers=auth).json["frames"]]
        ),
        "export": bids([json.loads(line) for line in exported]),
        "state": client.get(f"{base}/state", headers=auth).json["state"]["bids"],
    }
    return seen


def everywhere(bids: dict[str, Any]) -> dict[str, Any]:
    return {path: bids for path in ("events", "ndjson", "replay", "export")}


@pytest.mark.parametrize("bidding", ["simultaneous", "secret"])
def test_a_bid_from_its_own_seat_is_hidden_from_the_table_and_the_other_seats_until_shown(
    client: FlaskClient, table: Callable[..., Table], bidding: str
) -> None:
    match = wizard(table, bidding)
    seats = {p: seat(client, match, p) for p in PLAYERS}
    assert act(client, match, seats["ann"], {"type": "bid", "player": "ann", "tricks": 1}).status_code == 201
    hidden = {"ann": None}
    for reader in (match.auth, seats["bob"], seats["cy"], {}):
        seen = bids_seen(client, match, reader)
        assert {k: v for k, v in seen.items() if k != "state"} == everywhere(hidden)
        assert seen["state"] == {}
    assert {k: v for k, v in bids_seen(client, match, seats["ann"]).items() if k != "state"} == everywhere(
        {"ann": 1}
    )
    # Nor does the table's next say it in words, nor may the table fork it.
    said = client.get(f"/v1/matches/{match.id}/next", headers=match.auth).json["undo"]["sentence"]
    assert said == "ann: bid"
    fork = client.post(f"/v1/matches/{match.id}/fork", json={"at": 3}, headers=match.auth)
    assert fork.status_code == 403 and fork.json["code"] == "hidden_fact"
    for player in ("bob", "cy"):
        answer = act(client, match, seats[player], {"type": "bid", "player": player, "tricks": 0})
        assert answer.status_code == 201
    if bidding == "secret":
        assert bids_seen(client, match, match.auth)["events"] == {"ann": None, "bob": None, "cy": None}
        for player, card in (("bob", "KS"), ("cy", "3H"), ("ann", "AS")):
            assert (
                act(
                    client, match, seats[player], {"type": "play", "player": player, "card": card}
                ).status_code
                == 201
            )
    shown = {"ann": 1, "bob": 0, "cy": 0}
    for reader in (match.auth, seats["bob"], seats["ann"], {}):
        seen = bids_seen(client, match, reader)
        assert {k: v for k, v in seen.items() if k != "state"} == everywhere(shown)


def test_bids_the_table_types_itself_stay_the_table_s(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table, "simultaneous")
    bob = seat(client, match, "bob")
    match.ok({"type": "bid", "player": "ann", "tricks": 1})
    assert bids_seen(client, match, match.auth)["events"] == {"ann": 1}
    assert bids_seen(client, match, bob)["events"] == {"ann": None}
    assert bids_seen(client, match, {})["events"] == {"ann": None}


def test_the_table_sees_who_has_bid_but_not_the_bid(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = wizard(table, "simultaneous")
    cy = seat(client, match, "cy")
    assert act(client, match, cy, {"type": "bid", "player": "cy", "tricks": 1}).status_code == 201
    state = client.get(f"/v1/matches/{match.id}/state", headers=match.auth).json["state"]
    assert state["have_bid"] == ["cy"] and state["bids"] == {}


def test_the_live_stream_shows_each_reader_what_its_reads_show(
    client: FlaskClient, table: Callable[..., Table], app: Any, hubs: Any
) -> None:
    match = wizard(table, "simultaneous")
    seats = {p: seat(client, match, p) for p in PLAYERS}
    assert act(client, match, seats["ann"], {"type": "bid", "player": "ann", "tricks": 1}).status_code == 201
    services = app.extensions["tabletape"]

    def live(auth: dict[str, str]) -> list[dict[str, Any]]:
        token = auth.get("Authorization", "").removeprefix("Bearer ") or None
        reader = services.queries.everything(match.id, token)
        feed = Feed(services.positions, hubs()[0], match.id, last_event_id=0, keepalive=10, everything=reader)
        return [data for kind, data, _ in messages(feed, limit=3) if kind == "frame"]

    def bid_and_hands(frames: list[dict[str, Any]]) -> tuple[list[Any], dict[str, Any]]:
        bids = [f["event"]["data"]["tricks"] for f in frames if f["event"]["type"] == "BidPlaced"]
        return bids, frames[-1]["state"]["hands"]

    assert bid_and_hands(live(seats["ann"])) == ([1], {"ann": ["AS"], "bob": [None], "cy": [None]})
    assert bid_and_hands(live(seats["bob"])) == ([None], {"ann": [None], "bob": ["KS"], "cy": [None]})
    assert bid_and_hands(live(match.auth)) == ([None], HANDS)
    assert bid_and_hands(live({})) == ([None], {"ann": [None], "bob": [None], "cy": [None]})


def test_the_match_its_scores_the_match_list_statistics_and_bg_stats_hold_no_sealed_bid(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table, "secret")
    seats = {p: seat(client, match, p) for p in PLAYERS}
    for player, tricks in (("bob", 1), ("cy", 0), ("ann", 1)):
        assert (
            act(client, match, seats[player], {"type": "bid", "player": player, "tricks": tricks}).status_code
            == 201
        )
    readers = [match.auth, *seats.values(), {}]
    for reader in readers:
        shown = json.dumps(
            [
                client.get(f"/v1/matches/{match.id}", headers=reader).json,
                client.get(f"/v1/matches/{match.id}/scores", headers=reader).json,
                client.get("/v1/matches?player=bob", headers=reader).json,
                client.get("/v1/players/bob", headers=reader).json,
                client.get("/v1/leaderboards/wizard", headers=reader).json,
            ]
        )
        assert '"bids"' not in shown.replace('"bids": {}', ""), shown
    assert client.get(f"/v1/matches/{match.id}/export?format=bgstats", headers=match.auth).status_code == 409
