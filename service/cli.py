"""The `tabletape` command: serve, worker, openapi."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import click

from service.config import Settings


def _output_option(help: str) -> Any:
    """The ``--output``/``-o`` option of a command that writes a file (``-``: standard output)."""
    return click.option(
        "--output", "-o", default="-", type=click.Path(dir_okay=False, allow_dash=True), help=help
    )


@click.group()
def main() -> None:
    """tabletape: record table games one validated action at a time, and play them back."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--data-dir",
    default="./var",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where the embedded Redis keeps its files (used when REDIS_URL is not set).",
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
    from werkzeug.serving import make_server

    from service.app import create_app
    from service.embedded import EmbeddedRedis

    embedded = None
    url = os.environ.get("REDIS_URL")
    if not url:
        embedded = EmbeddedRedis(data_dir)
        url = embedded.start()
        click.echo(f"embedded Redis at {url} (data in {Path(data_dir).resolve()})")
    env = dict(os.environ, REDIS_URL=url)
    workers = [
        subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env)
        for _ in range(worker_count)
    ]
    server = make_server(host, port, create_app(Settings.from_env(env)), threaded=True)
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    click.echo(f"tabletape listening on http://{host}:{server.port} ({worker_count} worker(s))")
    try:
        server.serve_forever()
    finally:
        for proc in workers:
            proc.send_signal(signal.SIGTERM)
        for proc in workers:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if embedded is not None:
            embedded.stop()
        click.echo("tabletape stopped")


@main.command()
@click.option("--burst", is_flag=True, help="Work until the queue is empty, then stop.")
@click.option(
    "--sweep-every",
    default=2.0,
    show_default=True,
    type=float,
    help="Seconds between sweeps for matches whose projection lags their log.",
)
def worker(burst: bool, sweep_every: float) -> None:
    """Run an RQ worker that keeps projections up to date (REDIS_URL, TABLETAPE_PREFIX)."""
    from service.bootstrap import worker_wiring
    from workers.main import run_worker

    wiring = worker_wiring(Settings.from_env())
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
@_output_option("Where to write the OpenAPI document (YAML); - for standard output.")
def openapi(output: str) -> None:
    """Write the OpenAPI document generated from the code."""
    from service.openapi import spec_yaml

    text = spec_yaml()
    if output == "-":
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")


@main.command(name="verify")
@click.argument("match_ids", nargs=-1)
def verify_command(match_ids: tuple[str, ...]) -> None:
    """Fold every match's log afresh and list each projection that differs; exit 1 when any does."""
    from service.maintenance import verify

    sys.exit(verify(Settings.from_env(), match_ids))


@main.command(name="rebuild")
@click.argument("match_ids", nargs=-1)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Rebuild every match, not only those whose projection differs from its log.",
)
def rebuild_command(match_ids: tuple[str, ...], everything: bool) -> None:
    """Project matches again from their logs (by default those `verify` finds different)."""
    from service.maintenance import rebuild

    sys.exit(rebuild(Settings.from_env(), match_ids, only_different=not everything))


@main.command(name="export")
@click.argument("match_id")
@_output_option("Where to write the export; - for standard output.")
@click.option(
    "--format",
    "form",
    default="ndjson",
    show_default=True,
    type=click.Choice(["ndjson", "bgstats"]),
    help="ndjson: the whole log (header first); bgstats: a finished match as a BG Stats play.",
)
def export_command(match_id: str, output: str, form: str) -> None:
    """Write a match's log as NDJSON (REDIS_URL, TABLETAPE_PREFIX)."""
    from service.match_files import export_match

    with click.open_file(output, "w", encoding="utf-8") as out:
        status = export_match(Settings.from_env(), match_id, out, form)
    sys.exit(status)


@main.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def import_command(file: str) -> None:
    """Create a match from an NDJSON export, every action checked by the rules; - reads stdin."""
    from service.match_files import import_file

    sys.exit(import_file(Settings.from_env(), file))


if __name__ == "__main__":
    main()
