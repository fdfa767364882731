"""Driving any registered game over HTTP from its example script, and checking the log it leaves.

``plan`` turns a game's example into a list of writes (its actions, each followed by undo/redo
pairs when more writes are wanted than the script has) together with the match's version after
each write, worked out with the game's own rules, so that many clients can share one match: a
client at version v sends the write planned for v with ``If-Match: v``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests

from games.contract import Game
from games.registry import all_games
from tests.support.games import copied

UNDO = {"type": "undo"}
REDO = {"type": "redo"}


@dataclass
class Plan:
    """A match's writes in order, and the version the match has before each of them."""

    game: str
    script: dict[str, Any]
    writes: list[dict[str, Any]]
    before: list[int]
    index: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {version: i for i, version in enumerate(self.before)}

    def next_at(self, version: int) -> int | None:
        """Which write is due when the match is at ``version`` (None when the plan is done)."""
        return self.index.get(version)


def longest_example(seeds: int = 6) -> tuple[Game, dict[str, Any]]:
    """The registered game and example script with the most actions."""
    found = [
        (len(s["actions"]), g.id, seed, g)
        for g in all_games().values()
        for seed in range(seeds)
        for s in [g.example(seed)]
    ]
    _, _, seed, game = max(found, key=lambda f: (f[0], f[1]))
    return game, game.example(seed)


def script_of(game: Game, actions: int, seeds: int = 10) -> dict[str, Any]:
    """The game's first example (by seed) with at least ``actions`` actions."""
    found = next((s for s in map(game.example, range(seeds)) if len(s["actions"]) >= actions), None)
    assert found is not None, f"no example of {game.id} has {actions} actions"
    return found


def plan(game: Game, script: dict[str, Any], writes_wanted: int = 0) -> Plan:
    """The writes that play ``script`` (padded with undo/redo pairs) and the version before each."""
    actions = script["actions"]
    pairs = max(0, math.ceil((writes_wanted - len(actions)) / (2 * len(actions)))) if actions else 0
    state: dict[str, Any] = {}
    created = game.setup(script["players"], script["setup"], game_options(game, script))
    for ev in created:
        state = game.evolve(state, ev)
    version = len(created)
    writes: list[dict[str, Any]] = []
    before: list[int] = []
    for action in actions:
        events = game.decide(copied(state), action)
        for ev in events:
            state = game.evolve(state, ev)
        writes.append(action)
        before.append(version)
        version += len(events)
        for _ in range(pairs):
            writes += [UNDO, REDO]
            before += [version, version + 1]
            version += 2
    return Plan(game.id, script, writes, before + [version])


def game_options(game: Game, script: dict[str, Any]) -> dict[str, Any]:
    """The script's options with the game's defaults filled in."""
    from games.validation import with_defaults

    return with_defaults(game.options_schema, script["options"])


@dataclass
class Match:
    """A match created over HTTP: its id, token and a session to write with."""

    url: str
    id: str
    token: str
    version: int

    @property
    def auth(self) -> dict[str, str]:
        """The write header."""
        return {"Authorization": f"Bearer {self.token}"}

    def write(self, session: requests.Session, write: dict[str, Any], **headers: str) -> requests.Response:
        """Send one planned write (an action, an undo or a redo)."""
        if write is UNDO or write is REDO:
            return session.post(
                f"{self.url}/v1/matches/{self.id}/{write['type']}", headers=self.auth | headers, timeout=20
            )
        return session.post(
            f"{self.url}/v1/matches/{self.id}/actions", json=write, headers=self.auth | headers, timeout=20
        )


def create(url: str, game_id: str, script: dict[str, Any]) -> Match:
    """Create a match of ``script`` over HTTP."""
    body = {"game": game_id, **{k: script[k] for k in ("players", "setup", "options")}}
    made = requests.post(f"{url}/v1/matches", json=body, timeout=20)
    assert made.status_code == 201, made.text
    answer = made.json()
    return Match(url, answer["id"], answer["token"], answer["version"])


def play(match: Match, writes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send writes one after another, each of which must be accepted; return the answers."""
    answers = []
    with requests.Session() as session:
        for write in writes:
            answer = match.write(session, write)
            assert answer.status_code == 201, (write, answer.text)
            answers.append(answer.json())
            match.version = answer.json()["version"]
    return answers


def one_of_each(
    url: str, least: int, writes: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]
) -> list[Match]:
    """A match of every game, each from its first example with ``least`` actions, sent ``writes(actions)``."""
    made = []
    for game_id, game in sorted(all_games().items()):
        script = script_of(game, least)
        match = create(url, game_id, script)
        play(match, writes(script["actions"]))
        made.append(match)
    return made


def seqs_are_whole(events: list[dict[str, Any]]) -> bool:
    """Whether the log's steps run 1, 2, 3 … with no gap and no repeat."""
    return [e["seq"] for e in events] == list(range(1, len(events) + 1))


def wait_for_version_beyond(match: Match, seconds: float = 20.0) -> int:
    """Wait until the match's log has grown past ``match.version``; return its new version."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        version = int(
            requests.get(f"{match.url}/v1/matches/{match.id}/events", params={"limit": 1}, timeout=10).json()[
                "version"
            ]
        )
        if version > match.version:
            return version
        time.sleep(0.02)
    raise AssertionError(f"match {match.id} stayed at version {match.version}")
