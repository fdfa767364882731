"""HTTP conventions a client relies on, on every route: Location on a 201, typos in the query
refused, ETags a write can send back as If-Match, request ids, CORS that caches say apart."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import redis
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.urls import iri_to_uri

from service.app import create_app
from service.config import Settings
from service.http.conventions import URI
from tests.service.conftest import Table

WIZARD = {"setup": {"first_dealer": "ann"}}


def test_every_201_says_where_the_new_thing_is(table: Callable[..., Table], client: FlaskClient) -> None:
    made = client.post("/v1/matches", json={"game": "wizard", "players": ["ann", "bob", "cy"], **WIZARD})
    match_id = made.json["id"]
    assert made.status_code == 201 and made.headers["Location"] == f"/v1/matches/{match_id}"
    auth = {"Authorization": f"Bearer {made.json['token']}"}
    acted = client.post(
        f"/v1/matches/{match_id}/actions", json={"type": "start_round", "trump_card": "7H"}, headers=auth
    )
    assert acted.headers["Location"] == f"/v1/matches/{match_id}/events?from=2&to=2"
    assert client.get(acted.headers["Location"]).json["events"][0]["type"] == "RoundStarted"
    forked = client.post(f"/v1/matches/{match_id}/fork", json={"at": 2})
    assert forked.status_code == 201 and forked.headers["Location"] == f"/v1/matches/{forked.json['id']}"


def test_a_location_under_a_mount_point_that_is_not_ascii_is_sent_as_a_uri(client: FlaskClient) -> None:
    # Mounted under /bühne: the WSGI server hands the app the path's bytes as latin-1 text.
    mounted = {"SCRIPT_NAME": "/bühne".encode().decode("latin-1")}
    body = {"game": "wizard", "players": ["ann", "bob", "cy"], **WIZARD}
    made = client.post("/v1/matches", json=body, environ_overrides=mounted)
    match_id = made.json["id"]
    assert made.headers["Location"] == f"/b%C3%BChne/v1/matches/{match_id}"
    acted = client.post(
        f"/v1/matches/{match_id}/actions",
        json={"type": "start_round", "trump_card": "7H"},
        headers={"Authorization": f"Bearer {made.json['token']}"},
        environ_overrides=mounted,
    )
    assert acted.headers["Location"] == f"/b%C3%BChne/v1/matches/{match_id}/events?from=2&to=2"


@given(st.text(alphabet="/?#%&=:;@!$'()*+,-._~ \"<>[]^`{|}\\aZ09üé", max_size=16))
def test_a_location_sent_as_it_is_is_one_the_iri_conversion_gives_back_unchanged(tail: str) -> None:
    location = "/" + tail
    if URI.fullmatch(location):
        assert iri_to_uri(location) == location


def test_an_unknown_query_parameter_is_refused_with_its_name(client: FlaskClient) -> None:
    answer = client.get("/v1/matches", query_string={"plyer": "ann"})
    assert answer.status_code == 400 and answer.json["code"] == "unknown_parameter"
    assert "plyer" in answer.json["detail"] and "player" in answer.json["detail"]
    assert client.get("/v1/games", query_string={"verbose": "1"}).status_code == 400
    assert client.get("/v1/matches", query_string={"player": "ann"}).status_code == 200


def test_an_unknown_body_field_is_refused_with_its_name(client: FlaskClient) -> None:
    answer = client.post(
        "/v1/matches", json={"game": "wizard", "players": ["ann", "bob", "cy"], "playres": 3}
    )
    assert answer.status_code == 400 and "playres" in answer.json["detail"]


def test_the_etag_of_a_read_works_as_if_match_on_a_write(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = table("wizard", ["ann", "bob", "cy"], **WIZARD)
    etag = match.get().headers["ETag"]
    assert etag.startswith('"1.')
    first = match.act({"type": "start_round", "trump_card": "7H"}, **{"If-Match": etag})
    assert first.status_code == 201
    stale = match.act({"type": "bid", "player": "bob", "tricks": 1}, **{"If-Match": etag})
    assert stale.status_code == 412
    assert match.get().headers["ETag"].startswith('"2.')


def test_a_read_answers_304_to_its_own_etag(table: Callable[..., Table], client: FlaskClient) -> None:
    match = table("wizard", ["ann", "bob", "cy"], **WIZARD)
    etag = client.get(f"/v1/matches/{match.id}").headers["ETag"]
    assert client.get(f"/v1/matches/{match.id}", headers={"If-None-Match": etag}).status_code == 304


def test_a_request_id_is_echoed_or_made(client: FlaskClient) -> None:
    assert (
        client.get("/v1/games", headers={"X-Request-Id": "table-7.42"}).headers["X-Request-Id"]
        == "table-7.42"
    )
    made = client.get("/v1/games", headers={"X-Request-Id": "bad id; forged=1"}).headers["X-Request-Id"]
    assert made and " " not in made and made != "bad id; forged=1"


def test_cors_answers_vary_by_origin_and_preflights_are_cached(
    settings: Settings, redis_client: redis.Redis
) -> None:
    app = create_app(dataclasses.replace(settings, cors_origins=("https://score.example",)))
    try:
        http = app.test_client()
        answer = http.get("/v1/games", headers={"Origin": "https://score.example"})
        assert answer.headers["Access-Control-Allow-Origin"] == "https://score.example"
        assert "Origin" in answer.headers["Vary"]
        preflight = http.options(
            "/v1/matches",
            headers={"Origin": "https://score.example", "Access-Control-Request-Method": "POST"},
        )
        assert preflight.headers["Access-Control-Max-Age"] == "600"
    finally:
        app.extensions["tabletape"].close()


def test_every_list_links_its_pages_the_same_way(table: Callable[..., Table], client: FlaskClient) -> None:
    match = table("wizard", ["ann", "bob", "cy"], **WIZARD)
    for action in [
        {"type": "start_round", "trump_card": "7H"},
        {"type": "bid", "player": "bob", "tricks": 1},
    ]:
        match.ok(action)
    table("wizard", ["ann", "bob", "cy"], **WIZARD)
    for first in (
        f"/v1/matches/{match.id}/events?limit=2",
        f"/v1/matches/{match.id}/replay?limit=2",
        "/v1/matches?limit=1",
    ):
        page = client.get(first).json
        assert set(page["links"]) >= {"self", "first", "prev", "next", "last"}, first
        assert page["links"]["prev"] is None and page["links"]["next"] is not None
        seen = [page["links"]["self"]]
        while page["links"]["next"]:
            page = client.get(page["links"]["next"]).json
            seen.append(page["links"]["self"])
        assert seen[-1] == page["links"]["last"] and page["links"]["first"] == seen[0]


def test_timestamps_have_one_form_in_the_list_the_match_and_its_events(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = table("wizard", ["ann", "bob", "cy"], **WIZARD)
    listed = client.get("/v1/matches").json["matches"][0]["created_at"]
    shown = match.get().json["created_at"]
    event = match.get("events").json["events"][0]["meta"]["ts"]
    pattern = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$"
    import re

    assert all(re.match(pattern, stamp) for stamp in (listed, shown, event)), (listed, shown, event)
    assert listed == shown
