"""A lost table token replaced without losing the match: by the operator, or by the table's own
recovery code; the old token stops working at once."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from flask.testing import FlaskClient

from tests.service.conftest import Table

BID = {"type": "bid", "player": "bob", "tricks": 1}


def wizard(table: Callable[..., Table]) -> Table:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    return match


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_tabletape_token_reset_prints_a_new_token_and_the_old_one_is_refused_at_once(
    client: FlaskClient, table: Callable[..., Table], store_env: dict[str, str]
) -> None:
    match = wizard(table)
    # The API process has written with the old token (and would remember it) before the reset.
    assert match.act({"type": "bid", "player": "bob", "tricks": 0}).status_code == 201
    command = [str(Path(sys.executable).parent / "tabletape"), "token", "reset", match.id]
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ | store_env, timeout=60)
    assert done.returncode == 0, done.stderr
    new = done.stdout.strip().splitlines()[-1].split()[-1]
    cy = {"type": "bid", "player": "cy", "tricks": 1}
    old = match.act(cy)
    assert old.status_code == 403 and old.json["code"] == "wrong_token"
    assert old.json["detail"] and new not in old.json["detail"] and match.token not in old.json["detail"]
    assert client.post(f"/v1/matches/{match.id}/actions", json=cy, headers=bearer(new)).status_code == 201
    # The new token reads everything, as the old one did.
    events = client.get(f"/v1/matches/{match.id}/events", headers=bearer(new)).json["events"]
    assert [e["data"]["tricks"] for e in events if e["type"] == "BidPlaced"] == [0, 1]


def test_tabletape_token_reset_of_no_match_says_so(store_env: dict[str, str]) -> None:
    command = [str(Path(sys.executable).parent / "tabletape"), "token", "reset", "0123456789abcdef"]
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ | store_env, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("tabletape: ")


def test_the_recovery_code_shown_at_creation_buys_a_new_token_once(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = wizard(table)
    code = match.created["recovery_code"]
    url = f"/v1/matches/{match.id}/token"
    wrong = client.post(url, json={"recovery_code": "not-it"})
    assert wrong.status_code == 403 and wrong.json["code"] == "wrong_recovery_code"
    assert match.act(BID).status_code == 201  # a wrong code changes nothing
    answer = client.post(url, json={"recovery_code": code})
    assert answer.status_code == 201
    new, next_code = answer.json["token"], answer.json["recovery_code"]
    assert new != match.token and next_code != code
    assert match.act({"type": "bid", "player": "cy", "tricks": 0}).json["code"] == "wrong_token"
    bid = {"type": "bid", "player": "cy", "tricks": 0}
    assert client.post(f"/v1/matches/{match.id}/actions", json=bid, headers=bearer(new)).status_code == 201
    # The code is spent; the next one works once in turn.
    assert client.post(url, json={"recovery_code": code}).status_code == 403
    assert client.post(url, json={"recovery_code": next_code}).status_code == 201
    assert client.post(url, json={}).status_code == 400


def test_seats_survive_a_reset_table_token(client: FlaskClient, table: Callable[..., Table]) -> None:
    match = wizard(table)
    bob = client.post(f"/v1/matches/{match.id}/seats/bob", headers=match.auth).json["token"]
    new = client.post(f"/v1/matches/{match.id}/token", json={"recovery_code": match.created["recovery_code"]})
    assert client.post(f"/v1/matches/{match.id}/actions", json=BID, headers=bearer(bob)).status_code == 201
    revoke = client.delete(f"/v1/matches/{match.id}/seats/bob", headers=bearer(new.json["token"]))
    assert revoke.status_code == 204
