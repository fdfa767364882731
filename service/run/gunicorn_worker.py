"""The API under gunicorn, as production and `tabletape serve` run it.

One worker class, gevent's: every connection is a greenlet, not a thread, so a spectator on a
live feed or a client sending its body slowly costs a few kilobytes and never takes a thread a
write needs. Slow clients are bounded and timed out: a connection's request line and headers must
arrive within ``keepalive`` seconds, a socket idle for ``CLIENT_IDLE_SECONDS`` is closed, a body
must arrive within ``BODY_SECONDS`` (service.http.body_limits), and a process holds at most
``worker_connections`` connections (the others wait in the listen backlog), of which live feeds
may hold only a capped share (service.http.live_slots), so that writes always find one. Errors gunicorn
answers itself (a bad request line, a URI or headers too large) are problem details like the
app's own.
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util
from gunicorn.workers.ggevent import GeventWorker

# A connection idle this long (nothing to read, or a reader that takes nothing) is closed.
CLIENT_IDLE_SECONDS = 30.0

SETTINGS: dict[str, Any] = {
    "worker_class": "service.run.gunicorn_worker.ApiWorker",
    "workers": 1,
    "worker_connections": 2000,
    # Under gevent, the deadline of a request's line and headers (and of an idle keep-alive).
    "keepalive": 5,
    "timeout": 30,
    "graceful_timeout": 10,
    "limit_request_line": 4094,
    "limit_request_fields": 100,
    "limit_request_field_size": 8190,
}

_CODES = {
    400: "bad_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "header_fields_too_large",
    501: "not_implemented",
}


class ApiWorker(GeventWorker):
    """gunicorn's gevent worker, its own error answers as problem details and idle sockets timed out."""

    def init_process(self) -> None:
        """Answer gunicorn's own errors as problem+json (the one function they are written by)."""
        util.write_error = write_problem
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        """Serve one connection, closing it when it idles past CLIENT_IDLE_SECONDS."""
        client.settimeout(CLIENT_IDLE_SECONDS)
        super().handle(listener, client, addr)


def write_problem(sock: Any, status: int, reason: str, message: str) -> None:
    """What gunicorn writes for a request it refuses before the app sees it, as problem details."""
    code = _CODES.get(status, "internal_error" if status >= 500 else "bad_request")
    detail = message or reason
    if status == 414:
        detail = f"the request line is too long ({detail}); send at most 4094 bytes of path and query"
    elif status == 431:
        detail = f"the headers are too many or too large ({detail})"
    body = json.dumps(
        {
            "type": f"urn:tabletape:problem:{code}",
            "title": reason,
            "status": status,
            "detail": detail,
            "code": code,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)
