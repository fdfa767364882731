"""Operator commands: `tabletape verify` and `tabletape rebuild`, with progress and a summary."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import click

from projections.rebuild import rebuild_match
from projections.verify import Difference
from service.bootstrap import Services, build
from service.cli_support import progress
from service.config import Settings

# Checking a long log is one long read; a command may wait longer for Redis than a request.
REDIS_TIMEOUT = 30.0


def verify(settings: Settings, match_ids: tuple[str, ...]) -> int:
    """Check every match's projection against its log; print each difference; 1 when any."""
    parts = _parts(settings)
    ids, total = _chosen(parts, match_ids)
    differences: list[Difference] = []
    checked = 0
    for match_id in progress(ids, total, "verifying"):
        differences += parts.verifier.check(match_id)
        checked += 1
    for difference in differences:
        click.echo(str(difference))
    matches = len({d.match_id for d in differences})
    click.echo(
        f"verified {checked} matches: {matches} with differences, {len(differences)} differences in all"
    )
    if differences:
        click.echo("run `tabletape rebuild` to project them again from their logs")
    return 1 if differences else 0


def rebuild(settings: Settings, match_ids: tuple[str, ...], only_different: bool) -> int:
    """Project matches again from their logs (all, or only those verify finds different)."""
    parts = _parts(settings)
    ids, total = _chosen(parts, match_ids)
    rebuilt = steps = 0
    for match_id in progress(ids, total, "rebuilding"):
        if only_different and not parts.verifier.check(match_id):
            continue
        done = rebuild_match(parts.projector, match_id)
        steps += done.checkpoint if done is not None else 0
        rebuilt += 1
    click.echo(f"rebuilt {rebuilt} of {total} matches ({steps} steps folded)")
    return 0


def _parts(settings: Settings) -> Services:
    # Nothing here records a write, so no projection job is ever asked for.
    return build(dataclasses.replace(settings, redis_timeout=REDIS_TIMEOUT), notify=lambda match_id: None)


def _chosen(parts: Services, match_ids: tuple[str, ...]) -> tuple[Iterable[str], int]:
    if match_ids:
        return match_ids, len(match_ids)
    return parts.store.all_ids(), parts.store.count()
