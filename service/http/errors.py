"""Every error becomes an RFC 9457 problem (application/problem+json), mapped here and nowhere else.

``problem_body`` writes every problem's body: the app's answers (``problem``), a rate limit's 429
(``OverLimit``, turned into its refusal by the rate-limit step that counted it) and gunicorn's own
refusals before the app sees a request (service/run/gunicorn_worker.py).
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from flask import Flask, Response, current_app, json, request
from gunicorn.http.errors import ParseException
from redis.exceptions import AskError, RedisClusterException
from werkzeug.exceptions import HTTPException, TooManyRequests

from events.codec import UnsafeNumber
from events.errors import (
    NOT_NOW,
    DiskFull,
    IdempotencyMismatch,
    MatchExists,
    NotNow,
    NotReplicated,
    OverLimit,
    StoreFull,
    UnknownMatch,
    VersionConflict,
    not_now,
    unavailable,
)
from games.contract import RuleViolation
from projections.hooks.registry import HookRefused, NoSuchHook
from projections.projecting.lag import ProjectionsLagging
from projections.queries.access import Forbidden, NotYourSeat
from projections.queries.answers import NoSuchStep, NotFinished, UnknownGame, UnknownPlayer
from projections.sharing.fork import HiddenFact, MidAction
from projections.sharing.importing import ImportRefused
from service.http.live_slots import RETRY_SECONDS, TooManyStreams
from service.recording.credentials import CredentialRefused, CredentialRequired
from service.recording.recorder import Busy, PreconditionFailed, Unauthorized
from service.recording.seats import RecoveryRefused

PROBLEM = "application/problem+json"
log = logging.getLogger("tabletape.api")


class RequestRefused(Exception):
    """A request the API refuses before it reaches the rules, with its own status: a bad parameter
    (400), a body too slow (408), without a length (411), too large (413) or not JSON (415)."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail


class RateLimited(TooManyRequests):
    """Over one of the caller's limits: ``Retry-After`` says when it may pass again, ``setting``
    which setting raises the limit."""

    def __init__(self, limit: str, retry_after: int, setting: str) -> None:
        super().__init__(description=limit, retry_after=retry_after)
        self.setting = setting


def problem_body(
    status: int, code: str, detail: str, title: str | None = None, **extra: Any
) -> dict[str, Any]:
    """The body of every problem tabletape answers."""
    return {
        "type": f"urn:tabletape:problem:{code}",
        "title": title or _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


def problem(status: int, code: str, detail: str, title: str | None = None, **extra: Any) -> Response:
    """A problem-details response."""
    body = problem_body(status, code, detail, title, instance=request.path, **extra)
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM)
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="tabletape"'
    if status == 503:
        response.headers["Retry-After"] = _RETRY_AFTER.get(code, "1")
    return response


def http_problem(error: HTTPException) -> Response:
    """A werkzeug or flask-smorest HTTP error as a problem."""
    status = error.code or 500
    data = getattr(error, "data", {}) or {}
    messages = data.get("messages")
    if messages:
        detail = "the request does not match what this operation takes: " + _flatten(messages)
        return problem(status, "invalid_request", detail, errors=messages)
    detail = data.get("message") or error.description or error.name
    extra: dict[str, str] = {}
    if isinstance(error, RateLimited):
        extra["setting"] = error.setting
        detail = (
            f"over this caller's rate limit of {detail}; retry after Retry-After seconds "
            f"(the deployment's {error.setting} raises the limit)"
        )
    elif status == 429:
        detail = f"over this caller's rate limit of {detail}; retry after Retry-After seconds"
    answer = problem(status, _CODES.get(status, error.name.lower().replace(" ", "_")), detail, **extra)
    # A 405 says which methods the resource takes (RFC 9110), as werkzeug's own answer does; a
    # 429 when to try again.
    told = dict(error.get_headers())
    for name in ("Allow", "Retry-After"):
        if told.get(name):
            answer.headers[name] = told[name]
    return answer


def register(app: Flask) -> None:
    """Map every domain error to its HTTP answer."""
    simple: list[tuple[type[Exception], int, str]] = [
        (UnknownMatch, 404, "unknown_match"),
        (MatchExists, 409, "match_exists"),
        (VersionConflict, 409, "version_conflict"),
        (Busy, 409, "busy"),
        (IdempotencyMismatch, 422, "idempotency_key_reused"),
        (Unauthorized, 401, "missing_token"),
        (Forbidden, 403, "wrong_token"),
        (NotYourSeat, 403, "not_your_seat"),
        (RecoveryRefused, 403, "wrong_recovery_code"),
        (NoSuchStep, 404, "no_such_step"),
        (UnknownGame, 404, "unknown_game"),
        (UnknownPlayer, 404, "unknown_player"),
        (NotFinished, 409, "not_finished"),
        (UnsafeNumber, 400, "unsafe_number"),
        (CredentialRequired, 401, "missing_api_key"),
        (CredentialRefused, 403, "wrong_api_key"),
        (HiddenFact, 403, "hidden_fact"),
        (HookRefused, 422, "hook_refused"),
        (NoSuchHook, 404, "unknown_hook"),
    ]
    for cls, status, code in simple:
        app.register_error_handler(cls, _handler(status, code))
    app.register_error_handler(RuleViolation, _rule_violation)
    app.register_error_handler(PreconditionFailed, _precondition)
    app.register_error_handler(ImportRefused, _import_refused)
    app.register_error_handler(MidAction, _handler(422, "not_an_action_boundary"))
    app.register_error_handler(RequestRefused, lambda e: problem(e.status, e.code, e.detail))
    app.register_error_handler(ParseException, _malformed_body)
    app.register_error_handler(StoreFull, _full)
    app.register_error_handler(DiskFull, _disk_full)
    app.register_error_handler(NotNow, _not_now)
    app.register_error_handler(ProjectionsLagging, _lagging)
    app.register_error_handler(TooManyStreams, lambda e: problem(503, "too_many_streams", str(e)))
    app.register_error_handler(redis.RedisError, _redis_down)
    app.register_error_handler(RedisClusterException, _redis_down)
    app.register_error_handler(NotReplicated, _not_replicated)
    app.register_error_handler(OverLimit, _over_limit)
    app.register_error_handler(HTTPException, http_problem)
    app.register_error_handler(Exception, _unexpected)


