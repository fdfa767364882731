"""The write side and the match list: create, list, show, act, undo, redo."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Response, request, url_for

from events.codec import dumps_sorted
from service.api import (
    CREATE_HEADERS,
    WRITE_HEADERS,
    api_key,
    bearer_token,
    idempotency_key,
    if_match,
    match_blueprint,
    page_links,
    services,
)
from service.api.schemas.answers import CreatedSchema, MatchOut, MatchPage, RecordedSchema
from service.api.schemas.requests import Action, CreateMatch, MatchesQuery
from service.http.rate_limits import rate_counters
from service.recording.answers import Recorded

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
blp = match_blueprint("matches", __name__, "Record matches and correct them.")


def links(match_id: str) -> dict[str, str]:
    """Where to read a match."""
    return {
        name: url_for(f"reads.{name}", match_id=match_id) for name in ("events", "state", "replay", "scores")
    } | {"self": url_for("matches.show_match", match_id=match_id)}


def recorded(answer: Recorded) -> dict[str, Any]:
    """The body of a write's answer."""
    return {
        "id": answer.match_id,
        "version": answer.version,
        "events": [e.as_dict() for e in answer.events],
        "state": answer.state,
    }


def answer_body(answer: Recorded) -> bytes:
    """A write's answer's body, in the documented shape (``RecordedSchema``; the API's schema
    tests check every answer against it), written as it is instead of dumped through the schema
    again: the state as the write wrote it out, between the other fields, in the order of their names."""
    events = dumps_sorted([e.as_dict() for e in answer.events])
    parts = (b'{"events":', events, b',"id":', dumps_sorted(answer.match_id), b',"state":', answer.state_json)
    return b"".join((*parts, b',"version":%d}\n' % answer.version))


def steps_location(answer: Recorded, root: str) -> str | None:
    """Where to read the steps a write appended (its Location), under the app's ``root`` path."""
    if not answer.events:
        return None
    first, last = answer.events[0].seq, answer.events[-1].seq
    # The route of reads.events, spelled out: building it with url_for costs more than the
    # rest of the answer; a match id is 16 hex digits, nothing to quote in a URL.
    # (tests/service/test_http_conventions.py reads it back.)
    return f"{root}/v1/matches/{answer.match_id}/events?from={first}&to={last}"


def appended(answer: Recorded, root: str) -> Response:
    """A write's answer: 201 with the steps it appended at Location (``root``: the app's path)."""
    response = Response(answer_body(answer), status=201, content_type="application/json")
    location = steps_location(answer, root)
    if location is not None:
        response.headers["Location"] = location
    return response


def _links_from_created() -> dict[str, Any]:
    """OpenAPI links from a created match to the operations on it (for clients and fuzzers)."""
    by_id = {"match_id": "$response.body#/id"}
    write = {**by_id, "header.Authorization": "Bearer {$response.body#/token}"}
    targets = {
        "show": ("", "get", by_id),
        "act": ("/actions", "post", write),
        "undo": ("/undo", "post", write),
        "redo": ("/redo", "post", write),
        "scores": ("/scores", "get", by_id),
        "events": ("/events", "get", by_id),
        "state": ("/state", "get", by_id),
        "replay": ("/replay", "get", by_id),
        "next": ("/next", "get", by_id),
        "batch": ("/actions/batch", "post", write),
    }
    return {
        name: {
            "operationRef": f"#/paths/~1v1~1matches~1{{match_id}}{tail.replace('/', '~1')}/{verb}",
            "parameters": params,
        }
        for name, (tail, verb, params) in targets.items()
    }


@blp.route("", methods=["POST"])
@blp.doc(responses={201: {"links": _links_from_created()}}, parameters=CREATE_HEADERS)
@blp.arguments(CreateMatch())
@blp.response(201, CreatedSchema)
def create_match(body: dict[str, Any]) -> dict[str, Any]:
    """Create a match; the answer carries its write token, shown only this once (and again to a
    retry under the same Idempotency-Key)."""
    where = {"timezone": body["timezone"], "location": body.get("location", "")}
    made = services().recorder.create(
        body["game"], body["players"], body["setup"], body["options"], where, api_key(), idempotency_key()
    )
    return recorded(made.recorded) | {
        "token": made.token,
        "recovery_code": made.recovery_code,
        "game": made.game.id,
        "players": made.players,
        "setup": made.setup,
        "options": made.options,
        "links": links(made.match_id),
    }


