"""A write carries the projection it leaves: on one Redis it moves in with the append when the
stored projection was caught up, and otherwise the workers project the match as before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import events.store
import service.recording.recorder
from events.codec import as_text
from events.envelope import CarriedProjection, NewEvent
from events.errors import VersionConflict
from events.extras import AppendExtras
from games.registry import get_game
from projections.positions.rewind import Positions
from service.bootstrap import Services
from service.recording.answers import Created
from tests.recording import assert_agrees_with_its_log

WIZARD = get_game("wizard")


@pytest.fixture(autouse=True, params=["following-the-append", "among-the-arguments", "staged-in-a-hash"])
def carrying(parts: Services, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Each write here carries its projection, whatever the one before found: alone in its
    process, sent right behind the append; with another request under way there, in the append's
    own send, among the script's arguments, as a small one goes, or staged in a hash beside it,
    as a large one does."""
    monkeypatch.setattr(service.recording.recorder, "CARRY_PAUSE", 0.0)
    if request.param != "following-the-append":
        busy(parts, monkeypatch)
    if request.param == "staged-in-a-hash":
        monkeypatch.setattr(events.store, "CARRY_INLINE_BYTES", 0)


def busy(parts: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each write here made as an HTTP server makes it, with another request under way in its
    process, from now to the test's end (``Recorder.requests``: the write's own and another)."""
    monkeypatch.setitem(parts.recorder.requests, -1, None)
    monkeypatch.setitem(parts.recorder.requests, -2, None)


def started(parts: Services, projected: bool = True) -> tuple[Created, Iterator[dict[str, object]]]:
    """A Wizard match (projected once, as a worker would have, unless not ``projected``) and the
    rest of its example's actions."""
    script = WIZARD.example(3)
    made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    if projected:
        parts.projector.project(made.match_id)
    return made, iter(script["actions"])


def act_off_snapshot(parts: Services, made: Created, actions: Iterator[dict[str, object]]) -> int:
    """Bring the projection up (as a worker would), send the next action, and again until one
    ends off a snapshot's step; that one's version."""
    every = parts.settings.snapshot_every
    while True:
        parts.projector.project(made.match_id)
        before = parts.store.version(made.match_id)
        answer = parts.recorder.act(made.match_id, made.token, next(actions))
        if answer.version // every == before // every:
            return answer.version


def dirty(parts: Services, match_id: str) -> bool:
    return bool(parts.store.marks.marked(match_id))


# What a match keeps in its own slot: anything else a write leaves there is litter.
MATCH_KEYS = ("meta", "log", "idem", "credentials", "proj", "snap", "lease")


def strays(parts: Services, match_id: str) -> list[str]:
    """The keys in the match's slot that are none of a match's own."""
    own = {getattr(parts.keys, kind)(match_id) for kind in MATCH_KEYS}
    slot = parts.keys.meta(match_id).removesuffix("meta")
    found = {as_text(k) for k in parts.client.scan_iter(match=slot + "*")}
    return sorted(found - own)


def test_a_write_on_a_caught_up_match_leaves_its_projection_current_without_a_worker(parts: Services) -> None:
    made, actions = started(parts)
    version = act_off_snapshot(parts, made, actions)
    board = parts.queries.scoreboard(made.match_id)
    if not parts.store.projects:
        # A cluster keeps the dirty set in another slot: its writes leave the projection to the workers.
        assert dirty(parts, made.match_id) and board["version"] < version
        parts.projector.project(made.match_id)
        assert_agrees_with_its_log(parts, made.match_id)
        return
    assert parts.stored.checkpoint(made.match_id) == version
    assert board["projected"] and board["version"] == board["log_version"] == version
    assert strays(parts, made.match_id) == []
    # What the write moved in is what a projection run of the log writes.
    assert_agrees_with_its_log(parts, made.match_id)
    # Not marked: the write published its steps to the feed itself, and a pass finds nothing to do.
    assert not dirty(parts, made.match_id)
    assert parts.projector.project(made.match_id).folded == 0


def test_a_write_whose_projection_is_behind_leaves_the_match_to_the_workers(parts: Services) -> None:
    made, actions = started(parts, projected=False)
    answer = parts.recorder.act(made.match_id, made.token, next(actions))
    assert parts.stored.checkpoint(made.match_id) == 0
    assert dirty(parts, made.match_id)
    assert strays(parts, made.match_id) == []
    assert parts.projector.project(made.match_id).checkpoint == answer.version
    assert not dirty(parts, made.match_id)
    assert_agrees_with_its_log(parts, made.match_id)


