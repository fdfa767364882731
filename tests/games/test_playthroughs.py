"""Saved playthroughs: one recorded match per game, replayed against today's rules.

Each file in playthroughs/ holds a whole match as a table recorded it (players, setup, options
and every action), the events the rules derived from it and the final scoreboard. Replaying the
actions must give the same events and the same scores: a rule change that alters a recorded
match fails here, naming the first step that differs. When a change is meant to alter them,
write the files again and review the diff like any other change:

    TABLETAPE_WRITE_PLAYTHROUGHS=1 .venv/bin/python -m pytest tests/games/test_playthroughs.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from games.registry import all_games, get_game
from tests.support import games as support

FOLDER = Path(__file__).parent / "playthroughs"
SEED = 0
WRITE = os.environ.get("TABLETAPE_WRITE_PLAYTHROUGHS") == "1"


def saved_path(game_id: str) -> Path:
    """Where a game's playthrough is kept."""
    return FOLDER / f"{game_id}.json"


def write(path: Path, value: dict[str, Any]) -> None:
    """A playthrough file with one action or event a line, so that a change reads as a small diff."""
    script, events = value["script"], value["events"]
    lines = ["{", f'"game": {json.dumps(value["game"])},', '"script": {']
    for part in ("players", "setup", "options"):
        lines.append(f'  "{part}": {json.dumps(script[part], ensure_ascii=False, sort_keys=True)},')
    lines.append('  "actions": [')
    lines += [f"    {json.dumps(a, ensure_ascii=False, sort_keys=True)}," for a in script["actions"]]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["  ]", "},", '"events": [']
    lines += [f"  {json.dumps(e, ensure_ascii=False, sort_keys=True)}," for e in events]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["],", f'"scores": {json.dumps(value["scores"], ensure_ascii=False, sort_keys=True)}', "}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_a_saved_match_replays_to_the_same_events_and_scores(game_id: str) -> None:
    game = get_game(game_id)
    path = saved_path(game_id)
    if WRITE:
        script = game.example(SEED)
        events, state = support.play_script(game, script)
        write(path, {"game": game_id, "script": script, "events": events, "scores": game.scores(state)})
    saved = json.loads(path.read_text(encoding="utf-8"))
    events, state = support.play_script(game, saved["script"])
    for step, (now, then) in enumerate(zip(events, saved["events"], strict=False), start=1):
        assert now == then, f"{game_id}: event {step} differs from the saved playthrough"
    count, kept = len(events), len(saved["events"])
    assert count == kept, f"{game_id}: the match now has {count} events, the saved one {kept}"
    assert json.loads(json.dumps(game.scores(state))) == saved["scores"]


def test_every_registered_game_has_a_saved_playthrough() -> None:
    assert sorted(p.stem for p in FOLDER.glob("*.json")) == sorted(all_games())
