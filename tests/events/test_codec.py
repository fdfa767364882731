"""The JSON codec between envelopes and stream entries."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.codec import (
    UnsafeNumber,
    _careful_loads,
    decode,
    dumps,
    encode,
    entry_id,
    loads,
    read_stored,
    seq_of,
)
from events.envelope import NewEvent, StoredEvent

META = {"ts": "2024-05-01T20:00:00Z", "actor": "ann", "action_id": "a1", "schema": 1}


def test_a_new_event_becomes_three_fields_of_compact_json() -> None:
    fields = encode(NewEvent("BidPlaced", {"player": "ann", "bid": 2}, META))
    assert fields == {
        "type": "BidPlaced",
        "data": '{"player":"ann","bid":2}',
        "meta": '{"ts":"2024-05-01T20:00:00Z","actor":"ann","action_id":"a1","schema":1}',
    }


def test_an_encoded_event_decodes_to_the_same_type_data_and_meta_numbered_by_its_id() -> None:
    event = NewEvent("CardPlayed", {"player": "Zoë", "card": "7H", "x": [None, True, 1.5]}, META)
    stored = decode("42-0", encode(event))
    assert stored == StoredEvent(seq=42, type=event.type, data=event.data, meta=event.meta)


def test_entries_read_as_bytes_decode_like_entries_read_as_text() -> None:
    fields = {k.encode(): v.encode() for k, v in encode(NewEvent("T", {"é": 1}, META)).items()}
    assert decode(b"7-0", fields) == decode("7-0", encode(NewEvent("T", {"é": 1}, META)))


def _flat(fields: dict[str, str], order: tuple[str, ...] = ("type", "data", "meta")) -> list[bytes]:
    return [part.encode() for name in order for part in (name, fields[name])]


def test_fields_as_a_script_replies_them_decode_like_fields_read_by_xrange() -> None:
    fields = encode(NewEvent("CardPlayed", {"player": "Zoë", "n": 10**20}, META))
    expected = decode("12-0", fields)
    assert decode(b"12-0", _flat(fields)) == expected
    # Another order of the names, or an id read as text, takes the general reading.
    assert decode(b"12-0", _flat(fields, ("meta", "type", "data"))) == expected
    assert decode("12-0", _flat(fields)) == expected


def test_flat_fields_missing_one_or_a_bad_id_are_refused() -> None:
    fields = encode(NewEvent("T", {}, META))
    with pytest.raises(ValueError, match="lacks meta"):
        decode(b"3-0", _flat(fields, ("type", "data")))
    with pytest.raises(ValueError, match="not of the form"):
        decode(b"3-1", _flat(fields))


def test_non_ascii_text_is_kept_as_is_in_the_json() -> None:
    assert encode(NewEvent("T", {"name": "帽子戏法"}, {}))["data"] == '{"name":"帽子戏法"}'


def test_the_entry_id_of_a_step_is_the_step_then_zero() -> None:
    assert entry_id(1) == "1-0"
    assert seq_of(entry_id(123456)) == 123456
    assert seq_of(b"9-0") == 9


@pytest.mark.parametrize("bad", ["1-1", "1", "x-0", "-0", "1-0-0", ""])
def test_an_entry_id_not_written_by_the_store_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not of the form"):
        seq_of(bad)


def test_an_entry_missing_a_field_is_refused_with_the_field_named() -> None:
    with pytest.raises(ValueError, match="lacks meta"):
        decode("1-0", {"type": "T", "data": "{}"})


def test_a_value_json_cannot_carry_faithfully_is_refused_before_it_is_written() -> None:
    with pytest.raises(ValueError):
        encode(NewEvent("T", {"score": float("nan")}, {}))
    with pytest.raises(TypeError):
        encode(NewEvent("T", {"cards": {"7H"}}, {}))


def test_a_nan_or_an_infinity_beside_a_null_is_refused_too() -> None:
    for odd in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(ValueError):
            dumps({"top": None, "totals": {"ann": [None, odd]}})
    assert dumps({"top": None, "x": [None, 1.5, True]}) == '{"top":null,"x":[null,1.5,true]}'


@pytest.mark.parametrize(
    "text",
    [
        '{"n":123456789012345678901234567890}',
        '{"n":-9223372036854775809}',
        '{"x":NaN}',
        '{"x":1e400}',
        '{"s":"\\ud800"}',
    ],
)
def test_stored_json_reads_back_as_json_reads_it(text: str) -> None:
    as_json = json.loads(text)
    for raw in (text, text.encode()):
        found = read_stored(raw)
        assert json.dumps(found) == json.dumps(as_json)
        assert [type(v) for v in found.values()] == [type(v) for v in as_json.values()]


def test_a_stored_event_as_a_dict_is_plain_json() -> None:
    stored = StoredEvent(seq=3, type="T", data={"a": [1]}, meta=META)
    as_dict = stored.as_dict()
    assert as_dict == {"seq": 3, "type": "T", "data": {"a": [1]}, "meta": META}
    assert json.loads(json.dumps(as_dict)) == as_dict


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(JSON_VALUES, st.booleans())
def test_a_request_body_reads_as_the_careful_reader_reads_it(value: object, as_bytes: bool) -> None:
    text = json.dumps(value, ensure_ascii=False)
    raw = text.encode() if as_bytes else text
    found = loads(raw)
    assert json.dumps(found) == json.dumps(_careful_loads(raw)) == json.dumps(value)


@pytest.mark.parametrize(
    ("text", "path"),
    [('{"bid": NaN}', "bid"), ('{"a": [1, 1e400]}', "a.1"), ('{"n": -Infinity}', "n"), ("1" * 5000, "")],
)
def test_a_number_no_rule_may_be_handed_is_refused_with_its_field_named(text: str, path: str) -> None:
    with pytest.raises(UnsafeNumber) as refused:
        loads(text)
    assert refused.value.path == path


def test_a_lone_surrogate_and_a_long_integer_read_as_json_reads_them() -> None:
    for text in ('{"v": "\\ud800"}', '{"v": 123456789012345678901234567890}', '{"v": 12345678901234567890}'):
        assert loads(text) == json.loads(text)
        assert type(loads(text)["v"]) is type(json.loads(text)["v"])
