"""The batch ends a process remembers of a match: the newest of them is what a writer decides on
next, so it must be known exactly, also once rewinds have made it the least recently used."""

from __future__ import annotations

from events.defaults import BATCH_ENDS_KEPT
from projections.positions.rewind import _Ring


def test_the_newest_batch_end_is_known_as_steps_come_go_and_are_pushed_out() -> None:
    ring = _Ring()
    assert ring.newest == -1
    last = BATCH_ENDS_KEPT + 6
    for step in range(1, last + 1):
        ring[step] = b"{}"
    assert len(ring) == BATCH_ENDS_KEPT and ring.newest == last
    # Rewinds read every other step remembered: the newest becomes the least recently used.
    for step in range(last - BATCH_ENDS_KEPT + 1, last):
        assert ring[step] == b"{}"
    # A rewind remembers an older step: the newest is pushed out, and the one before it is newest.
    ring[2] = b"{}"
    assert last not in ring and ring.newest == last - 1 == max(ring)
    assert ring[ring.newest] == b"{}"
    ring[last + 1] = b"{}"
    assert ring.newest == last + 1 == max(ring)
    for step in list(ring):
        del ring[step]
        assert ring.newest == max(ring, default=-1)
    assert ring.newest == -1
