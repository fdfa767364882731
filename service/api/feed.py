"""The global feed: every match's public events in one resumable order, as pages or live."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Response, request, url_for

from events.codec import dumps
from events.defaults import FEED_KEEPALIVE_SECONDS, FEED_POLL_SECONDS
from projections.queries.feed import BadPosition, FeedPage, FeedReader
from service.api import Blueprint, services, text_alternative
from service.api.schemas.answers import EVENT_STREAM, NDJSON
from service.api.schemas.feed import FeedPageOut, FeedQuery
from service.http.errors import RequestRefused

blp = Blueprint(
    "feed", __name__, url_prefix="/v1/feed", description="Every match's public events, resumable."
)


@blp.route("", methods=["GET"])
@blp.arguments(FeedQuery(), location="query")
@blp.response(200, FeedPageOut)
@text_alternative(
    blp,
    "Accept: text/event-stream: live, one `event` per feed event (id: the position after "
    "it; resume with Last-Event-ID), for `seconds` seconds.",
    EVENT_STREAM,
)
@text_alternative(
    blp,
    "Accept: application/x-ndjson: live, one event a line with `after` (the position "
    "after it), for `seconds` seconds.",
)
def feed(query: dict[str, Any]) -> Any:
    """Every match's public events after a position, with the position to resume after.

    Hidden facts are held back as the open reads hold them back (a secret bid without its number);
    every event is in the feed once, at one position, in its match's order."""
    reader = services().feed
    accept = request.accept_mimetypes
    live = accept.best_match(["application/json", EVENT_STREAM, NDJSON]) if accept.provided else None
    after = query.get("after")
    if live == EVENT_STREAM and request.headers.get("Last-Event-ID", "").strip():
        after = request.headers["Last-Event-ID"].strip()
    page = _page(reader, query, after)
    if live in (EVENT_STREAM, NDJSON):
        lines = _stream(reader, query, page, live == EVENT_STREAM)
        return Response(
            lines, mimetype=live, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
    args = {k: v for k, v in query.items() if k in ("limit", "game", "type", "partition")}
    return {
        "events": page.events,
        "position": page.position,
        "links": {"next": url_for("feed.feed", after=page.position, **args)},
    }


def _page(reader: FeedReader, query: dict[str, Any], after: str | None) -> FeedPage:
    """A page after ``after``; a position the feed cannot read after is a 400 with a sentence."""
    try:
        return reader.page(
            after,
            query["limit"],
            query.get("game"),
            frozenset(query.get("type") or ()),
            query.get("partition"),
        )
    except BadPosition as bad:
        raise RequestRefused(400, "bad_position", str(bad)) from bad


def _stream(reader: FeedReader, query: dict[str, Any], first: FeedPage, sse: bool) -> Iterator[str]:
    """Pages as they come, as SSE events or NDJSON lines, until the stream's time is up."""
    deadline = time.monotonic() + query["seconds"]
    spoke = time.monotonic()
    page = first
    if sse:
        yield "retry: 1000\n\n"
    while True:
        for event, after in zip(page.events, page.after, strict=True):
            yield (
                f"id: {after}\nevent: event\ndata: {dumps(event)}\n\n"
                if sse
                else dumps({**event, "after": after}) + "\n"
            )
            spoke = time.monotonic()
        if time.monotonic() >= deadline:
            return
        if not page.events:
            if sse and time.monotonic() - spoke >= FEED_KEEPALIVE_SECONDS:
                yield ": keepalive\n\n"
                spoke = time.monotonic()
            time.sleep(FEED_POLL_SECONDS)
        page = _page(reader, query, page.position)
