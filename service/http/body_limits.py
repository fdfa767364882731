"""Request limits checked before any parsing: body size, content type, JSON nesting depth."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Request
from werkzeug.exceptions import ClientDisconnected

from games.contract import Message
from service.http.errors import RequestRefused

JSON_TYPES = ("application/json", "application/x-ndjson")


def check_request(req: Request, max_body: int, max_depth: int, seconds: float) -> None:
    """Refuse, with a clear 4xx, a write body that is too large, not JSON, or nested too deep."""
    # The headers are read from the WSGI environ: this runs on every write.
    environ = req.environ
    if environ.get("REQUEST_METHOD") not in ("POST", "PUT", "PATCH"):
        return
    length = content_length(environ)
    if length is not None and length > max_body:
        raise RequestRefused(
            413,
            "body_too_large",
            "the body is {length} bytes; the limit is {max_body}",
            length=length,
            max_body=max_body,
        )
    if _interruptible():
        with _deadline(seconds, environ):
            data = req.get_data(cache=True)
    else:
        data = req.get_data(cache=True)
    if length is None and not data and chunked(environ):
        # Servers that do not terminate a chunked body hand the app none: refuse it, never read it
        # as empty.
        raise RequestRefused(
            411,
            "length_required",
            "send the body with a Content-Length header; chunked bodies are not accepted",
        )
    # A body without Content-Length is cut at the limit as it is read, so reaching it means over.
    if len(data) > max_body or (length is None and len(data) >= max_body):
        raise RequestRefused(
            413, "body_too_large", "the body is over the limit of {max_body} bytes", max_body=max_body
        )
    if not data or data.isspace():
        return
    mimetype = media_type(environ)
    if mimetype not in JSON_TYPES and not mimetype.endswith("+json"):
        raise RequestRefused(
            415,
            "unsupported_media_type",
            "send the body as application/json, not {media_type}",
            media_type=mimetype or Message("no content type"),
        )
    # A body with no more brackets than the limit cannot nest deeper (counted in C, not walked).
    brackets = data.count(b"[") + data.count(b"{")
    if brackets > max_depth and nesting_depth(data) > max_depth:
        raise RequestRefused(
            400, "json_too_deep", "the JSON body nests deeper than {max_depth} levels", max_depth=max_depth
        )


def read_body(environ: dict[str, Any], length: int, seconds: float) -> bytes:
    """The body of a request whose Content-Length, ``length``, was checked (a number within the
    limit; the body not chunked), read as ``Request.get_data`` reads it, within ``seconds`` where a
    read can be cut short.

    It is read straight from the server's stream: werkzeug's wrapper of the stream
    (``get_input_stream``) costs a common write about 9 us more under gunicorn. A body that ends
    before its length is refused as that wrapper refuses it (``ClientDisconnected``, a 400),
    unless the server ends the stream itself (``wsgi.input_terminated``): then it is what the
    server gave."""
    if not _interruptible():
        return _read_exactly(environ, length)
    with _deadline(seconds, environ):
        return _read_exactly(environ, length)


def _read_exactly(environ: dict[str, Any], length: int) -> bytes:
    """``length`` bytes of the request's body (``read_body``)."""
    try:
        data: bytes = environ["wsgi.input"].read(length)
    except (OSError, ValueError) as exc:
        raise ClientDisconnected() from exc
    if len(data) < length and "wsgi.input_terminated" not in environ:
        raise ClientDisconnected()
    return data


def content_length(environ: dict[str, Any]) -> int | None:
    """The body's declared length, as werkzeug's ``Request.content_length`` reads it (None for
    none or a chunked body, 0 for a value that is not a number), from the environ directly."""
    declared = environ.get("CONTENT_LENGTH")
    if declared is None or chunked(environ):
        return None
    value = declared.strip()
    return int(value) if value.isascii() and value.isdigit() else 0


def chunked(environ: dict[str, Any]) -> bool:
    """Whether the request says its body is chunked (``Transfer-Encoding`` names ``chunked``)."""
    codings = environ.get("HTTP_TRANSFER_ENCODING", "").lower().split(",")
    return any(coding.strip() == "chunked" for coding in codings)


def media_type(environ: dict[str, Any]) -> str:
    """The request body's media type: what precedes the parameters of Content-Type, in lower case
    (as werkzeug's ``mimetype`` reads it, without parsing the parameters)."""
    return str(environ.get("CONTENT_TYPE", "")).partition(";")[0].strip().lower()


def nesting_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings are skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def _interruptible() -> bool:
    """Whether a read of the body can be cut short: under gevent's patched sockets a read waits
    in a greenlet that a timeout interrupts; without them (gunicorn's threads, the development
    server, tests) there is nothing to interrupt and no deadline."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


@contextmanager
def _deadline(seconds: float, environ: dict[str, Any]) -> Iterator[None]:
    """Refuse with 408 a body not read within ``seconds`` (only where ``_interruptible``)."""
    gevent = sys.modules["gevent"]
    timer = gevent.Timeout(seconds)
    timer.start()
    try:
        yield
    except gevent.Timeout as expired:
        if expired is not timer:
            raise
        _stop_reading(environ)
        raise RequestRefused(
            408,
            "request_timeout",
            "the body did not arrive within {seconds:g} s of the headers",
            seconds=seconds,
        ) from None
    finally:
        timer.close()


def _stop_reading(environ: dict[str, Any]) -> None:
    """Read no more of this connection, so the server neither waits for the rest nor reuses it."""
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass  # already gone
