"""Step-through: replay pages and rewinds walk a whole match both ways and agree with each other."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from games.registry import all_games
from tests.service.conftest import SHORT, Table, record


def corrected(table: Callable[..., Table], game_id: str) -> Table:
    """A game's example match with an undo, a redo and a second undo on the way (so steps are undone)."""
    middle = len(all_games()[game_id].example(SHORT[game_id])["actions"]) // 2
    sent = itertools.count()

    def act(match: Table, action: dict[str, Any]) -> None:
        match.ok(action)
        if next(sent) == middle:
            for word in ("undo", "redo", "undo"):
                assert match.post(word).status_code == 201
            match.ok(action)

    return record(table, game_id, SHORT[game_id], act=act)


def walk(client: FlaskClient, url: str | None, way: str) -> list[dict[str, Any]]:
    """Every frame met by following one kind of link from ``url`` until there is none."""
    pages = []
    while url:
        page = client.get(url).json
        pages.append(page["frames"])
        url = page["links"][way]
    if way == "prev":
        pages.reverse()
    return [frame for frames in pages for frame in frames]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_replay_links_walk_the_whole_match_both_ways_and_agree_with_rewinds(
    table: Callable[..., Table], client: FlaskClient, work: Callable[[], int], game_id: str
) -> None:
    match = corrected(table, game_id)
    work()
    first = client.get(f"/v1/matches/{match.id}/replay", query_string={"limit": 7}).json
    forward = walk(client, first["links"]["first"], "next")
    backward = walk(client, first["links"]["last"], "prev")
    assert forward == backward
    steps = [f["step"] for f in forward]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    assert all(f["effective"] and f["event"]["type"] not in ("ActionUndone", "ActionRedone") for f in forward)
    for frame in forward:
        assert frame["state"] == match.get("state", at=frame["step"]).json["state"]
        assert frame["actor"] == frame["event"]["meta"]["actor"] and frame["ts"]
    assert forward[-1]["state"] == match.get("state").json["state"]


def test_the_raw_replay_shows_every_logged_step_with_corrections_and_undone_steps_marked(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = corrected(table, "hats")
    version = match.log_length()
    raw = walk(client, f"/v1/matches/{match.id}/replay?raw=true&limit=10", "next")
    effective = walk(client, f"/v1/matches/{match.id}/replay?limit=10", "next")
    assert [f["step"] for f in raw] == list(range(1, version + 1))
    kinds = [f["event"]["type"] for f in raw]
    assert kinds.count("ActionUndone") == 2 and kinds.count("ActionRedone") == 1
    undone = [f["step"] for f in raw if not f["effective"]]
    assert undone and not set(undone) & {f["step"] for f in effective}
    assert len(effective) == version - len(undone)


def test_rewind_links_step_through_every_step_forward_and_back(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hat-trick", 1)
    version = match.log_length()
    seen, url = [], f"/v1/matches/{match.id}/state?at=1"
    while url:
        page = client.get(url).json
        seen.append(page["version"])
        url = page["links"]["next"]
    assert seen == list(range(1, version + 1))
    back, url = [], f"/v1/matches/{match.id}/state?at={version}"
    while url:
        page = client.get(url).json
        back.append(page["version"])
        url = page["links"]["prev"]
    assert back == seen[::-1]
