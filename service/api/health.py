"""GET /healthz: the API answers and the store answers."""

from __future__ import annotations

from typing import Any

from service.api import Blueprint, services
from service.api.schemas.answers import Health

blp = Blueprint("health", __name__, description="Liveness.")


@blp.route("/healthz", methods=["GET"])
@blp.response(200, Health)
def health() -> dict[str, Any]:
    """Answers 200 when Redis answers and takes writes, 503 problem otherwise (down, or full)."""
    services().ping()
    return {"status": "ok", "redis": "ok"}
