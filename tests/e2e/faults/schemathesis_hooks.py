"""Schemathesis hooks: NDJSON bodies (the match import), and real matches for the links to follow."""

from __future__ import annotations

import json
import random
from typing import Any

import schemathesis

from games.registry import all_games


@schemathesis.serializer("application/x-ndjson")
def ndjson(context: Any, value: Any) -> bytes:
    """The body as NDJSON text: text and bytes as they are, other values one JSON value a line."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    items = value if isinstance(value, list) else [value]
    return "".join(json.dumps(item, default=str) + "\n" for item in items).encode()


_CHOICE = random.Random(20261130)


@schemathesis.hook("before_call")
def real_matches(context: Any, case: Any, **kwargs: Any) -> None:
    """Turn half of the generated match creations into real ones, so the links have a match to follow."""
    if case.operation.method.upper() != "POST" or case.operation.path != "/v1/matches":
        return
    if _CHOICE.random() < 0.5:
        game = _CHOICE.choice(sorted(all_games().values(), key=lambda g: g.id))
        script = game.example(_CHOICE.randrange(4))
        case.body = {"game": game.id, **{k: script[k] for k in ("players", "setup", "options")}}
