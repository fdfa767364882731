"""Operations: `tabletape verify` and `tabletape rebuild` over real logs, and old events read current."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from events.envelope import NewEvent
from events.keys import Keys
from games.registry import all_games
from service.app import create_app
from service.config import Settings
from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack
from tests.e2e.faults.stack import ROOT

pytestmark = pytest.mark.e2e


def tabletape(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the `tabletape` command against the stack's store."""
    return subprocess.run(
        [sys.executable, "-m", "service.cli.main", *args],
        capture_output=True,
        text=True,
        env=stack.env(),
        cwd=ROOT,
        timeout=300,
    )


@pytest.fixture(scope="module")
def recorded(stack: Stack) -> list[driver.Match]:
    """A whole match of every game, with an undo and a redo, projected by the workers."""
    made = driver.one_of_each(stack.url, 2, lambda acts: acts[:-1] + [driver.UNDO, driver.REDO] + acts[-1:])
    for match in made:
        stack.converged(match.id, match.version)
    return made


def test_verify_finds_nothing_to_report_on_projections_the_workers_kept(
    stack: Stack, recorded: list[driver.Match]
) -> None:
    run = tabletape(stack, "verify")
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"verified {len(recorded)} matches: 0 with differences" in run.stdout
    assert "verifying" in run.stderr


def test_verify_lists_every_damaged_projection_and_rebuild_repairs_them(
    stack: Stack, recorded: list[driver.Match], figure: Callable[[str], None]
) -> None:
    client, keys = stack.client(), stack.keys
    scored, snapped, indexed, behind = recorded[0], recorded[1], recorded[2], recorded[3]
    client.hset(keys.proj(scored.id), "summary", json.dumps({"finished": False, "winners": []}))
    client.zremrangebyrank(keys.snap(snapped.id), 0, 0)
    game_id = client.hget(keys.meta(indexed.id), "game").decode()
    client.zrem(keys.index("game", game_id), indexed.id)
    client.hset(keys.proj(behind.id), "checkpoint", 1)

    run = tabletape(stack, "verify")
    assert run.returncode == 1, run.stdout + run.stderr
    # A summary no projection writes is not trusted: verify calls it unreadable, rebuild replaces it.
    assert f"{scored.id}: summary: unreadable" in run.stdout
    assert f"{snapped.id}: snapshot" in run.stdout
    assert f"{indexed.id}: index {keys.index('game', game_id)}: should list the match" in run.stdout
    assert f"{behind.id}: checkpoint: projected to step 1" in run.stdout
    assert f"verified {len(recorded)} matches: 4 with differences" in run.stdout

    repaired = tabletape(stack, "rebuild")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert f"rebuilt 4 of {len(recorded)} matches" in repaired.stdout
    assert "rebuilding" in repaired.stderr
    again = tabletape(stack, "verify")
    assert again.returncode == 0, again.stdout
    figure(
        f"verify/rebuild: {run.stdout.count(': ') - 1} differences found in 4 damaged matches, "
        "all repaired by rebuild"
    )


def test_an_old_shaped_event_stored_in_redis_is_read_back_in_its_current_shape(stack: Stack) -> None:
    wizard = all_games()["wizard"]
    script = next(
        s
        for s in map(wizard.example, range(20))
        if s["actions"] and s["actions"][0]["type"] == "record_round"
    )
    app = create_app(Settings(redis_url=stack.redis.url, prefix=f"tt-upcast-{uuid.uuid4().hex[:8]}"))
    parts = app.extensions["tabletape"]
    # Schema 0 of RoundRecorded (before this test's imagined change) kept each player's
    # bid and tricks together as a pair; schema 1 keeps them in two maps.
    parts.store.upcasters.register("wizard", "RoundRecorded", 0, _pairs_to_maps)
    web = app.test_client()
    body = {"game": "wizard", **{k: script[k] for k in ("players", "setup", "options")}}
    old, new = (web.post("/v1/matches", json=body).json for _ in range(2))
    action = script["actions"][0]
    current = web.post(
        f"/v1/matches/{new['id']}/actions", json=action, headers={"Authorization": f"Bearer {new['token']}"}
    ).json["events"]

    events = []
    for event in current:
        data, meta = copy.deepcopy(event["data"]), dict(event["meta"])
        if event["type"] == "RoundRecorded":
            data = {
                "round": data["round"],
                "dealer": data["dealer"],
                "results": {p: [data["bids"][p], data["tricks"][p]] for p in data["bids"]},
            }
            meta["schema"] = 0
        events.append(NewEvent(event["type"], data, meta))
    parts.store.append(old["id"], events, expected_version=old["version"])
    stored = parts.client.xrange(Keys(parts.keys.prefix).log(old["id"]))
    assert b"results" in stored[-2][1][b"data"]

    read = web.get(f"/v1/matches/{old['id']}/events").json["events"][-2:]
    assert [(e["type"], e["data"]) for e in read] == [(e["type"], e["data"]) for e in current]
    assert read[0]["meta"]["schema"] == 1
    shown = [web.get(f"/v1/matches/{m['id']}/state").json["state"] for m in (old, new)]
    assert shown[0] == shown[1]
    boards = [web.get(f"/v1/matches/{m['id']}/scores").json for m in (old, new)]
    assert boards[0]["totals"] == boards[1]["totals"]
    logged = web.get(f"/v1/matches/{new['id']}/events").json["events"]
    assert all(isinstance(e["meta"]["schema"], int) for e in logged)
    parts.close()


def _pairs_to_maps(data: dict[str, Any]) -> dict[str, Any]:
    results = data.pop("results")
    return {
        **data,
        "bids": {p: r[0] for p, r in results.items()},
        "tricks": {p: r[1] for p, r in results.items()},
    }
