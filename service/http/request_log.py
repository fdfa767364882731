"""A request id on every answer (X-Request-Id, echoed when the client sent a usable one), and
optional JSON logs (TABLETAPE_LOG_FORMAT=json): one object a line, each with the request id."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from flask import Request, Response, g, has_request_context

from service.recording.ids import unique_hex

HEADER = "X-Request-Id"
ENVIRON_KEY = "HTTP_X_REQUEST_ID"
# Ids a client may choose: short, and nothing a log line could be forged with.
USABLE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
log = logging.getLogger("tabletape.http")
# The id of the request the lean write route serves now, outside Flask's request context
# (service.api.lean_actions).
LEAN_REQUEST_ID: ContextVar[str | None] = ContextVar("lean_request_id", default=None)


class RequestIdFilter(logging.Filter):
    """Adds the current request's id (or "-") to every log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Always keep the record; only add the id."""
        if has_request_context():
            record.request_id = g.get("request_id", "-")
        else:
            record.request_id = LEAN_REQUEST_ID.get() or "-"
        return True


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's time, level, logger, message, request id and extra fields."""
        line = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        line |= getattr(record, "fields", {})
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(json_logs: bool) -> None:
    """Set up the root logger: plain lines, or JSON objects; both carry the request id."""
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    if json_logs:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s [%(request_id)s] %(message)s"))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(logging.INFO)


def request_id(environ: dict[str, Any]) -> str:
    """The id of a request: the one the client sent when it is usable, else a new one."""
    sent = environ.get(ENVIRON_KEY, "")
    return sent if sent and USABLE.match(sent) else unique_hex()


def log_answer(method: str, path: str, status: int, started: float) -> None:
    """The access log's line of one answer."""
    took = (time.perf_counter() - started) * 1000
    fields = {"method": method, "path": path, "status": status}
    log.info("answered", extra={"fields": fields | {"duration_ms": round(took, 1)}})


def steps(
    access_log: bool,
) -> tuple[Callable[[Request, Any], None], Callable[[Request, Any, Response], Response]]:
    """The steps that give every request an id (before it), and echo it and, with ``access_log``,
    log the answer (after it); ``service.http.pipeline`` runs them."""

    def take_id(req: Request, ctx: Any) -> None:
        ctx.request_id = request_id(req.environ)
        ctx.request_started = time.perf_counter()

    def echo_id(req: Request, ctx: Any, response: Response) -> Response:
        response.headers[HEADER] = ctx.get("request_id", "")
        if access_log:
            started = ctx.get("request_started", time.perf_counter())
            log_answer(req.method, req.path, response.status_code, started)
        return response

    return take_id, echo_id
