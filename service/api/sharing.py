"""Matches as history: live follow (Server-Sent Events), fork, export and import."""

from __future__ import annotations

import threading
from typing import Any

import redis
from flask import Response, current_app, request, url_for

from projections import live
from projections.bgstats import bgstats_play
from projections.disclosure import disclosed
from projections.export import export_lines
from service.api import Blueprint, services
from service.copies import Copied, Copier
from service.errors import BadRequest
from service.schemas.sharing import (
    EVENT_STREAM,
    NDJSON,
    BgStatsPlay,
    CopiedOut,
    ExportQuery,
    ForkIn,
    LiveQuery,
)

blp = Blueprint(
    "history",
    __name__,
    url_prefix="/v1/matches",
    description="Follow a match live, fork it, export it and import it.",
)
_HUB_LOCK = threading.Lock()
_HUB = "tabletape.live"


def live_hub() -> live.LiveHub:
    """The app's live-feed hub (one Redis connection for every spectator), made on first use."""
    parts = services()
    with _HUB_LOCK:
        hub = current_app.extensions.get(_HUB)
        if hub is None:
            url, wait = parts.settings.redis_url, live.BLOCK_MS / 1000 + 10
            hub = live.LiveHub(
                lambda: redis.Redis.from_url(url, socket_timeout=wait, socket_connect_timeout=3),
                parts.store,
                parts.keys,
            )
            current_app.extensions[_HUB] = hub
    return hub


def copier() -> Copier:
    """Forks and imports over the app's store."""
    parts = services()
    return Copier(parts.store, parts.reader, parts.recorder.notify)


def copied(made: Copied) -> dict[str, Any]:
    """The answer to a fork or an import."""
    links = {"self": url_for("matches.show_match", match_id=made.match_id)}
    if "forked_from" in made.origin:
        links["origin"] = url_for("matches.show_match", match_id=made.origin["forked_from"])
    return {
        "id": made.match_id,
        "token": made.token,
        "game": made.game,
        "version": made.version,
        "finished": made.finished,
        "origin": made.origin,
        "links": links,
    }


@blp.route("/<match_id>/live", methods=["GET"])
@blp.arguments(LiveQuery, location="query")
@blp.response(
    200,
    content_type=EVENT_STREAM,
    description=(
        "Server-Sent Events: `state` (the match now), then a `frame` per step (id: the step), then "
        "`end` with the final state once the match is finished. Resume with Last-Event-ID."
    ),
)
def follow(query: dict[str, Any], match_id: str) -> Response:
    """Follow a match live: its state, then every step as it is recorded, until it finishes."""
    header = request.headers.get("Last-Event-ID", "").strip()
    if header and not header.isdigit():
        raise BadRequest(400, "bad_last_event_id", f"Last-Event-ID must be a step number, not {header!r}")
    after = int(header) if header else query.get("last_event_id")
    feed = live.Feed(services().reader, live_hub(), match_id, after)
    return Response(
        feed.lines(),
        mimetype=EVENT_STREAM,
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@blp.route("/<match_id>/fork", methods=["POST"])
@blp.arguments(ForkIn)
@blp.response(201, CopiedOut)
def fork(body: dict[str, Any], match_id: str) -> dict[str, Any]:
    """A new match (new id, new token) whose log is this match's effective history up to step ``at``."""
    return copied(copier().fork(match_id, body["at"]))


@blp.route("/<match_id>/export", methods=["GET"])
@blp.arguments(ExportQuery, location="query")
@blp.response(200, BgStatsPlay, description="format=bgstats: the match as a BG Stats play.")
@blp.alt_response(
    200,
    description="format=ndjson: the header, then one event a line.",
    content_type=NDJSON,
    schema={"type": "string"},
    success=True,
)
def export(query: dict[str, Any], match_id: str) -> Any:
    """The match's log as NDJSON (header first), or a finished match as a BG Stats play."""
    if query["format"] == "bgstats":
        play = bgstats_play(services().reader, match_id)
        if play is None:
            raise BadRequest(409, "not_finished", "only a finished match exports as a BG Stats play")
        return play
    game, now = services().reader.head(match_id)
    lines = export_lines(services().store, match_id, lambda e: disclosed(game, now["game"], e))
    return Response(
        lines, mimetype=NDJSON, headers={"Content-Disposition": f'attachment; filename="{match_id}.ndjson"'}
    )


@blp.route("/import", methods=["POST"])
@blp.response(201, CopiedOut)
@blp.doc(
    requestBody={
        "required": True,
        "description": "An export: the header line, then one event a line.",
        "content": {NDJSON: {"schema": {"type": "string"}}},
    }
)
def import_match() -> dict[str, Any]:
    """Create a match from an NDJSON export, replaying every action through the rules."""
    return copied(copier().import_lines(request.get_data(as_text=True).splitlines()))
