"""Schemathesis hooks for tabletape's spec: how to send an NDJSON body (the match import)."""

from __future__ import annotations

import json
from typing import Any

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(context: Any, value: Any) -> bytes:
    """One JSON value a line (a generated list gives one line per item)."""
    items = value if isinstance(value, list) else [value]
    return "".join(json.dumps(item) + "\n" for item in items).encode()
