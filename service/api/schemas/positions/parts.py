"""The pieces every game's view schema is made of: closed objects, players' names, maps by player,
nullable values and the disputes list (JSON Schema 2020-12, the OpenAPI 3.1 dialect)."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

PLAYER: Schema = {"type": "string", "description": "A player's name as given when the match was created."}
PLAYERS: Schema = {"type": "array", "items": PLAYER}
NUMBER: Schema = {"type": "integer"}
COUNT: Schema = {"type": "integer", "minimum": 0}
FLAG: Schema = {"type": "boolean"}
TEXT: Schema = {"type": "string"}
SAID: Schema = {
    "type": "string",
    "description": "The stored English sentence beside it in the reader's language (Accept-Language), "
    "told from the recorded facts; the reads add it, the log keeps the English.",
}
DISPUTE: Schema = {
    "type": "object",
    "description": "A contradiction found after the fact: recorded, never silently accepted.",
    "properties": {"code": TEXT, "message": TEXT, "player": PLAYER, "said": SAID},
    "required": ["code", "message"],
    "additionalProperties": True,
}
DISPUTES: Schema = {"type": "array", "items": DISPUTE, "description": "Contradictions found so far."}
TO_ACT: Schema = {**PLAYERS, "description": "Who may act now (empty once the match is over)."}


def closed(description: str, properties: Schema, optional: tuple[str, ...] = ()) -> Schema:
    """An object with exactly these members, all present but ``optional``."""
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


def by_player(value: Schema, description: str) -> Schema:
    """An object keyed by player name."""
    return {"type": "object", "description": description, "additionalProperties": value}


def listed(item: Schema, description: str | None = None) -> Schema:
    """An array of ``item``."""
    found: Schema = {"type": "array", "items": item}
    return found | ({"description": description} if description else {})


def either(values: list[str] | tuple[str, ...], description: str | None = None) -> Schema:
    """A string, one of ``values``."""
    found: Schema = {"type": "string", "enum": list(values)}
    return found | ({"description": description} if description else {})


def nullable(schema: Schema) -> Schema:
    """The schema, or null (a typed value's ``type`` gains "null"; an object or a choice is one
    of two)."""
    kind = schema.get("type")
    if isinstance(kind, str) and kind != "object" and "enum" not in schema:
        return schema | {"type": [kind, "null"]}
    described = {"description": schema["description"]} if "description" in schema else {}
    inner = {k: v for k, v in schema.items() if k != "description"}
    return {"oneOf": [inner, {"type": "null"}], **described}


def described(schema: Schema, description: str) -> Schema:
    """The schema with its own description."""
    return schema | {"description": description}


def filled(options: Any, description: str) -> Schema:
    """A game's options schema as views show the options: every option present (defaults filled in)."""
    properties = dict(options["properties"])
    return closed(description, properties)
