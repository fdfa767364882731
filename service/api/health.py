"""GET /healthz: the API answers, the store answers and takes writes, and the projections keep up."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import current_app

from projections.projecting.lag import LagWatch, ProjectionsLagging
from service.api import Blueprint, services
from service.api.schemas.answers import Health
from service.http.disk_space import check_space

blp = Blueprint("health", __name__, description="Liveness.")


@blp.route("/healthz", methods=["GET"])
@blp.response(200, Health)
def health() -> dict[str, Any]:
    """200 when Redis answers and takes writes and the projections keep up; 503 problem otherwise,
    naming why (down, full, its disk full, not now, or the projections lagging past the limit)."""
    parts = services()
    if parts.settings.data_dir and parts.settings.disk_reserve_mb > 0:
        # First: the probe below is a write, which a disk without room must not be asked for.
        check_space(parts.settings.data_dir, parts.settings.disk_reserve_mb)
    parts.ping()
    watch: LagWatch = current_app.extensions["tabletape.lag"]
    lag = watch.lag(parts.client, parts.keys, datetime.now(UTC))
    if lag > parts.settings.projection_lag_limit:
        raise ProjectionsLagging(lag, parts.settings.projection_lag_limit)
    return {"status": "ok", "redis": "ok", "projection_lag_seconds": round(lag, 1)}
