"""Reads are sent compressed to a client that accepts it, streams are not, and a finished match's
reads may be kept by caches while an unfinished one's are checked again each time."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable

from flask.testing import FlaskClient

from tests.service.conftest import Table, record

GZIP = {"Accept-Encoding": "gzip"}


def test_a_replay_is_sent_compressed_and_reads_back_the_same(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = record(table, "wizard", 7)
    plain = client.get(f"/v1/matches/{match.id}/replay")
    packed = client.get(f"/v1/matches/{match.id}/replay", headers=GZIP)
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) * 4 < len(plain.data)
    assert json.loads(gzip.decompress(packed.data)) == plain.json


def test_a_compressed_read_asked_again_with_its_etag_is_not_sent_again(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = record(table, "hats", 0)
    first = client.get(f"/v1/matches/{match.id}/replay", headers=GZIP)
    again = client.get(
        f"/v1/matches/{match.id}/replay", headers=GZIP | {"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304 and again.data == b""


def test_the_viewers_own_files_are_compressed(client: FlaskClient) -> None:
    script = client.get("/assets/js/render.js", headers=GZIP)
    assert script.status_code == 200 and script.headers["Content-Encoding"] == "gzip"
    assert b"export function show" in gzip.decompress(script.data)


def test_a_writes_answer_and_an_ndjson_export_are_not_compressed(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    acted = match.client.post(
        f"/v1/matches/{match.id}/actions",
        json={"type": "start_round", "trump_card": "7H"},
        headers=match.auth | GZIP,
    )
    assert acted.status_code == 201 and "Content-Encoding" not in acted.headers
    exported = client.get(f"/v1/matches/{match.id}/export", headers=GZIP)
    assert exported.status_code == 200 and "Content-Encoding" not in exported.headers


def test_a_finished_matchs_replay_may_be_cached_an_unfinished_ones_is_checked_again(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    finished = record(table, "wizard", 7)
    playing = record(table, "wizard", 7, upto=3)
    assert "max-age" in finished.get("replay").headers["Cache-Control"]
    assert playing.get("replay").headers["Cache-Control"] == "no-cache"
    assert playing.get("scores").headers["Cache-Control"] == "no-cache"
