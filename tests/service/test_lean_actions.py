"""The lean write route answers a table's actions exactly as the documented view and the steps of
every request do: the same statuses, bodies, headers, refusals in the reader's language, rate
limits, conditions, logs and metrics (service/api/lean_actions.py)."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import re
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask, request, request_started
from werkzeug.test import Client, EnvironBuilder, TestResponse, run_wsgi_app

from games.registry import get_game
from service.api.lean_actions import LeanActions
from service.app import create_app
from service.config import Settings

SCRIPT = get_game("wizard").example(0)
# What differs between two matches recorded alike: their ids, tokens, clocks and request ids.
VARYING = re.compile(r'"(action_id|ts|instance)":"[^"]*"|[0-9a-f]{16,32}')


def _both(app: Flask) -> tuple[Client, Client]:
    """A client of the app as served (the lean route in front) and one of the app behind it."""
    lean = app.wsgi_app
    assert isinstance(lean, LeanActions)
    return Client(app), Client(lean.app)


def _create(http: Client) -> tuple[str, dict[str, str]]:
    body = {"game": "wizard", **{k: SCRIPT[k] for k in ("players", "setup", "options")}}
    made = http.post("/v1/matches", json=body)
    assert made.status_code == 201, made.json
    return made.json["id"], {"Authorization": f"Bearer {made.json['token']}"}


def _seen(answer: TestResponse) -> tuple[Any, ...]:
    """An answer as a client compares two of them: all but what differs between matches."""
    headers = {k: VARYING.sub("~", v) for k, v in answer.headers.items() if k != "Content-Length"}
    return answer.status, headers, VARYING.sub("~", answer.get_data(as_text=True))


def _send(http: Client, match_id: str, auth: dict[str, str], body: Any, **headers: str) -> TestResponse:
    return http.post(f"/v1/matches/{match_id}/actions", json=body, headers=auth | headers)


Send = Callable[[Client, str, dict[str, str]], TestResponse]
# Requests a table sends: the common writes, and the refusals a lean write meets after its body.
CASES: list[tuple[str, Send]] = [
    ("illegal, in Japanese", lambda h, m, a: _send(h, m, a, {"type": "bid"}, **{"Accept-Language": "ja"})),
    ("a wrong token", lambda h, m, a: _send(h, m, a, SCRIPT["actions"][0], Authorization="Bearer nope")),
    (
        "no token, in Chinese",
        lambda h, m, a: _send(h, m, {}, SCRIPT["actions"][0], **{"Accept-Language": "zh"}),
    ),
    ("a stale If-Match", lambda h, m, a: _send(h, m, a, SCRIPT["actions"][0], **{"If-Match": '"7"'})),
    ("a bad If-Match", lambda h, m, a: _send(h, m, a, SCRIPT["actions"][0], **{"If-Match": "x"})),
    ("a bad key", lambda h, m, a: _send(h, m, a, SCRIPT["actions"][0], **{"Idempotency-Key": " "})),
    ("a list", lambda h, m, a: _send(h, m, a, [SCRIPT["actions"][0]])),
    ("no type", lambda h, m, a: _send(h, m, a, {"player": "ann"})),
    ("an unknown match", lambda h, m, a: _send(h, "0" * 16, a, SCRIPT["actions"][0])),
    ("a query", lambda h, m, a: h.post(f"/v1/matches/{m}/actions?x=1", json=SCRIPT["actions"][0], headers=a)),
    (
        "not JSON",
        lambda h, m, a: h.post(
            f"/v1/matches/{m}/actions", data=b"{", headers=a, content_type="application/json"
        ),
    ),
]


@pytest.mark.parametrize("send", [case[1] for case in CASES], ids=[case[0] for case in CASES])
def test_a_refusal_is_the_one_the_documented_view_gives(app: Flask, send: Send) -> None:
    lean, full = _both(app)
    answers = [send(http, *_create(http)) for http in (lean, full)]
    assert answers[0].status_code >= 400
    assert _seen(answers[0]) == _seen(answers[1])


class _Broken(io.BytesIO):
    """A request body whose connection breaks as it is read."""

    def read(self, size: int | None = -1) -> bytes:
        raise ConnectionResetError("the table's phone lost its network")


def _cut_short(http: Client, match_id: str, auth: dict[str, str], stream: type[io.BytesIO]) -> Any:
    """A write whose body ends before its Content-Length says (the sender hung up midway), sent
    to the app as a server hands it over: its status, its body, and the match's version after."""
    body = json.dumps(SCRIPT["actions"][0]).encode()
    environ = EnvironBuilder(
        path=f"/v1/matches/{match_id}/actions", method="POST", data=body, headers=list(auth.items())
    ).get_environ()
    environ.update({"CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body) + 40)})
    environ["wsgi.input"] = stream(body)
    answer, status, _ = run_wsgi_app(http.application, environ)
    version = http.get(f"/v1/matches/{match_id}", headers=auth).json["version"]
    return status, VARYING.sub("~", b"".join(answer).decode()), version


@pytest.mark.parametrize("stream", [io.BytesIO, _Broken], ids=["ended early", "broken"])
def test_a_body_cut_short_is_refused_as_the_documented_view_refuses_it(
    app: Flask, stream: type[io.BytesIO]
) -> None:
    lean, full = _both(app)
    answers = [_cut_short(http, *_create(http), stream) for http in (lean, full)]
    assert answers[0] == answers[1]
    status, body, version = answers[0]
    assert status == "400 BAD REQUEST" and "the request could not be read" in body
    assert version == 1  # the match as it was created: nothing recorded


def test_a_whole_match_is_answered_as_the_documented_view_answers_it(app: Flask) -> None:
    lean, full = _both(app)
    tables = [(http, *_create(http)) for http in (lean, full)]
    dispatched: list[str] = []
    with request_started.connected_to(lambda sender, **kw: dispatched.append(request.path), app):
        for step, action in enumerate(SCRIPT["actions"][:40]):
            extra = {"Accept-Language": "ja", "X-Request-Id": f"table-{step}"} if step % 3 == 0 else {}
            answers = [_send(http, match_id, auth, action, **extra) for http, match_id, auth in tables]
            assert answers[0].status_code == 201, answers[0].json
            assert _seen(answers[0]) == _seen(answers[1])
    # Only the app behind the lean route dispatched them: the lean route answered its own.
    assert dispatched == [f"/v1/matches/{tables[1][1]}/actions"] * 40


def test_a_retry_under_its_key_gets_the_first_answer_and_counts_against_the_rate(
    settings: Settings, redis_client: redis.Redis
) -> None:
    app = create_app(dataclasses.replace(settings, write_rate="2/minute"))
    try:
        http = Client(app)
        match_id, auth = _create(http)
        key = {"Idempotency-Key": "round-1-start"}
        first = _send(http, match_id, auth, SCRIPT["actions"][0], **key)
        again = _send(http, match_id, auth, SCRIPT["actions"][0], **key)
        assert first.status_code == again.status_code == 201
        assert again.json == first.json
        over = _send(http, match_id, auth, SCRIPT["actions"][1], **{"Accept-Language": "ja"})
        assert over.status_code == 429 and over.headers["Retry-After"]
        assert over.mimetype == "application/problem+json" and over.headers["Content-Language"] == "ja"
    finally:
        app.extensions["tabletape"].close()


def test_a_lean_write_is_counted_and_logged_with_its_request_id(
    settings: Settings, redis_client: redis.Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    app = create_app(dataclasses.replace(settings, json_logs=True))
    try:
        http = Client(app)
        match_id, auth = _create(http)
        answer = _send(http, match_id, auth, SCRIPT["actions"][0], **{"X-Request-Id": "table-7"})
        assert answer.status_code == 201 and answer.headers["X-Request-Id"] == "table-7"
        lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
        answered = [line for line in lines if line["message"] == "answered" and line["status"] == 201]
        assert answered[-1]["request_id"] == "table-7"
        assert answered[-1]["path"] == f"/v1/matches/{match_id}/actions"
        scraped = http.get("/metrics").get_data(as_text=True)
        assert 'tabletape_appends_total{route="matches.post_action"} 1.0' in scraped
    finally:
        app.extensions["tabletape"].close()
        logging.getLogger().handlers = []


def test_with_cors_on_a_write_answers_its_origin_and_varies_by_it(
    settings: Settings, redis_client: redis.Redis
) -> None:
    app = create_app(dataclasses.replace(settings, cors_origins=("https://score.example",)))
    try:
        lean, full = _both(app)
        for origin in ({"Origin": "https://score.example"}, {}):
            answers = []
            for http in (lean, full):
                match_id, auth = _create(http)
                answers.append(_send(http, match_id, auth, SCRIPT["actions"][0], **origin))
            if origin:
                assert answers[0].headers["Access-Control-Allow-Origin"] == "https://score.example"
            assert answers[0].status_code == 201
            assert _seen(answers[0]) == _seen(answers[1])
            assert "Origin" in answers[0].headers["Vary"]
    finally:
        app.extensions["tabletape"].close()


def test_a_request_counts_as_under_way_until_the_app_has_answered_it(app: Flask) -> None:
    """A write sends its projection apart only with nothing else under way in its process
    (``Recorder.requests``): every request counts while the app answers it, and no longer."""
    under_way = app.extensions["tabletape"].recorder.requests
    match_id, auth = _create(Client(app))
    assert len(under_way) == 0
    seen: list[int] = []

    def answering(status: str, headers: Any, *rest: Any) -> Any:
        seen.append(len(under_way))

    start_response: Any = answering
    for method, path, body in [
        ("GET", "/v1/matches", None),
        ("GET", f"/v1/matches/{match_id}/state", None),
        # The common write, answered by the lean route itself, and one the app answers.
        ("POST", f"/v1/matches/{match_id}/actions", SCRIPT["actions"][0]),
        ("POST", f"/v1/matches/{match_id}/undo", None),
    ]:
        environ = EnvironBuilder(
            method=method, path=path, json=body, headers=list(auth.items())
        ).get_environ()
        b"".join(app.wsgi_app(environ, start_response))
        assert seen[-1] == 1, path
        assert len(under_way) == 0, path
