"""The recorder's pages: a new match (``/new``), the phone recorder (``/matches/<id>/record``),
and what makes them an installable web app that opens offline (the manifest, the service worker).

As the viewer, these are static shells: the browser creates and records matches through the
public API with the write token it keeps. The token never reaches these routes: a "continue on
another device" link carries it in the URL fragment, which browsers do not send.
"""

from __future__ import annotations

from flask import render_template, send_from_directory
from werkzeug.wrappers import Response

from service.web import blp

# The service worker's scope is the whole site, so it is served from the root, never cached by
# HTTP (browsers check it for updates on each navigation anyway).
SW_HEADERS = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}


@blp.route("/new", methods=["GET"])
def new_match() -> str:
    """A form for a new match of any game, built from the game's published schemas."""
    return render_template("new.html")


@blp.route("/matches/<match_id>/record", methods=["GET"])
def record(match_id: str) -> str:
    """The phone recorder of one match: legal choices, undo and redo, a queue that works offline."""
    return render_template("record.html", match_id=match_id)


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
