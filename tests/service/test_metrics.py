"""GET /metrics as Prometheus scrapes it, and JSON logs that carry the request id."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable

import pytest
import redis
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.config import Settings
from tests.service.conftest import Table


def samples(client: FlaskClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    found = {}
    for family in text_string_to_metric_families(answer.get_data(as_text=True)):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_metrics_count_requests_appends_conflicts_and_show_the_lag_and_the_queue(
    table: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    assert match.act({"type": "bid", "player": "bob", "tricks": 1}, **{"If-Match": "1"}).status_code == 412
    client.get("/v1/matches", query_string={"plyer": "x"})
    seen = samples(client)
    act = (("method", "POST"), ("route", "matches.post_action"))
    assert seen[("tabletape_http_requests_total", (*act[:1], act[1], ("status", "201")))] == 1
    assert (
        seen[
            (
                "tabletape_http_requests_total",
                (("method", "GET"), ("route", "matches.list_matches"), ("status", "400")),
            )
        ]
        == 1
    )
    assert seen[("tabletape_appends_total", (("route", "matches.post_action"),))] == 1
    assert seen[("tabletape_appends_total", (("route", "matches.create_match"),))] == 1
    assert (
        seen[("tabletape_write_conflicts_total", (("route", "matches.post_action"), ("status", "412")))] == 1
    )
    assert seen[("tabletape_http_request_duration_seconds_count", act)] == 2
    assert seen[("tabletape_projection_lagging_matches", ())] == 1
    assert seen[("tabletape_projection_queue_depth", ())] >= 1
    work()
    after = samples(client)
    assert after[("tabletape_projection_lagging_matches", ())] == 0
    assert after[("tabletape_projection_queue_depth", ())] == 0


def test_json_logs_are_one_object_a_line_with_the_request_id(
    settings: Settings, redis_client: redis.Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    app = create_app(dataclasses.replace(settings, json_logs=True))
    try:
        app.test_client().get("/v1/games", headers={"X-Request-Id": "table-7"})
        lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
        answered = [line for line in lines if line["message"] == "answered"]
        assert answered and answered[-1]["request_id"] == "table-7" and answered[-1]["status"] == 200
        assert answered[-1]["path"] == "/v1/games"
    finally:
        app.extensions["tabletape"].close()
        logging.getLogger().handlers = []
