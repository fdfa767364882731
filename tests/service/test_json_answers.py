"""The API's JSON answers: written by orjson, with the values and key order Flask's own would give."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import orjson
from flask import Flask

from service.http.json_answers import OrjsonProvider


def test_a_compact_answer_is_orjson_text_with_sorted_keys_and_the_same_values() -> None:
    app = Flask("answers")
    app.json = OrjsonProvider(app)
    body = {"b": [1, 2.5, None], "a": {"é": "ü", "c": True}}
    with app.app_context():
        answer = app.json.response(body)
    text = answer.get_data()
    assert text.rstrip(b"\n") == orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    assert json.loads(text) == body


def test_what_orjson_does_not_write_is_written_as_flask_writes_it() -> None:
    app = Flask("answers")
    app.json = OrjsonProvider(app)
    odd = {"when": datetime(2026, 12, 1, tzinfo=UTC), "big": 2**70}
    with app.app_context():
        assert json.loads(app.json.response(odd).get_data()) == {
            "when": "Tue, 01 Dec 2026 00:00:00 GMT",
            "big": 2**70,
        }