@blp.route("", methods=["GET"])
@blp.arguments(MatchesQuery(), location="query")
@blp.response(200, MatchPage)
def list_matches(query: dict[str, Any]) -> dict[str, Any]:
    """Matches newest first, filtered by game, player, status and creation date."""
    filters = {k: query[k] for k in ("game", "player", "status") if query.get(k)}
    found, total = services().queries.match_page(
        filters, _ms(query.get("since")), _ms(query.get("until")), query["offset"], query["limit"]
    )
    return {
        "matches": [_stamped(m) for m in found],
        "total": total,
        "offset": query["offset"],
        "limit": query["limit"],
        "links": _page_links(query, total),
    }


@blp.route("/<match_id>", methods=["GET"])
@blp.response(200, MatchOut)
def show_match(match_id: str) -> dict[str, Any]:
    """A match's players, setup, options, version and status.

    Hands recorded in the setup are held back until the match is over, except from the holder of
    the match's write token (Authorization: Bearer <token>)."""
    shown = services().queries.describe(match_id, bearer_token())
    origin = shown.pop("forked_from")
    return shown | {"links": links(match_id) | _origin(origin)}


@blp.route("/<match_id>/actions", methods=["POST"])
@blp.arguments(Action())
@blp.response(201, RecordedSchema)
@blp.doc(parameters=WRITE_HEADERS)
def post_action(action: dict[str, Any], match_id: str) -> Response:
    """Record one action; the rules check it and derive its events."""
    recorder, environ = services().recorder, request.environ
    answer = recorder.act(
        match_id, bearer_token(environ), action, if_match(environ), idempotency_key(environ), rate_counters()
    )
    return appended(answer, request.script_root)


@blp.route("/<match_id>/undo", methods=["POST"])
@blp.response(201, RecordedSchema)
@blp.doc(parameters=WRITE_HEADERS)
def undo(match_id: str) -> Response:
    """Take back the last effective action (and the events it derived) by appending a correction."""
    return _corrected(services().recorder.undo, match_id)


@blp.route("/<match_id>/redo", methods=["POST"])
@blp.response(201, RecordedSchema)
@blp.doc(parameters=WRITE_HEADERS)
def redo(match_id: str) -> Response:
    """Re-apply the action the last undo took back, until a new action is recorded."""
    return _corrected(services().recorder.redo, match_id)


def _corrected(correct: Callable[..., Recorded], match_id: str) -> Response:
    """The answer to an undo or a redo (``correct``) of the match, with the request's conditions."""
    environ = request.environ
    token, key = bearer_token(environ), idempotency_key(environ)
    return appended(correct(match_id, token, if_match(environ), key, rate_counters()), request.script_root)


def _origin(origin: str | None) -> dict[str, str]:
    """A link to the match a fork was made from, if it is one."""
    return {"origin": url_for("matches.show_match", match_id=origin)} if origin else {}


def _page_links(query: dict[str, Any], total: int) -> dict[str, str | None]:
    """Links to the pages beside this one, with the same filters."""
    kept: dict[str, Any] = {
        k: v.isoformat() if isinstance(v, datetime) else v
        for k, v in query.items()
        if k not in ("offset", "limit") and v is not None
    }

    def page(start: int) -> str:
        return url_for("matches.list_matches", **kept, offset=start, limit=query["limit"])

    return page_links(page, query["offset"], query["limit"], total)


def _stamped(summary: dict[str, Any]) -> dict[str, Any]:
    """A list entry with its creation time in the API's one form (ISO 8601, ms, UTC offset)."""
    created = datetime.fromtimestamp(int(summary.get("created_ms", 0)) / 1000, UTC)
    return summary | {"created_at": created.isoformat(timespec="milliseconds")}


def _ms(moment: datetime | None) -> int | None:
    """Milliseconds since 1970 (a moment without a zone is UTC); any year 1 to 9999 counts."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    # Subtracting, not .timestamp(): the latter fails for moments before 1970 on some platforms.
    return (moment - EPOCH) // timedelta(milliseconds=1)
