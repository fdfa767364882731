"""Request and action ids: unique across the processes gunicorn forks, without a system call each."""

from __future__ import annotations

import multiprocessing
import re

from service.recording.ids import unique_hex


def _draw(out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put([unique_hex() for _ in range(50)])


def test_ids_are_32_hex_digits_and_never_repeat() -> None:
    drawn = [unique_hex() for _ in range(10_000)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in drawn)
    assert len(set(drawn)) == len(drawn)


def test_processes_forked_from_one_parent_draw_different_ids() -> None:
    # gunicorn forks its workers from one master: each must draw a sequence of its own.
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    children = [context.Process(target=_draw, args=(out,)) for _ in range(3)]
    for child in children:
        child.start()
    seen = [out.get(timeout=30) for _ in children]
    for child in children:
        child.join(timeout=30)
    seen.append([unique_hex() for _ in range(50)])
    every = [i for batch in seen for i in batch]
    assert len(set(every)) == len(every) == 200
