"""Recorded hands are the table's: every read path shows a card to a reader without the write token
once it is played or revealed, the whole deal once the match is over, and everything to the
token's holder at any time (docs/hidden-information.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient

from games.registry import all_games
from projections.live.hub import Feed
from tests.service.conftest import Table, record
from tests.service.test_hidden_bids import export_of, fork, import_of, match_count
from tests.service.test_live_hub import hubs, messages

__all__ = ["hubs"]  # the live hub fixture, shared with the live tests

NDJSON = "application/x-ndjson"
WIZARD_DEAL = {"ann": ["3H"], "bob": ["AS"], "cy": ["KS"]}


def wizard_with_hands(table: Callable[..., Table]) -> Table:
    """Round 1 dealt with every hand recorded; bob has played AS, ann's 3H and cy's KS are held."""
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H", "hands": WIZARD_DEAL})
    for player, bid in (("bob", 1), ("cy", 0), ("ann", 0)):
        match.ok({"type": "bid", "player": player, "tricks": bid})
    match.ok({"type": "play", "player": "bob", "card": "AS"})
    return match


def finish_wizard(match: Table) -> None:
    match.ok({"type": "play", "player": "cy", "card": "KS"})
    match.ok({"type": "play", "player": "ann", "card": "3H"})
    for round_no in range(2, 21):
        zero = {"ann": 0, "bob": 0, "cy": 0}
        match.ok({"type": "record_round", "bids": zero, "tricks": zero | {"ann": round_no}})


# Each game with a match whose hands are recorded and not all played: made, then finished.
EXAMPLES = {"hats": (0, 3), "hobbit": (9, 2)}


def made(table: Callable[..., Table], game_id: str) -> Table:
    if game_id == "wizard":
        return wizard_with_hands(table)
    seed, upto = EXAMPLES[game_id]
    return record(table, game_id, seed, upto)


def finish(match: Table, game_id: str) -> None:
    if game_id == "wizard":
        return finish_wizard(match)
    seed, upto = EXAMPLES[game_id]
    for action in all_games()[game_id].example(seed)["actions"][upto:]:
        match.ok(action)
    assert match.get().json["finished"] is True


def held(client: FlaskClient, match: Table) -> set[str]:
    """The recorded cards still in a hand now, as the token's holder sees them."""
    hands = client.get(f"/v1/matches/{match.id}/state", headers=match.auth).json["state"]["hands"] or {}
    cards: set[str] = set()
    for hand in hands.values():
        if isinstance(hand, dict):  # Hats: the cards surely held, and the candidates
            cards |= set(hand["known"]) | set(hand["maybe"])
        else:
            cards |= {c for c in hand if c is not None}
    return cards


@dataclass(frozen=True)
class DealtMatch:
    """A match whose hands are recorded and not all played, and the cards still held."""

    game_id: str
    match: Table
    secret: set[str]


@pytest.fixture(params=["wizard", "hobbit", "hats"])
def dealt_match(
    request: pytest.FixtureRequest, client: FlaskClient, table: Callable[..., Table]
) -> DealtMatch:
    """Each game in turn: its match made with hands recorded, and what the hands still hold."""
    match = made(table, request.param)
    return DealtMatch(request.param, match, held(client, match))


def without_marks(value: Any) -> Any:
    """A value without The Hobbit's printed mark table, which names every card of the deck."""
    if isinstance(value, dict):
        return {k: without_marks(v) for k, v in value.items() if k != "marks"}
    if isinstance(value, list):
        return [without_marks(v) for v in value]
    return value


def reads(client: FlaskClient, match: Table, app: Any, hubs: Any, **headers: str) -> dict[str, Any]:
    """What every read path answers, with or without the token."""
    base = f"/v1/matches/{match.id}"
    version = match.log_length()

    def get(path: str, **more: str) -> Any:
        answer = client.get(base + path, headers=headers | more)
        assert answer.status_code == 200, (path, answer.data[:300])
        return answer

    everything = bool(headers)
    reader = app.extensions["tabletape"].positions

    def live(last: int | None, limit: int) -> list[Any]:
        feed = Feed(reader, hubs()[0], match.id, last_event_id=last, keepalive=10, everything=everything)
        return [data for _, data, _ in messages(feed, limit=limit)]

    return {
        "match": get("").json,
        "state": get("/state").json,
        "state_at": [get(f"/state?at={n}").json for n in range(1, version + 1)],
        "events": get("/events").json,
        "ndjson": [json.loads(line) for line in get("/events", Accept=NDJSON).data.decode().splitlines()],
        "replay": get("/replay").json,
        "replay_raw": get("/replay?raw=true").json,
        "export": [json.loads(line) for line in get("/export").data.decode().splitlines()],
        "live": live(0, version),
        "live_now": live(None, 1),
        "scores": get("/scores").json,
        "list": client.get("/v1/matches", headers=headers).json,
    }


def cards_in(value: Any, cards: set[str]) -> set[str]:
    text = json.dumps(without_marks(value))
    return {card for card in cards if json.dumps(card) in text}


