"""The `tabletape` command: serve, worker, openapi, verify, rebuild, export, import, token reset.

Every command that reads the store takes --data-dir and, with REDIS_URL unset, uses the embedded
store of the `tabletape serve` running there (service.run.datadir); each says on stderr which store it
uses. Failures end in one line on stderr and an exit code (service.cli.support lists them).
"""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

import click

from games.contract import N_, Message
from service.cli.support import DATA_DIR, PROBLEMS, Commands, progress, settings_for, spoken


@click.group(cls=Commands)
def main() -> None:
    """tabletape: record table games one validated action at a time, and play them back."""
    from service.http.request_log import configure

    configure(json_logs=os.environ.get("TABLETAPE_LOG_FORMAT", "").strip().lower() == "json")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--data-dir",
    default="./var",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where the embedded Redis keeps its files (without REDIS_URL); one serve at a time.",
)
@click.option(
    "--workers",
    "worker_count",
    default=1,
    show_default=True,
    type=int,
    help="RQ worker processes to start beside the API.",
)
def serve(host: str, port: int, data_dir: str, worker_count: int) -> None:
    """Run the API, RQ workers and (without REDIS_URL) an embedded Redis, until Ctrl-C or SIGTERM."""
    from service.run.serve import serve as run

    run(host, port, data_dir, worker_count)


@main.command()
@DATA_DIR
@click.option("--burst", is_flag=True, help="Work until the queue is empty, then stop.")
@click.option(
    "--sweep-every",
    default=2.0,
    show_default=True,
    type=float,
    help="Seconds between sweeps for matches whose projection lags their log.",
)
def worker(data_dir: str, burst: bool, sweep_every: float) -> None:
    """Run an RQ worker that keeps projections up to date (REDIS_URL, TABLETAPE_PREFIX)."""
    from service.bootstrap import worker_wiring
    from workers.main import run_worker

    wiring = worker_wiring(settings_for(data_dir))
    run_worker(
        wiring.connect,
        wiring.connect_sweep,
        wiring.connect_store,
        wiring.keys,
        wiring.snapshot_every,
        sweep_every,
        burst,
    )


@main.command()
@click.option(
    "--output",
    "-o",
    default="-",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Where to write the OpenAPI document (YAML); - for standard output.",
)
def openapi(output: str) -> None:
    """Write the OpenAPI document generated from the code (it reads no store)."""
    from service.api.openapi import spec_yaml

    text = spec_yaml()
    if output == "-":
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")


@main.command(name="verify")
@DATA_DIR
@click.argument("match_ids", nargs=-1)
def verify_command(data_dir: str, match_ids: tuple[str, ...]) -> None:
    """Fold every match's log afresh and list each projection that differs; exit 1 when any does."""
    from service.cli.maintenance import verify

    sys.exit(verify(settings_for(data_dir), match_ids))


@main.command(name="rebuild")
@DATA_DIR
@click.argument("match_ids", nargs=-1)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Rebuild every match, not only those whose projection differs from its log.",
)
def rebuild_command(data_dir: str, match_ids: tuple[str, ...], everything: bool) -> None:
    """Project matches again from their logs (by default those `verify` finds different)."""
    from service.cli.maintenance import rebuild

    sys.exit(rebuild(settings_for(data_dir), match_ids, only_different=not everything))


@main.command(name="export")
@DATA_DIR
@click.argument("match_ids", nargs=-1)
@click.option("--all", "everything", is_flag=True, help="Every match.")
@click.option("--game", help="Only matches of this game (e.g. wizard).")
@click.option("--player", help="Only matches this player sat in.")
@click.option("--status", type=click.Choice(["in_progress", "finished"]), help="Only matches in this state.")
@click.option("--since", type=click.DateTime(), help="Only matches created at or after (local time).")
@click.option("--until", type=click.DateTime(), help="Only matches created at or before (local time).")
@click.option(
    "--output",
    "-o",
    default="-",
    type=click.Path(allow_dash=True),
    help="A folder (a file per match: a name ending in /, or any name but a file's when several "
    "matches go out), a file (one stream: e.g. all.ndjson), or -.",
)
@click.option(
    "--format",
    "form",
    default="ndjson",
    show_default=True,
    type=click.Choice(["ndjson", "bgstats", "bgstats-link"]),
    help="ndjson: whole logs (each header first); bgstats: BG Stats' export file of the finished "
    "matches; bgstats-link: a BG Stats createPlay URL per finished match.",
)
def export_command(
    data_dir: str,
    match_ids: tuple[str, ...],
    everything: bool,
    game: str | None,
    player: str | None,
    status: str | None,
    since: datetime | None,
    until: datetime | None,
    output: str,
    form: str,
) -> None:
    """Export matches: those named, or every match the filters choose."""
    from service.bootstrap import build
    from service.cli import bulk

    selection = bulk.Selection(match_ids, everything, game, player, status, since, until)
    parts = build(settings_for(data_dir))
    try:
        ids = bulk.chosen(parts, selection)
        if form == "ndjson":
            done = bulk.export_ndjson(parts, ids, output)
            for match_id, why in done.skipped:
                click.echo(
                    spoken(Message("tabletape: stepped over {match_id}: {why}", match_id=match_id, why=why)),
                    err=True,
                )
            exported = Message(
                "exported {done} of {count} matches ({events} events) to {output}",
                done=done.matches,
                count=len(ids),
                events=done.events,
                output=output,
            )
            if done.skipped:
                exported = Message("{said}; stepped over {count}", said=exported, count=len(done.skipped))
            click.echo(spoken(exported), err=True)
            if done.skipped:
                sys.exit(PROBLEMS)
        else:
            plays = bulk.export_bgstats(parts, ids, output, link=form == "bgstats-link")
            bgstats = Message(
                "exported {count} finished matches as BG Stats plays to {output}", count=plays, output=output
            )
            click.echo(spoken(bgstats), err=True)
    finally:
        parts.close()


@main.command(name="import")
@DATA_DIR
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--copy",
    is_flag=True,
    help="Make a copy of a match even when the store already holds its log (by default such a "
    "match is named and not imported again).",
)
def import_command(data_dir: str, files: tuple[str, ...], copy: bool) -> None:
    """Create matches from NDJSON exports (files, folders, or - for stdin), every action checked."""
    from service.bootstrap import build
    from service.cli import bulk

    chunks = bulk.read_chunks(files)
    parts = build(settings_for(data_dir))
    try:
        outcomes = [
            bulk.import_reported(parts.recorder, chunk, copy)
            for chunk in progress(chunks, len(chunks), N_("importing"))
        ]
    finally:
        parts.close()
    sources = len({chunk.source for chunk in chunks})
    made, held = outcomes.count(bulk.MADE), outcomes.count(bulk.HELD)
    imported = Message(
        "imported {made} of {count} matches from {sources} file(s)",
        made=made,
        count=len(chunks),
        sources=sources,
    )
    if held:
        imported = Message("{said}; {held} already held", said=imported, held=held)
    click.echo(spoken(imported), err=True)
    sys.exit(PROBLEMS if made + held < len(chunks) else 0)


@main.group(name="token", cls=Commands)
def token_group() -> None:
    """A match's table token: reset a lost one."""


@token_group.command(name="reset")
@DATA_DIR
@click.argument("match_id")
def token_reset(data_dir: str, match_id: str) -> None:
    """Give a match a new table token (printed last) and recovery code; the old ones stop working."""
    from service.cli.maintenance import reset_token

    reset_token(settings_for(data_dir), match_id)


if __name__ == "__main__":
    main()
