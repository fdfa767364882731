"""The deployment credential and rate limits: who may create matches, how often, and what counts."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from events.keys import Keys
from service.app import create_app
from service.config import Settings
from tests.recording import play
from tests.service.conftest import SHORT, Table

KEY = "k3y-of-the-club-0123456789abcdef"
NDJSON = "application/x-ndjson"


@pytest.fixture
def make_app(settings: Settings, redis_client: redis.Redis) -> Iterator[Callable[..., Flask]]:
    """Apps over the test's Redis and prefix, each with its own settings."""
    made: list[Flask] = []

    def make(**chosen: Any) -> Flask:
        app = create_app(dataclasses.replace(settings, sync_projections=True, **chosen))
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["tabletape"].close()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def keyed(key: str) -> dict[str, str]:
    return {"X-API-Key": key}


def wizard_body() -> dict[str, Any]:
    return {"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}}


def test_with_keys_configured_creating_forking_and_importing_need_one(make_app: Callable[..., Flask]) -> None:
    web = make_app(api_keys=(KEY, "another-key-for-the-league")).test_client()
    assert web.post("/v1/matches", json=wizard_body()).status_code == 401
    wrong = web.post("/v1/matches", json=wizard_body(), headers=keyed("guess"))
    assert wrong.status_code == 403 and wrong.json["code"] == "wrong_api_key"
    made = web.post("/v1/matches", json=wizard_body(), headers=keyed(KEY))
    assert made.status_code == 201, made.json
    match_id, token = made.json["id"], made.json["token"]
    act = web.post(
        f"/v1/matches/{match_id}/actions",
        json={"type": "start_round", "trump_card": "7H"},
        headers=bearer(token),
    )
    assert act.status_code == 201, act.json
    export = web.get(f"/v1/matches/{match_id}/export").get_data(as_text=True)
    for path, kwargs in [
        (f"/v1/matches/{match_id}/fork", {"json": {"at": 2}}),
        ("/v1/matches/import?copy=true", {"data": export, "content_type": NDJSON}),
    ]:
        missing = web.post(path, **kwargs)
        assert missing.status_code == 401 and missing.json["code"] == "missing_api_key"
        assert web.post(path, headers=keyed(token), **kwargs).status_code == 403
        assert web.post(path, headers=keyed(KEY), **kwargs).status_code == 201
    assert web.get("/v1/matches").json["total"] == 3


def test_without_keys_creating_stays_open(make_app: Callable[..., Flask]) -> None:
    web = make_app().test_client()
    assert web.post("/v1/matches", json=wizard_body()).status_code == 201


def test_with_keys_statistics_count_only_the_matches_a_key_created(
    make_app: Callable[..., Flask], redis_client: redis.Redis, keys: Keys
) -> None:
    open_app, closed_app = make_app(), make_app(api_keys=(KEY,))
    anonymous = _finished(open_app.test_client(), {})
    credited = _finished(closed_app.test_client(), keyed(KEY))
    winner = anonymous.get("scores").json["winners"][0]
    assert winner in credited.get("scores").json["winners"]

    assert open_app.test_client().get(f"/v1/players/{winner}").json["matches"] == 2
    counted = closed_app.test_client().get(f"/v1/players/{winner}").json
    assert counted["matches"] == 1 and counted["wins"] == 1
    board = closed_app.test_client().get("/v1/leaderboards/hats").json["players"]
    assert {row["matches"] for row in board} == {1}
    assert redis_client.hget(keys.meta(credited.id), "credential") != KEY.encode()


def _finished(web: FlaskClient, headers: dict[str, str]) -> Table:
    """The same finished Hats match, created with ``headers``."""

    def start(game_id: str, script: dict[str, Any]) -> Table:
        body = {"game": game_id, **{k: script[k] for k in ("players", "setup", "options")}}
        answer = web.post("/v1/matches", json=body, headers=headers)
        assert answer.status_code == 201, answer.json
        table = Table.__new__(Table)
        table.client, table.created = web, answer.json
        table.id, table.token = answer.json["id"], answer.json["token"]
        return table

    return play(start, Table.ok, "hats", SHORT["hats"])


def test_creating_faster_than_the_rate_limit_is_a_429_with_retry_after(
    make_app: Callable[..., Flask],
) -> None:
    web = make_app(create_rate="3/minute", create_burst=3, api_keys=(KEY,)).test_client()
    for _ in range(3):
        assert web.post("/v1/matches", json=wizard_body(), headers=keyed(KEY)).status_code == 201
    refused = web.post("/v1/matches", json=wizard_body(), headers=keyed(KEY))
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert int(refused.headers["Retry-After"]) > 0
    assert "a burst of 3 creations, then 3 per minute" in refused.json["detail"]
    assert refused.json["setting"] == "TABLETAPE_RATE_LIMIT_CREATE_BURST"
    # Another caller (here: no key, so refused for that reason) is counted apart.
    assert web.post("/v1/matches", json=wizard_body()).status_code == 401


def test_writing_faster_than_any_of_the_write_rates_is_refused_and_records_nothing(
    make_app: Callable[..., Flask],
) -> None:
    web = make_app(write_rate="2/minute;50/hour").test_client()
    made = web.post("/v1/matches", json=wizard_body()).json
    mark = bearer(made["token"])
    # A write the rules refuse counts too: the budget is for requests, not for recorded actions.
    assert web.post(f"/v1/matches/{made['id']}/undo", headers=mark).status_code == 422
    start = {"type": "start_round", "trump_card": "7H"}
    assert web.post(f"/v1/matches/{made['id']}/actions", json=start, headers=mark).status_code == 201
    before = web.get(f"/v1/matches/{made['id']}").json["version"]
    refused = web.post(f"/v1/matches/{made['id']}/undo", headers=mark)
    assert refused.status_code == 429 and refused.json["code"] == "too_many_requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "2 per 1 minute" in refused.json["detail"]
    assert web.get(f"/v1/matches/{made['id']}").json["version"] == before
    # Reads are not limited.
    assert web.get(f"/v1/matches/{made['id']}/events").status_code == 200


def test_a_write_decided_again_after_another_process_wrote_counts_once(
    make_app: Callable[..., Flask],
) -> None:
    """Two API processes share a caller's budget. A write decided on a position its process knew
    before the other's write is decided again (after a rule refusal, or inside a version
    conflict) and still counts one request: five writes fit a budget of five, the sixth not."""
    here, there = (make_app(write_rate="5/minute").test_client() for _ in range(2))
    made = here.post("/v1/matches", json=wizard_body()).json
    mark, actions = bearer(made["token"]), f"/v1/matches/{made['id']}/actions"

    def bid(web: FlaskClient, player: str) -> Any:
        return web.post(actions, json={"type": "bid", "player": player, "tricks": 0}, headers=mark)

    assert (
        here.post(actions, json={"type": "start_round", "trump_card": "7H"}, headers=mark).status_code == 201
    )
    assert bid(there, "bob").status_code == 201
    # ``here`` knows the match before bob's bid, where it is not cy's turn: refused, read on, recorded.
    assert bid(here, "cy").status_code == 201
    # ``there`` knows it before cy's bid, where cy's is legal: its append conflicts; read on, refused.
    again = bid(there, "cy")
    assert again.status_code == 422 and again.json["code"] == "already_bid", again.json
    assert bid(here, "ann").status_code == 201
    refused = bid(there, "ann")
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 60
    assert here.get(f"/v1/matches/{made['id']}").json["version"] == 5


def test_a_caller_over_its_rate_is_refused_again_until_its_window_opens(
    make_app: Callable[..., Flask],
) -> None:
    web = make_app(write_rate="1/minute").test_client()
    made = web.post("/v1/matches", json=wizard_body()).json
    mark, actions = bearer(made["token"]), f"/v1/matches/{made['id']}/actions"
    assert (
        web.post(actions, json={"type": "start_round", "trump_card": "7H"}, headers=mark).status_code == 201
    )
    for body in ({"type": "bid", "player": "bob", "tricks": 0}, {"type": "no such action"}):
        refused = web.post(actions, json=body, headers=mark)
        assert refused.status_code == 429 and "1 per 1 minute" in refused.json["detail"]
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert web.get(f"/v1/matches/{made['id']}").json["version"] == 2


def test_the_rate_limiter_counts_under_the_deployments_prefix(
    make_app: Callable[..., Flask], redis_client: redis.Redis, keys: Keys
) -> None:
    web = make_app(write_rate="100/minute").test_client()
    made = web.post("/v1/matches", json=wizard_body()).json
    web.post(f"/v1/matches/{made['id']}/undo", headers=bearer(made["token"]))
    counters = list(redis_client.scan_iter(match=f"{keys.rate_limits()}*", count=1000))
    assert counters and all(json.dumps(c.decode()).startswith(f'"{keys.prefix}:') for c in counters)


@pytest.mark.parametrize("refused_when", ["before its append", "by its append"])
def test_a_web_app_over_its_rate_reads_the_429_with_its_id(
    make_app: Callable[..., Flask], refused_when: str
) -> None:
    # A browser shows a cross-origin answer only with the CORS headers: a refusal must carry them
    # whichever step made it, and the request id a bug report quotes.
    origin = {"Origin": "https://score.example"}
    web = make_app(write_rate="1/minute", cors_origins=("https://score.example",)).test_client()
    made = web.post("/v1/matches", json=wizard_body()).json
    mark = bearer(made["token"]) | origin
    # An undo the rules refuse is counted after the view; an action is counted by its append.
    first = web.post(f"/v1/matches/{made['id']}/undo", headers=mark)
    assert first.status_code == 422
    start = {"type": "start_round", "trump_card": "7H"}
    if refused_when == "before its append":
        refused = web.post(f"/v1/matches/{made['id']}/undo", headers=mark)
    else:
        refused = web.post(f"/v1/matches/{made['id']}/actions", json=start, headers=mark)
    assert refused.status_code == 429
    assert refused.headers["Access-Control-Allow-Origin"] == "https://score.example"
    assert "X-Request-Id" in refused.headers["Access-Control-Expose-Headers"]
    assert len(refused.headers["X-Request-Id"]) == 32