def test_no_read_without_the_token_shows_a_card_still_in_a_recorded_hand(
    client: FlaskClient, app: Any, hubs: Any, dealt_match: DealtMatch
) -> None:
    match, secret = dealt_match.match, dealt_match.secret
    assert secret
    public = reads(client, match, app, hubs)
    leaks = {path: cards_in(answer, secret) for path, answer in public.items()}
    assert leaks == {path: set() for path in public}
    export = public["export"]
    assert export[0]["partial"] is True and export[0]["hidden_steps"]
    assert any(e["data"].get("hidden") for e in public["events"]["events"])


def test_the_token_holder_sees_every_recorded_card_on_every_read(
    client: FlaskClient, app: Any, hubs: Any, dealt_match: DealtMatch
) -> None:
    match, secret = dealt_match.match, dealt_match.secret
    mine = reads(client, match, app, hubs, **match.auth)
    shown = {path: cards_in(answer, secret) == secret for path, answer in mine.items()}
    # The deal is in the log, so every path that carries events or states shows it; the scores and
    # the list show no hand at all, the match's page only the setup (where Hats deals).
    expected = {path: True for path in mine} | {"scores": False, "list": False, "match": False}
    assert shown == expected
    dealt = (mine["match"]["setup"].get("hands") or {}).values()
    assert all(card is not None for hand in dealt for card in hand)
    assert bool(dealt) == (dealt_match.game_id == "hats")
    assert "partial" not in mine["export"][0]


def test_a_played_card_is_public_at_once(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = wizard_with_hands(table)
    events = match.get("events").json["events"]
    assert [e["data"]["card"] for e in events if e["type"] == "CardPlayed"] == ["AS"]
    state = match.get("state").json["state"]
    assert state["hands"] == {"ann": [None], "bob": [], "cy": [None]}
    assert state["trick"] and "AS" in json.dumps(state["trick"])


def test_once_the_match_is_over_every_read_shows_the_whole_deal(
    client: FlaskClient, app: Any, dealt_match: DealtMatch
) -> None:
    match, secret = dealt_match.match, dealt_match.secret
    finish(match, dealt_match.game_id)
    events = match.get("events").json["events"]
    assert not any(e["data"].get("hidden") for e in events)
    assert cards_in(events, secret) == secret
    frames = match.get("replay", raw="true").json["frames"]
    assert cards_in([f["event"] for f in frames], secret) == secret
    assert cards_in([f["state"] for f in frames], secret) == secret
    assert "partial" not in export_of(client, match)[0]
    assert fork(client, match, match.log_length()).status_code == 201
    assert match.get("export", format="bgstats").status_code == 200


def test_copies_without_the_token_are_refused_and_with_it_are_whole(
    client: FlaskClient, app: Any, dealt_match: DealtMatch
) -> None:
    match = dealt_match.match
    before = match_count(app)
    public = export_of(client, match)
    refused = import_of(client, public)
    assert refused.status_code == 422 and refused.json["code"] == "import_refused"
    assert "partial" in refused.json["detail"]
    forked = fork(client, match, match.log_length())
    assert forked.status_code == 403 and forked.json["code"] == "hidden_fact"
    assert "write token" in forked.json["detail"]
    assert match.get("export", format="bgstats").status_code == 409
    assert match_count(app) == before
    full = import_of(client, export_of(client, match, **match.auth))
    assert full.status_code == 201, full.json
    copy = fork(client, match, match.log_length(), **match.auth)
    assert copy.status_code == 201, copy.json
    secret = held(client, match)
    for made_copy in (full.json, copy.json):
        path = f"/v1/matches/{made_copy['id']}/events"
        assert cards_in(client.get(path).json, secret) == set()
        theirs = client.get(path, headers={"Authorization": f"Bearer {made_copy['token']}"}).json
        assert cards_in(theirs, secret) == secret


def test_another_matchs_token_is_refused_on_every_read(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard_with_hands(table)
    other = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    for path in ("", "/state", "/events", "/replay", "/live"):
        answer = client.get(f"/v1/matches/{match.id}{path}", headers=other.auth)
        assert answer.status_code == 403 and answer.json["code"] == "wrong_token", path


def test_the_live_stream_over_http_shows_the_token_holder_the_hands(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard_with_hands(table)

    def first_frame(**headers: str) -> dict[str, Any]:
        answer = client.get(f"/v1/matches/{match.id}/live", headers=headers | {"Last-Event-ID": "1"})
        try:
            for chunk in answer.response:
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                if "event: frame" in text:
                    data: dict[str, Any] = json.loads(text.split("data: ", 1)[1])
                    return data
        finally:
            answer.close()
        raise AssertionError("no frame")

    assert first_frame()["event"]["data"]["hands"] == {"ann": [None], "bob": [None], "cy": [None]}
    assert first_frame(**match.auth)["event"]["data"]["hands"] == WIZARD_DEAL
