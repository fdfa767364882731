"""The API's blueprints and the request helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from flask import current_app, request
from flask_smorest import Blueprint as SmorestBlueprint
from webargs.flaskparser import FlaskParser

from service.bootstrap import Services
from service.errors import BadRequest
from service.schemas.answers import NDJSON


class Parser(FlaskParser):
    """webargs parser whose validation errors are 400s (the rules' refusals are the 422s)."""

    DEFAULT_VALIDATION_STATUS = 400


class Blueprint(SmorestBlueprint):
    """flask-smorest blueprint with tabletape's argument parser."""

    ARGUMENTS_PARSER = Parser()


def services() -> Services:
    """The app's wired parts."""
    return cast(Services, current_app.extensions["tabletape"])


def bearer_token() -> str | None:
    """The write token from ``Authorization: Bearer <token>``, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def if_match() -> int | None:
    """The version named by ``If-Match`` (``5``, ``"5"`` or ``W/"5"``), if any."""
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    value = raw.strip().removeprefix("W/").strip('"')
    if not value.isdigit():
        raise BadRequest(400, "bad_if_match", f"If-Match must be a version number, not {raw!r}")
    return int(value)


def idempotency_key() -> str | None:
    """The ``Idempotency-Key`` header, if any (at most 200 characters)."""
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    key = raw.strip().strip('"')
    if not key or len(key) > 200:
        raise BadRequest(400, "bad_idempotency_key", "Idempotency-Key must be 1 to 200 characters")
    return key


def page_links(
    link: Callable[[int], str | None], start: int, size: int, low: int, following: int | None
) -> dict[str, str | None]:
    """Links to the first page (at ``low``), the one before ``start`` and the one at ``following``."""
    return {
        "first": link(low),
        "prev": link(max(low, start - size)) if start > low else None,
        "next": link(following) if following is not None else None,
    }


def ndjson_alternative(blp: Blueprint, description: str) -> Any:
    """Document an NDJSON answer (one JSON value a line) beside a view's JSON one."""
    return blp.alt_response(
        200, description=description, content_type=NDJSON, schema={"type": "string"}, success=True
    )


WRITE_HEADERS: list[dict[str, Any]] = [
    {
        "in": "header",
        "name": "Authorization",
        "required": False,
        "schema": {"type": "string"},
        "description": "Bearer <token> from the match's creation. Required.",
    },
    {
        "in": "header",
        "name": "If-Match",
        "required": False,
        "schema": {"type": "string"},
        "description": "Write only if the match is at this version (else 412).",
    },
    {
        "in": "header",
        "name": "Idempotency-Key",
        "required": False,
        "schema": {"type": "string"},
        "description": "A retry with the same key returns the first answer and appends nothing.",
    },
]
