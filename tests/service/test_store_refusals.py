"""Every Redis error reply is one of three kinds: "not now" (a 503 with Retry-After that says why),
no reply at all (a 503 that says the write may have been recorded), or a bug (a 500)."""

from __future__ import annotations

import pytest
from flask import Flask
from redis import exceptions

from events.errors import NOT_NOW, not_now, unavailable
from service.http.live_slots import LiveSlots, TooManyStreams

# As Redis 6 words an error a script's redis.call met; Redis 7 keeps the reply's own code.
WRAPPED = "ERR Error running script (call to f_ab12): @user_script:83: @user_script: 83: -{code} because"


@pytest.mark.parametrize("code", sorted(NOT_NOW))
def test_every_not_now_reply_is_told_apart_also_inside_a_script(code: str) -> None:
    for error in (
        exceptions.ResponseError(f"{code} because"),
        exceptions.ResponseError(WRAPPED.format(code=code)),
    ):
        assert not_now(error) == code
        assert unavailable(error)


@pytest.mark.parametrize(
    "error, code",
    [
        (exceptions.BusyLoadingError("Redis is loading the dataset in memory"), "LOADING"),
        (exceptions.ReadOnlyError("You can't write against a read only replica."), "READONLY"),
        (exceptions.MasterDownError("Link with MASTER is down"), "MASTERDOWN"),
        (exceptions.TryAgainError("Multiple keys request during rehashing of slot"), "TRYAGAIN"),
        (exceptions.OutOfMemoryError("command not allowed when used memory > 'maxmemory'"), "OOM"),
    ],
)
def test_redis_py_s_own_exceptions_for_not_now_replies_keep_their_code(error: Exception, code: str) -> None:
    assert not_now(error) == code


@pytest.mark.parametrize(
    "reply",
    [
        "WRONGTYPE Operation against a key holding the wrong kind of value",
        "ERR unknown command 'XAUTOCLAIM'",
        "NOPERM this user has no permissions to run the 'eval' command",
        "BUSYGROUP Consumer Group name already exists",
        "BUSYKEY Target key name already exists.",
    ],
)
def test_replies_that_are_bugs_are_neither_not_now_nor_unavailable(reply: str) -> None:
    assert not_now(exceptions.ResponseError(reply)) is None
    assert not unavailable(exceptions.ResponseError(reply))


@pytest.fixture
def refusing(app: Flask) -> Flask:
    """The API with one more route that meets a Redis reply of the test's choosing."""

    def meet(reply: str) -> str:
        raise exceptions.ResponseError(reply.replace("_", " "))

    app.add_url_rule("/test-only/meet/<reply>", view_func=meet, methods=["POST"])
    return app


@pytest.mark.parametrize("code", ["NOREPLICAS", "MASTERDOWN", "LOADING", "READONLY", "BUSY", "TRYAGAIN"])
def test_a_not_now_reply_is_a_503_with_retry_after_naming_it(refusing: Flask, code: str) -> None:
    answer = refusing.test_client().post(f"/test-only/meet/{code}_not_now")
    assert answer.status_code == 503
    assert answer.json["code"] == "store_unavailable" and answer.json["reason"] == code
    assert answer.headers["Retry-After"] == "1"
    assert NOT_NOW[code] in answer.json["detail"] and "nothing was recorded" in answer.json["detail"]


@pytest.mark.parametrize("code, problem", [("MISCONF", "disk_full"), ("OOM", "store_full")])
def test_a_store_out_of_room_is_a_503_that_asks_for_patience(
    refusing: Flask, code: str, problem: str
) -> None:
    answer = refusing.test_client().post(f"/test-only/meet/{code}_no_room")
    assert (answer.status_code, answer.json["code"], answer.headers["Retry-After"]) == (503, problem, "30")
    assert "reads still work" in answer.json["detail"]


def test_a_reply_that_is_a_bug_stays_a_500(refusing: Flask) -> None:
    answer = refusing.test_client().post("/test-only/meet/WRONGTYPE_Operation_against_a_key")
    assert answer.status_code == 500 and answer.json["code"] == "internal_error"


def test_live_feeds_are_counted_per_address_and_in_all_and_a_closed_one_gives_its_place_back() -> None:
    slots = LiveSlots(total=3, per_client=2)
    first = slots.take("10.0.0.1")
    slots.take("10.0.0.1")
    with pytest.raises(TooManyStreams, match="TABLETAPE_LIVE_STREAMS_PER_CLIENT=2"):
        slots.take("10.0.0.1")
    slots.take("10.0.0.2")
    with pytest.raises(TooManyStreams, match="TABLETAPE_LIVE_STREAMS=3"):
        slots.take("10.0.0.3")
    first()
    first()  # released twice (closed, then its generator ended): counted once
    slots.take("10.0.0.3")
    with pytest.raises(TooManyStreams):
        slots.take("10.0.0.4")


def test_a_command_that_meets_a_not_now_reply_exits_4_saying_why() -> None:
    from service.cli.support import NO_STORE, explain

    code, said = explain(exceptions.ResponseError("NOREPLICAS Not enough good replicas to write."))
    message = str(said)
    assert code == NO_STORE and "min-replicas-to-write" in message and "Traceback" not in message
