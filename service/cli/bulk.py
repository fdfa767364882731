"""`tabletape export` and `tabletape import` for many matches: chosen by id or filter, in and out.

An NDJSON stream may hold several matches one after another: each starts at its header line
(``{"format": "tabletape/1", ...}``), so a folder of files and one concatenated file import alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import click

from events.defaults import EXPORT_PAGE
from events.errors import UnknownMatch
from games.contract import N_, Message, words
from projections.sharing import bgstats
from projections.sharing.export import FORMAT, export_lines
from projections.sharing.importing import MATCH_ID, ImportRefused
from service.bootstrap import Services
from service.cli.support import PROBLEMS, USAGE, Failed, progress, spoken
from service.recording.answers import Copied
from service.recording.recorder import Recorder

PAGE = 500
# A target named with one of these is one stream of every match, never a folder.
STREAM_SUFFIXES = (".ndjson", ".jsonl", ".json", ".txt")


@dataclass(frozen=True)
class Selection:
    """Which matches an export takes: named ones, or every match that passes the filters."""

    ids: tuple[str, ...] = ()
    everything: bool = False
    game: str | None = None
    player: str | None = None
    status: str | None = None
    since: datetime | None = None
    until: datetime | None = None

    def filters(self) -> dict[str, str]:
        """The index filters the selection names."""
        named = {"game": self.game, "player": self.player, "status": self.status}
        return {k: v for k, v in named.items() if v}

    def is_empty(self) -> bool:
        """Whether the selection names nothing at all."""
        return not (self.ids or self.everything or self.filters() or self.since or self.until)


def chosen(parts: Services, selection: Selection) -> list[str]:
    """The ids of the selected matches, oldest first; UnknownMatch for a named one that is not there."""
    if selection.is_empty():
        raise Failed(
            USAGE, "name the matches to export, or choose them with --all, --game, --player, --since"
        )
    if selection.ids:
        for match_id in selection.ids:
            if not parts.store.exists(match_id):
                raise UnknownMatch(match_id)
        return list(selection.ids)
    since = None if selection.since is None else int(selection.since.timestamp() * 1000)
    until = None if selection.until is None else int(selection.until.timestamp() * 1000)
    found: list[str] = []
    while True:
        page, total = parts.matches.ids(selection.filters(), since, until, len(found), EXPORT_PAGE)
        found += page
        if not page or len(found) >= total:
            return found[::-1]


@dataclass
class Exported:
    """What an export wrote, and the matches it stepped over (id, why)."""

    matches: int = 0
    events: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)


def export_ndjson(parts: Services, ids: list[str], target: str) -> Exported:
    """Write each readable match's log: one file per match in a folder (``is_folder``), or one
    stream. A match that cannot be read (a registry entry with no match behind it, an id that is
    not one) is stepped over and reported; nothing is written outside the folder."""
    done = Exported()
    folder = _folder(target, several=len(ids) > 1)
    stream: AbstractContextManager[Any] = (
        nullcontext(None) if folder is not None else click.open_file(target, "w", encoding="utf-8")
    )
    with stream as out:
        for match_id in progress(ids, len(ids), N_("exporting")):
            lines = _readable_log(parts, match_id, done)
            if lines is None:
                continue
            if folder is not None:
                _write_file(folder, match_id, lines)
            else:
                out.writelines(lines)
            done.matches += 1
            done.events += len(lines) - 1  # the header is not an event
    return done


def _readable_log(parts: Services, match_id: str, done: Exported) -> list[str] | None:
    """The match's export lines, read whole before any is written; None (noted in ``done``) when
    the match cannot be read."""
    if not MATCH_ID.fullmatch(match_id):
        done.skipped.append((match_id, "not a match id (a registry entry tabletape did not write)"))
        return None
    try:
        return list(export_lines(parts.store, match_id))
    except UnknownMatch:
        done.skipped.append(
            (match_id, "listed, but there is no such match (tabletape rebuild drops the entry)")
        )
    except Exception as exc:  # noqa: BLE001 - one unreadable match must not stop a backup
        done.skipped.append((match_id, f"unreadable: {type(exc).__name__}: {exc}"))
    return None


def _write_file(folder: Path, match_id: str, lines: list[str]) -> None:
    """Write one match's file in ``folder``, whole or not at all (a file beside it, then renamed)."""
    final = folder / f"{match_id}.ndjson"
    partial = folder / f".{match_id}.ndjson.partial"
    with partial.open("w", encoding="utf-8") as out:
        out.writelines(lines)
    partial.replace(final)


