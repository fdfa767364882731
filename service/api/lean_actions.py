"""The lean write route: the common ``POST /v1/matches/{match_id}/actions`` answered without
Flask's dispatch.

Most requests a table sends are one action as a JSON object. Flask's request and response
objects, its routing and flask-smorest's and webargs' layers cost such a write about as much as
the rules and the append together, so this WSGI layer in front of the app answers it itself,
doing what the steps of every request do for it (``service.app`` lists them): the request id and
the access log, the disk's reserve, the caller's write budget (counted by the append), the body's
limits, the reader's language in the headers, the metrics. The body is handed to the recorder,
whose checks are the game's own JSON Schemas and rules, and the answer is written once, as the
documented view writes it (``service.api.matches``).

Anything else goes to the app as it came (its body put back): a query, a body that is not a
JSON object with a named ``type``, a caller over its limit, a write the rate-limit library counts
(a Redis Cluster), every write while CORS is on (flask-cors writes its headers). The app's steps
and the documented view answer those. Once the body is read, a refusal (any error) is carried to the app
instead (``Carried``): its steps run on it as on any request and its error handlers write the
problem in the reader's language, but the write is never tried twice.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask, Request, Response
from werkzeug.urls import iri_to_uri

from events.codec import loads
from events.errors import DiskFull
from events.extras import RateCounters
from service.api import bearer_token, idempotency_key, if_match
from service.api.matches import answer_body, appended, steps_location
from service.api.schemas.requests import common_action
from service.config import Settings
from service.http import conventions
from service.http.body_limits import chunked, media_type, read_body
from service.http.disk_space import check_space
from service.http.language import api_locale
from service.http.metrics import Metrics
from service.http.rate_limits import Budget
from service.http.request_log import LEAN_REQUEST_ID, log_answer, request_id
from service.language import catalogs
from service.recording.recorder import Recorder

PATH = re.compile(r"/v1/matches/([^/]+)/actions")
ROUTE = "matches.post_action"
# The environ key under which a refusal, or an answer whose write is still to be counted, goes
# to the app.
CARRIED = "tabletape.lean"
Environ = dict[str, Any]


@dataclass
class Carried:
    """What the lean route hands the app with a request it has begun: its id and clock, the
    caller's write budget, and the refusal to raise or the answer to send."""

    request_id: str
    started: float
    who: str | None
    counters: RateCounters | None
    refusal: Exception | None = None
    answer: Response | None = None


def carried(req: Request, ctx: Any) -> Response | None:
    """The step (right after the request id's) that takes over what the lean route began: the
    same id, clock and budget; its refusal raised, or its answer sent through the other steps."""
    begun: Carried | None = req.environ.get(CARRIED)
    if begun is None:
        return None
    ctx.request_id, ctx.request_started = begun.request_id, begun.started
    if begun.counters is not None:
        ctx.rate_who, ctx.rate_counters = begun.who, begun.counters
    if begun.refusal is not None:
        raise begun.refusal
    return begun.answer


