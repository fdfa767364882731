"""The recorder's pages: a new match (``/new``), the phone recorder (``/matches/<id>/record``),
and what makes them an installable web app that opens offline (the manifest, the service worker).

As the viewer, these are static shells: the browser creates and records matches through the
public API with the write token it keeps. The token never reaches these routes: a "continue on
another device" link carries it in the URL fragment, which browsers do not send. The recorder's
page only names its match's game (``recorder_page``), read from the match's header, so that a
phone fetches the game's words with the page's own modules.
"""

from __future__ import annotations

import io

import segno
from flask import render_template, request, send_from_directory
from werkzeug.wrappers import Response

from service.web import blp, match_game, module_graph, with_game

# The service worker's scope is the whole site, so it is served from the root, never cached by
# HTTP (browsers check it for updates on each navigation anyway).
SW_HEADERS = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}
# The longest link a seat's QR code is made of (a seat link is about 120 characters).
QR_MAX = 1000
# The recorder's modules (its deepest is seven imports away), named in its page so that a phone
# fetches them at once, with its match's game's labels module (the game's words) and what it imports.
RECORDER = "js/recorder/record.js"
LABELS = "js/recorder/labels/{game}.js"


@blp.route("/new", methods=["GET"])
def new_match() -> str:
    """A form for a new match of any game, built from the game's published schemas."""
    return render_template("new.html", modules=module_graph("js/recorder/new.js"))


@blp.route("/matches/<match_id>/record", methods=["GET"])
def record(match_id: str) -> str:
    """The phone recorder of one match: legal choices, undo and redo, a queue that works offline."""
    return recorder_page(match_id)


@blp.route("/matches/<match_id>/seat/<player>", methods=["GET"])
def seat(match_id: str, player: str) -> str:
    """The recorder on one player's own phone: that player's choices and hidden facts only (the
    seat token arrives in the link's fragment, which the browser never sends here)."""
    return recorder_page(match_id, player)


def recorder_page(match_id: str, seat: str | None = None) -> str:
    """The recorder's page, naming its match's game and the modules of the game's words, which
    load with the page's own (``with_game``); the game's title is then asked for with the match.
    A page whose game is not known here (``match_game``; the service worker's copy for every
    match) finds it in the match's answer."""
    game = match_game(match_id)
    modules = with_game(RECORDER, LABELS, game)
    return render_template("record.html", match_id=match_id, seat=seat, game=game, modules=modules)


@blp.route("/qr.svg", methods=["POST"])
def qr_code() -> Response:
    """A QR code (SVG) of the link in the body (``{"link": …}``). A POST, so that a seat's link,
    which carries its token, never travels in a URL that a server or a proxy logs."""
    body = request.get_json(silent=True)
    link = body.get("link") if isinstance(body, dict) else None
    if not isinstance(link, str) or not 0 < len(link) <= QR_MAX or not link.isprintable():
        return Response(
            f'send {{"link": "…"}} as the JSON body, the link 1 to {QR_MAX} printable characters\n',
            status=400,
            mimetype="text/plain",
        )
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=4, border=2, title="Seat link")
    return Response(svg.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@blp.route("/sw.js", methods=["GET"])
def service_worker() -> Response:
    """The service worker that keeps the recorder's pages for use with no network."""
    answer = send_from_directory(blp.static_folder or "", "sw.js", mimetype="text/javascript", max_age=0)
    answer.headers.update(SW_HEADERS)
    return answer


@blp.route("/manifest.webmanifest", methods=["GET"])
def manifest() -> Response:
    """The web app manifest: tabletape installs as an app that opens on a new match."""
    return send_from_directory(
        blp.static_folder or "", "manifest.webmanifest", mimetype="application/manifest+json"
    )
