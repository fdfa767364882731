"""The API's blueprints and the request helpers they share."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NoReturn, cast

from flask import current_app, request
from flask_smorest import Blueprint as SmorestBlueprint
from webargs import core
from webargs.flaskparser import FlaskParser

from events.codec import loads
from games.contract import Message
from service.api.schemas.answers import NDJSON
from service.bootstrap import Services
from service.http import json_errors
from service.http.body_limits import media_type
from service.http.errors import RequestRefused


class Parser(FlaskParser):
    """webargs parser whose validation errors are 400s (the rules' refusals are the 422s)."""

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Any) -> Any:
        """The body as strict JSON: a number no rule may be handed is a 400 naming its field."""
        if not core.is_json(media_type(req.environ)):
            return core.missing
        data = req.get_data(cache=True)
        try:
            return loads(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise core.json.JSONDecodeError(f"the body is not UTF-8 ({exc.reason})", "", exc.start) from exc

    def _handle_invalid_json_error(self, error: Any, req: Any, *args: Any, **kwargs: Any) -> NoReturn:
        """A body that is not JSON: a sentence naming where, and how to put it right."""
        sentence, details = json_errors.explain(req.get_data(cache=True), error)
        refusal = RequestRefused(400, "invalid_json", sentence)
        refusal.extra = {"errors": [details]}
        raise refusal


class Blueprint(SmorestBlueprint):
    """flask-smorest blueprint with tabletape's argument parser."""

    ARGUMENTS_PARSER = Parser()


def match_blueprint(name: str, import_name: str, description: str) -> Blueprint:
    """A blueprint of views under ``/v1/matches``, published under ``name`` (its OpenAPI tag)."""
    return Blueprint(name, import_name, url_prefix="/v1/matches", description=description)


def services() -> Services:
    """The app's wired parts."""
    return cast(Services, current_app.extensions["tabletape"])


Environ = dict[str, Any]


def _header(name: str, environ: Environ | None) -> str | None:
    """A request header, read from the WSGI environ (as ``request.headers`` reads it, but faster:
    the writes read several on every request). A view that reads several passes the environ."""
    found = (request.environ if environ is None else environ).get("HTTP_" + name.upper().replace("-", "_"))
    return cast(str | None, found)


def bearer_token(environ: Environ | None = None) -> str | None:
    """The write token from ``Authorization: Bearer <token>``, if any."""
    header = _header("Authorization", environ) or ""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


# A step number as a header may carry it: ASCII digits only (``"²".isdigit()`` is true), and no
# more of them than a stream entry id holds. If-Match also takes a read's ETag,
# ``"<version>.<digest>"`` (service.http.conventions), which names the version that read saw.
STEP_NUMBER = re.compile(r"[0-9]{1,15}")
IF_MATCH = r'^\s*(W/)?"?[0-9]{1,15}(\.[^"\s]*)?"?\s*$'
IDEMPOTENCY_KEY_MAX = 200


def step_header(name: str, code: str, environ: Environ | None = None) -> int | None:
    """The step number a header names (``If-Match``: also ``"5"``, ``W/"5"`` or an ETag), if sent."""
    raw = _header(name, environ)
    if raw is None or (name != "If-Match" and not raw.strip()):
        return None
    value = raw.strip()
    if name == "If-Match":
        value = value.removeprefix("W/").strip('"').split(".", 1)[0]
    if not STEP_NUMBER.fullmatch(value):
        what = (
            Message("a version number or the ETag of a read of this match")
            if name == "If-Match"
            else Message("a step number")
        )
        raise RequestRefused(
            400, code, "{name} must be {what} (at most 15 digits), not {raw!r}", name=name, what=what, raw=raw
        )
    return int(value)


API_KEY_HEADER = "X-API-Key"


def api_key() -> str | None:
    """The deployment credential a creating write sends (``X-API-Key``), if any."""
    raw = request.headers.get(API_KEY_HEADER, "").strip()
    return raw or None


def if_match(environ: Environ | None = None) -> int | None:
    """The version named by ``If-Match`` (``5``, ``"5"`` or ``W/"5"``), if any."""
    return step_header("If-Match", "bad_if_match", environ)


def idempotency_key(environ: Environ | None = None) -> str | None:
    """The ``Idempotency-Key`` header, if any (at most 200 characters)."""
    raw = _header("Idempotency-Key", environ)
    if raw is None:
        return None
    key = raw.strip().strip('"')
    if not key or len(key) > IDEMPOTENCY_KEY_MAX:
        raise RequestRefused(
            400,
            "bad_idempotency_key",
            "Idempotency-Key must be 1 to {limit} characters",
            limit=IDEMPOTENCY_KEY_MAX,
        )
    return key


def page_links(
    link: Callable[[int], str], start: int, size: int, count: int, origin: int = 0
) -> dict[str, str | None]:
    """The links of every list page: self, first, prev, next and last (None where there is none).

    The page holds ``size`` items from ``start``, among ``count`` items numbered from ``origin``;
    ``link(n)`` is the URL of the page that starts at item ``n``.
    """
    end = origin + max(count, 1) - 1
    last = origin + ((max(count, 1) - 1) // size) * size
    return {
        "self": link(start),
        "first": link(origin),
        "prev": link(max(origin, start - size)) if start > origin else None,
        "next": link(start + size) if start + size <= end else None,
        "last": link(last),
    }


def text_alternative(blp: Blueprint, description: str, content_type: str = NDJSON) -> Any:
    """Document a text answer (NDJSON: one JSON value a line; or an event stream) beside a view's JSON one."""
    return blp.alt_response(
        200, description=description, content_type=content_type, schema={"type": "string"}, success=True
    )


WRITE_HEADERS: list[dict[str, Any]] = [
    {
        "in": "header",
        "name": "If-Match",
        "required": False,
        "schema": {"type": "string", "pattern": IF_MATCH},
        "description": "Write only if the match is at this version (else 412).",
    },
    {
        "in": "header",
        "name": "Idempotency-Key",
        "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX, "pattern": r'[^\s"]'},
        "description": "A retry with the same key returns the first answer and appends nothing.",
    },
]

# The creating writes (create, fork, import) take the key too (service.recording.idempotency).
CREATE_HEADERS: list[dict[str, Any]] = [
    WRITE_HEADERS[1]
    | {
        "description": "A retry with the same key (and the same request) returns the first answer, "
        "the same match and its token, and makes no second match; use a random key (a UUID)."
    }
]
