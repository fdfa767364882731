"""Ids that must be unique but need not be secret: request ids and action ids.

They come from a generator of the process's own, seeded by the operating system when the process
starts and again in every process forked from it (gunicorn's workers), so two processes never draw
the same sequence. Asking the system for randomness each time costs a system call per id; write
tokens, which are secrets, still come from ``secrets``.
"""

from __future__ import annotations

import os
import random

_drawn = random.Random()
os.register_at_fork(after_in_child=_drawn.seed)


def unique_hex() -> str:
    """32 hex digits (128 bits), unique in practice across processes and restarts."""
    return f"{_drawn.getrandbits(128):032x}"
