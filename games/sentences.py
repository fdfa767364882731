"""A JSON Schema error as a sentence a person reads: the field, what it holds, what would be right.

``jsonschema`` says "does not match '^[A-Za-z]+-[0-9]{1,2}$'"; the table reads "'red 4' is not
written as 'stack.0.prop' takes it: a prop, in lower case: coin, rabbit, ...". The schema's own
``description`` says what would be right (the catalogs translate it with the sentence); the
validator's words are kept for programs beside it (``games.validation.machine_details``).
"""

from __future__ import annotations

from typing import Any

from jsonschema import ValidationError

from games.contract import N_, Message, words

_TYPES = {
    "string": words("a text in quotes"),
    "integer": words("a whole number"),
    "number": words("a number"),
    "boolean": words("true or false"),
    "object": words("an object {...}"),
    "array": words("a list [...]"),
    "null": words("null"),
}

# A number out of its bounds, and a list or object with too few or too many entries.
_NUMBER_LIMITS = {
    **dict.fromkeys(("minimum", "exclusiveMinimum"), N_("{where} is {value}, but it is at least {limit}")),
    **dict.fromkeys(("maximum", "exclusiveMaximum"), N_("{where} is {value}, but it is at most {limit}")),
}
_SIZE_LIMITS = {
    **dict.fromkeys(("minItems", "minProperties"), N_("{where} needs at least {limit} entries, not {count}")),
    **dict.fromkeys(("maxItems", "maxProperties"), N_("{where} holds at most {limit} entries, not {count}")),
}


def field_name(path: Any) -> str:
    """A field's place as a person writes it: ``stack[2].in``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _names(names: Any) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _hint(schema: Any) -> Message | str:
    said = schema.get("description") if isinstance(schema, dict) else None
    return words(said) if isinstance(said, str) else ""


def explain(error: ValidationError, whole: Message) -> Message:
    """The sentence for one schema error of ``whole`` (the action, the setup or the options)."""
    field = field_name(error.path)
    where = words("'{field}'", field=field) if field else whole
    kind = error.validator
    expected: Any = error.validator_value
    value: Any = error.instance
    schema: Any = error.schema
    if kind == "required":
        missing = next((n for n in expected if isinstance(value, dict) and n not in value), expected[0])
        return Message("{where} needs the field '{missing}'", where=where, missing=missing)
    if kind == "additionalProperties":
        known = list(schema.get("properties", {}))
        extra = sorted(k for k in value if k not in known) if isinstance(value, dict) else []
        return Message(
            "unexpected field '{extra}' in {where}: it takes {known}",
            extra=extra[0] if extra else "?",
            where=where,
            known=_names(known) or words("no fields"),
        )
    if kind == "type":
        wanted = expected if isinstance(expected, str) else expected[0]
        return Message(
            "{where} must be {wanted}, not {value}",
            where=where,
            wanted=_TYPES.get(wanted, wanted),
            value=_shown(value),
        )
    if kind in ("pattern", "format", "minLength", "maxLength") and isinstance(value, str):
        if kind == "minLength" and not value:
            return Message("{where} may not be empty", where=where)
        return Message(
            "{value} is not written as {where} takes it: {hint}",
            value=_shown(value),
            where=where,
            hint=_hint(schema),
        )
    if kind in ("enum", "const"):
        choices = expected if kind == "enum" else [expected]
        return Message(
            "{value} is not a choice for {where}: choose {choices}",
            value=_shown(value),
            where=where,
            choices=", ".join(_shown(c) for c in choices),
        )
    if kind in _NUMBER_LIMITS:
        return Message(_NUMBER_LIMITS[kind], where=where, value=_shown(value), limit=expected)
    if kind in _SIZE_LIMITS:
        return Message(_SIZE_LIMITS[kind], where=where, limit=expected, count=len(value))
    if kind == "uniqueItems":
        return Message("{where} names the same entry twice", where=where)
    return Message(
        "{value} does not fit {where}: {hint}", value=_shown(value), where=where, hint=_hint(schema)
    )


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int | float):
        return str(value)
    return "{...}" if isinstance(value, dict) else "[...]"
