"""The read side: the raw log, rewinds, replays and the scoreboard."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request, stream_with_context, url_for

from projections.queries import fact_words
from service.api import bearer_token, match_blueprint, page_links, services, text_alternative
from service.api.schemas.answers import NDJSON, EventPage, ReplayPage, ScoresOut, StateOut
from service.api.schemas.requests import RangeQuery, ReplayQuery, StateQuery
from service.http.compression import FINISHED_CACHE, cache_finished
from service.http.language import current, render

blp = match_blueprint("reads", __name__, "Read, rewind and replay matches.")


@blp.route("/<match_id>/events", methods=["GET"])
@blp.arguments(RangeQuery(), location="query")
@blp.response(200, EventPage, content_type="application/json")
@text_alternative(blp, "One event a line when Accept is application/x-ndjson")
def events(query: dict[str, Any], match_id: str) -> Any:
    """The raw log, steps from..to, paginated; NDJSON with Accept: application/x-ndjson.

    Facts the table cannot see yet (a secret bid before the round is scored, a recorded hand before
    the match is over) are held back, except from the holder of the match's write token
    (Authorization: Bearer <token>). Beside a sentence a game stores in English (a dispute's
    ``message``, a judgement reason's ``message``, a result's ``explanation``) the JSON answer
    adds ``said``: that sentence in the reader's language (Accept-Language). NDJSON lines are the
    log exactly as stored.
    """
    page = services().queries.log(match_id, query["from_"], query.get("to"), query["limit"], bearer_token())
    if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
        return Response(stream_with_context(page.lines()), mimetype=NDJSON)
    to, size = query.get("to"), query["limit"]
    end = min(to or page.version, page.version)

    def link(start: int) -> str:
        args: dict[str, Any] = {"from": start, "limit": size} | ({"to": to} if to else {})
        return url_for("reads.events", match_id=match_id, **args)

    links = page_links(link, page.first, size, end, origin=1)
    say = _say()
    told = [fact_words.event(e, say) for e in page.events()]
    return {"events": told, "version": page.version, "links": links}


@blp.route("/<match_id>/state", methods=["GET"])
@blp.arguments(StateQuery(), location="query")
@blp.response(200, StateOut)
def state(query: dict[str, Any], match_id: str) -> dict[str, Any]:
    """The game's view now, or right after step ``at`` (a rewind), with links to the steps beside it.

    Hidden facts are held back as on the log, except from the holder of the write token. Disputes,
    judgement reasons and a result carry ``said`` beside their stored English, as on the log."""
    shown = services().queries.state(match_id, query.get("at"), bearer_token())

    def step_link(n: int) -> str | None:
        return url_for("reads.state", match_id=match_id, at=n) if 1 <= n <= shown.version else None

    return {
        "id": match_id,
        "version": shown.at,
        "state": fact_words.state(shown.state, _say()),
        "links": {
            "prev": step_link(shown.at - 1),
            "next": step_link(shown.at + 1),
            "latest": step_link(shown.version),
        },
    }


@blp.route("/<match_id>/replay", methods=["GET"])
@blp.arguments(ReplayQuery(), location="query")
@blp.response(200, ReplayPage)
def replay(query: dict[str, Any], match_id: str) -> Any:
    """Frames from..to: each step's event and the state after it, computed in one pass.

    Hidden facts are held back as on the log, except from the holder of the write token. Disputes,
    judgement reasons and a result carry ``said`` beside their stored English, as on the log."""
    first, size, raw = query["from_"], query["limit"], query["raw"]
    page = services().queries.replay(match_id, first, query.get("to"), size, raw, bearer_token())
    version = page.version

    def link(start: int) -> str:
        args: dict[str, Any] = {"from": start, "limit": size}
        if raw:
            args["raw"] = "true"
        return url_for("reads.replay", match_id=match_id, **args)

    end = min(query.get("to") or version, version)
    links = page_links(link, first, size, end, origin=1)
    say = _say()
    frames = [fact_words.frame(frame, say) for frame in page.frames]
    body = {"id": match_id, "version": version, "raw": raw, "frames": frames, "links": links}
    return body, 200, {"Cache-Control": FINISHED_CACHE if page.finished else "no-cache"}


def _say() -> fact_words.Say:
    """How the reader's language says a Message; None for English, read as recorded."""
    return None if current() == "en" else render


@blp.route("/<match_id>/scores", methods=["GET"])
@blp.response(200, ScoresOut)
def scores(match_id: str) -> Response:
    """The scoreboard of the projected position, with the step it has reached (``version``)."""
    board = services().queries.scoreboard(match_id)
    # A finished match's scoreboard is final once the workers have reached its last step.
    return cache_finished(
        jsonify(board), bool(board.get("finished")) and board["version"] == board["log_version"]
    )
