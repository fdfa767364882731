"""A match beyond its table: followed live (Server-Sent Events), forked, exported and imported."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, request, url_for

from projections.live import hub as live
from service.api import (
    CREATE_HEADERS,
    api_key,
    bearer_token,
    idempotency_key,
    match_blueprint,
    services,
    step_header,
    text_alternative,
)
from service.api.schemas.answers import EVENT_STREAM, NDJSON, BgStatsFile, BgStatsLink, CopiedOut
from service.api.schemas.requests import ExportQuery, ForkIn, ImportQuery, LiveQuery
from service.http.language import renderer
from service.http.live_slots import LiveSlots
from service.recording.answers import Copied

# The blueprint keeps the name it is published under (the OpenAPI tag "history").
blp = match_blueprint("history", __name__, "Follow a match live, fork it, export it and import it.")


def copied(made: Copied) -> dict[str, Any]:
    """The answer to a fork or an import."""
    links = {"self": url_for("matches.show_match", match_id=made.match_id)}
    if "forked_from" in made.origin:
        links["origin"] = url_for("matches.show_match", match_id=made.origin["forked_from"])
    answer = {
        "id": made.match_id,
        "token": made.token,
        "game": made.game,
        "version": made.version,
        "finished": made.finished,
        "origin": made.origin,
        "existing": made.existing,
        "links": links,
    }
    if made.existing:
        del answer["token"]  # shown once, when the match was made
    return answer


@blp.route("/<match_id>/live", methods=["GET"])
@blp.arguments(LiveQuery(), location="query")
@blp.response(
    200,
    content_type=EVENT_STREAM,
    description=(
        "Server-Sent Events: `state` (the match now), then a `frame` per step (id: the step), then "
        "`end` with the final state once the match is finished. Resume with Last-Event-ID."
    ),
)
def follow(query: dict[str, Any], match_id: str) -> Response:
    """Follow a match live: its state, then every step as it is recorded, until it finishes.

    Frames hold back what a replay holds back; the holder of the write token (Authorization:
    Bearer <token>) gets everything. Disputes, judgement reasons and a result carry ``said`` in the
    reader's language (Accept-Language), as on a replay."""
    header = step_header("Last-Event-ID", "bad_last_event_id")
    after = header if header is not None else query.get("last_event_id")
    everything = services().queries.everything(match_id, bearer_token())
    slots: LiveSlots = current_app.extensions["tabletape.live_slots"]
    release = slots.take(request.remote_addr or "")
    try:
        feed = live.Feed(
            services().positions,
            services().hub,
            match_id,
            after,
            keepalive=services().settings.live_keepalive,
            everything=everything,
            say=renderer(),
        )
    except Exception:
        release()
        raise
    answer = Response(
        feed.lines(),
        mimetype=EVENT_STREAM,
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    # The server closes the answer when the feed ends or its spectator goes, started or not.
    answer.call_on_close(release)
    return answer


@blp.route("/<match_id>/fork", methods=["POST"])
@blp.arguments(ForkIn())
@blp.response(201, CopiedOut)
@blp.doc(parameters=CREATE_HEADERS)
def fork(body: dict[str, Any], match_id: str) -> dict[str, Any]:
    """A new match (new id, new token) whose log is this match's effective history up to step ``at``.

    Without the match's write token only the public history is copied: a fork whose history holds a
    hidden fact (a secret bid not yet shown) is refused with 403. With the token, everything is."""
    made = services().recorder.fork(match_id, body["at"], bearer_token(), api_key(), idempotency_key())
    return copied(made)


@blp.route("/<match_id>/export", methods=["GET"])
@blp.arguments(ExportQuery(), location="query")
@blp.response(200, BgStatsFile, description="format=bgstats: BG Stats' export file with the match's play.")
@blp.alt_response(
    200,
    description="format=bgstats-link: BG Stats' createPlay URL for the match.",
    schema=BgStatsLink,
    success=True,
)
@text_alternative(blp, "format=ndjson: the header, then one event a line.")
def export(query: dict[str, Any], match_id: str) -> Any:
    """The match's log as NDJSON (header first), or a finished match as a BG Stats play.

    Without the write token the export is the public history: one that holds a hidden fact back
    says so in its header (`partial`, `hidden_steps`) and cannot be imported. With the token it is
    everything."""
    if query["format"] == "bgstats":
        return services().queries.play(match_id)
    if query["format"] == "bgstats-link":
        # Returned as is: the declared success schema is the file's, this is the alternative.
        return jsonify({"url": services().queries.play_link(match_id)})
    lines = services().queries.export(match_id, bearer_token())
    return Response(
        lines, mimetype=NDJSON, headers={"Content-Disposition": f'attachment; filename="{match_id}.ndjson"'}
    )


@blp.route("/import", methods=["POST"])
@blp.arguments(ImportQuery(), location="query")
@blp.response(201, CopiedOut)
@blp.alt_response(
    200,
    schema=CopiedOut,
    description="The store already holds this log (the match it was exported from, or an earlier "
    "import of it): the answer names that match (`existing`: true, no token) and no copy is made.",
)
@blp.doc(
    requestBody={
        "required": True,
        "description": "An export: the header line, then one event a line.",
        # Binary for generators: openapi-python-client sends it as raw content (openapi-client.yaml).
        "content": {NDJSON: {"schema": {"type": "string", "format": "binary"}}},
    },
    # Spelled out: the documented parameters replace the ones the query schema documents.
    parameters=[
        *CREATE_HEADERS,
        {
            "in": "query",
            "name": "copy",
            "required": False,
            "schema": {"type": "boolean", "default": False},
            "description": ImportQuery.COPY,
        },
    ],
)
def import_match(query: dict[str, Any]) -> Any:
    """Create a match from an NDJSON export, replaying every action through the rules; a log the
    store already holds is answered with its match (200) unless `copy=true` asks for a copy."""
    lines = request.get_data(as_text=True).splitlines()
    made = services().recorder.import_lines(
        lines, api_key(), idempotency_key=idempotency_key(), copy=query["copy"]
    )
    return (copied(made), 200) if made.existing else copied(made)
