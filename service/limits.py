"""Request limits checked before any parsing: body size, content type, JSON nesting depth."""

from __future__ import annotations

from flask import request

from service.errors import BadRequest

JSON_TYPES = ("application/json", "application/x-ndjson")


def check_request(max_body: int, max_depth: int) -> None:
    """Refuse, with a clear 4xx, a write body that is too large, not JSON, or nested too deep."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    length = request.content_length
    if length is not None and length > max_body:
        raise BadRequest(413, "body_too_large", f"the body is {length} bytes; the limit is {max_body}")
    data = request.get_data(cache=True)
    if length is None and not data and "chunked" in request.headers.get("Transfer-Encoding", "").lower():
        # Servers that do not terminate a chunked body hand the app none: refuse it, never read it
        # as empty.
        raise BadRequest(
            411,
            "length_required",
            "send the body with a Content-Length header; chunked bodies are not accepted",
        )
    # A body without Content-Length is cut at the limit as it is read, so reaching it means over.
    if len(data) > max_body or (length is None and len(data) >= max_body):
        raise BadRequest(413, "body_too_large", f"the body is over the limit of {max_body} bytes")
    if not data.strip():
        return
    if request.mimetype not in JSON_TYPES and not request.mimetype.endswith("+json"):
        raise BadRequest(
            415,
            "unsupported_media_type",
            f"send the body as application/json, not {request.mimetype or 'no content type'}",
        )
    if nesting_depth(data) > max_depth:
        raise BadRequest(400, "json_too_deep", f"the JSON body nests deeper than {max_depth} levels")


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
