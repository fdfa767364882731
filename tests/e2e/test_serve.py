"""`tabletape serve` as a user runs it: a whole match over HTTP, projected by its worker."""

from __future__ import annotations

import signal
import time
from typing import Any

import pytest
import requests

from games.registry import all_games
from tests.e2e.conftest import Served

pytestmark = pytest.mark.e2e


def record(url: str, game: str, script: dict[str, Any]) -> tuple[str, int]:
    """Create a match and send every action of the script; return its id and version."""
    made = requests.post(
        f"{url}/v1/matches",
        json={"game": game, **{k: script[k] for k in ("players", "setup", "options")}},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    match_id, auth = made.json()["id"], {"Authorization": f"Bearer {made.json()['token']}"}
    version = made.json()["version"]
    with requests.Session() as session:
        for action in script["actions"]:
            answer = session.post(
                f"{url}/v1/matches/{match_id}/actions", json=action, headers=auth, timeout=10
            )
            assert answer.status_code == 201, (action, answer.text)
            version = answer.json()["version"]
    return match_id, version


def projected_scores(url: str, match_id: str, version: int) -> dict[str, Any]:
    """The worker's scoreboard once it has reached ``version`` (at most 30 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        board = requests.get(f"{url}/v1/matches/{match_id}/scores", timeout=5).json()
        if board["projected"] and board["version"] == version:
            return board
        time.sleep(0.1)
    raise AssertionError(f"the projection never reached step {version}: {board}")


def test_a_whole_wizard_match_is_recorded_and_projected_by_the_worker(shared_serve: Served) -> None:
    wizard = all_games()["wizard"]
    script = next(s for s in map(wizard.example, range(50)) if len(s["players"]) == 3)
    match_id, version = record(shared_serve.url, "wizard", script)
    board = projected_scores(shared_serve.url, match_id, version)
    assert board["finished"] is True and board["winners"]
    assert set(board["totals"]) == set(script["players"])
    assert len(board["rounds"]) == 20
    best = max(board["totals"].values())
    assert board["winners"] == [p for p in script["players"] if board["totals"][p] == best]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_records_a_whole_match_and_the_worker_projects_its_result(
    shared_serve: Served, game_id: str
) -> None:
    game = all_games()[game_id]
    match_id, version = record(shared_serve.url, game_id, game.example(1))
    board = projected_scores(shared_serve.url, match_id, version)
    assert board["finished"] is True
    # The status index is written by the same pass, just after the scores: listed a moment later.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = requests.get(f"{shared_serve.url}/v1/matches", params={"status": "finished"}, timeout=5)
        if match_id in [m["id"] for m in listed.json()["matches"]]:
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"{match_id} never listed as finished: {listed.json()}")


def test_serve_stops_cleanly_on_sigterm_and_keeps_what_was_recorded(served: Served) -> None:
    made = requests.post(
        f"{served.url}/v1/matches",
        json={"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}},
        timeout=10,
    )
    assert made.status_code == 201
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=20) == 0
    assert "tabletape stopped" in served.log.read_text()


def test_gunicorns_control_socket_lives_in_the_serves_own_data_dir(served: Served) -> None:
    # Two serves on one machine, each with its data dir, do not share (and steal) one socket.
    assert (served.data_dir / "gunicorn.ctl").is_socket()
