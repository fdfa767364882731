"""The body limits read a request's declared length from the WSGI environ, as werkzeug reads it:
a body refused or let through by its length is the one werkzeug's reading would say."""

from __future__ import annotations

import io

import pytest
from flask.testing import FlaskClient
from werkzeug.wrappers import Request

from service.config import Settings
from service.http.body_limits import content_length

DECLARED = [
    {},
    {"CONTENT_LENGTH": "12"},
    {"CONTENT_LENGTH": " 12 "},
    {"CONTENT_LENGTH": ""},
    {"CONTENT_LENGTH": "-3"},
    {"CONTENT_LENGTH": "+5"},
    {"CONTENT_LENGTH": "1e3"},
    {"CONTENT_LENGTH": "twelve"},
    {"CONTENT_LENGTH": "١٢"},  # digits, but not ASCII ones
    {"CONTENT_LENGTH": "99999999999999999999"},
    {"CONTENT_LENGTH": "12", "HTTP_TRANSFER_ENCODING": "chunked"},
    {"CONTENT_LENGTH": "12", "HTTP_TRANSFER_ENCODING": "gzip, Chunked"},
    {"CONTENT_LENGTH": "12", "HTTP_TRANSFER_ENCODING": "notchunked"},
    {"HTTP_TRANSFER_ENCODING": "chunked"},
]


@pytest.mark.parametrize("declared", DECLARED, ids=repr)
def test_the_declared_length_is_werkzeugs(declared: dict[str, str]) -> None:
    environ = {"REQUEST_METHOD": "POST", "wsgi.input": io.BytesIO(b""), **declared}
    assert content_length(environ) == Request(environ).content_length


def test_an_over_long_declared_body_is_refused_before_it_is_read(client: FlaskClient) -> None:
    answer = client.post(
        "/v1/matches",
        data=b"{}",
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": "99999999999"},
    )
    assert answer.status_code == 413 and answer.json["code"] == "body_too_large"
    assert "99999999999 bytes" in answer.json["detail"]


def test_the_time_a_body_has_is_a_setting_and_a_time_out_of_range_is_refused_at_start() -> None:
    # The slow bodies cut off after it with 408: tests/e2e/faults/test_faults_crowds.py.
    assert Settings.from_env({}).body_seconds == 15
    assert Settings.from_env({"TABLETAPE_BODY_SECONDS": "60"}).body_seconds == 60
    for wrong in ("0", "7200"):
        with pytest.raises(ValueError, match="TABLETAPE_BODY_SECONDS"):
            Settings.from_env({"TABLETAPE_BODY_SECONDS": wrong})
