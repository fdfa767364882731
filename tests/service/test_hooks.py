"""Registering webhooks: the operator's (a deployment API key), and never to a private address."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from projections.hooks.delivery import PAUSE_AFTER, deliver, delivery_id, signature
from projections.hooks.registry import Hooks
from service.app import create_app
from service.config import Settings

KEY = "operator-key"


@pytest.fixture
def app(settings: Settings, redis_client: redis.Redis) -> Iterator[Flask]:
    """The API with a deployment key and no network allowed beside the public internet."""
    app = create_app(dataclasses.replace(settings, api_keys=(KEY,)))
    yield app
    app.extensions["tabletape"].close()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/x",
        "http://localhost/x",
        "http://10.1.2.3/x",
        "http://169.254.169.254/latest",
        "http://[::1]/x",
    ],
)
def test_a_hook_to_a_loopback_link_local_or_private_address_is_refused(client: FlaskClient, url: str) -> None:
    answer = client.post("/v1/hooks", json={"url": url, "events": ["*"]}, headers={"X-API-Key": KEY})
    assert answer.status_code == 422
    assert answer.json["code"] == "hook_refused" and "address" in answer.json["detail"]


def test_hooks_are_the_operators_only(client: FlaskClient) -> None:
    body = {"url": "http://127.0.0.1/x", "events": ["*"]}
    assert client.post("/v1/hooks", json=body).status_code == 401
    assert client.post("/v1/hooks", json=body, headers={"X-API-Key": "guess"}).status_code == 403
    assert client.get("/v1/hooks").status_code == 401


def test_a_hook_url_must_be_http_and_its_kinds_known(client: FlaskClient) -> None:
    bad_scheme = client.post(
        "/v1/hooks", json={"url": "file:///etc/passwd", "events": ["*"]}, headers={"X-API-Key": KEY}
    )
    assert bad_scheme.status_code == 422 and "http" in bad_scheme.json["detail"]
    bad_kind = client.post(
        "/v1/hooks",
        json={"url": "http://127.0.0.1/x", "events": ["match.exploded"]},
        headers={"X-API-Key": KEY},
    )
    assert bad_kind.status_code == 422 and "match.exploded" in bad_kind.json["detail"]


def test_an_allowed_network_registers_lists_without_its_secret_and_deletes(
    settings: Settings, redis_client: redis.Redis
) -> None:
    app = create_app(dataclasses.replace(settings, api_keys=(KEY,), hooks_allow=("127.0.0.0/8",)))
    try:
        client = app.test_client()
        made = client.post(
            "/v1/hooks",
            json={"url": "http://127.0.0.1:9/x", "events": ["match.finished"]},
            headers={"X-API-Key": KEY},
        )
        assert made.status_code == 201 and made.json["secret"].startswith("whsec_")
        listed = client.get("/v1/hooks", headers={"X-API-Key": KEY}).json["hooks"]
        assert [h["id"] for h in listed] == [made.json["id"]] and "secret" not in listed[0]
        assert client.get(f"/v1/hooks/{made.json['id']}/deliveries", headers={"X-API-Key": KEY}).json == {
            "deliveries": []
        }
        assert client.delete(f"/v1/hooks/{made.json['id']}", headers={"X-API-Key": KEY}).status_code == 204
        assert client.delete(f"/v1/hooks/{made.json['id']}", headers={"X-API-Key": KEY}).status_code == 404
    finally:
        app.extensions["tabletape"].close()


def test_a_signature_is_the_hmac_of_the_timestamp_and_the_body() -> None:
    assert signature("s", "1700000000", b"{}") == signature("s", "1700000000", b"{}")
    assert signature("s", "1700000000", b"{}") != signature("s", "1700000001", b"{}")


def test_a_setting_that_names_no_network_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="TABLETAPE_HOOKS_ALLOW"):
        Settings.from_env({"TABLETAPE_HOOKS_ALLOW": "localhost"})


class Failing(BaseHTTPRequestHandler):
    """A receiver that answers every delivery with 500."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(500)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_a_hook_that_keeps_failing_is_paused_and_says_so(
    settings: Settings, redis_client: redis.Redis
) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Failing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    app = create_app(dataclasses.replace(settings, api_keys=(KEY,), hooks_allow=("127.0.0.0/8",)))
    try:
        client = app.test_client()
        url = f"http://127.0.0.1:{server.server_address[1]}/x"
        hook = client.post("/v1/hooks", json={"url": url, "events": ["*"]}, headers={"X-API-Key": KEY}).json
        hooks = Hooks(redis_client, app.extensions["tabletape"].keys)
        event = {"match_id": "m", "seq": 1, "type": "MatchCreated", "data": {}, "meta": {}}
        body = json.dumps(
            {"delivery_id": delivery_id(hook["id"], event), "hook_id": hook["id"], "event": event}
        )
        for _ in range(PAUSE_AFTER):
            assert deliver(hooks, hook["id"], body, 0)["status"] == 500
        listed = client.get("/v1/hooks", headers={"X-API-Key": KEY}).json["hooks"][0]
        assert listed["paused"] is True and "failed attempts" in listed["paused_reason"]
        assert "paused" in deliver(hooks, hook["id"], body, 0)["error"]
        log = client.get(f"/v1/hooks/{hook['id']}/deliveries", headers={"X-API-Key": KEY}).json["deliveries"]
        assert len(log) == PAUSE_AFTER + 1 and {e["delivery_id"] for e in log} == {
            delivery_id(hook["id"], event)
        }
        resumed = client.post(f"/v1/hooks/{hook['id']}/resume", headers={"X-API-Key": KEY}).json
        assert resumed["paused"] is False
    finally:
        server.shutdown()
        app.extensions["tabletape"].close()
