"""Several sends of one Idempotency-Key at once (a double tap, a retry right after a timeout),
each from its own API process: one write, and every send gets the first answer."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.registry import get_game
from service.bootstrap import Services, build
from service.config import Settings
from service.recording.answers import Created, Recorded
from tests.recording import record_example

SENDS = 6


@pytest.fixture
def processes(settings: Settings, parts: Services) -> Iterator[list[Services]]:
    """As many sets of parts as sends, as if each send reached another API process."""
    built = [build(settings, notify=lambda m: None) for _ in range(SENDS)]
    yield built
    for one in built:
        one.close()


def at_once(processes: list[Services], send: Callable[[Services], Recorded]) -> list[Any]:
    """Run ``send`` on every process at the same moment; each answer, or the error it raised."""
    gate = threading.Barrier(len(processes))
    answers: list[Any] = [None] * len(processes)

    def run(i: int) -> None:
        gate.wait()
        try:
            answers[i] = send(processes[i])
        except Exception as exc:  # the answer a client would get, to compare
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(processes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def warm(processes: list[Services], match_id: str) -> None:
    """Every process reads the match once, as API processes that served it before would have."""
    for one in processes:
        one.positions.head(match_id)


def warmed(parts: Services, processes: list[Services], game_id: str, seed: int, upto: int) -> Created:
    """A game's example match recorded up to ``upto`` actions, read once by every process."""
    made = record_example(parts.recorder, game_id, seed, upto=upto)
    warm(processes, made.match_id)
    return made


def assert_one_answer(answers: list[Any]) -> None:
    errors = [a for a in answers if isinstance(a, Exception)]
    assert not errors, errors
    assert len({(a.version, tuple(e.seq for e in a.events)) for a in answers}) == 1


def test_concurrent_sends_of_one_action_record_it_once_and_all_get_its_answer(
    parts: Services, processes: list[Services]
) -> None:
    made = warmed(parts, processes, "wizard", 1, 1)
    before = parts.store.version(made.match_id)
    bid = get_game("wizard").example(1)["actions"][1]
    answers = at_once(processes, lambda p: p.recorder.act(made.match_id, made.token, bid, None, "tap-1"))
    assert_one_answer(answers)
    log = parts.store.read(made.match_id, before + 1)
    assert len(log) == len(answers[0].events)


@pytest.mark.parametrize("if_match", [False, True])
def test_concurrent_redos_under_one_key_are_one_redo_and_never_nothing_to_redo(
    parts: Services, processes: list[Services], if_match: bool
) -> None:
    made = record_example(parts.recorder, "wizard", 2, upto=6)
    undone = parts.recorder.undo(made.match_id, made.token, None, None)
    warm(processes, made.match_id)
    expected = undone.version if if_match else None
    answers = at_once(processes, lambda p: p.recorder.redo(made.match_id, made.token, expected, "retry-7"))
    assert_one_answer(answers)
    redone = [e for e in parts.store.read(made.match_id, undone.version + 1) if e.type == "ActionRedone"]
    assert len(redone) == 1


def test_concurrent_undos_under_one_key_take_back_one_action(
    parts: Services, processes: list[Services]
) -> None:
    made = warmed(parts, processes, "hats", 0, 8)
    version = parts.store.version(made.match_id)
    answers = at_once(processes, lambda p: p.recorder.undo(made.match_id, made.token, None, "undo-once"))
    assert_one_answer(answers)
    assert parts.store.version(made.match_id) == version + 1


def test_a_send_that_finds_its_key_recorded_by_another_process_gets_that_answer_not_a_refusal(
    parts: Services, processes: list[Services]
) -> None:
    made = warmed(parts, processes, "wizard", 3, 3)
    action = get_game("wizard").example(3)["actions"][3]
    first = processes[0].recorder.act(made.match_id, made.token, action, None, "k")
    # The second process still holds the position before the first write: deciding on it again
    # would be refused by the rules (already bid, not your turn) were the key not consulted.
    again = processes[1].recorder.act(
        made.match_id, made.token, action, first.version - len(first.events), "k"
    )
    assert (again.version, again.duplicate) == (first.version, True)
    assert [e.seq for e in again.events] == [e.seq for e in first.events]