def export_bgstats(parts: Services, ids: list[str], target: str, link: bool) -> int:
    """Write finished matches as a BG Stats file (or createPlay links); the plays written."""
    bgg_ids = dict(parts.settings.bgg_ids)
    read = (
        bgstats.finished_play(parts.positions, i, bgg_ids) for i in progress(ids, len(ids), N_("reading"))
    )
    plays = [play for play in read if play is not None]
    if not plays:
        raise Failed(PROBLEMS, "none of these matches is finished; only a finished match is a BG Stats play")
    if len(plays) < len(ids):
        left = Message("left out {count} matches that are not finished", count=len(ids) - len(plays))
        click.echo(spoken(left), err=True)
    folder = _folder(target)
    if folder and link:
        raise Failed(USAGE, "bgstats-link writes one URL a line: give -o a file, or - for standard output")
    if folder:
        for play in plays:
            _write_json(folder / f"{play.match_id}.bgstats.json", bgstats.export_file([play]))
        return len(plays)
    with click.open_file(target, "w", encoding="utf-8") as out:
        if link:
            out.writelines(bgstats.create_play_link(p) + "\n" for p in plays)
        else:
            out.write(json.dumps(bgstats.export_file(plays), indent=2, ensure_ascii=False) + "\n")
    return len(plays)


@dataclass(frozen=True)
class Chunk:
    """One match's lines in a file: where they start, and the lines."""

    source: str
    first_line: int
    lines: list[str]


def chunks(source: str, text: IO[str]) -> Iterator[Chunk]:
    """The matches of one NDJSON file, each from its header line to the line before the next header."""
    current: list[str] = []
    start = 1
    for number, line in enumerate(text, start=1):
        if current and _is_header(line):
            yield Chunk(source, start, current)
            current, start = [], number
        current.append(line)
    if current:
        yield Chunk(source, start, current)


def read_chunks(names: tuple[str, ...]) -> list[Chunk]:
    """Every match of the named files (a folder stands for its *.ndjson files; - for stdin)."""
    found: list[Chunk] = []
    for name in names:
        paths = sorted(Path(name).glob("*.ndjson")) if name != "-" and Path(name).is_dir() else [name]
        for path in paths:
            with click.open_file(str(path), "r", encoding="utf-8") as text:
                found += list(chunks(str(path), text))
    return found


def import_chunk(recorder: Recorder, chunk: Chunk, copy: bool = False) -> Copied:
    """Create the match of one chunk (or name the one the store holds, unless ``copy``);
    ImportRefused (with the file's own line number) if refused."""
    try:
        _check_length(chunk)
        return recorder.import_lines(chunk.lines, operator=True, copy=copy)
    except ImportRefused as refused:
        raise ImportRefused(chunk.first_line + refused.line - 1, refused.sentence) from refused


# What became of a chunk.
MADE, HELD, REFUSED = "made", "held", "refused"


def import_reported(recorder: Recorder, chunk: Chunk, copy: bool = False) -> str:
    """Import one chunk and say how it went (the new match and its token, the match the store
    already held, or why not): MADE, HELD or REFUSED."""
    try:
        copied = import_chunk(recorder, chunk, copy)
    except ImportRefused as why:
        refused = Message(
            "tabletape: {source}: refused, nothing was created for it: {why}",
            source=chunk.source,
            why=why.args[0],
        )
        click.echo(spoken(refused), err=True)
        return REFUSED
    state = words("finished") if copied.finished else words("in progress")
    facts: dict[str, Any] = {
        "game": copied.game,
        "match_id": copied.match_id,
        "steps": copied.version,
        "state": state,
    }
    if copied.existing:
        held = Message(
            "already held: {game} match {match_id} ({steps} steps, {state}) has the log of {source}; "
            "not imported again (--copy makes a copy)",
            source=chunk.source,
            **facts,
        )
        click.echo(spoken(held))
        return HELD
    made = Message(
        "imported {game} match {match_id} ({steps} steps, {state}) from {source}; write token (shown once): "
        "{token}",
        source=chunk.source,
        token=copied.token,
        **facts,
    )
    click.echo(spoken(made))
    return MADE


def _check_length(chunk: Chunk) -> None:
    try:
        header = json.loads(chunk.lines[0])
    except json.JSONDecodeError:
        return  # the import says what is wrong with the line
    claimed = header.get("version") if isinstance(header, dict) else None
    held = sum(1 for line in chunk.lines[1:] if line.strip())
    if isinstance(claimed, int) and held < claimed:
        raise ImportRefused(
            len(chunk.lines),
            "the file is shorter than its header claims: match {match_id} has {claimed} steps, "
            "the file holds {held} (was it cut short?)",
            match_id=header.get("id"),
            claimed=claimed,
            held=held,
        )


def _is_header(line: str) -> bool:
    if '"format"' not in line:
        return False
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(value, dict) and value.get("format") == FORMAT


def _folder(target: str, several: bool = False) -> Path | None:
    """The folder ``target`` names, made if need be, or None for a file (or - for stdout).

    A folder: an existing one, a name ending in /, or, when several matches go out, any name but
    an existing file or one ending in a file's suffix (.ndjson, .jsonl, .json, .txt)."""
    path = Path(target)
    if target == "-":
        return None
    named = path.is_dir() or target.endswith("/")
    if named or (several and not path.is_file() and path.suffix.lower() not in STREAM_SUFFIXES):
        path.mkdir(parents=True, exist_ok=True)
        return path
    return None


def _write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
