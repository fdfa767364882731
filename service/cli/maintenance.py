"""Operator commands: `tabletape verify` and `tabletape rebuild`, with progress and a summary.

Both step over what they cannot read (a log a rule no longer folds, a damaged header, a registry
entry without a match): each such match is one line of the report, the others are still checked,
and the summary is printed whatever happened. Both also find matches the registry misses (a
process lost between a match's creation and its registration): verify lists them, rebuild
registers them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import click
import redis

from events.defaults import MAINTENANCE_REDIS_TIMEOUT
from events.errors import UnknownMatch
from games.contract import N_, Message
from projections.projecting.rebuild import rebuild_match
from projections.projecting.verify import Difference
from service.bootstrap import Services, build
from service.cli.support import progress, spoken
from service.config import Settings

UNLISTED = "the match exists but the match list does not show it"
GHOST = "listed, but there is no such match (no header, no log)"


def verify(settings: Settings, match_ids: tuple[str, ...]) -> int:
    """Check every match's projection against its log; print each difference; 1 when any."""
    parts = _parts(settings)
    differences: list[Difference] = []
    checked = unreadable = 0
    for match_id, listed in progress(*_chosen(parts, match_ids), N_("verifying")):
        checked += 1
        if not listed:
            differences.append(Difference(match_id, "registry", UNLISTED))
        try:
            differences += parts.verifier.check(match_id)
        except UnknownMatch:
            differences.append(Difference(match_id, "registry", GHOST))
        except (redis.ConnectionError, redis.TimeoutError):
            raise
        except Exception as exc:  # noqa: BLE001 - one unreadable match must not stop the check
            unreadable += 1
            differences.append(Difference(match_id, "unreadable", _why(exc)))
    for difference in differences:
        click.echo(str(difference))
    matches = len({d.match_id for d in differences})
    verified = Message(
        "verified {checked} matches: {matches} with differences, {differences} differences in all "
        "({unreadable} unreadable)",
        checked=checked,
        matches=matches,
        differences=len(differences),
        unreadable=unreadable,
    )
    click.echo(spoken(verified))
    if differences:
        click.echo(spoken(Message("run `tabletape rebuild` to project them again from their logs")))
    return 1 if differences else 0


def rebuild(settings: Settings, match_ids: tuple[str, ...], only_different: bool) -> int:
    """Project matches again from their logs (all, or only those verify finds different)."""
    parts = _parts(settings)
    ids, total = _chosen(parts, match_ids)
    rebuilt = steps = registered = dropped = 0
    failed: list[Difference] = []
    for match_id, listed in progress(ids, total, N_("rebuilding")):
        try:
            if not parts.store.exists(match_id):
                parts.store.unregister(match_id)
                dropped += 1
                continue
            if not listed:
                parts.store.register(match_id, int(parts.store.header(match_id).get("created_ms", 0)))
                registered += 1
            if only_different and listed and not parts.verifier.check(match_id):
                continue
            done = rebuild_match(parts.projector, match_id)
        except (redis.ConnectionError, redis.TimeoutError):
            raise
        except Exception as exc:  # noqa: BLE001 - one unreadable match must not stop the rest
            failed.append(Difference(match_id, "unreadable", _why(exc)))
            continue
        steps += done.checkpoint if done is not None else 0
        rebuilt += 1
    for difference in failed:
        click.echo(spoken(Message("{difference} (left as it was)", difference=str(difference))))
    summary = Message(
        "rebuilt {rebuilt} of {total} matches ({steps} steps folded); {registered} registered, "
        "{dropped} registry entries without a match dropped, {unreadable} unreadable",
        rebuilt=rebuilt,
        total=total,
        steps=steps,
        registered=registered,
        dropped=dropped,
        unreadable=len(failed),
    )
    click.echo(spoken(summary))
    return 1 if failed else 0


def reset_token(settings: Settings, match_id: str) -> None:
    """Replace a match's table token and recovery code; print both, the token as the last word."""
    parts = _parts(settings)
    try:
        new = parts.seats.reset(match_id)
    finally:
        parts.close()
    click.echo(spoken(Message("recovery code (shown once): {code}", code=new.recovery_code)))
    # The token stays the line's last word in every language (scripts take it from there).
    replaced = Message(
        "the old table token of {match_id} no longer works; its new table token: {token}",
        match_id=match_id,
        token=new.token,
    )
    click.echo(spoken(replaced))


def _parts(settings: Settings) -> Services:
    # Nothing here records a write, so no projection job is ever asked for.
    patient = dataclasses.replace(settings, redis_timeout=MAINTENANCE_REDIS_TIMEOUT)
    return build(patient, notify=lambda match_id: None)


def _chosen(parts: Services, match_ids: tuple[str, ...]) -> tuple[Iterator[tuple[str, bool]], int]:
    """(match id, listed in the registry) of the matches named, else of every match there is."""
    store = parts.store
    if match_ids:
        return ((m, store.registry.score(m) is not None) for m in match_ids), len(match_ids)
    unlisted = list(store.unregistered())

    def every() -> Iterator[tuple[str, bool]]:
        for match_id in store.all_ids():
            yield match_id, True
        for match_id in unlisted:
            yield match_id, False

    return every(), store.count() + len(unlisted)


def _why(error: Exception) -> str:
    text = str(error) or type(error).__name__
    return f"{type(error).__name__}: {text[:200]}"
