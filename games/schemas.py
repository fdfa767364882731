"""The one way every game writes its JSON Schemas (draft 2020-12) for GET /v1/games."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Schema = dict[str, Any]

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def schema(description: str, properties: Schema, required: Iterable[str] = ()) -> Schema:
    """A closed JSON object: its ``$schema``, what it is, its fields and which are required."""
    return {
        "$schema": DRAFT,
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }
