"""The HTTP anchor: a minimal Flask app whose POST runs one EVALSHA of the append script.

Served by the same gunicorn as tabletape in bench/http.py, it is the floor an HTTP write can reach
on this machine: parse a JSON body, one round trip to Redis, a small JSON answer.
"""

from __future__ import annotations

import os

import redis
from flask import Flask, jsonify, request

from events.keys import Keys
from events.script_args import AppendArgs, create_args
from events.store import EventStore


def create_app() -> Flask:
    """The anchor app over REDIS_URL and TABLETAPE_PREFIX."""
    app = Flask(__name__)
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    # Its scratch logs live under a prefix of their own: tabletape's workers, which sweep every
    # header under the bench's prefix, would otherwise find logs of a game that does not exist.
    store = EventStore(client, Keys(f"{os.environ['TABLETAPE_PREFIX']}-anchor"))
    script = store._script

    @app.post("/v1/matches/<match_id>/actions")
    def append(match_id: str):  # type: ignore[no-untyped-def]
        body = request.get_data(as_text=True)
        scratch = f"anchor-{match_id}"
        keys = [store.keys.meta(scratch), store.keys.log(scratch), store.keys.idem(scratch)]
        # No rate counters and no projection: the bare append.
        event = ["Noted", body, "{}"]
        bare = AppendArgs("", "", "", "", "", "", "", "", [], None, None, event).argv()
        reply = client.evalsha(script.sha, 3, *keys, *bare)
        if reply[0] == -1:  # the first write to this scratch log creates it
            made = create_args("", "", {"game": "anchor"}, event)
            reply = client.evalsha(script.sha, 3, *keys, *made)
        return jsonify({"version": int(reply[2])}), 201

    return app