# Where the rate-limit step keeps the function that turns an OverLimit into its refusal (the
# window it refers to is the step's to know).
RATE_REFUSAL = "tabletape.rate_refusal"


def _over_limit(error: OverLimit) -> Response:
    """A write its append found over one of the caller's rates: 429 with Retry-After."""
    refusal = current_app.extensions.get(RATE_REFUSAL)
    if refusal is None:
        return problem(429, "too_many_requests", "over this caller's rate limit; retry later")
    return http_problem(refusal(error))


def _handler(status: int, code: str) -> Any:
    return lambda error: problem(status, code, str(error))


def _rule_violation(error: RuleViolation) -> Response:
    return problem(error.status, error.code, error.message)


def _precondition(error: PreconditionFailed) -> Response:
    return problem(412, "version_mismatch", str(error), expected=error.expected, actual=error.actual)


def _import_refused(error: ImportRefused) -> Response:
    return problem(422, "import_refused", str(error), line=error.line, reason=error.reason)


def _malformed_body(error: ParseException) -> Response:
    # gunicorn reads a chunked body as the app reads it, and raises when a chunk is malformed;
    # the connection is closed after this answer (where the next request starts is unknown).
    detail = (
        f"the request's body could not be read: {error} (a chunked body must be chunks of a hex size "
        "line, CRLF, the data, CRLF, and a last chunk of size 0); send it again, or with Content-Length"
    )
    answer = problem(400, "malformed_body", detail)
    answer.headers["Connection"] = "close"
    return answer


def _full(error: StoreFull) -> Response:
    log.warning("Redis is full: %s", error)
    return problem(503, "store_full", str(error))


def _disk_full(error: DiskFull) -> Response:
    log.error("Redis cannot write to its disk: %s", error)
    return problem(503, "disk_full", str(error))


def _not_now(error: NotNow) -> Response:
    log.warning("Redis refuses writes for now: %s", error)
    return problem(
        503,
        "store_unavailable",
        f"{NOT_NOW.get(error.code, 'the event store refuses writes for now')}; nothing was recorded, "
        "try again after Retry-After seconds",
        reason=error.code,
    )


def _lagging(error: ProjectionsLagging) -> Response:
    log.warning("%s", error)
    return problem(503, "projections_lagging", str(error), lag_seconds=round(error.seconds, 1))


def _redis_down(error: Exception) -> Response:
    if isinstance(error, AskError):
        log.error("REDIS_URL names a node of a Redis Cluster: set TABLETAPE_REDIS_CLUSTER=1 (%s)", error)
    code = not_now(error)
    if code == "OOM":
        # maxmemory reached with noeviction: Redis refused the command before it wrote (a
        # script is refused at its first write, and one that has written is let finish).
        return _full(StoreFull())
    if code == "MISCONF":
        # The AOF (or a snapshot) could not be written: Redis refuses every write, and PING.
        return _disk_full(DiskFull(str(error)))
    if code is not None:
        return _not_now(NotNow(code))
    if not unavailable(error):
        return _unexpected(error)
    log.warning("Redis unavailable: %s", error)
    # A write whose append was sent before Redis stopped answering may still be applied, so the
    # answer says so, and how to retry without recording it twice.
    return problem(
        503,
        "store_unavailable",
        "the event store is not answering; try again shortly "
        "(a write may or may not have been recorded: retry it with the same "
        "Idempotency-Key to record it exactly once)",
    )


def _not_replicated(error: NotReplicated) -> Response:
    log.warning("%s", error)
    return problem(503, "not_replicated", str(error), wanted=error.wanted, acknowledged=error.acknowledged)


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return http_problem(error)
    log.exception("unexpected error", exc_info=error)
    return problem(
        500, "internal_error", "tabletape failed unexpectedly; nothing was recorded by this request"
    )


def _flatten(messages: Any, path: str = "") -> str:
    if isinstance(messages, dict):
        parts = [_flatten(v, f"{path}.{k}" if path else str(k)) for k, v in messages.items()]
        return "; ".join(p for p in parts if p)
    if isinstance(messages, list):
        return f"{path}: " + " ".join(str(m) for m in messages if not isinstance(m, (dict, list)))
    return f"{path}: {messages}"


_TITLES = {
    400: "Bad request",
    401: "Token required",
    403: "Wrong token",
    404: "Not found",
    405: "Method not allowed",
    406: "Not acceptable",
    408: "Request timeout",
    409: "Conflict",
    411: "Length required",
    412: "Version mismatch",
    413: "Request too large",
    415: "Unsupported media type",
    429: "Too many requests",
    422: "Refused by the rules",
    428: "Precondition required",
    500: "Internal error",
    503: "Store unavailable",
}
# Seconds a 503 tells the client to wait, by problem code: an operator must act on a full store.
_RETRY_AFTER = {
    "store_full": "30",
    "disk_full": "30",
    "projections_lagging": "30",
    "too_many_streams": str(RETRY_SECONDS),
}
_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
}
