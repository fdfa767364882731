"""Seats: each player's own phone records that player's actions and reads that player's facts."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.config import Settings
from tests.service.conftest import Table
from tests.service.test_hidden_hands import made

HANDS = {"ann": ["AS"], "bob": ["KS"], "cy": ["3H"]}


def seat(client: FlaskClient, match: Table, player: str) -> dict[str, str]:
    """A new seat token for ``player``; the Authorization header it is sent with."""
    answer = client.post(f"/v1/matches/{match.id}/seats/{player}", headers=match.auth)
    assert answer.status_code == 201, answer.json
    body = answer.json
    assert body["player"] == player
    assert body["link"] == f"/matches/{match.id}/seat/{player}#token={body['token']}"
    return {"Authorization": f"Bearer {body['token']}"}


def act(client: FlaskClient, match: Table, auth: dict[str, str], action: dict[str, Any]) -> Any:
    return client.post(f"/v1/matches/{match.id}/actions", json=action, headers=auth)


def wizard(table: Callable[..., Table], bidding: str = "clockwise") -> Table:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"}, options={"bidding": bidding})
    match.ok({"type": "start_round", "trump_card": "7H", "hands": HANDS})
    return match


def test_a_seat_records_its_own_player_s_actions_and_no_one_else_s(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table)
    bob = seat(client, match, "bob")
    refused = act(client, match, bob, {"type": "bid", "player": "cy", "tricks": 0})
    assert refused.status_code == 403 and refused.json["code"] == "not_your_seat"
    assert "bob's seat may record only bob's own actions, not cy's" in refused.json["detail"]
    assert "Bearer" not in json.dumps(refused.json)
    assert act(client, match, bob, {"type": "bid", "player": "bob", "tricks": 1}).status_code == 201
    logged = match.get("events").json["events"][-1]
    assert logged["meta"]["by"] == "seat" and logged["meta"]["actor"] == "bob"
    # The table's token keeps recording every player's actions.
    match.ok({"type": "bid", "player": "cy", "tricks": 0})


def test_a_seat_undoes_only_its_own_last_action(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = wizard(table)
    bob, cy = seat(client, match, "bob"), seat(client, match, "cy")
    assert act(client, match, bob, {"type": "bid", "player": "bob", "tricks": 1}).status_code == 201
    undo = f"/v1/matches/{match.id}/undo"
    refused = client.post(undo, headers=cy)
    assert refused.status_code == 403 and refused.json["code"] == "not_your_seat"
    assert "cy's seat may undo only cy's own actions, not bob's action" in refused.json["detail"]
    offered = client.get(f"/v1/matches/{match.id}/next", headers=cy).json
    assert offered["undo"]["possible"] is False
    assert client.get(f"/v1/matches/{match.id}/next", headers=bob).json["undo"]["possible"] is True
    assert client.post(undo, headers=bob).status_code == 201
    redo = client.post(f"/v1/matches/{match.id}/redo", headers=cy)
    assert redo.status_code == 403 and redo.json["code"] == "not_your_seat"
    assert client.post(f"/v1/matches/{match.id}/redo", headers=bob).status_code == 201


def test_next_with_a_seat_token_offers_only_that_seat_s_actions(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table, "simultaneous")
    cy = seat(client, match, "cy")
    everyone = client.get(f"/v1/matches/{match.id}/next", headers=match.auth).json
    mine = client.get(f"/v1/matches/{match.id}/next", headers=cy).json
    assert sorted(everyone["to_act"]) == ["ann", "bob", "cy"]
    assert mine["to_act"] == ["cy"]
    assert {a["fixed"]["player"] for a in mine["actions"]} == {"cy"}


def test_a_reissued_seat_token_replaces_the_old_and_a_revoked_one_stops_at_once(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table)
    first = seat(client, match, "bob")
    second = seat(client, match, "bob")
    bid = {"type": "bid", "player": "bob", "tricks": 1}
    old = act(client, match, first, bid)
    assert old.status_code == 403 and old.json["code"] == "wrong_token"
    assert client.get(f"/v1/matches/{match.id}/events", headers=first).status_code == 403
    assert client.delete(f"/v1/matches/{match.id}/seats/bob", headers=match.auth).status_code == 204
    assert act(client, match, second, bid).json["code"] == "wrong_token"


def test_only_the_table_hands_out_seats(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = wizard(table)
    bob = seat(client, match, "bob")
    url = f"/v1/matches/{match.id}/seats/cy"
    assert client.post(url).status_code == 401
    by_seat = client.post(url, headers=bob)
    assert by_seat.status_code == 403 and by_seat.json["code"] == "not_your_seat"
    assert client.delete(url, headers=bob).status_code == 403
    nobody = client.post(f"/v1/matches/{match.id}/seats/dee", headers=match.auth)
    assert nobody.status_code == 404 and "no player 'dee'" in nobody.json["detail"]
    other = wizard(lambda *a, **k: Table(client, *a, **k))
    assert client.post(url, headers=other.auth).json["code"] == "wrong_token"
    # A name typed another way is the same player, named as the match names them.
    assert client.post(f"/v1/matches/{match.id}/seats/CY", headers=match.auth).json["player"] == "cy"


def test_a_seat_reads_its_own_hand_and_no_other(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = wizard(table)
    bob = seat(client, match, "bob")
    base = f"/v1/matches/{match.id}"
    dealt = client.get(f"{base}/events", headers=bob).json["events"][-1]
    assert dealt["data"]["hands"] == {"ann": [None], "bob": ["KS"], "cy": [None]}
    assert client.get(f"{base}/state", headers=bob).json["state"]["hands"] == dealt["data"]["hands"]
    frames = client.get(f"{base}/replay", headers=bob).json["frames"]
    assert frames[-1]["state"]["hands"] == dealt["data"]["hands"]
    exported = client.get(f"{base}/export", headers=bob).data.decode().splitlines()
    assert json.loads(exported[0])["partial"] is True
    assert json.loads(exported[-1])["data"]["hands"] == dealt["data"]["hands"]
    public = client.get(f"{base}/events").json["events"][-1]["data"]["hands"]
    assert public == {"ann": [None], "bob": [None], "cy": [None]}
    # A seat's write answers with what the seat may see, not the other hands.
    answer = act(client, match, bob, {"type": "bid", "player": "bob", "tricks": 1})
    assert answer.json["state"]["hands"] == dealt["data"]["hands"]
    fork = client.post(f"{base}/fork", json={"at": 2}, headers=bob)
    assert fork.status_code == 403 and fork.json["code"] == "hidden_fact"


def test_seat_tokens_are_stored_only_as_digests(
    client: FlaskClient, table: Callable[..., Table], app: Any
) -> None:
    match = wizard(table)
    token = seat(client, match, "bob")["Authorization"].removeprefix("Bearer ")
    services = app.extensions["tabletape"]
    stored = services.client.hgetall(services.keys.credentials(match.id))
    assert stored and all(token.encode() not in k + v for k, v in stored.items())
    exported = client.get(f"/v1/matches/{match.id}/export", headers=match.auth).data.decode()
    assert token not in exported


def test_no_log_line_and_no_metric_holds_a_seat_token_or_a_recovery_code(
    settings: Settings, capfd: Any
) -> None:
    app = create_app(dataclasses.replace(settings, json_logs=True))
    client = app.test_client()
    match = Table(client, "wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H", "hands": HANDS})
    bob = seat(client, match, "bob")
    act(client, match, bob, {"type": "bid", "player": "bob", "tricks": 1})
    act(client, match, bob, {"type": "bid", "player": "cy", "tricks": 1})
    recovered = client.post(
        f"/v1/matches/{match.id}/token", json={"recovery_code": match.created["recovery_code"]}
    )
    secrets = [
        bob["Authorization"].removeprefix("Bearer "),
        match.created["recovery_code"],
        recovered.json["token"],
    ]
    logged = capfd.readouterr().err
    metrics = client.get("/metrics").data.decode()
    assert f"/v1/matches/{match.id}/seats/bob" in logged  # the requests were logged, with their paths
    app.extensions["tabletape"].close()
    assert not any(secret in logged or secret in metrics for secret in secrets)


@pytest.mark.parametrize("game_id", ["wizard", "hobbit", "hats"])
def test_in_every_game_with_recorded_hands_a_seat_sees_its_own_hand_and_the_others_as_the_public(
    client: FlaskClient, table: Callable[..., Table], game_id: str
) -> None:
    match = made(table, game_id)
    player = match.created["players"][0]
    mine = seat(client, match, player)
    base = f"/v1/matches/{match.id}"

    def hands_of(event: dict[str, Any]) -> Any:
        data = event["data"]
        return data.get("hands") or (data.get("setup") or {}).get("hands")

    logs = [client.get(f"{base}/events?limit=1000", headers=h).json["events"] for h in (mine, match.auth, {})]
    dealt = [i for i, e in enumerate(logs[1]) if isinstance(hands_of(e), dict) and hands_of(e)]
    assert dealt
    for i in dealt:
        seen, whole, public = (hands_of(log[i]) for log in logs)
        assert seen == public | {player: whole[player]}
    views = [client.get(f"{base}/state", headers=h).json["state"]["hands"] for h in (mine, match.auth, {})]
    assert views[0] == views[2] | {player: views[1][player]}
    assert views[0] != views[2]  # the seat's own hand holds something the public does not see
