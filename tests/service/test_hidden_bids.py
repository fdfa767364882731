"""Bids the table cannot see yet stay out of every open read: the log, replays and exports."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from projections.live.hub import Feed
from tests.service.conftest import Table
from tests.service.test_live_hub import hubs, messages

__all__ = ["hubs"]  # the live hub fixture, shared with the live tests


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


# --- every read path and every copy, against one rule ------------------------------------------
# Hidden facts are the table's: without the match's write token a read or a copy gets the public
# history only, and a copy that would need a hidden fact is refused; with the token, everything.

NDJSON = "application/x-ndjson"


def two_hidden_bids(table: Callable[..., Table], bidding: str = "secret") -> Table:
    """Steps 3 and 4 are cy's and bob's hidden bids (1 and 0); ann has not bid yet."""
    match = secret_round(table, bidding)
    match.ok({"type": "bid", "player": "bob", "tricks": 0})
    assert match.log_length() == 4
    return match


def export_of(client: FlaskClient, match: Table, **headers: str) -> list[dict[str, Any]]:
    answer = client.get(f"/v1/matches/{match.id}/export", headers=headers)
    assert answer.status_code == 200, answer.data
    return [json.loads(line) for line in answer.data.decode().splitlines()]


def match_count(app: Any) -> int:
    """How many matches the store holds, projected or not."""
    return len(app.extensions["tabletape"].store.match_ids(0, 100_000))


def fork(client: FlaskClient, match: Table, at: int, **headers: str) -> Any:
    return client.post(f"/v1/matches/{match.id}/fork", json={"at": at}, headers=headers)


def import_of(client: FlaskClient, exported: list[dict[str, Any]]) -> Any:
    text = "".join(json.dumps(line) + "\n" for line in exported)
    # A copy: the store holds the match the export came from.
    return client.post("/v1/matches/import?copy=true", data=text, content_type=NDJSON)


def shown_bids(value: Any) -> list[Any]:
    """Every bid an answer shows anywhere: each BidPlaced's tricks and each non-empty bids map."""
    found: list[Any] = []
    if isinstance(value, dict):
        if value.get("type") == "BidPlaced" and isinstance(value.get("data"), dict):
            found += [value["data"].get("tricks")] if value["data"].get("tricks") is not None else []
        if isinstance(value.get("bids"), dict) and value["bids"]:
            found.append(value["bids"])
        for inner in value.values():
            found += shown_bids(inner)
    elif isinstance(value, list):
        for inner in value:
            found += shown_bids(inner)
    return found


