"""The steps every request passes, in one before-request and one after-request hook.

Each part of the service brings its own step: the request id and access log
(``service.http.request_log``), the caller's rate (``service.http.rate_limits``), the body's limits
(``service.http.body_limits``), the query, Location and ETag conventions (``service.http.conventions``)
and the metrics (``service.http.metrics``). ``service.app`` lists them once, in the order they run,
and this module runs them: one hook each way instead of one per step, which Flask would look up
and call one by one on every request. Each step is handed the request and its ``g`` (looked up
once, not through Flask's context proxies at every use).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask import Flask, Request, Response, g, request

# A step before the view: (request, g) -> an answer that ends the request there, or None.
Before = Callable[[Request, Any], Response | None]
# A step after the view: (request, g, answer) -> the answer.
After = Callable[[Request, Any, Response], Response]


def run_in_order(app: Flask, before: Sequence[Before | None], after: Sequence[After | None]) -> None:
    """Run ``before`` in order ahead of each view (a step that answers, or raises, ends it there,
    as Flask's own hooks do), and ``after`` in order on each answer, error answers included."""
    firsts = [step for step in before if step is not None]
    lasts = [step for step in after if step is not None]

    @app.before_request
    def before_each() -> Response | None:
        req, ctx = request._get_current_object(), g._get_current_object()  # type: ignore[attr-defined]
        for step in firsts:
            answer = step(req, ctx)
            if answer is not None:
                return answer
        return None

    @app.after_request
    def after_each(response: Response) -> Response:
        req, ctx = request._get_current_object(), g._get_current_object()  # type: ignore[attr-defined]
        for step in lasts:
            response = step(req, ctx, response)
        return response
