"""The event store's contract: one suite every backend must pass (real Redis, fakeredis)."""

from __future__ import annotations

from typing import Any, cast

import fakeredis
import pytest
import redis

from events import servers
from events.codec import seq_of
from events.envelope import AppendResult, NewEvent
from events.errors import (
    CredentialChanged,
    IdempotencyMismatch,
    MatchExists,
    OverLimit,
    StoreError,
    UnknownMatch,
    VersionConflict,
)
from events.extras import AppendExtras, Credential, RateCounters
from events.keys import Keys
from events.store import EventStore


def made(type_: str = "Noted", **data: Any) -> NewEvent:
    """A new event as the service would build it."""
    meta = {"ts": "2024-05-01T20:00:00Z", "actor": "ann", "action_id": "a1", "schema": 1}
    return NewEvent(type=type_, data=data, meta=meta)


def batch(*numbers: int) -> list[NewEvent]:
    """Events numbered ``n`` in their data, to tell them apart when read back."""
    return [made(n=n) for n in numbers]


def numbers(store: EventStore, match_id: str, **kwargs: Any) -> list[int]:
    """The ``n`` of each event read back."""
    return [e.data["n"] for e in store.read(match_id, **kwargs)]


def assert_written_once_with_its_work(store: EventStore) -> None:
    """Append step 2 to match "m" (at step 1) with work to do meanwhile: written once, work done once."""
    ran: list[str] = []
    assert store.append(
        "m", batch(2), 1, extras=AppendExtras(meanwhile=lambda: ran.append("folded"))
    ) == AppendResult(2, 2)
    assert ran == ["folded"]
    assert numbers(store, "m") == [1, 2]


def cannot_fold() -> None:
    raise LookupError("the answer could not fold")


def test_every_error_of_the_store_is_a_store_error() -> None:
    errors = [
        UnknownMatch("m"),
        MatchExists("m"),
        VersionConflict(1, 2),
        IdempotencyMismatch("k"),
    ]
    assert all(isinstance(e, StoreError) for e in errors)