class LeanActions:
    """WSGI: the common action write answered here, every other request passed to ``app``."""

    def __init__(
        self, app: Flask, recorder: Recorder, settings: Settings, budget: Budget, access_log: bool
    ) -> None:
        self.app = app.wsgi_app
        self.recorder = recorder
        self.budget = budget
        self.metrics: Metrics = app.extensions["tabletape.metrics"]
        self.max_body, self.max_depth = settings.max_body_bytes, settings.max_json_depth
        self.body_seconds = settings.body_seconds
        self.disk = (settings.data_dir, settings.disk_reserve_mb) if settings.data_dir else None
        self.cors = bool(settings.cors_origins)
        self.access_log = access_log

    def __call__(self, environ: Environ, start_response: Any) -> Iterable[bytes]:
        """Answer the request if it is the common write, else let the app answer it; the request
        is counted as under way (``Recorder.requests``) until the app has answered it (a live
        stream's steps, given later, are not: they mostly wait for the next step)."""
        mine = id(environ)
        requests = self.recorder.requests
        requests[mine] = None
        try:
            return self._answer(environ, start_response)
        finally:
            del requests[mine]

    def _answer(self, environ: Environ, start_response: Any) -> Iterable[bytes]:
        """Answer the request if it is the common write, else let the app answer it."""
        found = self._common(environ)
        if found is None:
            return self.app(environ, start_response)
        began = time.perf_counter()
        budget = self.budget(environ)
        if budget is None:
            return self.app(environ, start_response)
        begun = Carried(request_id(environ), began, *budget)
        try:
            data = read_body(environ, int(environ["CONTENT_LENGTH"]), self.body_seconds)
        except Exception as exc:
            return self._carry(environ, start_response, begun, b"", refusal=exc)
        action = self._action(data)
        if action is None:
            return self._pass(environ, start_response, data)
        # Log lines of the write carry its id, as they do in Flask's request context.
        said = LEAN_REQUEST_ID.set(begun.request_id)
        try:
            return self._write(environ, start_response, begun, found, action, data)
        finally:
            LEAN_REQUEST_ID.reset(said)

    def _common(self, environ: Environ) -> str | None:
        """The match id, when the request looks like the common write before its body is read."""
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
            return None
        found = PATH.fullmatch(environ.get("PATH_INFO", ""))
        # Non-ASCII is left to werkzeug, which decodes the path and the root as UTF-8.
        if found is None or not found[0].isascii() or not environ.get("SCRIPT_NAME", "").isascii():
            return None
        if self.cors:
            return None  # flask-cors's headers go on every answer, whether or not it has an Origin
        length = environ.get("CONTENT_LENGTH", "")
        if not length.isascii() or not length.isdigit() or not 0 < int(length) <= self.max_body:
            return None
        if chunked(environ) or media_type(environ) != "application/json":
            return None
        if self.disk is not None:
            try:
                check_space(*self.disk)
            except DiskFull:
                return None
        return found[1]

    def _action(self, data: bytes) -> dict[str, Any] | None:
        """The body as the documented view loads it (``type`` first), when it is the common one."""
        # A body with no more brackets than the limit cannot nest deeper (service.http.body_limits).
        if data.count(b"[") + data.count(b"{") > self.max_depth:
            return None
        try:
            body = loads(data.decode("utf-8"))
        except Exception:  # the app's parser names what is wrong with it
            return None
        return common_action(body)

    def _write(
        self, environ: Environ, start_response: Any, begun: Carried, match_id: str, action: Any, data: bytes
    ) -> Iterable[bytes]:
        """Record the action and answer 201; a refusal, or a write still to count, to the app."""
        try:
            token, version, key = bearer_token(environ), if_match(environ), idempotency_key(environ)
            answer = self.recorder.act(match_id, token, action, version, key, begun.counters)
        except Exception as exc:
            return self._carry(environ, start_response, begun, data, refusal=exc)
        root = environ.get("SCRIPT_NAME", "").rstrip("/")
        if begun.counters is not None and not begun.counters.sent:
            # Answered without an append (a retry's first answer): the app's step counts it.
            return self._carry(environ, start_response, begun, data, answer=appended(answer, root))
        body = answer_body(answer)
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Content-Language", catalogs.TAGS[api_locale(environ)]),
            ("Vary", "Accept-Language"),
            ("X-Request-Id", begun.request_id),
        ]
        location = steps_location(answer, root)
        if location is not None:
            headers.append(("Location", _uri(location)))
        start_response("201 CREATED", headers)
        self.metrics.observe(ROUTE, "POST", 201, time.perf_counter() - begun.started)
        if self.access_log:
            log_answer("POST", environ.get("PATH_INFO", ""), 201, begun.started)
        return [body]

    def _carry(
        self, environ: Environ, start_response: Any, begun: Carried, data: bytes, **outcome: Any
    ) -> Iterable[bytes]:
        """Let the app finish a request the lean route began (``carried``, its step)."""
        for name, value in outcome.items():
            setattr(begun, name, value)
        environ[CARRIED] = begun
        return self._pass(environ, start_response, data)

    def _pass(self, environ: Environ, start_response: Any, data: bytes) -> Iterable[bytes]:
        """Let the app answer the request, its body put back as it was read."""
        environ["wsgi.input"] = io.BytesIO(data)
        return self.app(environ, start_response)


def _uri(location: str) -> str:
    """A Location as werkzeug sends it (``service.app.TabletapeResponse``)."""
    return location if conventions.URI.fullmatch(location) else iri_to_uri(location)
