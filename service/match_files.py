"""`tabletape export` and `tabletape import`: a match to a file and back, nothing held back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

import click

from events.errors import UnknownMatch
from projections.bgstats import bgstats_play
from projections.export import export_lines
from projections.importing import ImportRefused
from service.bootstrap import build
from service.config import Settings


def export_match(settings: Settings, match_id: str, out: TextIO, form: str = "ndjson") -> int:
    """Write a match's export to ``out``; the exit status (0 done, 1 refused)."""
    parts = build(settings)
    try:
        if form == "bgstats":
            play = bgstats_play(parts.reader, match_id)
            if play is None:
                click.echo(f"match {match_id} is not finished; only a finished match is a play", err=True)
                return 1
            out.write(json.dumps(play, indent=2) + "\n")
            return 0
        written = 0
        for line in export_lines(parts.store, match_id):
            out.write(line)
            written += 1
        click.echo(f"exported match {match_id}: {written - 1} events", err=True)
        return 0
    except UnknownMatch as missing:
        click.echo(str(missing), err=True)
        return 1
    finally:
        parts.close()


def import_file(settings: Settings, path: str) -> int:
    """Create a match from an NDJSON export file, checked by the rules; the exit status."""
    parts = build(settings)
    try:
        text = (
            click.get_text_stream("stdin").read() if path == "-" else Path(path).read_text(encoding="utf-8")
        )
        made = parts.recorder.import_lines(text.splitlines())
    except ImportRefused as refused:
        click.echo(f"refused, nothing was created: {refused}", err=True)
        return 1
    finally:
        parts.close()
    status = "finished" if made.finished else "in progress"
    click.echo(f"imported {made.game} match {made.match_id} ({made.version} steps, {status})")
    click.echo(f"write token (shown once): {made.token}")
    return 0
