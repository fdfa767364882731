"""A process remembers whom a write token was found to be, yet a token reset or revoked in
another process is refused at once: each append checks in its own run that the credential it
relies on is still current, and a remembered token costs a write no round trip of its own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from projections.queries.access import Forbidden
from service.bootstrap import Services, build
from service.config import Settings
from service.recording.answers import Created

HANDS = {"ann": ["AS"], "bob": ["KS"], "cy": ["3H"]}


@pytest.fixture
def other(settings: Settings, parts: Services) -> Iterator[Services]:
    """The parts of a second API process over the same Redis."""
    built = build(settings, notify=lambda m: None)
    yield built
    built.close()


def wizard(parts: Services) -> Created:
    made = parts.recorder.create("wizard", ["ann", "bob", "cy"], {"first_dealer": "ann"}, {})
    start = {"type": "start_round", "trump_card": "7H", "hands": HANDS}
    parts.recorder.act(made.match_id, made.token, start)
    return made


def bid(parts: Services, match_id: str, token: str, player: str) -> Any:
    return parts.recorder.act(match_id, token, {"type": "bid", "player": player, "tricks": 0})


def test_a_seat_revoked_in_one_process_is_refused_at_once_by_another(
    parts: Services, other: Services
) -> None:
    made = wizard(parts)
    bob = parts.seats.issue(made.match_id, made.token, "bob").token
    bid(other, made.match_id, bob, "bob")  # the other process now remembers bob's token
    parts.seats.revoke(made.match_id, made.token, "bob")
    with pytest.raises(Forbidden):
        other.recorder.undo(made.match_id, bob)
    with pytest.raises(Forbidden):  # and it stays refused, now read afresh
        other.recorder.undo(made.match_id, bob)
    assert other.store.version(made.match_id) == 3


def test_a_seat_issued_again_voids_its_old_token_in_every_process(parts: Services, other: Services) -> None:
    made = wizard(parts)
    old = parts.seats.issue(made.match_id, made.token, "bob").token
    bid(other, made.match_id, old, "bob")
    other.recorder.undo(made.match_id, old)
    other.recorder.redo(made.match_id, old)
    new = parts.seats.issue(made.match_id, made.token, "bob").token
    with pytest.raises(Forbidden):
        other.recorder.undo(made.match_id, old)
    other.recorder.undo(made.match_id, new)


def test_a_table_token_reset_in_one_process_is_refused_at_once_by_another(
    parts: Services, other: Services
) -> None:
    made = wizard(parts)
    bid(other, made.match_id, made.token, "bob")
    reset = parts.seats.reset(made.match_id)
    with pytest.raises(Forbidden):
        bid(other, made.match_id, made.token, "cy")
    assert other.store.version(made.match_id) == 3
    bid(parts, made.match_id, reset.token, "cy")
    # Recovered by the table in the other process: the reset token stops too.
    recovered = other.seats.recover(made.match_id, reset.recovery_code)
    with pytest.raises(Forbidden):
        bid(parts, made.match_id, reset.token, "ann")
    bid(parts, made.match_id, recovered.token, "ann")
    assert parts.store.version(made.match_id) == 5


def test_a_create_writes_the_recovery_code_s_digest_in_its_own_run(parts: Services) -> None:
    made = parts.recorder.create("wizard", ["ann", "bob", "cy"], {"first_dealer": "ann"}, {})
    assert set(parts.store.credentials(made.match_id)) == {"recovery"}
    assert parts.seats.recover(made.match_id, made.recovery_code).token


def test_a_write_with_a_remembered_token_sends_one_command_batch(
    parts: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = wizard(parts)
    bob = parts.seats.issue(made.match_id, made.token, "bob").token
    bid(parts, made.match_id, bob, "bob")
    sent = recorded_sends(parts.client, monkeypatch)
    # On one Redis a write is one round trip (docs/design.md): one batch, and for a write alone in
    # its process the projection that follows it, whose reply is skipped (nothing waits for it).
    # On a cluster the match's append is followed by the cross-match keys in their own slots (the
    # dirty set, the wake flag), so there the promise checked is the token's: a remembered token
    # reads no credentials.
    one_redis = getattr(parts.client, "connection_pool", None) is not None
    creds = parts.store.keys.credentials(made.match_id).encode()

    def batches() -> int:
        read = [c for c in sent if b"HGETALL" in c and creds in c]
        assert not read, read
        if one_redis:
            return len([c for c in sent if not c.startswith(SKIPPED)])
        return sum(b"EVALSHA" in command for command in sent)

    bid(parts, made.match_id, made.token, "cy")
    assert batches() == 1
    parts.recorder.undo(made.match_id, made.token)
    assert batches() == 2
    # A token this process has not met is read once (its credentials), then remembered.
    cy = parts.seats.issue(made.match_id, made.token, "cy").token
    sent.clear()
    bid(parts, made.match_id, cy, "cy")
    assert sum(b"HGETALL" in command for command in sent) == 1
    sent.clear()
    bid(parts, made.match_id, made.token, "ann")
    assert batches() == 1
    # A remembered seat's write too: its answer is shown as the seat sees it, without a read.
    start = {"type": "play", "player": "bob", "card": "KS"}
    parts.recorder.act(made.match_id, bob, start)
    assert batches() == 2


# What a batch whose reply is skipped begins with (``CLIENT REPLY SKIP``).
SKIPPED = b"*3\r\n$6\r\nCLIENT\r\n$5\r\nREPLY\r\n$4\r\nSKIP\r\n"


def recorded_sends(client: Any, monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every command batch the process sends from now on, each as one byte string."""
    sent: list[bytes] = []
    connection: Any = connection_class(client)
    counted = connection.send_packed_command

    def counting(self: Any, command: Any, check_health: bool = True) -> None:
        sent.append(command if isinstance(command, bytes) else b"".join(command))
        counted(self, command, check_health)

    monkeypatch.setattr(connection, "send_packed_command", counting)
    return sent


