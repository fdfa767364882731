"""Compressed reads: a GET's answer (JSON, HTML, CSS, JavaScript) sent with zstd, brotli or gzip
when the client accepts one (flask-compress). A finished match's reads may be kept by caches.

Only whole answers are compressed: a stream (the live SSE feed, an NDJSON export) is sent as it is
written, so that each step reaches the reader at once. Writes are never compressed: their answers
are small, and the write path stays as short as it is. The ETag of a compressed answer names its
encoding (``"5.ab12…:gzip"``), so that caches keep each encoding apart; ``If-Match`` reads the
version before the dot as before.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response
from flask_compress import Compress

from service.http.pipeline import After

MIMETYPES = ["application/json", "application/problem+json", "text/html", "text/css", "text/javascript"]
# A finished match changes only if its table undoes its end, which is rare: its reads may be kept
# five minutes (so an undo after the end reaches a cache's readers that late at most), then
# checked again by ETag.
FINISHED_CACHE = "public, max-age=300"


def compress_reads(app: Flask) -> After:
    """The after-request step that compresses a GET's whole answer."""
    app.config.update(
        COMPRESS_REGISTER=False,
        COMPRESS_STREAMS=False,
        COMPRESS_MIMETYPES=MIMETYPES,
        COMPRESS_ALGORITHM=["zstd", "br", "gzip"],
        COMPRESS_MIN_SIZE=1024,
    )
    compress = Compress(app)

    def compressed(req: Request, ctx: Any, response: Response) -> Response:
        if req.method != "GET":
            return response
        if response.direct_passthrough and response.status_code == 200 and req.endpoint == "web.static":
            # The viewer's own files are read whole (they are small) so that they are compressed too.
            response.direct_passthrough = False
            response.make_sequence()
        if response.is_streamed:
            return response
        return compress.after_request(response)

    return compressed


def cache_finished(response: Response, finished: bool) -> Response:
    """Let caches keep a read of a finished match; an unfinished one's is checked each time."""
    response.headers["Cache-Control"] = FINISHED_CACHE if finished else "no-cache"
    return response