def test_a_write_onto_a_snapshot_step_leaves_the_snapshot_to_the_workers(parts: Services) -> None:
    made, actions = started(parts)
    every = parts.settings.snapshot_every
    while True:
        before = parts.store.version(made.match_id)
        answer = parts.recorder.act(made.match_id, made.token, next(actions))
        if answer.version // every > before // every:
            break
        parts.projector.project(made.match_id)
    assert parts.stored.checkpoint(made.match_id) == before
    assert dirty(parts, made.match_id)
    parts.projector.project(made.match_id)
    step = answer.version // every * every
    assert parts.stored.nearest_snapshot(made.match_id, step)["version"] == step  # type: ignore[index]
    assert_agrees_with_its_log(parts, made.match_id)


def test_a_refused_or_repeated_write_leaves_nothing_stray_behind(parts: Services) -> None:
    made, actions = started(parts)
    act_off_snapshot(parts, made, actions)
    action = next(actions)
    first = parts.recorder.act(made.match_id, made.token, action, idempotency_key="k-1")
    again = parts.recorder.act(made.match_id, made.token, action, idempotency_key="k-1")
    assert again.duplicate and again.version == first.version
    assert strays(parts, made.match_id) == []
    # Another process decided on an older position: its append is refused (a version conflict),
    # then decided again on the newer one and written.
    elsewhere = Positions(parts.store, parts.stored)
    other = service.recording.recorder.Recorder(
        parts.store, elsewhere, lambda m: None, projector=parts.projector
    )
    other.positions.current(WIZARD, made.match_id)
    parts.recorder.act(made.match_id, made.token, next(actions))
    late = other.act(made.match_id, made.token, next(actions))
    assert late.version == parts.store.version(made.match_id)
    assert strays(parts, made.match_id) == []
    parts.projector.project(made.match_id)
    assert_agrees_with_its_log(parts, made.match_id)


def test_the_write_that_ends_a_match_leaves_its_statistics_to_the_workers(parts: Services) -> None:
    script = WIZARD.example(3)
    made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    parts.projector.project(made.match_id)
    for action in script["actions"]:
        answer = parts.recorder.act(made.match_id, made.token, action)
        if not answer.state.get("finished") and parts.stored.checkpoint(made.match_id) != answer.version:
            parts.projector.project(made.match_id)  # a snapshot's step, as a worker projects it
    assert answer.state["finished"]
    # The last write changed what the read models say (the match is over): it moved nothing in.
    assert dirty(parts, made.match_id)
    playing = parts.statistics.player(script["players"][0])
    assert playing is not None and playing["matches"] == 0 and playing["in_progress"] == 1
    parts.projector.project(made.match_id)
    done = parts.statistics.player(script["players"][0])
    assert done is not None and done["matches"] == 1 and done["in_progress"] == 0
    assert_agrees_with_its_log(parts, made.match_id)


def test_a_write_that_lands_during_a_projection_run_wins_and_the_run_finishes_after(parts: Services) -> None:
    made, actions = started(parts)
    act_off_snapshot(parts, made, actions)
    parts.store.marks.mark([made.match_id])  # as the full sweep marks a match
    projector = parts.projector
    runs = projector._take([made.match_id], None)
    version = act_off_snapshot(parts, made, actions)
    for run in runs:
        projector._fold(run)
    projector._write(runs, None, "racing-run")
    projector._finish(runs, None, "racing-run")
    projector.project_many([made.match_id])
    assert parts.stored.checkpoint(made.match_id) == version
    assert not dirty(parts, made.match_id)
    assert_agrees_with_its_log(parts, made.match_id)


def test_a_write_that_finds_the_projection_behind_carries_none_for_a_moment(
    parts: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service.recording.recorder, "CARRY_PAUSE", 0.05)
    # Only a write that carries its projection in its own send learns whether it moved in.
    busy(parts, monkeypatch)
    now = [100.0]
    monkeypatch.setattr(service.recording.recorder, "monotonic", lambda: now[0])
    made, actions = started(parts, projected=False)
    parts.recorder.act(made.match_id, made.token, next(actions))
    parts.projector.project(made.match_id)
    # Within the pause a write carries nothing, though the workers have caught up meanwhile.
    paused = parts.recorder.act(made.match_id, made.token, next(actions))
    assert parts.stored.checkpoint(made.match_id) < paused.version
    assert dirty(parts, made.match_id)
    parts.projector.project(made.match_id)
    now[0] += 0.06
    version = act_off_snapshot(parts, made, actions)
    # After it a write carries its projection again (on a cluster none ever does).
    assert (parts.stored.checkpoint(made.match_id) == version) is parts.store.projects


