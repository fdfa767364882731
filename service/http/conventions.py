"""HTTP conventions every route shares, applied once: Location on a created match, unknown query
parameters refused, and ETags that carry the match's version so that If-Match can send one back.
(A write's answer carries the Location of the steps it appended itself: service.api.matches.)
``service.app`` runs them among the steps of every request (``service.http.pipeline``)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from flask import Request, Response, current_app, url_for
from flask_smorest.utils import get_appcontext

from games.contract import Message
from service.http.errors import RequestRefused

# A created match is read at its own URL. (Views by function name: the blueprint part of an
# endpoint is the route group's, and may change.)
CREATES = {"create_match", "fork", "import_match"}
# A path on this server, and a query, made only of characters that a URI keeps as they are:
# werkzeug's IRI conversion of such a Location (``iri_to_uri``) gives it back unchanged.
URI = re.compile(r"/(?!/)[A-Za-z0-9\-._~%!$&'()*+,/:;=@]*(?:\?[A-Za-z0-9\-._~%!$&'()*+,/:;=@?]+)?")


def refuse_unknown_query(req: Request, ctx: Any) -> None:
    """A 400 naming the query parameters the operation does not take (a typo is not ignored)."""
    # The raw query first: most requests have none, and parsing an empty one still costs.
    if not req.query_string or not req.args or req.endpoint is None:
        return
    view = current_app.view_functions.get(req.endpoint)
    known = _query_names(view)
    if known is None:
        return  # not an API operation (static files, the spec itself)
    unknown = sorted(set(req.args) - known)
    if unknown:
        takes = sorted(known) or Message("no query parameters")
        raise RequestRefused(
            400,
            "unknown_parameter",
            "this operation does not take the query parameter(s) {unknown} (it takes {takes})",
            unknown=list(unknown),
            takes=takes,
        )


def add_location(req: Request, ctx: Any, response: Response) -> Response:
    """Location on the 201 of a created match: the match's own URL."""
    if response.status_code != 201 or "Location" in response.headers or not response.is_json:
        return response
    # The answer as its operation gave it (flask-smorest keeps it), not parsed back from the body.
    body: Any = get_appcontext().get("result_dump")
    if body is None:
        body = response.get_json(silent=True) or {}
    match_id = body.get("id") if isinstance(body, dict) else None
    if not match_id:
        return response
    if (req.endpoint or "").rsplit(".", 1)[-1] in CREATES:
        response.headers["Location"] = url_for("matches.show_match", match_id=match_id)
    return response


def version_etag(req: Request, ctx: Any, response: Response) -> Response:
    """An ETag for every 200 read: ``"<version>.<digest>"`` when the answer has a match version.

    The version lets a client send the ETag back as If-Match on a write (RFC 9110), and the digest
    keeps it a strong validator of the whole body for If-None-Match. A read shows the holder of
    the match's write token what it hides from others, so its answer varies with Authorization.
    """
    if req.method != "GET" or response.status_code != 200:
        return response
    response.vary.add("Authorization")
    if response.is_streamed:
        return response
    digest = hashlib.sha256(response.get_data()).hexdigest()[:20]
    body: Any = response.get_json(silent=True) if response.is_json else None
    version = body.get("version") if isinstance(body, dict) else None
    tag = f"{version}.{digest}" if isinstance(version, int) and not isinstance(version, bool) else digest
    response.set_etag(tag)
    response.make_conditional(req)
    return response


def _query_names(view: Any) -> set[str] | None:
    """The query parameters a flask-smorest view declares; None for views that are not operations."""
    doc = getattr(view, "_apidoc", None)
    if doc is None:
        return None
    names: set[str] = set()
    for argument in doc.get("arguments", {}).get("parameters", []):
        if argument.get("in") in ("query", "querystring"):
            schema = argument["schema"]
            schema = schema() if isinstance(schema, type) else schema
            names |= {f.data_key or name for name, f in schema.fields.items()}
    return names
