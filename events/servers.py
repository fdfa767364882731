"""Commands that must reach the one server holding a key, over one connection: on one Redis, or on
the master of a Redis Cluster that holds the key's slot.

A cluster client refuses to pipeline scripts (EVALSHA), and WAIT counts only the writes sent on its
own connection; both need the server that holds the match. ``on_servers`` sends each group of
commands to the server of its key, every group of one server in one round trip, and answers each
group's replies in order (an error in place of its reply). A group refused because its slot moved
(MOVED, after a failover or a reshard) did not run: the slot map is asked for again and the group
sent again; a script a server does not know yet (NOSCRIPT) is loaded there and the group sent again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import redis
from redis import exceptions

from events.defaults import SEND_ATTEMPTS

Group = tuple[str, Sequence[Sequence[Any]]]


def server_of(client: redis.Redis, key: str) -> redis.Redis:
    """The one server that holds ``key``: the client's own, or on a cluster the key's master."""
    if hasattr(client, "get_node_from_key"):
        return cast(redis.Redis, client.get_node_from_key(key).redis_connection)
    return client


def on_servers(client: redis.Redis, groups: Sequence[Group], scripts: Sequence[str] = ()) -> list[list[Any]]:
    """Each group's replies, its commands sent in order to the server of its key."""
    replies: list[list[Any]] = [[] for _ in groups]
    todo = list(range(len(groups)))
    for _ in range(SEND_ATTEMPTS):
        again: list[int] = []
        for server, indexes in _by_server(client, groups, todo):
            try:
                answered = _send(server, [groups[i] for i in indexes])
            except (exceptions.ConnectionError, exceptions.TimeoutError):
                # The master may be gone (a failover): the next call must ask where slots are now,
                # as the cluster client does for its own commands.
                _refresh(client)
                raise
            for i, found in zip(indexes, answered, strict=True):
                replies[i] = found
                if any(isinstance(r, exceptions.NoScriptError) for r in found):
                    for source in scripts:
                        server.script_load(source)
                    again.append(i)
                elif any(isinstance(r, exceptions.MovedError) for r in found):
                    again.append(i)
        if not again:
            break
        _refresh(client)
        todo = again
    return replies


def _refresh(client: redis.Redis) -> None:
    """Ask a cluster for its slot map again (nothing on one Redis); a cluster mid-failover may not answer."""
    if hasattr(client, "nodes_manager"):
        try:
            client.nodes_manager.initialize()
        except (exceptions.RedisError, exceptions.RedisClusterException):
            pass  # the next call asks again


def _by_server(
    client: redis.Redis, groups: Sequence[Group], todo: list[int]
) -> list[tuple[redis.Redis, list[int]]]:
    found: dict[int, tuple[redis.Redis, list[int]]] = {}
    for i in todo:
        server = server_of(client, groups[i][0])
        found.setdefault(id(server), (server, []))[1].append(i)
    return list(found.values())


def _send(server: redis.Redis, groups: list[Group]) -> list[list[Any]]:
    with server.pipeline(transaction=False) as pipe:
        for _, commands in groups:
            for command in commands:
                pipe.execute_command(*command)
        flat = pipe.execute(raise_on_error=False)
    answered, at = [], 0
    for _, commands in groups:
        answered.append(list(flat[at : at + len(commands)]))
        at += len(commands)
    return answered