def sends(parts: Services, monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every command batch the recorder's store sends from now on, each as one byte string."""
    sent: list[bytes] = []
    connection = parts.client.connection_pool.connection_class
    send = connection.send_packed_command

    def recording(self: object, command: object, check_health: bool = True) -> None:
        sent.append(command if isinstance(command, bytes) else b"".join(command))  # type: ignore[arg-type]
        send(self, command, check_health)  # type: ignore[arg-type]

    monkeypatch.setattr(connection, "send_packed_command", recording)
    return sent


# What a batch whose reply is skipped begins with (``CLIENT REPLY SKIP``).
SKIPPED = b"*3\r\n$6\r\nCLIENT\r\n$5\r\nREPLY\r\n$4\r\nSKIP\r\n"


@pytest.mark.one_redis
def test_a_write_alone_sends_its_projection_behind_the_append_and_a_busy_one_in_its_own_send(
    parts: Services, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    made, actions = started(parts)
    act_off_snapshot(parts, made, actions)
    parts.projector.project(made.match_id)
    sent = sends(parts, monkeypatch)
    answer = parts.recorder.act(made.match_id, made.token, next(actions))
    appends = [batch for batch in sent if b"\r\nappend\r\n" in batch]
    follows = [batch for batch in sent if batch.startswith(SKIPPED)]
    assert len(appends) == 1
    if request.node.callspec.params["carrying"] == "following-the-append":
        # Behind the append, on its connection, with nothing to read back: the op "carry".
        assert len(follows) == 1 and b"\r\ncarry\r\n" in follows[0] and len(sent) == 2
    else:
        assert follows == [] and len(sent) == 1
    # Either way the projection is the write's once the answer is in.
    assert parts.stored.checkpoint(made.match_id) == answer.version
    assert not dirty(parts, made.match_id)
    assert_agrees_with_its_log(parts, made.match_id)


@pytest.mark.one_redis
def test_a_projection_that_follows_its_append_moves_in_behind_a_later_batch_and_leaves_that_one_marked(
    parts: Services,
) -> None:
    """Another writer's batch reaches Redis between an append and the projection behind it: the
    projection still moves in (it was the next one's), and the later batch stays the workers'."""
    parts.recorder.requests.clear()  # the first write alone in its process: its projection follows
    made, actions = started(parts)
    act_off_snapshot(parts, made, actions)
    parts.projector.project(made.match_id)
    store, match_id = parts.store, made.match_id
    later: list[object] = []
    real = store._send.run

    def run_with_a_later_batch(*args: object, **kwargs: object) -> object:
        then = args[5] if len(args) > 5 else None
        if then is None:
            return real(*args, **kwargs)  # type: ignore[arg-type]

        def another_batch_first() -> bytes | None:
            packed = then()  # type: ignore[operator]
            # Sent by another writer on another connection, after the append, before this.
            later.append(parts.recorder.act(match_id, made.token, next(actions)))
            return packed

        return real(*args[:5], another_batch_first, **kwargs)  # type: ignore[arg-type]

    store._send.run = run_with_a_later_batch  # type: ignore[method-assign]
    try:
        first = parts.recorder.act(match_id, made.token, next(actions))
    finally:
        del store._send.run
    assert len(later) == 1 and later[0].version == first.version + len(later[0].events)  # type: ignore[attr-defined]
    assert parts.stored.checkpoint(match_id) == first.version
    assert dirty(parts, match_id)
    parts.projector.project(match_id)
    assert parts.stored.checkpoint(match_id) == store.version(match_id)
    assert not dirty(parts, match_id)
    assert_agrees_with_its_log(parts, match_id)


@pytest.mark.one_redis
def test_the_projection_behind_a_refused_append_moves_nothing_in(parts: Services) -> None:
    """An append refused (another writer took its step first) still has its projection sent
    behind it: that projection is of a batch the log does not hold, and must not move in, even
    where the stored projection is at the step the refused append followed."""
    made, actions = started(parts)
    act_off_snapshot(parts, made, actions)
    parts.projector.project(made.match_id)
    match_id, store = made.match_id, parts.store
    before = store.version(match_id)
    stored = parts.client.hgetall(parts.keys.proj(match_id))
    # The other writer's batch: marked for the workers, so the stored projection stays at ``before``.
    projector, parts.recorder.projector = parts.recorder.projector, None
    try:
        parts.recorder.act(match_id, made.token, next(actions))
    finally:
        parts.recorder.projector = projector
    impostor = CarriedProjection(as_text(stored[b"models"]), b'{"not": "this match"}', "{}", None)
    meta = {"action": {"type": "bid"}, "by": "nobody", "id": "refused-0"}
    extras = AppendExtras(meanwhile=lambda: None, follow=lambda: impostor)
    with pytest.raises(VersionConflict):
        store.append(match_id, [NewEvent("Impostor", {}, meta)], expected_version=before, extras=extras)
    parts.client.ping()  # after the projection behind the refused append
    assert parts.client.hgetall(parts.keys.proj(match_id)) == stored
    parts.projector.project(match_id)
    assert_agrees_with_its_log(parts, match_id)
