"""How far behind the projections are, as /healthz and /metrics tell it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from projections.projecting.lag import LagWatch
from service.bootstrap import Services

PLAYERS = ["ann", "bob", "cy"]


def create_at(parts: Services, when: datetime) -> str:
    """A Wizard match whose creation is recorded at ``when`` and not yet projected."""
    parts.recorder.clock = lambda: when
    return parts.recorder.create("wizard", PLAYERS, {"first_dealer": "ann"}, {}).match_id


def test_nothing_lags_while_every_projection_is_caught_up(parts: Services) -> None:
    made = create_at(parts, datetime.now(UTC))
    parts.projector.project(made)
    assert LagWatch().lag(parts.client, parts.keys, datetime.now(UTC)) == 0.0


def test_a_match_waiting_for_its_projection_lags_by_the_time_since_its_write(parts: Services) -> None:
    now = datetime.now(UTC)
    create_at(parts, now)
    watch = LagWatch()
    assert watch.lag(parts.client, parts.keys, now) < 1
    assert 89 < watch.lag(parts.client, parts.keys, now + timedelta(seconds=90)) <= 90


def test_a_copied_match_with_its_origin_s_old_times_does_not_read_as_lagging_when_it_arrives(
    parts: Services,
) -> None:
    now = datetime.now(UTC)
    create_at(parts, now - timedelta(days=300))  # an import keeps the times it was recorded at
    watch = LagWatch()
    assert watch.lag(parts.client, parts.keys, now) == 0.0
    assert watch.lag(parts.client, parts.keys, now + timedelta(seconds=5)) == 5.0
