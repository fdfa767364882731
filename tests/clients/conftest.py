"""Fixtures for the generated clients: the API under a real HTTP server on a free port."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator

import pytest
import redis
from werkzeug.serving import make_server

from service.app import create_app
from service.config import Settings


@pytest.fixture
def live_url(settings: Settings, redis_client: redis.Redis) -> Iterator[str]:
    """The API under a real HTTP server on a free port (projections made in the request)."""
    app = create_app(dataclasses.replace(settings, sync_projections=True))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}"
    server.shutdown()
    app.extensions["tabletape"].close()
