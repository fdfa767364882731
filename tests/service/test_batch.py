"""POST /v1/matches/{id}/actions/batch: an offline queue sent at once, each item written as a single
write with its key and expected version; nothing recorded twice, nothing recorded lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from service.api.schemas.table import BATCH_MAX
from tests.service.conftest import Table

ROUND = [
    {"type": "start_round", "trump_card": "7H"},
    {"type": "bid", "player": "bob", "tricks": 1},
    {"type": "bid", "player": "ann", "tricks": 0},
    {"type": "play", "player": "bob", "card": "KS"},
]


def queue(actions: list[dict[str, Any]], first_version: int, prefix: str = "k") -> list[dict[str, Any]]:
    """Queued items as a recorder makes them: a key each, each expecting the version before it."""
    return [
        {"key": f"{prefix}{i}", "expected_version": first_version + i, "kind": "action", "action": action}
        for i, action in enumerate(actions)
    ]


def send(match: Table, items: list[dict[str, Any]], **headers: str) -> Any:
    """POST a batch with the match's token."""
    path = f"/v1/matches/{match.id}/actions/batch"
    return match.client.post(path, json={"items": items}, headers=match.auth | headers)


@pytest.fixture
def match(table: Callable[..., Table]) -> Table:
    """A new two-player Wizard match (version 1)."""
    return table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})


def test_a_queue_is_recorded_in_order_each_item_with_its_version(match: Table) -> None:
    answer = send(match, queue(ROUND, 1))
    assert answer.status_code == 200, answer.json
    results = answer.json["results"]
    assert [r["status"] for r in results] == ["recorded"] * 4
    assert [r["version"] for r in results] == [2, 3, 4, 5]
    assert answer.json["version"] == 5
    logged = match.get("events").json["events"]
    assert [e["type"] for e in logged[1:]] == ["RoundStarted", "BidPlaced", "BidPlaced", "CardPlayed"]


def test_a_queue_sent_again_records_nothing_twice_and_answers_each_item_as_a_duplicate(match: Table) -> None:
    items = queue(ROUND, 1)
    first = send(match, items[:2]).json
    again = send(match, items).json
    assert [r["status"] for r in again["results"]] == ["duplicate", "duplicate", "recorded", "recorded"]
    assert again["results"][0]["events"] == first["results"][0]["events"]
    assert match.log_length() == 5


def test_a_conflict_stops_the_batch_and_leaves_the_rest_not_tried(match: Table) -> None:
    match.ok(ROUND[0])  # another device recorded the round's start meanwhile
    items = queue(ROUND[1:], 1)  # the queue expected version 1
    answer = send(match, items).json
    assert [r["status"] for r in answer["results"]] == ["conflict", "not_tried", "not_tried"]
    problem = answer["results"][0]["problem"]
    assert problem["status"] == 412 and problem["code"] == "version_mismatch" and problem["actual"] == 2
    assert answer["version"] == 2 and match.log_length() == 2


def test_a_refusal_stops_the_batch_with_the_problem_a_single_write_gives(match: Table) -> None:
    items = queue([ROUND[0], {"type": "bid", "player": "ann", "tricks": 0}, ROUND[1]], 1)
    answer = send(match, items).json
    assert [r["status"] for r in answer["results"]] == ["recorded", "refused", "not_tried"]
    single = match.act({"type": "bid", "player": "ann", "tricks": 0}).json
    problem = answer["results"][1]["problem"]
    assert problem == single | {"instance": problem["instance"]}
    assert problem["code"] == "not_your_turn" and match.log_length() == 2


def test_undo_and_redo_go_in_a_queue_too(match: Table) -> None:
    items = queue(ROUND[:2], 1) + [
        {"key": "u", "expected_version": 3, "kind": "undo"},
        {"key": "r", "expected_version": 4, "kind": "redo"},
    ]
    answer = send(match, items).json
    assert [r["status"] for r in answer["results"]] == ["recorded"] * 4
    assert [r["events"][0]["type"] for r in answer["results"][2:]] == ["ActionUndone", "ActionRedone"]
    assert match.get("state").json["state"]["have_bid"] == ["bob"]


def test_a_batch_without_the_token_records_nothing(match: Table) -> None:
    path = f"/v1/matches/{match.id}/actions/batch"
    answer = match.client.post(path, json={"items": queue(ROUND, 1)})
    assert answer.status_code == 401 and answer.json["code"] == "missing_token"
    assert match.log_length() == 1


def test_a_batch_over_the_limit_is_refused_with_a_sentence(match: Table) -> None:
    items = [{"key": f"k{i}", "kind": "undo"} for i in range(BATCH_MAX + 1)]
    answer = send(match, items)
    assert answer.status_code == 400
    assert f"1 to {BATCH_MAX} items" in answer.json["detail"]
    assert match.log_length() == 1


@pytest.mark.parametrize(
    "item",
    [
        {"key": "a", "kind": "action"},
        {"key": "a", "kind": "undo", "action": {"type": "bid"}},
        {"kind": "undo"},
        {"key": "a", "kind": "dance"},
    ],
)
def test_a_malformed_item_is_a_400_that_names_it(match: Table, item: dict[str, Any]) -> None:
    answer = send(match, [item])
    assert answer.status_code == 400 and answer.json["detail"]
    assert match.log_length() == 1


def test_a_key_sent_again_with_another_action_is_refused_and_stops_the_batch(match: Table) -> None:
    send(match, queue(ROUND[:1], 1))
    changed = queue([{"type": "start_round", "trump_card": "8H"}, ROUND[1]], 1)
    answer = send(match, changed).json
    assert [r["status"] for r in answer["results"]] == ["refused", "not_tried"]
    assert answer["results"][0]["problem"]["code"] == "idempotency_key_reused"
    assert match.log_length() == 2


def test_an_action_of_a_wrong_shape_is_refused_with_the_400_a_single_write_gives(match: Table) -> None:
    answer = send(match, queue([{"type": "dance"}, ROUND[0]], 1)).json
    assert [r["status"] for r in answer["results"]] == ["refused", "not_tried"]
    problem = answer["results"][0]["problem"]
    assert problem["status"] == 400 and problem["code"] == "unknown_action"
    assert match.log_length() == 1


def test_another_matchs_token_records_nothing(match: Table, table: Callable[..., Table]) -> None:
    other = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    path = f"/v1/matches/{match.id}/actions/batch"
    answer = match.client.post(path, json={"items": queue(ROUND, 1)}, headers=other.auth)
    assert answer.status_code == 403 and answer.json["code"] == "wrong_token"
    assert match.log_length() == 1


def test_an_item_without_an_expected_version_is_written_unconditionally(match: Table) -> None:
    match.ok(ROUND[0])
    answer = send(match, [{"key": "late", "kind": "action", "action": ROUND[1]}]).json
    assert answer["results"][0]["status"] == "recorded" and answer["version"] == 3
