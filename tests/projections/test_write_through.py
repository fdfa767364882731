"""A write carries the projection it leaves: on one Redis it moves in with the append when the
stored projection was caught up, and otherwise the workers project the match as before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import events.store
import service.recording.recorder
from events.codec import as_text
from games.registry import get_game
from projections.positions.rewind import Positions
from service.bootstrap import Services
from service.recording.answers import Created
from tests.recording import assert_agrees_with_its_log

WIZARD = get_game("wizard")


@pytest.fixture(autouse=True, params=["among-the-arguments", "staged-in-a-hash"])
def carrying(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Each write here carries its projection, whatever the one before found: among the append
    script's arguments, as a small one goes, or staged in a hash beside it, as a large one does."""
    monkeypatch.setattr(service.recording.recorder, "CARRY_PAUSE", 0.0)
    if request.param == "staged-in-a-hash":
        monkeypatch.setattr(events.store, "CARRY_INLINE_BYTES", 0)


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
