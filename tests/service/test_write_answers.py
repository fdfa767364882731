"""A write's answer is the state right after its own steps, and stays so while the match goes on.

A process hands the position its last write left to the next writer of the match without copying
it; these tests hold every answer and compare it, after the match has moved on, with the state a
fold of the log from step 1 gives at the answer's version.

Each runs with writes that carry their projection (one Redis: the batch folded before it is sent)
and with writes that carry none (as on a cluster, or while a match's projection is behind: the
batch folded while Redis appends it).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from games.contract import Game, RuleViolation
from games.registry import all_games, get_game
from service.bootstrap import Services, build
from service.config import Settings
from service.recording.answers import Busy, Recorded
from tests.recording import record_example
from tests.support.folds import naive_at, naive_views
from tests.support.games import copied


def state_at(parts: Services, game: Game, match_id: str, version: int) -> Any:
    return game.view(naive_at(parts.store, game, match_id, version)["game"])


@pytest.fixture(params=["carrying", "carrying none"])
def writes(request: pytest.FixtureRequest, parts: Services, monkeypatch: pytest.MonkeyPatch) -> str:
    """How the writes go: carrying their projection where the store takes one, or never."""
    if request.param == "carrying none":
        monkeypatch.setattr(parts.recorder, "projector", None)
    return str(request.param)


@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda g: g.id)
def test_every_answer_keeps_the_state_of_its_own_version(parts: Services, writes: str, game: Game) -> None:
    answers: list[tuple[Recorded, Any]] = []

    def keep(answer: Recorded) -> None:
        answers.append((answer, copied(answer.state)))

    made = record_example(parts.recorder, game.id, seed=3, after=keep)
    undone = parts.recorder.undo(made.match_id, made.token, None, None)
    redone = parts.recorder.redo(made.match_id, made.token, None, None)
    for answer in (undone, redone):
        keep(answer)
    assert len(answers) > 5
    folded = naive_views(parts.store, game, made.match_id, [answer.version for answer, _ in answers])
    for answer, as_given in answers:
        # Unchanged by the writes after it, and the state its version folds to.
        assert answer.state == as_given
        assert answer.state == folded[answer.version]


def test_writers_of_one_match_in_one_process_each_get_their_own_state(parts: Services, writes: str) -> None:
    """Threads of one process racing on one match: each answer is the state at its own version."""
    game = get_game("hat-trick")
    script = game.example(0)
    made = parts.recorder.create(game.id, script["players"], script["setup"], script["options"])
    answers: list[tuple[Recorded, Any]] = []
    lock = threading.Lock()

    def send(action: dict[str, Any]) -> None:
        try:
            answer = parts.recorder.act(made.match_id, made.token, action)
        except (RuleViolation, Busy):
            return  # the other thread's action came first and made this one illegal
        with lock:
            answers.append((answer, copied(answer.state)))

    for action in script["actions"][:60]:
        # The same action sent twice at once: one is recorded, the other decided again after it.
        threads = [threading.Thread(target=send, args=(action,)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(answers) >= 60
    folded = naive_views(parts.store, game, made.match_id, [answer.version for answer, _ in answers])
    for answer, as_given in answers:
        assert answer.state == as_given
        assert answer.state == folded[answer.version]


@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda g: g.id)
def test_an_undo_and_a_redo_in_a_process_that_remembers_nothing_answer_their_own_state(
    parts: Services, settings: Settings, game: Game
) -> None:
    """The undo lands where the recording process was; another process knows none of it and
    finds the landing position in Redis once its append is answered."""
    made = record_example(parts.recorder, game.id, seed=1)
    parts.projector.project(made.match_id)
    other = build(settings, notify=lambda match_id: None)
    try:
        for correct in (other.recorder.undo, other.recorder.redo, other.recorder.undo):
            answer = correct(made.match_id, made.token, None, None)
            assert answer.state == state_at(parts, game, made.match_id, answer.version)
    finally:
        other.close()


def test_each_write_stamps_its_events_with_its_own_millisecond_and_offset(parts: Services) -> None:
    """Writes within one second, across a second, and in another offset: each event's ``ts`` is
    the write's time to the millisecond as ISO 8601 writes it, never another write's."""
    game = get_game("wizard")
    script = game.example(0)
    made = parts.recorder.create(game.id, script["players"], script["setup"], script["options"])
    times = [
        datetime(2026, 12, 3, 20, 15, 7, 0, tzinfo=UTC),
        datetime(2026, 12, 3, 20, 15, 7, 999_999, tzinfo=UTC),
        datetime(2026, 12, 3, 20, 15, 8, 4_000, tzinfo=UTC),
        datetime(2026, 12, 3, 20, 15, 8, 4_000, tzinfo=timezone(timedelta(hours=5, minutes=30))),
    ]
    expected = [
        "2026-12-03T20:15:07.000+00:00",
        "2026-12-03T20:15:07.999+00:00",
        "2026-12-03T20:15:08.004+00:00",
        "2026-12-03T20:15:08.004+05:30",
    ]
    for when, action, ts in zip(times, script["actions"], expected, strict=False):
        parts.recorder.clock = lambda when=when: when
        answer = parts.recorder.act(made.match_id, made.token, action)
        written = parts.store.read(made.match_id, answer.events[0].seq, answer.version)
        assert [event.meta["ts"] for event in written] == [ts] * len(answer.events)
