"""Rate limits (flask-limiter), counted in the deployment's Redis under its key prefix.

Creating writes (create, fork, import) share one budget per caller, writes to a match another;
reads are not limited (a proxy in front can). A caller is its API key when it sends one of the
deployment's, else its address (behind a proxy, the address the proxy forwards: see
``TABLETAPE_TRUSTED_PROXIES``). While Redis cannot count, requests pass: the store's own answer
(503) then speaks for it.
"""

from __future__ import annotations

import redis
from flask import Flask, request
from flask_limiter import Limiter

from events.keys import Keys
from service.credentials import Credentials

CREATING = ("matches.create_match", "history.fork", "history.import_match")
WRITING = ("matches.post_action", "matches.undo", "matches.redo")


def limit_rates(
    app: Flask,
    client: redis.Redis,
    keys: Keys,
    credentials: Credentials,
    create_rate: str | None,
    write_rate: str | None,
) -> Limiter | None:
    """Limit the creating writes and the writes of each caller; None when both limits are off."""
    if not create_rate and not write_rate:
        return None

    def caller() -> str:
        known = credentials.known(request.headers.get("X-API-Key", "").strip())
        return known or f"addr-{request.remote_addr or 'unknown'}"

    if hasattr(client, "get_primaries"):
        # On a Redis Cluster the counters are kept by limits' own cluster storage, on its masters.
        nodes = ",".join(f"{node.host}:{node.port}" for node in client.get_primaries())
        storage: dict[str, object] = {"storage_uri": f"redis+cluster://{nodes}"}
        storage["storage_options"] = {"key_prefix": keys.rate_limits()}
    else:
        storage = {
            "storage_uri": "redis://",
            "storage_options": {"connection_pool": client.connection_pool, "key_prefix": keys.rate_limits()},
        }
    limiter = Limiter(
        caller,
        app=app,
        **storage,
        strategy="fixed-window",
        headers_enabled=True,
        swallow_errors=True,
    )
    for rate, scope, endpoints in ((create_rate, "create", CREATING), (write_rate, "write", WRITING)):
        if not rate:
            continue
        shared = limiter.shared_limit(rate, scope=scope)
        for endpoint in endpoints:
            app.view_functions[endpoint] = shared(app.view_functions[endpoint])
    return limiter