def test_a_process_s_first_write_to_a_match_reads_it_in_one_batch_before_appending(
    parts: Services, other: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = wizard(parts)
    bid(parts, made.match_id, made.token, "bob")
    parts.projector.project(made.match_id)
    sent = recorded_sends(other.client, monkeypatch)
    # A process that has met neither the match nor the token (after a restart, say): its header,
    # the credentials and the projection to decide on come in one batch, then the append.
    answer = bid(other, made.match_id, made.token, "cy")
    # (A new connection's own greeting, on a cluster, names no match.)
    mine = [batch for batch in sent if made.match_id.encode() in batch]
    assert [b"EVALSHA" in batch for batch in mine][:2] == [False, True], [b[:120] for b in mine]
    assert answer.version == parts.store.version(made.match_id) == 4
    # It decided on the newest step: the last bid follows in the same process, then the play.
    assert bid(other, made.match_id, made.token, "ann").version == 5
    play = {"type": "play", "player": "bob", "card": "KS"}
    assert parts.recorder.act(made.match_id, made.token, play).version == 6


def test_a_first_write_finding_the_projection_behind_decides_on_the_log_s_newest_step(
    parts: Services, other: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = wizard(parts)
    parts.projector.project(made.match_id)
    # Writes that do not carry their projection leave the stored one behind the log.
    monkeypatch.setattr(parts.recorder, "projector", None)
    bid(parts, made.match_id, made.token, "bob")
    bid(parts, made.match_id, made.token, "cy")
    assert parts.stored.checkpoint(made.match_id) == 2
    sent = recorded_sends(other.client, monkeypatch)
    # An undo is possible on either step: decided on the projection's, its append would conflict.
    answer = other.recorder.undo(made.match_id, made.token)
    assert sum(b"\r\nappend\r\n" in batch for batch in sent) == 1
    assert answer.version == 5 and answer.events[0].data["first"] == 4
    assert parts.store.version(made.match_id) == 5


@pytest.mark.parametrize("raw", ["{not json", "[]", '{"version": 3}'])
def test_a_first_write_finding_the_projection_unreadable_is_recorded_on_the_log_s_newest_step(
    parts: Services, other: Services, raw: str
) -> None:
    made = wizard(parts)
    bid(parts, made.match_id, made.token, "bob")
    parts.projector.project(made.match_id)
    parts.client.hset(parts.keys.proj(made.match_id), "env", raw)
    answer = bid(other, made.match_id, made.token, "cy")
    assert answer.version == parts.store.version(made.match_id) == 4
    assert bid(other, made.match_id, made.token, "ann").version == 5
    play = {"type": "play", "player": "bob", "card": "KS"}
    assert parts.recorder.act(made.match_id, made.token, play).version == 6


def connection_class(client: Any) -> type:
    """The class of the connections a client sends its commands on (on a cluster, every node's)."""
    pool = getattr(client, "connection_pool", None)
    if pool is None:
        pool = client.get_default_node().redis_connection.connection_pool
    connection = pool.get_connection()
    pool.release(connection)
    return type(connection)
