"""What GET …/next costs (`python -m bench.legal`): each game's ``legal`` per step of its example
matches, against ``decide`` of the step's action in the same run; then the whole answer served in
process (one WSGI call per request), against GET …/state of the same step."""

from __future__ import annotations

import copy
import time
from typing import Any

from bench.harness import bench_parts
from games.contract import Game
from games.registry import all_games
from games.validation import validate_action, validate_match
from service.app import create_app
from service.bootstrap import Services

SEEDS = range(4)


def states_of(game: Game, seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each state of the example match of ``seed`` with the action recorded next (validated)."""
    script = game.example(seed)
    players, setup, options = validate_match(game, script["players"], script["setup"], script["options"])
    state: dict[str, Any] = {}
    for ev in game.setup(players, setup, options):
        state = game.evolve(state, ev)
    found = []
    for action in script["actions"]:
        checked = validate_action(game, action)
        found.append((copy.deepcopy(state), checked))
        for ev in game.decide(state, checked):
            state = game.evolve(state, ev)
    return found


def measure(game: Game) -> tuple[int, float, float, float]:
    """(steps, legal with the token, legal without, decide) in seconds per step."""
    steps = [pair for seed in SEEDS for pair in states_of(game, seed)]
    assert game.legal is not None
    timed = []
    for run in (
        lambda s, a: game.legal(s, True),  # type: ignore[misc]
        lambda s, a: game.legal(s, False),  # type: ignore[misc]
        lambda s, a: game.decide(s, a),
    ):
        start = time.perf_counter()
        for state, action in steps:
            run(state, action)
        timed.append((time.perf_counter() - start) / len(steps))
    return len(steps), *timed  # type: ignore[return-value]


def served(parts: Services, game: Game, seed: int = 0) -> tuple[int, float, float]:
    """(steps, GET …/next with the token, GET …/state) in seconds per request, in process."""
    app = create_app(parts.settings)
    client = app.test_client()
    script = game.example(seed)
    made = parts.recorder.create(game.id, script["players"], script["setup"], script["options"])
    auth = {"Authorization": f"Bearer {made.token}"}
    spent = {"next": 0.0, "state": 0.0}
    for action in script["actions"]:
        parts.recorder.act(made.match_id, made.token, action)
        for read in ("next", "state"):
            started = time.perf_counter()
            answer = client.get(f"/v1/matches/{made.match_id}/{read}", headers=auth)
            spent[read] += time.perf_counter() - started
            assert answer.status_code == 200, answer.json
    steps = len(script["actions"])
    return steps, spent["next"] / steps, spent["state"] / steps


def main() -> None:
    """Print each game's figures."""
    for game in all_games().values():
        count, table, public, decide = measure(game)
        print(
            f"next for {game.id} over {count} steps: legal {table * 1e3:.2f} ms with the token, "
            f"{public * 1e3:.2f} ms without; decide {decide * 1e3:.3f} ms; "
            f"ratio {table / decide:.1f}x and {public / decide:.1f}x"
        )
    with bench_parts() as parts:
        for game in all_games().values():
            steps, answer, state = served(parts, game)
            print(
                f"GET next of {game.id} in process over {steps} steps: {answer * 1e3:.2f} ms; "
                f"GET state {state * 1e3:.2f} ms; ratio {answer / state:.1f}x"
            )


if __name__ == "__main__":
    main()
