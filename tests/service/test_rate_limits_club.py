"""Rate limits stop a flood, not a club: a tournament's tables behind one address (a NAT) record
with the default settings; writes count against the match's token, not the address."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.config import Settings
from service.http.rate_limits import write_caller

VENUE = {"REMOTE_ADDR": "203.0.113.7"}


def _defaults() -> dict[str, Any]:
    """The rate limit settings a deployment has when it sets none."""
    chosen = Settings.from_env({})
    return {
        f.name: getattr(chosen, f.name)
        for f in dataclasses.fields(chosen)
        if "rate" in f.name or "burst" in f.name
    }


@pytest.fixture
def venue(settings: Settings, redis_client: redis.Redis) -> Iterator[Callable[..., FlaskClient]]:
    """Clients of an app with the default rate limits (unless told), all from the venue's one address."""
    made: list[Flask] = []

    def make(**chosen: Any) -> FlaskClient:
        app = create_app(dataclasses.replace(settings, **(_defaults() | chosen)))
        made.append(app)
        web = app.test_client()
        web.environ_base.update(VENUE)
        return web

    yield make
    for app in made:
        app.extensions["tabletape"].close()


def _wizard() -> dict[str, Any]:
    return {"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}}


def _writes(web: FlaskClient, made: dict[str, Any], count: int) -> list[int]:
    """``count`` recorded writes to one match with its token: a round started, then undo and redo."""
    auth = {"Authorization": f"Bearer {made['token']}"}
    base = f"/v1/matches/{made['id']}"
    codes = [
        web.post(
            f"{base}/actions", json={"type": "start_round", "trump_card": "7H"}, headers=auth
        ).status_code
    ]
    for n in range(count - 1):
        codes.append(web.post(f"{base}/{'undo' if n % 2 == 0 else 'redo'}", headers=auth).status_code)
    return codes


def test_a_tournament_round_of_64_tables_creates_every_match_from_one_address(
    venue: Callable[..., FlaskClient],
) -> None:
    web = venue()
    codes = [web.post("/v1/matches", json=_wizard()).status_code for _ in range(64)]
    assert codes.count(429) == 0 and codes == [201] * 64


def test_64_tables_recording_a_card_every_two_seconds_for_a_minute_from_one_address_all_pass(
    venue: Callable[..., FlaskClient],
) -> None:
    web = venue()
    tables = [web.post("/v1/matches", json=_wizard()).json for _ in range(64)]
    # A minute at a card every two seconds is 30 writes a table: 1,920 from the venue's address,
    # sent here as fast as the test client goes, so within one window of every limit.
    codes = [code for made in tables for code in _writes(web, made, 30)]
    assert len(codes) == 64 * 30 and codes.count(429) == 0 and set(codes) == {201}


def test_a_phone_back_online_syncs_250_queued_actions_of_its_own_match(
    venue: Callable[..., FlaskClient],
) -> None:
    web = venue()
    # The other tables of the venue record meanwhile, from the same address.
    others = [web.post("/v1/matches", json=_wizard()).json for _ in range(16)]
    assert {code for table in others for code in _writes(web, table, 25)} == {201}
    made = web.post("/v1/matches", json=_wizard()).json
    codes = _writes(web, made, 250)
    assert codes.count(429) == 0 and set(codes) == {201}


def test_an_anonymous_flood_of_creations_is_refused_with_retry_after_and_the_setting_to_raise(
    venue: Callable[..., FlaskClient],
) -> None:
    web = venue()
    codes = [web.post("/v1/matches", json=_wizard()).status_code for _ in range(400)]
    assert codes.count(201) >= 150 and codes.count(429) >= 100
    refused = web.post("/v1/matches", json=_wizard())
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "TABLETAPE_RATE_LIMIT_CREATE" in refused.json["detail"]
    assert refused.json["setting"].startswith("TABLETAPE_RATE_LIMIT_CREATE")
    # Another address is counted apart.
    assert (
        web.post("/v1/matches", json=_wizard(), environ_base={"REMOTE_ADDR": "198.51.100.2"}).status_code
        == 201
    )


def test_writes_without_a_token_count_against_the_address_and_say_which_setting_raises_it(
    venue: Callable[..., FlaskClient],
) -> None:
    web = venue(write_rate="5/minute")
    made = web.post("/v1/matches", json=_wizard()).json
    codes = [web.post(f"/v1/matches/{made['id']}/undo").status_code for _ in range(7)]
    assert codes == [401] * 5 + [429] * 2
    refused = web.post(f"/v1/matches/{made['id']}/undo")
    assert refused.json["setting"] == "TABLETAPE_RATE_LIMIT_WRITE"
    # The match's own token has a budget of its own.
    assert _writes(web, made, 3) == [201] * 3


def test_each_token_is_its_own_caller_and_a_header_without_one_counts_by_each_address() -> None:
    # Every write asks whom it counts as, and a token's digest is remembered (write_caller):
    # the same header must still name the same caller, another token another one, and a header
    # that is no bearer token must never be remembered in place of the address it came from.
    one = {"HTTP_AUTHORIZATION": "Bearer first-token", "REMOTE_ADDR": "203.0.113.7"}
    other = {"HTTP_AUTHORIZATION": "Bearer second-token", "REMOTE_ADDR": "203.0.113.7"}
    first = write_caller(one)
    assert first == "tok-" + hashlib.sha256(b"first-token").hexdigest()[:32]
    assert write_caller(dict(one, REMOTE_ADDR="198.51.100.1")) == first
    assert write_caller(other) not in (first, write_caller({"REMOTE_ADDR": "203.0.113.7"}))
    for header in ("Basic Zm9vOmJhcg==", "Bearer ", ""):
        for address in ("203.0.113.7", "198.51.100.1"):
            assert write_caller({"HTTP_AUTHORIZATION": header, "REMOTE_ADDR": address}) == f"addr-{address}"
