"""Commands sent to the server that holds a key, over one connection: on one Redis or a cluster."""

from __future__ import annotations

import hashlib
import uuid

import redis

from events.keys import Keys
from events.servers import on_servers


def test_a_script_no_server_knew_runs_once_per_match_on_each_matchs_own_server(
    redis_client: redis.Redis, keys: Keys
) -> None:
    # A script of this test's own, so no server has it yet: every server answers NOSCRIPT first.
    source = f"-- {uuid.uuid4().hex}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])"
    sha = hashlib.sha1(source.encode()).hexdigest()
    names = [keys.meta(f"m{i}") for i in range(30)]  # 30 slots: on a cluster, every master
    groups = [(name, [("EVALSHA", sha, 1, name, i), ("GET", name)]) for i, name in enumerate(names)]
    replies = on_servers(redis_client, groups, [source])
    assert replies == [[i, str(i).encode()] for i in range(30)]
    assert [int(redis_client.get(name) or 0) for name in names] == list(range(30))


def test_an_error_of_one_command_is_its_reply_and_the_others_still_run(
    redis_client: redis.Redis, keys: Keys
) -> None:
    name = keys.meta("m")
    [[first, second]] = on_servers(redis_client, [(name, [("LPUSH", name, "x"), ("SET", name + "x", "1")])])
    assert first == 1 and second in (True, b"OK")
    [[wrong, fine]] = on_servers(redis_client, [(name, [("INCR", name), ("GET", name + "x")])])
    assert isinstance(wrong, redis.ResponseError) and fine == b"1"
