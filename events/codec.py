"""The JSON codec between envelopes and stream entries.

An entry has three fields, ``type``, ``data`` and ``meta`` (the latter two compact JSON), and the
id ``<seq>-0``, so that reading steps a..b is one ``XRANGE a-0 b-0``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events.envelope import NewEvent, StoredEvent

Raw = bytes | str


def entry_id(seq: int) -> str:
    """The stream entry id of step ``seq``."""
    return f"{seq}-0"


def seq_of(entry: Raw) -> int:
    """The step number encoded in a stream entry id ``<seq>-0``."""
    text = as_text(entry)
    head, sep, tail = text.partition("-")
    if not sep or tail != "0" or not head.isdigit():
        raise ValueError(f"stream entry id {text!r} is not of the form '<seq>-0'")
    return int(head)


def dumps(value: Any) -> str:
    """Compact, strict JSON (no NaN, non-ASCII kept as is)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def encode(event: NewEvent) -> dict[str, str]:
    """The stream fields of a new event."""
    return {"type": event.type, "data": dumps(event.data), "meta": dumps(event.meta)}


def decode(entry: Raw, fields: Mapping[Any, Raw]) -> StoredEvent:
    """The stored event of one stream entry (its id and its fields)."""
    named = {as_text(k): as_text(v) for k, v in fields.items()}
    missing = {"type", "data", "meta"} - named.keys()
    if missing:
        raise ValueError(f"stream entry {as_text(entry)!r} lacks {', '.join(sorted(missing))}")
    return StoredEvent(
        seq=seq_of(entry),
        type=named["type"],
        data=json.loads(named["data"]),
        meta=json.loads(named["meta"]),
    )


def as_text(value: Any) -> str:
    """A Redis reply (bytes, or text with decode_responses) as text."""
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
