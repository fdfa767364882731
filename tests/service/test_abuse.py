"""Odd input as an attacker or an unlucky client sends it: every one a 4xx problem naming the field.

Each case here once answered 500; none may change what is recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.service.conftest import Table

NDJSON = "application/x-ndjson"
HUGE = "7" * 4301


def problem(answer: Any, status: int) -> dict[str, Any]:
    """The problem of a refused request, checked for status and media type."""
    assert answer.status_code == status, answer.get_data(as_text=True)
    assert answer.mimetype == "application/problem+json"
    body: dict[str, Any] = answer.json
    assert body["status"] == status and body["detail"]
    return body


@pytest.fixture
def wizard(recorded: Callable[..., Table]) -> Table:
    """A Wizard match a few actions in."""
    return recorded("wizard", 7, upto=3)


@pytest.mark.parametrize(
    "query, field",
    [
        ({"offset": "99999999999999999999"}, "offset"),
        ({"limit": "1", "offset": "9" * 5000}, "offset"),
    ],
)
def test_a_list_offset_beyond_any_list_is_a_400_naming_it(
    client: FlaskClient, query: dict[str, str], field: str
) -> None:
    assert field in problem(client.get("/v1/matches", query_string=query), 400)["detail"]


@pytest.mark.parametrize(
    "query",
    [{"since": "0001-01-01"}, {"until": "0001-01-01T00:00:00"}, {"since": "9999-12-31T23:59:59-12:00"}],
)
def test_dates_at_the_ends_of_the_calendar_list_matches_instead_of_failing(
    client: FlaskClient, wizard: Table, query: dict[str, str]
) -> None:
    answer = client.get("/v1/matches", query_string=query)
    assert answer.status_code == 200, answer.json
    listed = [m["id"] for m in answer.json["matches"]]
    assert listed == ([wizard.id] if "since" in query and query["since"].startswith("0001") else [])


@pytest.mark.parametrize("step_query", ["state?at", "events?from", "replay?to", "live?last_event_id"])
def test_a_step_beyond_any_log_is_a_400_naming_it(
    wizard: Table, client: FlaskClient, step_query: str
) -> None:
    path, name = step_query.split("?")
    answer = client.get(f"/v1/matches/{wizard.id}/{path}", query_string={name: "1" + "0" * 20})
    assert name in problem(answer, 400)["detail"]


def test_an_integer_of_more_digits_than_python_reads_is_a_400_naming_its_field_in_every_write(
    client: FlaskClient, wizard: Table
) -> None:
    def post(path: str, text: str, **headers: str) -> Any:
        return client.post(path, data=text, content_type="application/json", headers=headers)

    before, listed = wizard.log_length(), client.get("/v1/matches").json["total"]
    create = '{"game": "wizard", "players": ["a", "b", "c"], "setup": {"first_dealer": ' + HUGE + "}}"
    assert "setup.first_dealer" in problem(post("/v1/matches", create), 400)["detail"]
    action = '{"type": "bid", "player": "bob", "tricks": ' + HUGE + "}"
    refused = post(f"/v1/matches/{wizard.id}/actions", action, **wizard.auth)
    assert problem(refused, 400)["detail"].startswith("tricks:")
    fork = post(f"/v1/matches/{wizard.id}/fork", '{"at": ' + HUGE + "}")
    assert problem(fork, 400)["detail"].startswith("at:")
    assert (wizard.log_length(), client.get("/v1/matches").json["total"]) == (before, listed)


@pytest.mark.parametrize("value", ["\xb2", "³", "١٢", "9" * 30, "", 'W/"x"'])
def test_an_if_match_that_is_not_ascii_digits_is_a_400(wizard: Table, value: str) -> None:
    before = wizard.log_length()
    answer = wizard.client.post(
        f"/v1/matches/{wizard.id}/undo", headers=wizard.auth | {"If-Match": value.encode().decode("latin-1")}
    )
    assert "If-Match" in problem(answer, 400)["detail"]
    assert wizard.log_length() == before


@pytest.mark.parametrize("value", ["\xb2", "٣", "9" * 30])
def test_a_last_event_id_that_is_not_ascii_digits_is_a_400(
    wizard: Table, client: FlaskClient, value: str
) -> None:
    answer = client.get(
        f"/v1/matches/{wizard.id}/live", headers={"Last-Event-ID": value.encode().decode("latin-1")}
    )
    assert "Last-Event-ID" in problem(answer, 400)["detail"]


def test_a_method_a_route_does_not_take_is_a_405_with_allow(client: FlaskClient, wizard: Table) -> None:
    answer = client.delete(f"/v1/matches/{wizard.id}")
    problem(answer, 405)
    assert set(answer.headers["Allow"].split(", ")) >= {"GET"}


# --- imports ------------------------------------------------------------------------------------


def exported(client: FlaskClient, match: Table) -> list[dict[str, Any]]:
    """The match's export, one JSON value a line."""
    text = client.get(f"/v1/matches/{match.id}/export").get_data(as_text=True)
    return [json.loads(line) for line in text.splitlines()]


