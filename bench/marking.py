"""tabletape whose writes carry no projection: each marks its match for the workers, as on a
Redis Cluster. Served beside tabletape by `python -m bench.http --marking`, it shows what the
write that carries its projection saves (or costs) a deployment on one Redis."""

from __future__ import annotations

from flask import Flask

from service.app import create_app as tabletape


def create_app() -> Flask:
    """tabletape over the environment's settings, its recorder carrying no projection."""
    app = tabletape()
    app.extensions["tabletape"].recorder.projector = None
    return app
