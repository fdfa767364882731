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
from games.contract import Message, RuleViolation, words
from projections.hooks.registry import HookRefused, NoSuchHook
from projections.projecting.lag import ProjectionsLagging
from projections.queries.access import Forbidden, NotYourSeat
from projections.queries.answers import NoSuchStep, NotFinished, UnknownGame, UnknownPlayer
from projections.sharing.fork import HiddenFact, MidAction
from projections.sharing.importing import ImportRefused
from service.http.language import current
from service.http.live_slots import RETRY_SECONDS, TooManyStreams
from service.language import catalogs
from service.language.catalogs import N_
from service.recording.answers import Busy, PreconditionFailed, Unauthorized
from service.recording.credentials import CredentialRefused, CredentialRequired
from service.recording.seats import RecoveryRefused

PROBLEM = "application/problem+json"
log = logging.getLogger("tabletape.api")


class RequestRefused(Exception):
    """A request the API refuses before it reaches the rules, with its own status: a bad parameter
    (400), a body too slow (408), without a length (411), too large (413) or not JSON (415)."""

    def __init__(self, status: int, code: str, detail: str | Message, /, **values: Any) -> None:
        sentence = detail if isinstance(detail, Message) else Message(detail, **values)
        super().__init__(str(sentence))
        self.status = status
        self.code = code
        self.detail = sentence
        # Members for programs that the problem answer carries beside the sentence.
        self.extra: dict[str, Any] = {}


class RateLimited(TooManyRequests):
    """Over one of the caller's limits: ``Retry-After`` says when it may pass again, ``setting``
    which setting raises the limit."""

    def __init__(self, limit: str, retry_after: int, setting: str) -> None:
        super().__init__(description=limit, retry_after=retry_after)
        self.setting = setting


def problem_body(
    status: int,
    code: str,
    detail: str | Message,
    title: str | None = None,
    *,
    locale: str = catalogs.DEFAULT,
    **extra: Any,
) -> dict[str, Any]:
    """The body of every problem tabletape answers, its ``title`` and ``detail`` in ``locale`` (a
    ``detail`` given as a Message is translated from its template, then formatted)."""
    return {
        "type": f"urn:tabletape:problem:{code}",
        "title": catalogs.render(title or _TITLES.get(status, N_("Error")), locale),
        "status": status,
        "detail": catalogs.render(detail, locale),
        "code": code,
        **extra,
    }


