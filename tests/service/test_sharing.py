"""Export, import and fork: round trips for every game, refusals that create nothing, BG Stats plays."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from games.registry import all_games
from tests.service.conftest import OTHER, Table, lines, record

NDJSON = "application/x-ndjson"


def export(client: FlaskClient, match_id: str, token: str | None = None) -> list[dict[str, Any]]:
    """The match's export; with its write token, everything (recorded hands included)."""
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.get(f"/v1/matches/{match_id}/export", headers=auth)
    assert answer.status_code == 200 and answer.mimetype == NDJSON
    return lines(answer)


def send(client: FlaskClient, values: list[Any], copy: bool = False) -> Any:
    text = "".join(v if isinstance(v, str) else json.dumps(v) + "\n" for v in values)
    return client.post(f"/v1/matches/import{'?copy=true' if copy else ''}", data=text, content_type=NDJSON)


def match_count(client: FlaskClient) -> int:
    return int(client.get("/v1/matches").json["total"])


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_an_exported_match_imports_as_an_identical_match(
    recorded: Callable[..., Table], client: FlaskClient, game_id: str
) -> None:
    match = recorded(game_id, OTHER[game_id])
    assert match.post("undo").status_code == 201
    assert match.post("redo").status_code == 201
    original = export(client, match.id, match.token)
    # A copy asked for: the store holds the match the export came from.
    answer = send(client, original, copy=True)
    assert answer.status_code == 201, answer.json
    made = answer.json
    assert made["id"] != match.id and made["token"] and made["origin"] == {"imported_from": match.id}
    copy = export(client, made["id"], made["token"])
    assert copy[1:] == original[1:]
    assert copy[0] | {"id": match.id} == original[0] | {"imported_from": match.id}
    ours, theirs = client.get(f"/v1/matches/{made['id']}/state"), match.get("state")
    assert ours.json["state"] == theirs.json["state"]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_an_import_with_a_tampered_event_is_refused_at_its_line_and_creates_nothing(
    recorded: Callable[..., Table], client: FlaskClient, game_id: str
) -> None:
    match = recorded(game_id, 1, upto=6)
    values = export(client, match.id, match.token)
    values[-2]["data"] = values[-2]["data"] | {"tampered": True}
    before = match_count(client)
    answer = send(client, values)
    assert answer.status_code == 422 and answer.json["code"] == "import_refused"
    assert answer.json["line"] == len(values) - 1
    assert match_count(client) == before


def test_an_import_with_a_line_that_is_not_json_is_refused_at_that_line(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("wizard", 1, upto=5)
    values: list[Any] = export(client, match.id, match.token)
    values[3] = '{"seq": 3, "type": \n'
    before = match_count(client)
    answer = send(client, values)
    assert answer.status_code == 422 and answer.json["line"] == 4
    assert "not JSON" in answer.json["detail"]
    assert match_count(client) == before


def test_an_import_refuses_missing_steps_an_unknown_game_and_an_empty_body(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hats", 1, upto=4)
    values = export(client, match.id, match.token)
    gap = send(client, values[:2] + values[3:])
    assert gap.status_code == 422 and gap.json["line"] == 3 and "due" in gap.json["reason"]
    unknown = send(client, [values[0] | {"game": "chess"}] + values[1:])
    assert unknown.status_code == 422 and unknown.json["line"] == 1
    assert send(client, []).status_code == 422


def test_an_action_the_rules_refuse_is_reported_with_the_rules_reason(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("wizard", 1, upto=3)
    values = export(client, match.id, match.token)
    action = next(v for v in values[1:] if v["meta"].get("action", {}).get("type") == "bid")
    action["meta"]["action"]["player"] = "nobody"
    answer = send(client, values)
    assert answer.status_code == 422 and answer.json["line"] == values.index(action) + 1
    assert "rules refuse" in answer.json["reason"]


def test_a_fork_copies_the_effective_history_and_then_diverges_from_its_origin(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    script = all_games()["hats"].example(1)
    match = record(table, "hats", 1, upto=6)
    assert match.post("undo").status_code == 201
    at = match.log_length()
    for action in script["actions"][5:8]:
        match.ok(action)
    # With the write token: the black hats it names are hidden from a public fork.
    answer = client.post(f"/v1/matches/{match.id}/fork", json={"at": at}, headers=match.auth)
    assert answer.status_code == 201, answer.json
    fork = answer.json
    assert fork["origin"] == {"forked_from": match.id, "forked_at": str(at)}
    assert fork["links"]["origin"].endswith(match.id)
    assert client.get(fork["links"]["self"]).json["links"]["origin"] == fork["links"]["origin"]
    forked_state = client.get(f"/v1/matches/{fork['id']}/state").json["state"]
    assert forked_state == match.get("state", at=at).json["state"]
    events = client.get(f"/v1/matches/{fork['id']}/events").json["events"]
    assert not {"ActionUndone", "ActionRedone"} & {e["type"] for e in events}
    origin_version = match.log_length()
    diverge = client.post(
        f"/v1/matches/{fork['id']}/actions",
        json=script["actions"][5],
        headers={"Authorization": f"Bearer {fork['token']}"},
    )
    assert diverge.status_code == 201
    assert diverge.json["version"] == fork["version"] + len(diverge.json["events"])
    assert diverge.json["events"][0]["meta"]["action"] == script["actions"][5]
    assert match.log_length() == origin_version
    wrong = client.post(
        f"/v1/matches/{match.id}/actions",
        json={"type": "swap"},
        headers={"Authorization": f"Bearer {fork['token']}"},
    )
    assert wrong.status_code == 403


def test_a_fork_inside_one_actions_events_is_refused(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("wizard", 1, upto=7)
    events = client.get(f"/v1/matches/{match.id}/events").json["events"]
    inside = next(
        a["seq"]
        for a, b in zip(events, events[1:], strict=False)
        if a["meta"]["action_id"] == b["meta"]["action_id"]
    )
    answer = client.post(f"/v1/matches/{match.id}/fork", json={"at": inside})
    assert answer.status_code == 422 and answer.json["code"] == "not_an_action_boundary"
    beyond = client.post(f"/v1/matches/{match.id}/fork", json={"at": len(events) + 1})
    assert beyond.status_code == 422


def test_an_import_whose_later_action_claims_to_be_the_creation_is_refused(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hat-trick", 1, upto=3)
    values = export(client, match.id, match.token)
    batch = [v["meta"]["action_id"] for v in values[1:]].index(values[-1]["meta"]["action_id"]) + 1
    for value in values[batch:]:
        value["meta"]["action_id"] = "create"
    answer = send(client, values)
    assert answer.status_code == 422 and answer.json["line"] == batch + 1
    assert "action_id" in answer.json["reason"]
