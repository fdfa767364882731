"""The JSON codec between envelopes and stream entries.

An entry has three fields, ``type``, ``data`` and ``meta`` (the latter two compact JSON), and the
id ``<seq>-0``, so that reading steps a..b is one ``XRANGE a-0 b-0``.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from events.envelope import NewEvent, StoredEvent

Raw = bytes | str


def entry_id(seq: int) -> str:
    """The stream entry id of step ``seq``."""
    return f"{seq}-0"


def seq_of(entry: Raw) -> int:
    """The step number encoded in a stream entry id ``<seq>-0`` (as bytes, or as text)."""
    if isinstance(entry, bytes):
        number, dash, zero = entry.partition(b"-")
        if dash and zero == b"0" and number.isdigit():
            return int(number)
    text = as_text(entry)
    head, sep, tail = text.partition("-")
    if not sep or tail != "0" or not head.isdigit():
        raise ValueError(f"stream entry id {text!r} is not of the form '<seq>-0'")
    return int(head)


def dumps(value: Any) -> str:
    """Compact, strict JSON (no NaN, non-ASCII kept as is), the form every stored value takes.

    orjson writes it, ten times faster than ``json``. What orjson cannot write (integers beyond
    64 bits, a lone surrogate, a set) goes to ``json``, which writes it or raises; so does a value
    whose text has a ``null`` that does not read back as the value, since orjson writes a NaN or
    an infinity as ``null`` where ``json`` refuses it (ValueError).
    """
    try:
        text = orjson.dumps(value)
    except orjson.JSONEncodeError:
        return _STRICT.encode(value)
    # A null is either a None or what orjson made of a NaN or an infinity: reading the text back
    # tells them apart (a NaN or an infinity does not come back), at a tenth of json's cost.
    if b"null" in text and orjson.loads(text) != value:
        return _STRICT.encode(value)
    return text.decode()


_STRICT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def dumps_sorted(value: Any) -> bytes:
    """Compact JSON in UTF-8 with every object's keys sorted: the form the API's answers take.

    orjson writes it; what it cannot write (integers beyond 64 bits, keys that are not strings)
    goes to ``json``, as the API's own JSON provider sends it there."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return _SORTED.encode(value).encode()


_SORTED = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, sort_keys=True)


class UnsafeNumber(ValueError):
    """A JSON text holds a number no store or rule may be handed: NaN, an infinity, or too many digits."""

    def __init__(self, path: str, text: str) -> None:
        shown = text if len(text) <= 24 else f"a number of {len(text)} characters"
        super().__init__(
            f"{path or 'the value'}: {shown} is not a number tabletape takes "
            f"(finite numbers only, integers of at most {sys.get_int_max_str_digits()} digits)"
        )
        self.path = path
        self.text = text


class _Odd:
    """Where a number that cannot be taken stood, so that the path to it can be named."""

    def __init__(self, text: str) -> None:
        self.text = text


def loads(text: str | bytes) -> Any:
    """JSON as ``json.loads`` reads it, but UnsafeNumber (naming the field) for NaN, infinities and
    integers longer than Python converts, which ``json.loads`` would take or fail on unnamed.

    orjson reads it when it can read it alike: it refuses NaN, infinities and lone surrogates,
    and only a run of 19 digits can be an integer it would read otherwise. Those texts, and every
    text it refuses, are read the careful way, which takes them or names what is wrong."""
    found = _read_quickly(text)
    return _careful_loads(text) if found is _UNREAD else found


def _careful_loads(text: str | bytes) -> Any:
    odd: list[_Odd] = []

    def mark(raw: str) -> _Odd:
        odd.append(_Odd(raw))
        return odd[-1]

    def number(raw: str) -> Any:
        value = float(raw)
        return value if math.isfinite(value) else mark(raw)

    def integer(raw: str) -> Any:
        return int(raw) if len(raw.lstrip("-")) <= sys.get_int_max_str_digits() else mark(raw)

    value = json.loads(text, parse_int=integer, parse_float=number, parse_constant=mark)
    if odd:
        path, found = _first_odd(value, "")
        raise UnsafeNumber(path, found.text if found else odd[0].text)
    return value


def _first_odd(value: Any, path: str) -> tuple[str, _Odd | None]:
    if isinstance(value, _Odd):
        return path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        found = _first_odd(inner, f"{path}.{key}" if path else str(key))
        if found[1] is not None:
            return found
    return path, None


def encode(event: NewEvent) -> dict[str, str]:
    """The stream fields of a new event."""
    return {"type": event.type, "data": dumps(event.data), "meta": dumps(event.meta)}


def decode(entry: Raw, fields: Mapping[Any, Raw] | Sequence[Raw]) -> StoredEvent:
    """The stored event of one stream entry: its id and its fields, as a mapping (as redis-py
    reads XRANGE) or as the flat list of names and values a script's reply holds."""
    if isinstance(fields, Sequence):
        if len(fields) == 6 and fields[0] == b"type" and fields[2] == b"data" and fields[4] == b"meta":
            # The order every append writes, read by the projector on every run.
            kind, data, meta = fields[1], fields[3], fields[5]
            return StoredEvent(seq_of(entry), as_text(kind), read_stored(data), read_stored(meta))
        fields = dict(zip(fields[::2], fields[1::2], strict=True))
    named = {as_text(k): v for k, v in fields.items()}
    missing = {"type", "data", "meta"} - named.keys()
    if missing:
        raise ValueError(f"stream entry {as_text(entry)!r} lacks {', '.join(sorted(missing))}")
    return StoredEvent(
        seq=seq_of(entry),
        type=as_text(named["type"]),
        data=read_stored(named["data"]),
        meta=read_stored(named["meta"]),
    )


# 19 digits in a row may be an integer beyond 64 bits, which orjson would read as a float.
_LONG_TEXT, _LONG_BYTES = re.compile(r"\d{19}"), re.compile(rb"\d{19}")
_UNREAD = object()


def _read_quickly(raw: Raw) -> Any:
    """orjson's reading of a JSON text where it reads it as ``json`` does; else ``_UNREAD``
    (integers beyond 64 bits, NaN, infinities, a lone surrogate, or a text that is not JSON)."""
    long = _LONG_BYTES.search(raw) if isinstance(raw, bytes) else _LONG_TEXT.search(raw)
    if long is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return _UNREAD


def read_stored(raw: Raw) -> Any:
    """A stored JSON text read as ``json.loads`` reads it: by orjson, unless the text holds what
    orjson reads otherwise or refuses (integers beyond 64 bits, NaN, a lone surrogate)."""
    found = _read_quickly(raw)
    return json.loads(raw) if found is _UNREAD else found


def as_text(value: Any) -> str:
    """A Redis reply (bytes, or text with decode_responses) as text."""
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def as_texts(fields: Mapping[Any, Any]) -> dict[str, str]:
    """A Redis hash's fields and values (``HGETALL``'s reply) as text."""
    return {as_text(k): as_text(v) for k, v in fields.items()}
