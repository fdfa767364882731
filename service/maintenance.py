"""Operator commands: `tabletape verify` and `tabletape rebuild`, with progress and a summary."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click
import redis

from events.keys import Keys
from events.store import EventStore
from projections.cache import ProjectionCache
from projections.projector import Projector
from projections.upcasting import game_upcasters
from projections.verify import Difference, Verifier
from service.config import Settings


def verifier_for(settings: Settings) -> Verifier:
    """A verifier over the configured Redis and key prefix."""
    client = redis.Redis.from_url(settings.redis_url, socket_timeout=30, socket_connect_timeout=5)
    keys = Keys(settings.prefix)
    store = EventStore(client, keys, game_upcasters())
    return Verifier(store, ProjectionCache(client, keys), settings.snapshot_every)


def _progress(ids: Iterable[str], total: int, label: str) -> Any:
    return click.progressbar(ids, length=total, label=label, file=click.get_text_stream("stderr"))


def _chosen(verifier: Verifier, match_ids: tuple[str, ...]) -> tuple[Iterable[str], int]:
    if match_ids:
        return match_ids, len(match_ids)
    return verifier.match_ids(), verifier.count()


def verify(settings: Settings, match_ids: tuple[str, ...]) -> int:
    """Check every match's projection against its log; print each difference; 1 when any."""
    verifier = verifier_for(settings)
    ids, total = _chosen(verifier, match_ids)
    differences: list[Difference] = []
    checked = 0
    with _progress(ids, total, "verifying") as bar:
        for match_id in bar:
            differences += verifier.check(match_id)
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
    verifier = verifier_for(settings)
    projector = Projector(verifier.store, verifier.cache, settings.snapshot_every)
    ids, total = _chosen(verifier, match_ids)
    rebuilt = steps = 0
    with _progress(ids, total, "rebuilding") as bar:
        for match_id in bar:
            if only_different and not verifier.check(match_id):
                continue
            steps += verifier.rebuild(match_id, projector).checkpoint
            rebuilt += 1
    click.echo(f"rebuilt {rebuilt} of {total} matches ({steps} steps folded)")
    return 0