def send(client: FlaskClient, lines: list[Any]) -> Any:
    """POST an import made of JSON values (dicts) and raw lines (strings)."""
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    # A copy: the store holds the match the export came from.
    return client.post("/v1/matches/import?copy=true", data=text, content_type=NDJSON)


def refusal(answer: Any) -> str:
    """The reason of a refused import."""
    return str(problem(answer, 422)["reason"])


@pytest.mark.parametrize(
    "field, value",
    [
        ("game", ["wizard"]),
        ("game", {"id": "wizard"}),
        ("created_ms", "yesterday"),
        ("created_ms", [1]),
        ("created_ms", True),
        ("forked_from", "../../etc/passwd"),
        ("imported_from", "<script>"),
        ("id", 7),
        ("forked_at", -1),
    ],
)
def test_an_import_whose_header_names_odd_values_is_refused_naming_the_field(
    client: FlaskClient, wizard: Table, field: str, value: Any
) -> None:
    lines = exported(client, wizard)
    lines[0][field] = value
    before = client.get("/v1/matches").json["total"]
    assert field in refusal(send(client, lines))
    assert client.get("/v1/matches").json["total"] == before


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e309", HUGE])
def test_an_import_whose_events_hold_numbers_json_cannot_carry_is_refused_naming_the_field(
    client: FlaskClient, wizard: Table, number: str
) -> None:
    lines: list[Any] = exported(client, wizard)
    text = json.dumps(lines[2])
    lines[2] = text[:-1] + ', "extra": {"x": ' + number + "}}"
    reason = refusal(send(client, lines))
    assert reason.startswith("extra.x:"), reason


def test_an_import_dated_in_the_future_is_refused(client: FlaskClient, wizard: Table) -> None:
    lines = exported(client, wizard)
    lines[0]["created_ms"] = 4102444800000  # 2100
    assert "created_ms" in refusal(send(client, lines))
    lines = exported(client, wizard)
    lines[-1]["meta"]["ts"] = "2100-01-01T00:00:00.000+00:00"
    assert "meta.ts" in refusal(send(client, lines))


def test_an_import_keeps_only_what_the_server_owns_of_each_events_meta(
    client: FlaskClient, wizard: Table
) -> None:
    lines = exported(client, wizard)
    original = [dict(line["meta"]) for line in lines[1:]]
    for line in lines[1:]:
        line["meta"] |= {"actor": "mallory", "junk": "x" * 100_000}
    made = send(client, lines)
    assert made.status_code == 201, made.json
    copy = exported(client, _by_id(client, made.json["id"]))
    stored = [line["meta"] for line in copy[1:]]
    assert stored == original
    assert all("junk" not in meta and meta["actor"] != "mallory" for meta in stored)


def test_a_copy_keeps_its_original_creation_date_when_it_is_in_the_past(
    client: FlaskClient, wizard: Table
) -> None:
    lines = exported(client, wizard)
    lines[0]["created_ms"] = 1_600_000_000_000
    lines[0]["created_at"] = "1999-01-01T00:00:00"  # recomputed from created_ms, not taken
    made = send(client, lines)
    assert made.status_code == 201, made.json
    header = exported(client, _by_id(client, made.json["id"]))[0]
    assert header["created_ms"] == "1600000000000"
    assert header["created_at"] == "2020-09-13T12:26:40.000+00:00"


def _by_id(client: FlaskClient, match_id: str) -> Table:
    table = Table.__new__(Table)
    table.client, table.id = client, match_id
    return table
