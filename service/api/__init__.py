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
    """The version named by ``If-Match``: a number (``5``, ``"5"``), or the ETag a read sent.

    A read's ETag is ``"<version>.<digest>"`` (service.http_conventions), so sending it back, as
    RFC 9110 has it, names the version that read saw.
    """
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    value = raw.strip().removeprefix("W/").strip('"').split(".", 1)[0]
    if not value.isdigit():
        raise BadRequest(
            400,
            "bad_if_match",
            f"If-Match must be a version number or the ETag of a read of this match, not {raw!r}",
        )
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


def ndjson_alternative(blp: Blueprint, description: str) -> Any:
    """Document an NDJSON answer (one JSON value a line) beside a view's JSON one."""
    return blp.alt_response(
        200, description=description, content_type=NDJSON, schema={"type": "string"}, success=True
    )


WRITE_HEADERS: list[dict[str, Any]] = [
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
