"""The Flask application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response
from flask_smorest import Api
from werkzeug.datastructures import Headers
from werkzeug.middleware.proxy_fix import ProxyFix

from projections.projecting.lag import LagWatch
from service.api import (
    feed,
    games,
    health,
    history,
    lean_actions,
    matches,
    openapi_shape,
    players,
    queries,
    seats,
    table,
)
from service.api import hooks as webhooks
from service.api.schemas.answers import Problem
from service.bootstrap import build
from service.config import Settings
from service.http import conventions as http_conventions
from service.http import disk_space, errors, language, metrics, request_log
from service.http import pipeline as hooks
from service.http.body_limits import check_request
from service.http.compression import compress_reads
from service.http.json_answers import OrjsonProvider
from service.http.live_slots import LiveSlots
from service.http.rate_limits import create_buckets, limit_rates
from service.web import blp as web_pages

API_TITLE = "tabletape"
API_VERSION = "1.0.0"


class TabletapeApi(Api):
    """flask-smorest Api whose documented errors are problem details."""

    ERROR_SCHEMA = Problem
    DEFAULT_ERROR_RESPONSE_NAME = "DEFAULT_ERROR"
    # flask-smorest's own default, spelt here with its type (mypy cannot infer it from there).
    DEFAULT_RESPONSE_CONTENT_TYPE: str = "application/json"

    def _register_responses(self) -> None:
        saved = self.DEFAULT_RESPONSE_CONTENT_TYPE
        self.DEFAULT_RESPONSE_CONTENT_TYPE = errors.PROBLEM
        try:
            super()._register_responses()
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = saved

    def handle_http_exception(self, error: Any) -> Response:
        """HTTP errors as problem details."""
        return errors.http_problem(error)


class TabletapeResponse(Response):
    """Flask's response whose Location is sent as it is when it is a URI path already (as every
    Location tabletape sets is, unless it is mounted under a path that is not): werkzeug converts
    each Location from an IRI on the way out, which costs a write's answer more than the rest of
    its headers. Any other Location is converted."""

    def get_wsgi_headers(self, environ: Any) -> Headers:
        """The headers as sent; a URI Location is kept out of the conversion and put back after."""
        location = self.headers.get("Location")
        if location is None or not http_conventions.URI.fullmatch(location):
            return super().get_wsgi_headers(environ)
        del self.headers["Location"]
        try:
            headers = super().get_wsgi_headers(environ)
        finally:
            self.headers["Location"] = location
        headers["Location"] = location
        return headers


class TabletapeFlask(Flask):
    """Flask whose views are looked at once: ``ensure_sync`` asks whether a view is a coroutine
    function, which flask-smorest's decorators make it ask several times on every request."""

    response_class = TabletapeResponse

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._sync: dict[Any, Any] = {}
        super().__init__(*args, **kwargs)

    def ensure_sync(self, func: Any) -> Any:
        """The function itself when it is not a coroutine function (remembered per function)."""
        try:
            return self._sync[func]
        except KeyError:
            found = self._sync[func] = super().ensure_sync(func)
            return found


def create_app(settings: Settings | None = None) -> Flask:
    """Build the app: settings from the environment unless given, Redis connected lazily."""
    settings = settings or Settings.from_env()
    app = TabletapeFlask("tabletape")
    app.json = OrjsonProvider(app)
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_SPEC_OPTIONS={
            "info": {
                "description": "Record table games one validated action at a time, and play "
                "them back: event logs, scoreboards, replays and rewinds."
            },
        },
    )
    app.extensions["tabletape"] = build(settings)
    app.extensions["tabletape.live_slots"] = LiveSlots(
        settings.live_streams, settings.live_streams_per_client
    )
    take_id, echo_id = request_log.steps(access_log=settings.json_logs)
    # How long the projections lag, as this process has watched them (/healthz and /metrics).
    app.extensions["tabletape.lag"] = LagWatch()
    count_answer = metrics.init_app(app, app.extensions["tabletape"], app.extensions["tabletape.lag"])
    api = TabletapeApi(app, spec_kwargs={"extra_plugins": [openapi_shape.ShapePlugin()]})
    openapi_shape.register_components(api.spec)
    for blueprint in (
        health.blp,
        metrics.blp,
        games.blp,
        matches.blp,
        queries.blp,
        table.blp,
        seats.blp,
        history.blp,
        feed.blp,
        webhooks.blp,
        players.blp,
    ):
        api.register_blueprint(blueprint)
    app.register_blueprint(web_pages)
    language.init_app(app)
    errors.register(app)
    parts = app.extensions["tabletape"]
    rates = limit_rates(
        app,
        parts.client,
        parts.keys,
        parts.recorder.credentials,
        create_buckets(settings.create_rate, settings.create_burst),
        settings.write_rate,
        counted_by_append=parts.store.counts,
    )

    def limits(req: Request, ctx: Any) -> None:
        check_request(req, settings.max_body_bytes, settings.max_json_depth, settings.body_seconds)

    # Before the steps below: Flask runs after-request hooks last registered first, so CORS
    # headers go on the answer the steps leave (a 429 they make included).
    _cors(app, settings.cors_origins)
    # The steps of every request, in the order they run. The id comes first, so that even a
    # request refused by a limit has one; a refusal after the view (a write over its rate that
    # never reached its append) is counted by the metrics and carries the id.
    hooks.run_in_order(
        app,
        before=[
            take_id,
            # A request the lean write route began and hands over (after its id, before the rest).
            lean_actions.carried,
            # Before the rate counters: on a nearly full disk, not even a counter is written.
            disk_space.step(settings.data_dir, settings.disk_reserve_mb),
            rates.before,
            limits,
            http_conventions.refuse_unknown_query,
        ],
        after=[
            language.headers,
            http_conventions.version_etag,
            compress_reads(app),
            http_conventions.add_location,
            rates.after,
            count_answer,
            echo_id,
        ],
    )
    # The common action write is answered ahead of Flask's dispatch, with the same steps.
    app.wsgi_app = lean_actions.LeanActions(  # type: ignore[method-assign]
        app, parts.recorder, settings, rates.budget, access_log=settings.json_logs
    )
    if settings.trusted_proxies:
        # The caller's address (rate limits, logs) is the one the trusted proxies forward.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=settings.trusted_proxies, x_proto=settings.trusted_proxies
        )
    if settings.json_logs:
        request_log.configure(json_logs=True)

    return app


def _cors(app: Flask, origins: tuple[str, ...]) -> None:
    """Let web scorekeeping apps from the configured origins call the API (none by default)."""
    if not origins:
        return
    from flask_cors import CORS

    CORS(
        app,
        origins=list(origins),
        expose_headers=["ETag", "Location", "X-Request-Id", "Retry-After"],
        allow_headers=[
            "Authorization",
            "Content-Type",
            "If-Match",
            "If-None-Match",
            "Idempotency-Key",
            "X-Request-Id",
        ],
        # Answers differ by Origin: caches must key on it. Preflights are cached for 10 minutes.
        vary_header=True,
        max_age=600,
    )

    @app.after_request
    def vary_by_origin(response: Response) -> Response:
        # flask-cors leaves Vary out when it echoes a single configured origin.
        response.vary.add("Origin")
        return response