class StoreContract:
    """What every event store does; subclasses provide the ``store`` fixture."""

    # -- create ----------------------------------------------------------------------------------

    def test_a_created_match_reads_back_its_first_events_as_steps_from_one(self, store: EventStore) -> None:
        result = store.create("m", {"game": "wizard"}, batch(10, 11, 12), created_ms=1)
        assert result == AppendResult(first=1, last=3, duplicate=False)
        assert [(e.seq, e.data["n"]) for e in store.read("m")] == [(1, 10), (2, 11), (3, 12)]
        assert store.version("m") == 3

    def test_the_header_reads_back_as_it_was_given(self, store: EventStore) -> None:
        header = {"game": "hats", "created_at": "2024-05-01T20:00:00Z", "token_hash": "ab12"}
        store.create("m", header, batch(1), created_ms=1)
        assert store.header("m") == header
        assert store.exists("m")

    def test_creating_a_match_twice_is_refused_and_keeps_the_first(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2), created_ms=1)
        with pytest.raises(MatchExists) as refused:
            store.create("m", {"game": "hats"}, batch(9), created_ms=2)
        assert "'m' already exists" in str(refused.value)
        assert store.header("m") == {"game": "wizard"}
        assert numbers(store, "m") == [1, 2]
        assert store.match_ids() == ["m"]

    def test_a_match_created_without_events_is_at_version_zero_and_appends_from_step_one(
        self, store: EventStore
    ) -> None:
        assert store.create("m", {"game": "wizard"}, [], created_ms=1) == AppendResult(1, 0, False)
        assert store.version("m") == 0
        assert store.read("m") == []
        assert store.append("m", batch(1), expected_version=0) == AppendResult(1, 1, False)

    def test_a_header_may_not_set_the_version(self, store: EventStore) -> None:
        with pytest.raises(ValueError, match="version"):
            store.create("m", {"game": "wizard", "version": "7"}, batch(1), created_ms=1)

    # -- append ----------------------------------------------------------------------------------

    def test_appends_continue_the_steps_without_gaps(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        assert store.append("m", batch(2, 3)) == AppendResult(first=2, last=3, duplicate=False)
        assert store.append("m", batch(4)) == AppendResult(first=4, last=4, duplicate=False)
        events = store.read("m")
        assert [e.seq for e in events] == [1, 2, 3, 4]
        assert [e.data["n"] for e in events] == [1, 2, 3, 4]
        assert store.version("m") == 4

    def test_events_keep_their_type_data_and_meta_exactly(self, store: EventStore) -> None:
        data = {"player": "Zoë", "cards": ["7H", "QS"], "bid": 0, "nested": {"ok": True, "x": None}}
        meta = {
            "ts": "2024-05-01T20:00:00Z",
            "actor": "ann",
            "action_id": "a1",
            "schema": 2,
            "action": {"type": "bid", "bid": 0},
        }
        store.create("m", {"game": "wizard"}, [NewEvent("BidPlaced", data, meta)], created_ms=1)
        [event] = store.read("m")
        assert event.as_dict() == {"seq": 1, "type": "BidPlaced", "data": data, "meta": meta}

    def test_an_empty_batch_writes_nothing_and_keeps_the_version(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2), created_ms=1)
        assert store.append("m", []) == AppendResult(first=3, last=2, duplicate=False)
        assert store.version("m") == 2
        assert store.append("m", batch(3)).first == 3

    def test_each_step_is_the_stream_entry_with_that_number(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2, 3), created_ms=1)
        entries = cast(list[Any], store.client.xrange(store.keys.log("m"), "2-0", "3-0"))
        assert [seq_of(entry) for entry, _ in entries] == [2, 3]

    # -- work done while an append is on its way ---------------------------------------------------

    def test_work_given_to_an_append_runs_once_and_the_batch_is_written(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        assert_written_once_with_its_work(store)

    def test_an_append_whose_work_fails_is_written_then_raises_what_the_work_raised(
        self, store: EventStore
    ) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        with pytest.raises(LookupError, match="could not fold"):
            store.append("m", batch(2), 1, extras=AppendExtras(meanwhile=cannot_fold))
        assert numbers(store, "m") == [1, 2]
        assert store.version("m") == 2

    def test_a_refused_append_raises_its_refusal_whatever_its_work_raised(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2), created_ms=1)
        with pytest.raises(VersionConflict):
            store.append("m", batch(3), 1, extras=AppendExtras(meanwhile=cannot_fold))
        assert numbers(store, "m") == [1, 2]

    def test_a_refused_append_leaves_the_match_unmarked_and_a_written_one_marks_it(
        self, store: EventStore
    ) -> None:
        """A refusal wrote nothing for a projection pass to do: no mark, on one Redis (the script)
        and on a cluster (the client), whose every mark goes to one shard's server."""
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        store.append("m", batch(2), expected_version=1, idempotency_key="k1", fingerprint="f")
        store.marks.unmark(["m"])
        with pytest.raises(VersionConflict):
            store.append("m", batch(3), expected_version=1)
        with pytest.raises(IdempotencyMismatch):
            store.append("m", batch(3), idempotency_key="k1", fingerprint="another request")
        with pytest.raises(CredentialChanged):
            store.append("m", batch(3), extras=AppendExtras(credential=Credential("seat:bob", "gone")))
        assert not store.marks.marked("m") and store.marks.count() == 0
        store.append("m", batch(3), expected_version=2)
        assert store.marks.marked("m")

    # -- rate counters ---------------------------------------------------------------------------

    def test_an_append_counts_itself_against_its_rate_counters_once_and_past_a_limit_writes_nothing(
        self, store: EventStore
    ) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        key = f"{store.keys.rate_limits()}:test-caller"
        if not store.counts:  # a cluster keeps the counters in other slots than the match
            with pytest.raises(ValueError, match="cannot count"):
                store.append("m", batch(2), extras=AppendExtras(rates=RateCounters([(key, 2, 60)])))
            return
        sent = RateCounters([(key, 2, 60)])
        store.append("m", batch(2), extras=AppendExtras(rates=sent))
        assert sent.sent
        store.append("m", batch(3), extras=AppendExtras(rates=sent))  # already counted: not again
        store.append("m", batch(4), extras=AppendExtras(rates=RateCounters([(key, 2, 60)])))
        with pytest.raises(OverLimit) as over:
            store.append("m", batch(5), extras=AppendExtras(rates=RateCounters([(key, 2, 60)])))
        assert over.value.which == 1
        assert numbers(store, "m") == [1, 2, 3, 4]
        assert int(store.client.get(key)) == 3 and 0 < store.client.ttl(key) <= 60

    # -- conflicts -------------------------------------------------------------------------------

    def test_an_append_expecting_the_current_version_is_written(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2), created_ms=1)
        assert store.append("m", batch(3), expected_version=2) == AppendResult(3, 3, False)

    def test_an_append_expecting_an_old_version_is_refused_with_the_actual_version(
        self, store: EventStore
    ) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2), created_ms=1)
        store.append("m", batch(3))
        with pytest.raises(VersionConflict) as refused:
            store.append("m", batch(99), expected_version=2)
        assert (refused.value.expected, refused.value.actual) == (2, 3)
        assert "version 3, not 2" in str(refused.value)
        assert numbers(store, "m") == [1, 2, 3]
        assert store.version("m") == 3

    def test_an_append_expecting_a_future_version_is_refused(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        with pytest.raises(VersionConflict) as refused:
            store.append("m", batch(2), expected_version=5)
        assert (refused.value.expected, refused.value.actual) == (5, 1)

    # -- idempotency -----------------------------------------------------------------------------

    def test_a_retried_idempotency_key_appends_once_and_returns_the_first_steps(
        self, store: EventStore
    ) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        first = store.append("m", batch(2, 3), idempotency_key="k1", fingerprint="f")
        store.append("m", batch(4))
        again = store.append("m", batch(2, 3), idempotency_key="k1", fingerprint="f")
        assert first == AppendResult(first=2, last=3, duplicate=False)
        assert again == AppendResult(first=2, last=3, duplicate=True)
        assert numbers(store, "m") == [1, 2, 3, 4]

    def test_a_retry_is_answered_even_when_its_expected_version_has_since_moved_on(
        self, store: EventStore
    ) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        store.append("m", batch(2), expected_version=1, idempotency_key="k1", fingerprint="f")
        store.append("m", batch(3))
        again = store.append("m", batch(2), expected_version=1, idempotency_key="k1", fingerprint="f")
        assert again == AppendResult(first=2, last=2, duplicate=True)
        assert store.version("m") == 3

    def test_a_different_request_under_the_same_key_is_refused(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        store.append("m", batch(2), idempotency_key="k1", fingerprint="bid 3")
        with pytest.raises(IdempotencyMismatch) as refused:
            store.append("m", batch(5), idempotency_key="k1", fingerprint="bid 4")
        assert refused.value.key == "k1"
        assert "'k1'" in str(refused.value)
        assert numbers(store, "m") == [1, 2]

    def test_a_refused_append_does_not_use_up_its_idempotency_key(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2), created_ms=1)
        with pytest.raises(VersionConflict):
            store.append("m", batch(3), expected_version=1, idempotency_key="k1", fingerprint="f")
        written = store.append("m", batch(3), expected_version=2, idempotency_key="k1", fingerprint="f")
        assert written == AppendResult(first=3, last=3, duplicate=False)

    def test_an_idempotency_key_belongs_to_one_match(self, store: EventStore) -> None:
        store.create("m1", {"game": "wizard"}, batch(1), created_ms=1)
        store.create("m2", {"game": "wizard"}, batch(1), created_ms=2)
        store.append("m1", batch(2), idempotency_key="k", fingerprint="f")
        assert store.append("m2", batch(2), idempotency_key="k", fingerprint="f").duplicate is False
        assert store.version("m2") == 2

    def test_appends_without_a_key_are_never_taken_for_retries(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        store.append("m", batch(2))
        assert store.append("m", batch(2)) == AppendResult(first=3, last=3, duplicate=False)

    def test_recall_answers_a_known_key_with_the_first_steps_without_writing(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        store.append("m", batch(2, 3), idempotency_key="k1", fingerprint="a b c")
        assert store.recall("m", "k1", "a b c") == AppendResult(first=2, last=3, duplicate=True)
        assert store.version("m") == 3

    def test_recall_of_a_new_key_finds_nothing(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        assert store.recall("m", "k1", "f") is None
        assert store.recall("m", "", "f") is None

    def test_recall_of_a_key_used_for_a_different_request_is_refused(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        store.append("m", batch(2), idempotency_key="k1", fingerprint="bid 3")
        with pytest.raises(IdempotencyMismatch):
            store.recall("m", "k1", "bid 4")

    # -- reads -----------------------------------------------------------------------------------

    def test_read_returns_the_inclusive_range_of_steps_asked_for(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(*range(1, 11)), created_ms=1)
        assert numbers(store, "m", start=3, end=6) == [3, 4, 5, 6]
        assert numbers(store, "m", start=8) == [8, 9, 10]
        assert numbers(store, "m", end=2) == [1, 2]
        assert numbers(store, "m", start=5, end=5) == [5]

    def test_read_with_a_count_returns_at_most_that_many_steps(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(*range(1, 11)), created_ms=1)
        assert numbers(store, "m", start=4, count=3) == [4, 5, 6]
        assert numbers(store, "m", start=9, count=5) == [9, 10]
        assert numbers(store, "m", count=0) == []

    def test_a_range_outside_the_log_reads_nothing(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1, 2, 3), created_ms=1)
        assert store.read("m", start=4) == []
        assert store.read("m", start=3, end=2) == []
        assert numbers(store, "m", start=0, end=1) == [1]

    def test_iter_events_yields_every_step_in_order_whatever_the_batch(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(*range(1, 8)), created_ms=1)
        for size in (1, 2, 3, 7, 100):
            assert [e.seq for e in store.iter_events("m", batch=size)] == list(range(1, 8))
        assert [e.seq for e in store.iter_events("m", start=3, end=5, batch=2)] == [3, 4, 5]

    def test_match_ids_lists_the_newest_first_and_pages(self, store: EventStore) -> None:
        for i, when in enumerate([300, 100, 200]):
            store.create(f"m{i}", {"game": "wizard"}, batch(1), created_ms=when)
        assert store.match_ids() == ["m0", "m2", "m1"]
        assert store.match_ids(start=1, count=1) == ["m2"]
        assert store.match_ids(start=3) == []

    # -- unknown matches -------------------------------------------------------------------------

    def test_an_unknown_match_is_reported_by_every_question_about_it(self, store: EventStore) -> None:
        asks = [
            lambda: store.append("nope", batch(1)),
            lambda: store.read("nope"),
            lambda: store.read("nope", start=5, end=1),
            lambda: list(store.iter_events("nope")),
            lambda: store.version("nope"),
            lambda: store.header("nope"),
            lambda: store.recall("nope", "k", "f"),
        ]
        for ask in asks:
            with pytest.raises(UnknownMatch) as refused:
                ask()
            assert refused.value.match_id == "nope"
            assert "no match 'nope'" in str(refused.value)
        assert not store.exists("nope")
        assert store.match_ids() == []

    # -- the credential a write relies on --------------------------------------------------------

    def test_a_create_writes_the_credentials_it_starts_with(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1, credentials={"recovery": "d1"})
        assert store.credentials("m") == {"recovery": "d1"}

    def test_an_append_relying_on_a_revoked_credential_writes_nothing(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1, credentials={"seat:bob": "d1"})
        bob = AppendExtras(credential=Credential("seat:bob", "d1"))
        store.append("m", batch(2), 1, extras=bob)
        store.drop_credential("m", "seat:bob")
        with pytest.raises(CredentialChanged):
            store.append("m", batch(3), 2, extras=AppendExtras(credential=Credential("seat:bob", "d1")))
        store.set_credentials("m", {"seat:bob": "d2"})
        with pytest.raises(CredentialChanged):
            store.append("m", batch(3), 2, extras=AppendExtras(credential=Credential("seat:bob", "d1")))
        assert numbers(store, "m") == [1, 2]

    def test_the_header_s_digest_counts_until_the_credentials_replace_it(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard", "token_hash": "t1"}, batch(1), created_ms=1)
        table = Credential("table", "t1", fallback="token_hash")
        store.append("m", batch(2), 1, extras=AppendExtras(credential=table))
        with pytest.raises(CredentialChanged):
            store.append(
                "m", batch(3), 2, extras=AppendExtras(credential=Credential("table", "t9", "token_hash"))
            )
        store.set_credentials("m", {"table": "t2"})
        with pytest.raises(CredentialChanged):
            store.append("m", batch(3), 2, extras=AppendExtras(credential=table))
        assert numbers(store, "m") == [1, 2]

    def test_an_append_to_an_unknown_match_creates_nothing(self, store: EventStore) -> None:
        with pytest.raises(UnknownMatch):
            store.append("nope", batch(1), idempotency_key="k", fingerprint="f")
        assert not store.exists("nope")
        assert store.client.exists(store.keys.log("nope"), store.keys.idem("nope")) == 0


class TestFakeRedis(StoreContract):
    """The contract on fakeredis (with Lua), answering in str rather than bytes."""

    @pytest.fixture
    def store(self, keys: Keys) -> EventStore:
        client = fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True)
        return EventStore(client, keys)

    def test_an_append_to_a_server_that_lost_its_scripts_is_written_once(self, store: EventStore) -> None:
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        store.client.script_flush()
        assert_written_once_with_its_work(store)

    def test_an_append_whose_reply_is_lost_is_sent_again_and_never_written_twice(
        self, store: EventStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The connection drops after the server appended: sent again, the batch meets its own
        version check (a conflict), so the log holds it once; the work ran once."""
        store.create("m", {"game": "wizard"}, batch(1), created_ms=1)
        connection = store.client.connection_pool.connection_class
        read = connection.read_response
        lost: list[bool] = []

        def drops_once(self: Any, *args: Any, **kwargs: Any) -> Any:
            answer = read(self, *args, **kwargs)
            if not lost:
                lost.append(True)
                raise redis.ConnectionError("the connection dropped before the reply arrived")
            return answer

        monkeypatch.setattr(connection, "read_response", drops_once)
        ran: list[str] = []
        with pytest.raises(VersionConflict) as refused:
            store.append("m", batch(2), 1, extras=AppendExtras(meanwhile=lambda: ran.append("folded")))
        assert refused.value.actual == 2
        assert ran == ["folded"]
        assert numbers(store, "m") == [1, 2]


class TestRealRedis(StoreContract):
    """The contract on a real Redis server (concurrency: test_store_concurrency.py)."""

    @pytest.fixture
    def store(self, redis_client: redis.Redis, keys: Keys) -> EventStore:
        return EventStore(redis_client, keys)

    def test_a_writes_dirty_mark_is_sent_only_once_its_append_ran_even_on_a_server_without_its_script(
        self, store: EventStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A pass that found a mark before its match existed would drop it (no match behind it), and
        the match would wait for the full sweep. On a cluster the client marks the match: only once
        the script has run, also when its server had to load it first (after a restart or a failover)."""
        sent: list[tuple[str, bool]] = []
        send = servers._send

        def recording(server: Any, groups: list[Any]) -> list[list[Any]]:
            answered = send(server, groups)
            for (_, commands), replies in zip(groups, answered, strict=True):
                for command, reply in zip(commands, replies, strict=True):
                    sent.append((str(command[0]), isinstance(reply, redis.exceptions.NoScriptError)))
            return answered

        monkeypatch.setattr(servers, "_send", recording)

        def sends_of(write: Any) -> list[tuple[str, bool]]:
            store.client.script_flush()  # on every master of a cluster
            sent.clear()
            write()
            return list(sent)

        created = sends_of(lambda: store.create("m", {"game": "wizard"}, batch(1), created_ms=1))
        appended = sends_of(lambda: store.append("m", batch(2), expected_version=1))
        # On one Redis the script marks the match in its own atomic run, sent on a kept connection.
        for order in (created, appended) if store.marks.sharded else ():
            ran = [i for i, (name, refused) in enumerate(order) if name == "EVALSHA" and not refused]
            assert len(ran) == 1, order
            assert all(i > ran[0] for i, (name, _) in enumerate(order) if name == "SADD"), order
        assert numbers(store, "m") == [1, 2] and store.marks.marked("m")
