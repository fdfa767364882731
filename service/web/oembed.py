"""oEmbed (https://oembed.com): a site that is given a viewer link learns how to embed the match.

``GET /oembed?url=<a viewer URL>&format=json[&maxwidth=&maxheight=]`` answers a ``rich`` oEmbed
document whose ``html`` is an iframe of ``/embed/{id}``. Only JSON is offered (``format=xml`` is
501, as the specification asks); a URL that is not a match's viewer on this server is 404.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from flask import Response, jsonify, request, url_for
from markupsafe import escape

from events.errors import UnknownMatch
from service.api import services

WIDTH, HEIGHT = 640, 720  # the embed's size unless the consumer asks for less
LEAST = 280  # narrower than this the board no longer fits


def _problem(status: int, detail: str) -> Response:
    answer = jsonify(
        {"title": {400: "Bad request", 404: "Not found", 501: "Not implemented"}[status], "detail": detail}
    )
    answer.status_code = status
    answer.mimetype = "application/problem+json"
    return answer


def _dimension(name: str, default: int) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) < 1:
        return None
    return min(default, max(LEAST, int(raw)))


def match_of(url: str) -> str | None:
    """The match id of a viewer or embed URL on this server (``/matches/{id}``), else None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.netloc != request.host:
        return None
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if len(segments) == 2 and segments[0] in ("matches", "embed") and segments[1]:
        return segments[1]
    return None


def oembed() -> Any:
    """The oEmbed answer for a viewer URL."""
    url = request.args.get("url", "").strip()
    if not url:
        return _problem(400, "oEmbed needs the url of a match's viewer: /oembed?url=…")
    if request.args.get("format", "json") != "json":
        return _problem(501, "only format=json is offered")
    width, height = _dimension("maxwidth", WIDTH), _dimension("maxheight", HEIGHT)
    if width is None or height is None:
        return _problem(400, "maxwidth and maxheight must be positive whole numbers of pixels")
    match_id = match_of(url)
    if match_id is None:
        return _problem(404, f"{url} is not a match's viewer on this server")
    try:
        match = services().positions.describe(match_id)
    except UnknownMatch:
        return _problem(404, f"there is no match {match_id}")
    game = services().queries.game(match["game"])["title"]
    title = f"{game}: {', '.join(match['players'])}"
    src = url_for("web.embed", match_id=match_id, _external=True)
    html = (
        f'<iframe src="{escape(src)}" width="{width}" height="{height}" title="{escape(title)} · tabletape" '
        f'style="border:0;max-width:100%" loading="lazy"></iframe>'
    )
    return jsonify(
        {
            "version": "1.0",
            "type": "rich",
            "provider_name": "tabletape",
            "provider_url": url_for("web.index", _external=True),
            "title": title,
            "html": html,
            "width": width,
            "height": height,
        }
    )