def test_the_web_viewers_calls_show_no_hidden_bid(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = two_hidden_bids(table)
    calls = [
        f"/v1/matches/{match.id}",
        f"/v1/matches/{match.id}/scores",
        f"/v1/matches/{match.id}/replay?from=1&limit=1000&raw=true",
        f"/v1/matches/{match.id}/state",
        "/v1/matches?game=wizard",
    ]
    assert client.get("/v1/games/wizard").status_code == 200  # schemas and a made-up example only
    for url in calls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert shown_bids(answer.json) == [], url
    frames = client.get(calls[2]).json["frames"]
    assert bids_in([f["event"] for f in frames]) == [None, None]


def test_no_read_without_the_token_shows_a_hidden_bid(
    client: FlaskClient, table: Callable[..., Table], app: Any, hubs: Any
) -> None:
    match = two_hidden_bids(table)
    assert open_reads(client, match) == {k: [None, None] for k in ("events", "ndjson", "replay", "export")}
    assert bids_in([f["event"] for f in match.get("replay").json["frames"]]) == [None, None]
    views = [match.get("state", at=step).json["state"] for step in range(1, 5)]
    views += [match.get("state").json["state"]]
    views += [f["state"] for f in match.get("replay", raw="true").json["frames"]]
    feed = Feed(app.extensions["tabletape"].positions, hubs()[0], match.id, last_event_id=0, keepalive=10)
    live = [data for kind, data, _ in messages(feed, limit=4) if kind == "frame"]
    assert bids_in([frame["event"] for frame in live]) == [None, None]
    views += [frame["state"] for frame in live]
    assert len(views) == 13 and all(view["bids"] == {} for view in views)
    assert match.get("scores").json["rounds"] == [] and "bids" not in match.get().json
    assert match.get("export", format="bgstats").status_code == 409


@pytest.mark.parametrize("bidding", ["secret", "simultaneous"])
def test_a_fork_without_the_token_is_refused_where_its_history_holds_a_hidden_bid(
    client: FlaskClient, table: Callable[..., Table], app: Any, bidding: str
) -> None:
    match = two_hidden_bids(table, bidding)
    before = match_count(app)
    answer = fork(client, match, 3)
    assert answer.status_code == 403 and answer.json["code"] == "hidden_fact"
    assert "step 3" in answer.json["detail"] and "write token" in answer.json["detail"]
    assert fork(client, match, 4).status_code == 403
    other = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    assert fork(client, match, 4, **other.auth).json["code"] == "wrong_token"
    assert match_count(app) == before + 1  # the other match only
    assert match.log_length() == 4
    assert fork(client, match, 2).status_code == 201  # before any bid: nothing hidden to copy


def test_a_fork_with_the_token_copies_everything_and_keeps_it_hidden_in_the_fork(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = two_hidden_bids(table)
    made = fork(client, match, 4, **match.auth)
    assert made.status_code == 201, made.json
    copy = made.json
    assert bids_in(client.get(f"/v1/matches/{copy['id']}/events").json["events"]) == [None, None]
    forked = client.get(
        f"/v1/matches/{copy['id']}/export", headers={"Authorization": f"Bearer {copy['token']}"}
    )
    assert bids_in([json.loads(line) for line in forked.data.decode().splitlines()[1:]]) == [1, 0]


def test_once_the_round_is_scored_a_public_fork_copies_the_bids(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = two_hidden_bids(table)
    for action in (
        {"type": "bid", "player": "ann", "tricks": 0},
        {"type": "play", "player": "bob", "card": "AS"},
        {"type": "play", "player": "cy", "card": "KS"},
        {"type": "play", "player": "ann", "card": "3H"},
    ):
        match.ok(action)
    assert fork(client, match, 4).status_code == 201
    assert "partial" not in export_of(client, match)[0]


def test_a_public_export_says_it_is_partial_and_importing_it_is_refused_naming_the_step(
    client: FlaskClient, table: Callable[..., Table], app: Any
) -> None:
    match = two_hidden_bids(table)
    public = export_of(client, match)
    assert (public[0]["partial"], public[0]["hidden_steps"]) == (True, [3, 4])
    before = match_count(app)
    answer = import_of(client, public)
    assert answer.status_code == 422 and answer.json["code"] == "import_refused"
    assert answer.json["line"] == 4 and "partial" in answer.json["detail"]
    assert "step 3" in answer.json["detail"] and "Authorization: Bearer" in answer.json["detail"]
    unmarked = [{k: v for k, v in public[0].items() if k not in ("partial", "hidden_steps")}, *public[1:]]
    assert "step 3" in import_of(client, unmarked).json["detail"]  # an export from before the flag
    assert match_count(app) == before


def test_the_export_with_the_token_is_full_and_imports(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = two_hidden_bids(table)
    full = export_of(client, match, **match.auth)
    assert "partial" not in full[0] and bids_in(full[1:]) == [1, 0]
    made = import_of(client, full)
    assert made.status_code == 201, made.json
    assert bids_in(client.get(f"/v1/matches/{made.json['id']}/events").json["events"]) == [None, None]
    other = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    wrong = client.get(f"/v1/matches/{match.id}/export", headers=other.auth)
    assert wrong.status_code == 403 and wrong.json["code"] == "wrong_token"
