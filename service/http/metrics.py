"""GET /metrics in the Prometheus text format: requests, latencies, appends, conflicts, lag, queue.

Counters and histograms are kept per app in their own registry (so that several apps in one
process, as in the tests, never share a series). Under gunicorn with several worker processes,
set PROMETHEUS_MULTIPROC_DIR to an empty folder: prometheus-client then keeps each process's
values in files there and /metrics adds them up, whichever process answers the scrape. The
projection lag and the queue depth are read from Redis at each scrape, so they are the same
whichever process answers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import redis
from flask import Flask, Request, Response, current_app
from flask_smorest import Blueprint as SmorestBlueprint
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from projections.projecting.lag import LagWatch
from service.bootstrap import Services

# The views (by function name) whose 201 appends to a log.
WRITES = {"create_match", "post_action", "undo", "redo", "fork", "import_match"}
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The app's counters and histograms, and the collector that reads Redis at each scrape."""

    def __init__(self, parts: Services, watch: LagWatch) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "tabletape_http_requests",
            "HTTP requests answered, by route, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tabletape_http_request_duration_seconds",
            "Time to answer an HTTP request, by route and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.appends = Counter(
            "tabletape_appends",
            "Writes appended to a match's log, by route.",
            ["route"],
            registry=self.registry,
        )
        self.conflicts = Counter(
            "tabletape_write_conflicts",
            "Writes refused because the match moved on (409) or If-Match named another version (412).",
            ["route", "status"],
            registry=self.registry,
        )
        self.store = StoreCollector(parts, watch)
        self._series: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}

    def observe(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request."""
        series = self._series.get((route, method, status))
        if series is None:
            series = self._series[(route, method, status)] = self._children(route, method, status)
        counted, timed, outcome = series
        counted.inc()
        timed.observe(seconds)
        if outcome is not None:
            outcome.inc()

    def _children(self, route: str, method: str, status: int) -> tuple[Any, Any, Any]:
        """The series one kind of answer counts in (looked up once: ``labels`` takes a lock)."""
        view = route.rsplit(".", 1)[-1]
        outcome = None
        if status == 201 and view in WRITES:
            outcome = self.appends.labels(route)
        if status in (409, 412) and view in WRITES:
            outcome = self.conflicts.labels(route, str(status))
        return (self.requests.labels(route, method, str(status)), self.latency.labels(route, method), outcome)

    def exposition(self) -> bytes:
        """Every series, in the Prometheus text format."""
        scrape = CollectorRegistry(auto_describe=True)
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            MultiProcessCollector(scrape)
        else:
            scrape.register(_Forward(self.registry))
        scrape.register(self.store)
        return bytes(generate_latest(scrape))


class StoreCollector(Collector):
    """Gauges read from Redis when scraped: matches whose projection lags, by how long, jobs waiting."""

    def __init__(self, parts: Services, watch: LagWatch) -> None:
        self.parts = parts
        self.watch = watch

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """The lag and the queue depth now (left out while Redis does not answer)."""
        try:
            lagging = self.parts.store.marks.count()
            waiting = int(self.parts.queue.count)
            lag = self.watch.lag(self.parts.client, self.parts.keys, datetime.now(UTC))
        except redis.RedisError:
            return
        yield GaugeMetricFamily(
            "tabletape_projection_lagging_matches",
            "Matches whose projection has not yet reached the end of their log.",
            value=lagging,
        )
        yield GaugeMetricFamily(
            "tabletape_projection_queue_depth", "Projection jobs waiting for a worker.", value=waiting
        )
        yield GaugeMetricFamily(
            "tabletape_projection_lag_seconds",
            "Age of the oldest write no projection has folded yet (0 when none lags).",
            value=lag,
        )
        yield GaugeMetricFamily(
            "tabletape_projection_lag_limit_seconds",
            "The lag past which /healthz answers 503 (TABLETAPE_PROJECTION_LAG_LIMIT).",
            value=self.parts.settings.projection_lag_limit,
        )


class _Forward(Collector):
    """The app's own registry, read into the scrape's."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterator[Any]:
        """What the app's registry holds now."""
        yield from self.registry.collect()


def init_app(app: Flask, parts: Services, watch: LagWatch) -> Callable[[Request, Any, Response], Response]:
    """Keep the app's metrics for GET /metrics; the step that counts each answer
    (``service.http.pipeline`` runs it)."""
    metrics = Metrics(parts, watch)
    app.extensions["tabletape.metrics"] = metrics

    def count(req: Request, ctx: Any, response: Response) -> Response:
        # The request's clock, started with its id (service.http.request_log, the first step).
        started = ctx.get("request_started")
        # Scrapes are left out: they would count themselves.
        if started is not None and req.endpoint != "metrics.scrape":
            route = req.endpoint or "unknown"
            metrics.observe(route, req.method, response.status_code, time.perf_counter() - started)
        return response

    return count


blp = SmorestBlueprint("metrics", __name__, description="Prometheus metrics.")


@blp.route("/metrics", methods=["GET"])
@blp.response(
    200,
    {"type": "string"},
    content_type=CONTENT_TYPE_LATEST.split(";")[0],
    description="Every series in the Prometheus text exposition format (version 0.0.4).",
)
def scrape() -> Response:
    """Requests, latencies, appends, conflicts, projection lag and queue depth, for Prometheus."""
    metrics: Metrics = current_app.extensions["tabletape.metrics"]
    return Response(metrics.exposition(), mimetype=CONTENT_TYPE_LATEST.split(";")[0])
