"""What every `tabletape` command shares: its store, one-line errors with exit codes, progress.

Exit codes (docs/operations.md lists them too):

    0  done
    1  done, and found something wrong: verify found differences, an import was refused
    2  the command line is wrong (click's own usage errors)
    3  not found: no such match, no such file
    4  the store is not there: no serve runs with this data dir, or Redis does not answer
    5  cannot start: serve's data dir is in use or its port is taken, or a setting is wrong
    70 a bug in tabletape (the message says how to see the traceback)
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import click

from events.errors import NOT_NOW, UnknownMatch, not_now, unavailable
from games.contract import Message, RuleViolation, words
from projections.sharing.importing import ImportRefused
from service.config import SettingRefused, Settings
from service.language import catalogs
from service.run.datadir import DataDirInUse, NoServeRunning, embedded_store

OK, PROBLEMS, USAGE, NOT_FOUND, NO_STORE, CANNOT_SERVE, BUG = 0, 1, 2, 3, 4, 5, 70
T = TypeVar("T")

DATA_DIR = click.option(
    "--data-dir",
    default="./var",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The data dir of the `tabletape serve` whose embedded store to use (when REDIS_URL is not set).",
)


class Failed(Exception):
    """A command's refusal: a sentence for the person (a template and its values), and the exit code."""

    def __init__(self, code: int, message: str | Message, /, **values: Any) -> None:
        self.sentence = message if isinstance(message, Message) else Message(message, **values)
        super().__init__(str(self.sentence))
        self.code = code


class Commands(click.Group):
    """A click group whose commands end in one line on stderr and an exit code, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; turn what it raises into a sentence and an exit code."""
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            # The reader stopped reading (`tabletape export --all | head`): that is its choice,
            # not a failure. Later writes (the interpreter's last flush) go nowhere.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(OK)
        except Exception as error:  # the one place every failure becomes a sentence
            if os.environ.get("TABLETAPE_DEBUG"):
                raise
            code, message = explain(error)
            click.echo(f"tabletape: {catalogs.render(message, reader_locale())}", err=True)
            ctx.exit(code)


def spoken(message: Message) -> str:
    """A line for the person at the terminal, in their language (``reader_locale``)."""
    return catalogs.render(message, reader_locale())


def reader_locale() -> str:
    """The language of the person at the terminal, as gettext reads it: LANGUAGE (a list),
    LC_ALL, LC_MESSAGES, then LANG (``zh_CN.UTF-8`` is 简体中文, ``ja_JP.UTF-8`` 日本語)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "").strip()
        if value and value not in ("C", "POSIX"):
            tags = [part.split(".")[0].split("@")[0] for part in value.split(":")]
            return catalogs.best(tags) or catalogs.DEFAULT
    return catalogs.DEFAULT


def explain(error: Exception) -> tuple[int, str | Message]:
    """The exit code and the sentence for an error a command raised."""
    if isinstance(error, Failed):
        return error.code, error.sentence
    if isinstance(error, RuleViolation):
        return PROBLEMS, error.sentence
    if isinstance(error, UnknownMatch):
        return NOT_FOUND, Message("there is no match {match_id!r}", match_id=error.match_id)
    if isinstance(error, ImportRefused):
        return PROBLEMS, Message("refused, nothing was created: {reason}", reason=_said(error))
    if isinstance(error, SettingRefused):
        return CANNOT_SERVE, Message("cannot run with these settings: {error}", error=str(error))
    if isinstance(error, (DataDirInUse,)):
        return CANNOT_SERVE, str(error)
    if isinstance(error, NoServeRunning):
        return NO_STORE, str(error)
    code = not_now(error)
    if code is not None:
        return (
            NO_STORE,
            Message(
                "{why} ({code}); the command stopped there: run it again once that is resolved",
                why=words(NOT_NOW[code]),
                code=code,
            ),
        )
    if unavailable(error):
        return NO_STORE, Message("the store is not answering ({error}); is it running?", error=str(error))
    if isinstance(error, (FileNotFoundError, IsADirectoryError, PermissionError)):
        return NOT_FOUND, Message("cannot open {file}: {reason}", file=error.filename, reason=error.strerror)
    if isinstance(error, UnicodeDecodeError):
        return PROBLEMS, Message(
            "the file is not UTF-8 text ({reason} at byte {start})", reason=error.reason, start=error.start
        )
    return BUG, Message(
        "failed unexpectedly ({kind}: {error}); "
        "run again with TABLETAPE_DEBUG=1 to see where, and please report it",
        kind=type(error).__name__,
        error=str(error),
    )


def _said(error: Exception) -> str | Message:
    said = error.args[0] if error.args else None
    return said if isinstance(said, Message) else str(error)


def settings_for(data_dir: str) -> Settings:
    """The settings of a command: REDIS_URL when set, else the store of the serve in ``data_dir``.

    Says on stderr which store the command uses.
    """
    url = os.environ.get("REDIS_URL")
    # A wrong setting is said first, whichever store there is (or none).
    settings = Settings.from_env()
    if url:
        click.echo(spoken(Message("store: {url} (REDIS_URL)", url=redacted(url))), err=True)
        return settings
    running = embedded_store(data_dir)
    embedded = Message(
        "store: the embedded Redis of {running} in {folder}",
        running=running.describe(),
        folder=os.path.abspath(data_dir),
    )
    click.echo(spoken(embedded), err=True)
    return dataclasses.replace(settings, redis_url=running.redis_url)


def redacted(url: str) -> str:
    """A Redis URL without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


def progress(items: Iterable[T], total: int, label: str) -> Iterator[T]:
    """Yield the items; a progress bar on a terminal, else a line every tenth of the way."""
    if sys.stderr.isatty():
        with click.progressbar(items, length=total, label=spoken(words(label)), file=sys.stderr) as bar:
            yield from bar
        return
    step = max(1, total // 10)
    done = 0
    for item in items:
        yield item
        done += 1
        if done % step == 0 or done == total:
            click.echo(
                spoken(Message("{label}: {done}/{total}", label=words(label), done=done, total=total)),
                err=True,
            )
