"""The OpenAPI document, generated from the code (openapi.yaml is this, committed)."""

from __future__ import annotations

from typing import Any

import yaml

from service.app import create_app
from service.config import Settings


def spec_dict() -> dict[str, Any]:
    """The OpenAPI document as a dict (builds an app; connects to nothing)."""
    app = create_app(Settings(redis_url="redis://127.0.0.1:6379/0"))
    with app.app_context():
        api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
        spec: dict[str, Any] = api.spec.to_dict()
    return spec


def spec_yaml() -> str:
    """The OpenAPI document as YAML, keys sorted so that the committed file diffs cleanly."""
    return yaml.safe_dump(spec_dict(), sort_keys=True, allow_unicode=True, width=100)
