"""The API under gunicorn, as production and `tabletape serve` run it.

One worker class, gevent's: every connection is a greenlet, not a thread, so a spectator on a
live feed or a client sending its body slowly costs a few kilobytes and never takes a thread a
write needs. Slow clients are bounded and timed out: a connection's request line and headers must
arrive within ``keepalive`` seconds, a socket idle for ``CLIENT_IDLE_SECONDS`` is closed, a body
must arrive within ``TABLETAPE_BODY_SECONDS`` (service.http.body_limits), and a process holds at most
``worker_connections`` connections (the others wait in the listen backlog), of which live feeds
may hold only a capped share (service.http.live_slots), so that writes always find one. Errors gunicorn
answers itself (a bad request line, a URI or headers too large) are problem details like the
app's own.
"""

from __future__ import annotations

import json
import time
from typing import Any

from gunicorn import util
from gunicorn.workers.ggevent import GeventWorker

from events.defaults import CLIENT_IDLE_SECONDS

# A body the app answered without reading (a 413, a 401) is read and thrown away, up to this much
# and for this long, before the connection closes (or is kept alive), so that the client finishes
# sending and reads the answer instead of a reset connection.
LINGER_BYTES = 8 * 1024 * 1024
LINGER_SECONDS = 3.0

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

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        """Serve one request; then discard what is left of its body (``discard_body``): a
        connection kept alive whose body is longer than that is closed instead of read on."""
        try:
            kept = bool(super().handle_request(listener_name, req, sock, addr))
        except StopIteration:
            discard_body(req, sock)
            raise
        if kept and not discard_body(req, sock):
            raise StopIteration()
        return kept


def discard_body(req: Any, sock: Any) -> bool:
    """Read and throw away the rest of a request's body, at most LINGER_BYTES for LINGER_SECONDS;
    whether it was read to its end. Closing a socket with unread data resets the connection, and
    a reset can destroy the answer before the client reads it (a lingering close, as web servers
    do)."""
    body = getattr(req, "body", None)
    if body is None or getattr(body, "failed", False):
        return body is None
    deadline, taken = time.monotonic() + LINGER_SECONDS, 0
    before = sock.gettimeout()
    try:
        while taken < LINGER_BYTES and (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            data = body.read(65536)
            if not data:
                return True
            taken += len(data)
    except Exception:  # a timeout, a reset, a malformed chunk: stop reading
        return False
    finally:
        try:
            sock.settimeout(before)
        except OSError:
            pass
    return False


def write_problem(sock: Any, status: int, reason: str, message: str) -> None:
    """What gunicorn writes for a request it refuses before the app sees it, as problem details."""
    code = _CODES.get(status, "internal_error" if status >= 500 else "bad_request")
    detail = message or reason
    if status == 414:
        detail = f"the request line is too long ({detail}); send at most 4094 bytes of path and query"
    elif status == 431:
        detail = f"the headers are too many or too large ({detail})"
    # Imported here, in the worker that answers: the master process never loads the app's modules.
    from service.http.errors import problem_body

    body = json.dumps(problem_body(status, code, detail, title=reason)).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)