def problem(
    status: int, code: str, detail: str | Message, title: str | None = None, **extra: Any
) -> Response:
    """A problem-details response in the reader's language."""
    body = problem_body(status, code, detail, title, locale=current(), instance=request.path, **extra)
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
        return problem(status, "invalid_request", _request_sentence(messages), errors=messages)
    said = data.get("message")
    detail: str | Message = said or _DETAILS.get(status) or error.description or error.name
    extra: dict[str, str] = {}
    if isinstance(error, RateLimited):
        extra["setting"] = error.setting
        detail = Message(
            "over this caller's rate limit of {limit}; retry after Retry-After seconds "
            "(the deployment's {setting} raises the limit)",
            limit=said or error.description,
            setting=error.setting,
        )
    elif status == 429:
        detail = Message(
            "over this caller's rate limit of {limit}; retry after Retry-After seconds",
            limit=said or error.description,
        )
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
    app.register_error_handler(UnknownMatch, lambda e: problem(404, "unknown_match", store_sentence(e)))
    app.register_error_handler(MatchExists, lambda e: problem(409, "match_exists", store_sentence(e)))
    app.register_error_handler(VersionConflict, lambda e: problem(409, "version_conflict", store_sentence(e)))
    app.register_error_handler(
        IdempotencyMismatch, lambda e: problem(422, "idempotency_key_reused", store_sentence(e))
    )
    simple: list[tuple[type[Exception], int, str]] = [
        (Busy, 409, "busy"),
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
    app.register_error_handler(RequestRefused, lambda e: problem(e.status, e.code, e.detail, **e.extra))
    app.register_error_handler(ParseException, _malformed_body)
    app.register_error_handler(StoreFull, _full)
    app.register_error_handler(DiskFull, _disk_full)
    app.register_error_handler(NotNow, _not_now)
    app.register_error_handler(ProjectionsLagging, _lagging)
    app.register_error_handler(TooManyStreams, lambda e: problem(503, "too_many_streams", sentence(e)))
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
    return lambda error: problem(status, code, sentence(error))


def store_sentence(error: Exception) -> Message | str:
    """The event store's refusals in the catalogs' words (events/ keeps its English sentences)."""
    if isinstance(error, UnknownMatch):
        return Message("there is no match {match_id!r}", match_id=error.match_id)
    if isinstance(error, MatchExists):
        return Message("a match {match_id!r} already exists", match_id=error.match_id)
    if isinstance(error, VersionConflict) and error.match_id:
        return Message(
            "match {match_id!r} is at version {actual}, not {expected} as the request expected; "
            "read it again and retry",
            match_id=error.match_id,
            actual=error.actual,
            expected=error.expected,
        )
    if isinstance(error, IdempotencyMismatch) and error.match_id:
        return Message(
            "the Idempotency-Key {key!r} was already used on match {match_id!r} for a different request; "
            "use a new key for a new request",
            key=error.key,
            match_id=error.match_id,
        )
    if isinstance(error, IdempotencyMismatch):
        return Message(
            "the Idempotency-Key {key!r} was already used for a different request; "
            "use a new key for a new request",
            key=error.key,
        )
    if isinstance(error, StoreFull) and str(error) == str(StoreFull()):
        return Message(
            "the event store is full and records nothing new until its operator makes room; reads still work"
        )
    if isinstance(error, NotReplicated):
        return Message(
            "the write to match {match_id!r} was recorded on the primary but confirmed by {acknowledged} of "
            "the {wanted} replicas required; retry it with the same Idempotency-Key to learn its outcome "
            "without recording it twice",
            match_id=error.match_id,
            acknowledged=error.acknowledged,
            wanted=error.wanted,
        )
    if isinstance(error, VersionConflict):
        return Message(
            "the match is at version {actual}, not {expected} as the request expected; "
            "read it again and retry",
            actual=error.actual,
            expected=error.expected,
        )
    return sentence(error)


def sentence(error: Exception) -> Message | str:
    """What an error says, as a Message when it was raised with one (then it is translated)."""
    said = error.args[0] if error.args else None
    return said if isinstance(said, Message) else str(error)


def _rule_violation(error: RuleViolation) -> Response:
    return problem(error.status, error.code, error.sentence, **error.extra)


def _precondition(error: PreconditionFailed) -> Response:
    return problem(412, "version_mismatch", sentence(error), expected=error.expected, actual=error.actual)


def _import_refused(error: ImportRefused) -> Response:
    return problem(422, "import_refused", sentence(error), line=error.line, reason=error.reason)


def _malformed_body(error: ParseException) -> Response:
    # gunicorn reads a chunked body as the app reads it, and raises when a chunk is malformed;
    # the connection is closed after this answer (where the next request starts is unknown).
    detail = Message(
        "the request's body could not be read: {error} (a chunked body must be chunks of a hex size "
        "line, CRLF, the data, CRLF, and a last chunk of size 0); send it again, or with Content-Length",
        error=str(error),
    )
    answer = problem(400, "malformed_body", detail)
    answer.headers["Connection"] = "close"
    return answer


def _full(error: StoreFull) -> Response:
    log.warning("Redis is full: %s", error)
    return problem(503, "store_full", store_sentence(error))


def _disk_full(error: DiskFull) -> Response:
    log.error("Redis cannot write to its disk: %s", error)
    detail = Message(
        "the event store cannot write to its disk (full, or failing) and records nothing new until its "
        "operator makes room; reads still work"
    )
    if error.detail:
        detail = Message("{sentence} ({detail})", sentence=detail, detail=error.detail)
    return problem(503, "disk_full", detail)


def _not_now(error: NotNow) -> Response:
    log.warning("Redis refuses writes for now: %s", error)
    return problem(
        503,
        "store_unavailable",
        Message(
            "{why}; nothing was recorded, try again after Retry-After seconds",
            why=words(NOT_NOW.get(error.code, N_("the event store refuses writes for now"))),
        ),
        reason=error.code,
    )


def _lagging(error: ProjectionsLagging) -> Response:
    log.warning("%s", error)
    detail = Message(
        "the projections lag the logs by {seconds} s, past the limit of {limit} s "
        "(TABLETAPE_PROJECTION_LAG_LIMIT): scores, statistics and leaderboards are behind; "
        "check that the workers run",
        seconds=f"{error.seconds:.0f}",
        limit=f"{error.limit:g}",
    )
    return problem(503, "projections_lagging", detail, lag_seconds=round(error.seconds, 1))


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
        Message(
            "the event store is not answering; try again shortly "
            "(a write may or may not have been recorded: retry it with the same "
            "Idempotency-Key to record it exactly once)"
        ),
    )


