"""The read side: the raw log, rewinds, replays and the scoreboard."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, jsonify, request, stream_with_context, url_for

from projections.disclosure import disclosed, disclosed_all
from projections.reader import frozen
from service.api import Blueprint, services
from service.errors import BadRequest
from service.schemas.reads import (
    EventPage,
    RangeQuery,
    ReplayPage,
    ReplayQuery,
    ScoresOut,
    StateOut,
    StateQuery,
)

blp = Blueprint("reads", __name__, url_prefix="/v1/matches", description="Read, rewind and replay matches.")
NDJSON = "application/x-ndjson"


@blp.route("/<match_id>/events", methods=["GET"])
@blp.arguments(RangeQuery, location="query")
@blp.response(200, EventPage, content_type="application/json")
@blp.alt_response(
    200,
    description="One event a line when Accept is application/x-ndjson",
    content_type=NDJSON,
    schema={"type": "string"},
    success=True,
)
def events(query: dict[str, Any], match_id: str) -> Any:
    """The raw log, steps from..to, paginated; NDJSON with Accept: application/x-ndjson.

    Facts the table cannot see yet (a secret bid before the round is scored) are held back.
    """
    store = services().store
    version = store.version(match_id)
    first = query["from_"]
    last = min(query.get("to") or version, version, first + query["limit"] - 1)
    game, now = services().reader.head(match_id)
    if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
        lines = _ndjson(match_id, first, last, lambda e: disclosed(game, now["game"], e))
        return Response(stream_with_context(lines), mimetype=NDJSON)
    events = store.read(match_id, first, last) if first <= last else []
    page = list(disclosed_all(game, now["game"], (e.as_dict() for e in events)))
    nxt = (
        url_for("reads.events", match_id=match_id, **{"from": last + 1}, limit=query["limit"])
        if last < version and (query.get("to") is None or last < query["to"])
        else None
    )
    return {"events": page, "version": version, "links": {"next": nxt}}


@blp.route("/<match_id>/state", methods=["GET"])
@blp.arguments(StateQuery, location="query")
@blp.response(200, StateOut)
def state(query: dict[str, Any], match_id: str) -> dict[str, Any]:
    """The game's view now, or right after step ``at`` (a rewind), with links to the steps beside it."""
    reader = services().reader
    version = services().store.version(match_id)
    at = query.get("at", version)
    if at > version:
        raise BadRequest(404, "no_such_step", f"step {at} is beyond the match's last step {version}")
    game, env = reader.at(match_id, at)

    def step_link(n: int) -> str | None:
        return url_for("reads.state", match_id=match_id, at=n) if 1 <= n <= version else None

    return {
        "id": match_id,
        "version": at,
        "state": frozen(game.view(env["game"])),
        "links": {"prev": step_link(at - 1), "next": step_link(at + 1), "latest": step_link(version)},
    }


@blp.route("/<match_id>/replay", methods=["GET"])
@blp.arguments(ReplayQuery, location="query")
@blp.response(200, ReplayPage)
def replay(query: dict[str, Any], match_id: str) -> dict[str, Any]:
    """Frames from..to: each step's event and the state after it, computed in one pass."""
    version = services().store.version(match_id)
    first, size = query["from_"], query["limit"]
    last = min(query.get("to") or version, version, first + size - 1)
    frames = list(services().reader.frames(match_id, first, last, query["raw"])) if first <= last else []

    def page(start: int) -> str | None:
        if start < 1 or start > version:
            return None
        args: dict[str, Any] = {"from": start, "limit": size}
        if query["raw"]:
            args["raw"] = "true"
        return url_for("reads.replay", match_id=match_id, **args)

    last_page = max(1, version - (version - 1) % size)
    return {
        "id": match_id,
        "version": version,
        "raw": query["raw"],
        "frames": frames,
        "links": {
            "first": page(1),
            "prev": page(max(1, first - size)) if first > 1 else None,
            "next": page(last + 1),
            "last": page(last_page),
        },
    }


@blp.route("/<match_id>/scores", methods=["GET"])
@blp.response(200, ScoresOut)
def scores(match_id: str) -> Response:
    """The scoreboard the workers projected, with the step it has reached (``version``)."""
    parts = services()
    version = parts.store.version(match_id)
    projected = parts.cache.field(match_id, "scores")
    if projected is None:
        # Not projected yet (a worker has not run since the match was created): fold it here.
        game, env = parts.reader.head(match_id)
        board = frozen(game.scores(env["game"])) | {"version": version, "projected": False}
    else:
        at, board = projected
        board = board | {"version": at, "projected": True}
    return jsonify(board | {"log_version": version})


def _ndjson(
    match_id: str, first: int, last: int, disclose: Callable[[dict[str, Any]], dict[str, Any]]
) -> Iterator[str]:
    for event in services().store.iter_events(match_id, first, last):
        yield json.dumps(disclose(event.as_dict()), separators=(",", ":")) + "\n"
