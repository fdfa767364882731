"""An action's body loads to what marshmallow's full load gives, by the schema's own short way too."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError

from service.api.schemas.requests import Action

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
TYPES = st.text(max_size=70) | st.integers() | st.none() | st.lists(st.text(max_size=3), max_size=2)


def full_load(body: Any) -> Any:
    """marshmallow's own load of the schema, without its short way."""
    return Schema.load(Action(), body)


def outcome(load: Any, body: Any) -> Any:
    try:
        return ("loaded", load(body))
    except ValidationError as refused:
        return ("refused", refused.messages)


@settings(max_examples=300, deadline=None)
@given(fields=st.dictionaries(st.text(max_size=8), JSON, max_size=5), kind=TYPES, typed=st.booleans())
def test_an_object_loads_as_marshmallow_loads_it(fields: dict[str, Any], kind: Any, typed: bool) -> None:
    body = {**fields, "type": kind} if typed else {k: v for k, v in fields.items() if k != "type"}
    assert outcome(Action().load, body) == outcome(full_load, body)


@pytest.mark.parametrize("body", [[{"type": "bid"}], "bid", 3, None, []])
def test_a_body_that_is_no_object_is_refused_as_marshmallow_refuses_it(body: Any) -> None:
    assert outcome(Action().load, body) == outcome(full_load, body)
    assert outcome(Action().load, body)[0] == "refused"
