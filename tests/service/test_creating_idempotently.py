"""Creating writes (create, fork, import) honour Idempotency-Key as actions do: a retry of a
request whose answer was lost makes no second match and gets the first answer, token included."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.bootstrap import Services, build
from service.config import Settings
from tests.service.conftest import Table

NDJSON = "application/x-ndjson"


def _wizard(**more: Any) -> dict[str, Any]:
    return {"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}, **more}


def _total(client: FlaskClient) -> int:
    return int(client.get("/v1/matches").json["total"])


def _started(client: FlaskClient) -> Table:
    table = Table(client, "wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    table.ok({"type": "start_round", "trump_card": "7H"})
    table.ok({"type": "bid", "player": "bob", "tricks": 1})
    return table


def _send(client: FlaskClient, path: str, request: dict[str, Any], key: str) -> Any:
    """POST ``request`` to ``path`` under the Idempotency-Key ``key``."""
    sent = dict(request)
    headers = dict(sent.pop("headers", {})) | {"Idempotency-Key": key}
    return client.post(path, headers=headers, **sent)


def _creating(client: FlaskClient, kind: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A creating write of ``kind``: its path, its request and another request to the same path."""
    if kind == "create":
        return "/v1/matches", {"json": _wizard()}, {"json": _wizard(players=["ann", "bob", "dee"])}
    table = _started(client)
    if kind == "fork":
        fork = f"/v1/matches/{table.id}/fork"
        return fork, {"json": {"at": 2}, "headers": table.auth}, {"json": {"at": 3}, "headers": table.auth}
    text = client.get(f"/v1/matches/{table.id}/export", headers=table.auth).get_data(as_text=True)
    short = "".join(line + "\n" for line in text.splitlines()[:-1])
    # A copy asked for: the store holds the match the export came from.
    return (
        "/v1/matches/import?copy=true",
        {"data": text, "content_type": NDJSON},
        {"data": short, "content_type": NDJSON},
    )


@pytest.mark.parametrize("kind", ["create", "fork", "import"])
def test_a_creating_write_sent_twice_under_one_key_makes_one_match_and_answers_the_first_answer(
    client: FlaskClient, kind: str
) -> None:
    path, request, _ = _creating(client, kind)
    before = _total(client)
    first = _send(client, path, request, f"{kind}-3f9c2e4a-retry")
    again = _send(client, path, request, f"{kind}-3f9c2e4a-retry")
    assert first.status_code == 201 and again.status_code == 201, (first.json, again.json)
    # A recovery code is shown once: a retried create is given a new one (the first was maybe
    # never seen), the rest of the answer is the first answer.
    answers = dict(first.json), dict(again.json)
    codes = [answer.pop("recovery_code", None) for answer in answers]
    assert (codes[0] is None) == (codes[1] is None) == (kind != "create")
    assert answers[1] == answers[0]
    assert again.headers["Location"] == first.headers["Location"]
    assert _total(client) == before + 1
    # The token the retry got is the match's: it writes.
    made = first.json
    auth = {"Authorization": f"Bearer {again.json['token']}"}
    undo = client.post(f"/v1/matches/{made['id']}/undo", headers=auth)
    assert undo.status_code in (201, 422), undo.json
    assert undo.json.get("code") != "wrong_token"


@pytest.mark.parametrize("kind", ["create", "fork", "import"])
def test_another_request_under_a_used_key_is_refused_with_a_sentence_and_makes_nothing(
    client: FlaskClient, kind: str
) -> None:
    path, request, other = _creating(client, kind)
    assert _send(client, path, request, f"{kind}-b7e1-reused").status_code == 201
    before = _total(client)
    refused = _send(client, path, other, f"{kind}-b7e1-reused")
    assert refused.status_code == 422 and refused.json["code"] == "idempotency_key_reused"
    assert "already used" in refused.json["detail"] and "new key" in refused.json["detail"]
    assert _total(client) == before


def test_without_a_key_two_creations_are_two_matches(client: FlaskClient) -> None:
    before = _total(client)
    ids = {client.post("/v1/matches", json=_wizard()).json["id"] for _ in range(2)}
    assert len(ids) == 2 and _total(client) == before + 2


def test_concurrent_creations_under_one_key_from_several_processes_make_one_match(
    settings: Settings, parts: Services
) -> None:
    processes = [build(settings, notify=lambda m: None) for _ in range(6)]
    gate = threading.Barrier(len(processes))
    made: list[Any] = [None] * len(processes)

    def run(i: int) -> None:
        gate.wait()
        try:
            made[i] = processes[i].recorder.create(
                "wizard", ["ann", "bob", "cy"], {"first_dealer": "ann"}, {}, idempotency_key="double-tap-1"
            )
        except Exception as exc:
            made[i] = exc

    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(processes))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for one in processes:
            one.close()
    assert not [m for m in made if isinstance(m, Exception)], made
    assert len({(m.match_id, m.token) for m in made}) == 1
    assert json.dumps(made[0].recorded.state, sort_keys=True)