def _not_replicated(error: NotReplicated) -> Response:
    log.warning("%s", error)
    return problem(
        503, "not_replicated", store_sentence(error), wanted=error.wanted, acknowledged=error.acknowledged
    )


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return http_problem(error)
    log.exception("unexpected error", exc_info=error)
    return problem(
        500, "internal_error", Message("tabletape failed unexpectedly; nothing was recorded by this request")
    )


def _first_field(messages: Any, path: str = "") -> tuple[str, str]:
    """The first field a request's validation refused, and the validator's words for it."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            inner = str(key) if key in ("json", "query", "headers", "form") and not path else None
            return _first_field(value, path if inner else (f"{path}.{key}" if path else str(key)))
    if isinstance(messages, list) and messages:
        first = messages[0]
        return _first_field(first, path) if isinstance(first, dict | list) else (path, str(first))
    return path, str(messages)


# marshmallow's words for a refused field, and what the sentence says instead.
_SAID = {
    "Missing data for required field.": Message("the field '{field}' is required"),
    "Unknown field.": Message("unexpected field '{field}': this operation does not take it"),
    "Not a valid integer.": Message("'{field}' must be a whole number"),
    "Not a valid string.": Message("'{field}' must be a text in quotes"),
    "Not a valid boolean.": Message("'{field}' must be true or false"),
    "Not a valid list.": Message("'{field}' must be a list [...]"),
    "Invalid input type.": Message("'{field}' must be a JSON object"),
    "Field may not be null.": Message("'{field}' may not be null"),
}


def _request_sentence(messages: Any) -> Message:
    """A request's validation errors as one sentence naming the first field refused."""
    field, said = _first_field(messages)
    known = _SAID.get(said)
    if known is not None:
        return Message(known.template, field=field or "?")
    if said.startswith("Must be greater than or equal to"):
        return Message(
            "'{field}' is too small: {limit}", field=field, limit=said.rsplit(" ", 1)[-1].rstrip(".")
        )
    # A validator of tabletape's own (a time zone, a date) says the particulars in its words.
    return Message("'{field}' is not valid here: {reason}", field=field or "?", reason=said)


_TITLES = {
    400: N_("Bad request"),
    401: N_("Token required"),
    403: N_("Wrong token"),
    404: N_("Not found"),
    405: N_("Method not allowed"),
    406: N_("Not acceptable"),
    408: N_("Request timeout"),
    409: N_("Conflict"),
    411: N_("Length required"),
    412: N_("Version mismatch"),
    413: N_("Request too large"),
    415: N_("Unsupported media type"),
    429: N_("Too many requests"),
    422: N_("Refused by the rules"),
    428: N_("Precondition required"),
    500: N_("Internal error"),
    503: N_("Store unavailable"),
}
# werkzeug's own descriptions are English: these say the same in the catalogs.
_DETAILS = {
    400: Message("the request could not be read"),
    404: Message("there is nothing at this address"),
    405: Message("this address does not take this method: the Allow header lists the ones it takes"),
    406: Message("no answer here is in a format the Accept header takes"),
    408: Message("the request took too long to arrive"),
    411: Message("a body needs a Content-Length"),
    413: Message("the request's body is larger than this server takes"),
    415: Message("the body must be JSON (Content-Type: application/json)"),
    428: Message("this request needs a precondition header"),
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
