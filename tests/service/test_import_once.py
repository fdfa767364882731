"""Restoring a backup twice doubles nothing: an import recognises a match the store already holds
(by the origin's id and the log's digest) unless a copy is asked for, and statistics never count
one origin twice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from flask.testing import FlaskClient

from tests.service.conftest import SHORT, Table

NDJSON = "application/x-ndjson"


def _finished(recorded: Callable[..., Table], work: Callable[[], int]) -> tuple[Table, str]:
    """A finished Hats match and its full export."""
    match = recorded("hats", SHORT["hats"])
    work()
    export = match.client.get(f"/v1/matches/{match.id}/export", headers=match.auth).get_data(as_text=True)
    return match, export


def _winner(client: FlaskClient, match: Table) -> str:
    return str(client.get(f"/v1/matches/{match.id}/scores").json["winners"][0])


def test_importing_the_same_export_again_answers_the_match_already_held(
    recorded: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    match, export = _finished(recorded, work)
    before = client.get("/v1/matches").json["total"]
    # The store holds the original: importing its export makes no copy.
    again = client.post("/v1/matches/import", data=export, content_type=NDJSON)
    assert again.status_code == 200, again.json
    assert again.json["id"] == match.id and again.json["existing"] is True and "token" not in again.json
    assert client.get("/v1/matches").json["total"] == before
    work()
    winner = _winner(client, match)
    assert client.get(f"/v1/players/{winner}").json["matches"] == 1


def test_a_copy_asked_for_is_made_and_statistics_still_count_its_origin_once(
    recorded: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    match, export = _finished(recorded, work)
    before = client.get("/v1/matches").json["total"]
    copies = [client.post("/v1/matches/import?copy=true", data=export, content_type=NDJSON) for _ in range(2)]
    assert [c.status_code for c in copies] == [201, 201]
    assert len({match.id, *(c.json["id"] for c in copies)}) == 3 and all(c.json["token"] for c in copies)
    work()
    assert client.get("/v1/matches").json["total"] == before + 2
    winner = _winner(client, match)
    assert client.get(f"/v1/players/{winner}").json["matches"] == 1
    board = client.get("/v1/leaderboards/hats").json["players"]
    assert {row["matches"] for row in board} == {1}
    # A copy of a copy is of the same origin.
    text = client.get(
        f"/v1/matches/{copies[0].json['id']}/export",
        headers={"Authorization": f"Bearer {copies[0].json['token']}"},
    ).get_data(as_text=True)
    assert client.post("/v1/matches/import?copy=true", data=text, content_type=NDJSON).status_code == 201
    work()
    assert client.get(f"/v1/players/{winner}").json["matches"] == 1


def test_restoring_a_backup_twice_makes_each_match_once(
    recorded: Callable[..., Table],
    client: FlaskClient,
    work: Callable[[], int],
    cli: Callable[..., Result],
    tmp_path: Path,
) -> None:
    match, _ = _finished(recorded, work)
    backup = tmp_path / "backup"
    assert cli("export", "--all", "-o", f"{backup}/").exit_code == 0
    # A copy restored into the store (as another deployment's restore would make one)...
    first = cli("import", "--copy", str(backup))
    assert first.exit_code == 0, first.output
    total = client.get("/v1/matches").json["total"]
    # ...and the same backup restored again: every match is recognised.
    again = cli("import", str(backup))
    assert again.exit_code == 0, again.output
    assert f"already held: hats match {match.id}" in again.stdout
    assert "imported 0 of 1 matches" in again.stderr and "1 already held" in again.stderr
    assert client.get("/v1/matches").json["total"] == total
    work()
    assert client.get(f"/v1/players/{_winner(client, match)}").json["matches"] == 1


def test_an_import_of_a_longer_log_of_the_same_origin_is_a_new_match(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hats", SHORT["hats"], upto=4)
    short = client.get(f"/v1/matches/{match.id}/export", headers=match.auth).get_data(as_text=True)
    assert match.post("undo").status_code == 201
    longer = client.get(f"/v1/matches/{match.id}/export", headers=match.auth).get_data(as_text=True)
    assert client.post("/v1/matches/import", data=longer, content_type=NDJSON).status_code == 200
    made = client.post("/v1/matches/import", data=short, content_type=NDJSON)
    assert made.status_code == 201 and made.json["origin"] == {"imported_from": match.id}
    assert client.post("/v1/matches/import", data=short, content_type=NDJSON).json["id"] == made.json["id"]


def test_a_backup_from_another_store_restored_twice_is_one_match_and_a_keyed_retry_gets_its_token(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hats", SHORT["hats"], upto=4)
    text = client.get(f"/v1/matches/{match.id}/export", headers=match.auth).get_data(as_text=True)
    # As the backup of another deployment: its match is not in this store.
    elsewhere = text.replace(f'"id":"{match.id}"', '"id":"0123456789abcdef"', 1)
    assert elsewhere != text
    key = {"Idempotency-Key": "restore-5d1c"}
    first = client.post("/v1/matches/import", data=elsewhere, content_type=NDJSON, headers=key)
    assert first.status_code == 201 and first.json["origin"] == {"imported_from": "0123456789abcdef"}
    retried = client.post("/v1/matches/import", data=elsewhere, content_type=NDJSON, headers=key)
    assert retried.status_code == 201 and retried.json == first.json
    again = client.post("/v1/matches/import", data=elsewhere, content_type=NDJSON)
    assert again.status_code == 200 and again.json["id"] == first.json["id"] and again.json["existing"]
