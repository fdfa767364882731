"""The HTTP API, route by route and error by error, on a real Redis with a real RQ worker."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.service.conftest import Table
from tests.support.wizard import bids, plays

ROUND_ONE = [
    {"type": "start_round", "trump_card": "7H"},
    *bids(bob=1, cy=0, ann=0),
    *plays(bob="AS", cy="2S", ann="3S"),
]


def wizard(table: Callable[..., Table], actions: int = 0) -> Table:
    """A Wizard match with the first ``actions`` of round one recorded."""
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    for action in ROUND_ONE[:actions]:
        match.ok(action)
    return match


def problem(answer: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert answer.status_code == status, answer.json
    assert answer.mimetype == "application/problem+json"
    body = answer.json
    assert body["status"] == status and body["detail"] and body["title"] and body["type"]
    if code:
        assert body["code"] == code, body
    return body


def test_the_games_list_names_every_game_with_its_actions(client: FlaskClient) -> None:
    games = {g["id"]: g for g in client.get("/v1/games").json["games"]}
    assert "wizard" in games
    assert {"start_round", "bid", "play", "record_round"} <= set(games["wizard"]["actions"])
    assert games["wizard"]["options"]["properties"]["canadian_rule"]["default"] is False
    assert client.get("/v1/games/wizard").json["id"] == "wizard"
    problem(client.get("/v1/games/chess"), 404, "unknown_game")


def test_a_round_recorded_card_by_card_is_scored_by_the_worker(
    table: Callable[..., Table], work: Callable[[], int]
) -> None:
    match = wizard(table)
    assert match.created["version"] == 1 and match.created["token"]
    for action in ROUND_ONE:
        answer = match.ok(action)
    assert answer["events"][-1]["type"] in {"RoundScored", "TrickWon"}
    assert work() >= 1
    scores = match.get("scores").json
    assert scores["totals"] == {"ann": 20, "bob": 30, "cy": 20}
    assert scores["version"] == scores["log_version"] == match.log_length()


def test_the_write_answer_carries_the_events_and_the_state_after_them(
    table: Callable[..., Table],
) -> None:
    match = wizard(table)
    answer = match.ok(ROUND_ONE[0])
    assert answer["version"] == 2
    assert [e["seq"] for e in answer["events"]] == [2]
    assert answer["events"][0]["meta"]["action"] == ROUND_ONE[0]
    assert answer["state"]["phase"] == "bidding"


def test_rewinding_shows_the_state_at_a_step_with_links_beside_it(
    table: Callable[..., Table],
) -> None:
    match = wizard(table, 3)
    at2 = match.get("state", at=2).json
    assert at2["version"] == 2 and at2["state"]["phase"] == "bidding"
    assert at2["links"]["prev"].endswith("at=1") and at2["links"]["next"].endswith("at=3")
    assert match.get("state").json["version"] == 4
    problem(match.get("state", at=99), 404, "no_such_step")
    problem(match.get("state", at=0), 400, "invalid_request")


def test_undo_takes_back_the_last_action_and_redo_puts_it_back(
    table: Callable[..., Table],
) -> None:
    match = wizard(table, 3)
    before = match.get("state").json["state"]
    undone = match.post("undo")
    assert undone.status_code == 201 and undone.json["events"][0]["type"] == "ActionUndone"
    assert undone.json["state"] == match.get("state", at=3).json["state"]
    redone = match.post("redo").json
    assert redone["state"] == before
    assert match.log_length() == 6  # corrections are appended, never edited


def test_a_new_action_after_an_undo_clears_the_redo(table: Callable[..., Table]) -> None:
    match = wizard(table, 2)
    match.post("undo")
    match.ok({"type": "bid", "player": "bob", "tricks": 0})
    problem(match.post("redo"), 422, "nothing_to_redo")


def test_undo_cannot_go_past_the_match_creation(table: Callable[..., Table]) -> None:
    match = wizard(table)
    problem(match.post("undo"), 422, "nothing_to_undo")


def test_the_replay_leaves_undone_actions_out_unless_raw_is_asked(
    table: Callable[..., Table],
) -> None:
    match = wizard(table)
    match.ok(ROUND_ONE[0])
    match.ok({"type": "bid", "player": "bob", "tricks": 0})
    match.post("undo")
    match.ok(ROUND_ONE[1])
    effective = match.get("replay").json["frames"]
    assert [f["event"]["type"] for f in effective] == ["MatchCreated", "RoundStarted", "BidPlaced"]
    assert effective[-1]["event"]["data"]["tricks"] == 1
    raw = match.get("replay", raw="true").json["frames"]
    assert len(raw) == 5 and not raw[2]["effective"]
    assert all(f["actor"] and f["ts"] for f in raw)


def test_the_event_log_pages_and_streams_as_ndjson(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = wizard(table, 4)
    page = match.get("events", limit=2).json
    assert [e["seq"] for e in page["events"]] == [1, 2] and "from=3" in page["links"]["next"]
    streamed = client.get(f"/v1/matches/{match.id}/events", headers={"Accept": "application/x-ndjson"})
    lines = [json.loads(line) for line in streamed.data.decode().splitlines()]
    assert [e["seq"] for e in lines] == [1, 2, 3, 4, 5]


def test_the_match_list_filters_by_game_and_status(
    client: FlaskClient, table: Callable[..., Table], work: Callable[[], int]
) -> None:
    first, second = wizard(table), wizard(table)
    work()
    listed = client.get("/v1/matches", query_string={"game": "wizard"}).json
    assert [m["id"] for m in listed["matches"]][:2] == [second.id, first.id]
    assert listed["total"] == 2
    assert client.get("/v1/matches", query_string={"status": "finished"}).json["total"] == 0
    assert client.get("/v1/matches", query_string={"player": "cy"}).json["total"] == 2
    problem(client.get("/v1/matches", query_string={"status": "paused"}), 400)


def test_a_read_sends_an_etag_and_answers_304_when_nothing_changed(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table)
    first = match.get("state", at=1)
    etag = first.headers["ETag"]
    again = client.get(
        f"/v1/matches/{match.id}/state", query_string={"at": 1}, headers={"If-None-Match": etag}
    )
    assert again.status_code == 304


def test_if_match_makes_a_write_conditional(table: Callable[..., Table]) -> None:
    match = wizard(table)
    body = problem(match.act(ROUND_ONE[0], **{"If-Match": "7"}), 412, "version_mismatch")
    assert body["actual"] == 1
    assert match.act(ROUND_ONE[0], **{"If-Match": '"1"'}).status_code == 201
    problem(match.act(ROUND_ONE[1], **{"If-Match": "soon"}), 400, "bad_if_match")


def test_a_retry_with_the_same_idempotency_key_appends_once(table: Callable[..., Table]) -> None:
    match = wizard(table)
    first = match.act(ROUND_ONE[0], **{"Idempotency-Key": "k-1"})
    again = match.act(ROUND_ONE[0], **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert match.log_length() == 2
    other = match.act(ROUND_ONE[1], **{"Idempotency-Key": "k-1"})
    problem(other, 422, "idempotency_key_reused")


def test_writes_need_the_match_token(client: FlaskClient, table: Callable[..., Table]) -> None:
    match, other = wizard(table), wizard(table)
    url = f"/v1/matches/{match.id}/actions"
    answer = client.post(url, json=ROUND_ONE[0])
    problem(answer, 401, "missing_token")
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    problem(client.post(url, json=ROUND_ONE[0], headers=other.auth), 403, "wrong_token")
    problem(client.post(f"/v1/matches/{match.id}/undo"), 401)
    assert match.log_length() == 1


def test_rule_violations_name_the_rule_and_leave_the_log_unchanged(
    table: Callable[..., Table],
) -> None:
    match = wizard(table)
    match.ok(ROUND_ONE[0])
    cases = [
        ({"type": "bid", "player": "cy", "tricks": 0}, 422),  # out of turn
        ({"type": "bid", "player": "bob", "tricks": 5}, 422),  # out of range
        ({"type": "bid", "player": "zed", "tricks": 0}, 422),  # unknown player
        ({"type": "play", "player": "bob", "card": "AS"}, 422),  # wrong phase
        ({"type": "dance", "player": "bob"}, 400),  # unknown action
        ({"type": "bid", "player": "bob", "tricks": "two"}, 400),  # wrong type
        ({"type": "bid", "player": "bob"}, 400),  # missing field
    ]
    for action, status in cases:
        body = problem(match.act(action), status)
        assert body["code"] and body["detail"]
    assert match.log_length() == 2


def test_bad_bodies_get_a_4xx_that_says_what_is_wrong(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table)
    url = f"/v1/matches/{match.id}/actions"
    problem(client.post(url, data="{not json", content_type="application/json", headers=match.auth), 400)
    problem(client.post(url, data="type=bid", content_type="text/plain", headers=match.auth), 415)
    deep = "[" * 100 + "]" * 100
    problem(
        client.post(url, data=deep, content_type="application/json", headers=match.auth), 400, "json_too_deep"
    )
    huge = json.dumps({"type": "bid", "player": "x" * 2_000_000})
    problem(client.post(url, data=huge, content_type="application/json", headers=match.auth), 413)
    problem(client.post(url, json=[1, 2], headers=match.auth), 400)
    assert match.log_length() == 1


def test_creating_a_match_checks_game_players_setup_and_options(client: FlaskClient) -> None:
    def create(**body: Any) -> Any:
        return client.post("/v1/matches", json=body)

    problem(create(game="chess", players=["a", "b"]), 400, "unknown_game")
    problem(create(game="wizard", players=["a"], setup={"first_dealer": "a"}), 400, "player_count")
    problem(create(game="wizard", players=["a", "a", "b"], setup={"first_dealer": "a"}), 400)
    problem(create(game="wizard", players=["a", "b", "c"]), 400)  # first_dealer missing
    problem(
        create(
            game="wizard", players=["a", "b", "c"], setup={"first_dealer": "a"}, options={"bidding": "loud"}
        ),
        400,
    )
    problem(create(game="wizard", players="abc"), 400)
    problem(create(players=["a", "b"]), 400)


def test_unknown_matches_and_routes_are_404_problems(client: FlaskClient) -> None:
    for path in (
        "/v1/matches/nope",
        "/v1/matches/nope/state",
        "/v1/matches/nope/scores",
        "/v1/matches/nope/replay",
        "/v1/matches/nope/events",
        "/v1/nothing",
    ):
        problem(client.get(path), 404)
    problem(
        client.post("/v1/matches/nope/actions", json=ROUND_ONE[0], headers={"Authorization": "Bearer x"}),
        404,
        "unknown_match",
    )
    problem(client.delete("/v1/matches"), 405)


def test_the_match_resource_shows_players_setup_status_and_links(
    table: Callable[..., Table], work: Callable[[], int]
) -> None:
    match = wizard(table)
    work()
    shown = match.get().json
    assert shown["players"] == ["ann", "bob", "cy"] and shown["setup"] == {"first_dealer": "ann"}
    assert shown["options"]["canadian_rule"] is False
    assert shown["status"] == "in_progress" and shown["projected_version"] == 1
    assert "token" not in shown and shown["links"]["scores"].endswith("/scores")


def test_health_says_the_store_answers(client: FlaskClient) -> None:
    assert client.get("/healthz").json == {"status": "ok", "redis": "ok", "projection_lag_seconds": 0.0}
