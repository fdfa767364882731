"""The child processes of `tabletape serve`, kept running: a child that dies is started again.

A child that exits without being asked (killed by the OOM killer or `kill -9`, crashed) is
restarted after a back-off that doubles from ``first`` up to ``longest`` seconds while it keeps
dying soon after each start, and goes back to ``first`` once a run lasted ``steady`` seconds; each
exit is logged with its status and when the restart comes. Every child gets SIGTERM from the
kernel when the serve dies, so a serve killed with -9 leaves none behind.
"""

from __future__ import annotations

import signal
import subprocess
import time
from dataclasses import dataclass, field

import click

from service.run.embedded_redis import stop_with_parent


@dataclass(eq=False)
class Child:
    """One supervised process: its command, its current run, and when to start it again."""

    name: str
    argv: list[str]
    env: dict[str, str]
    # The restart back-off, in seconds (see the module's docstring).
    first: float = 0.5
    longest: float = 30.0
    steady: float = 60.0
    delay: float = field(init=False)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    started: float = field(default=0.0, init=False)
    restart_at: float | None = field(default=None, init=False)
    restarts: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.delay = self.first

    def start(self) -> None:
        """Start the process."""
        self.process = subprocess.Popen(self.argv, env=self.env, preexec_fn=stop_with_parent)
        self.started = time.monotonic()
        self.restart_at = None

    def tend(self, now: float) -> None:
        """Notice an exit (log it, plan the restart) or restart the process when its back-off is over."""
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.restarts += 1
                self.start()
                click.echo(f"{self.name} started again (pid {self.pid})", err=True)
            return
        if self.process is None or self.process.poll() is None:
            return
        ran = now - self.started
        self.delay = self.first if ran >= self.steady else self.delay
        self.restart_at = now + self.delay
        click.echo(
            f"{self.name} (pid {self.process.pid}) {_exit_status(self.process.returncode)} after "
            f"{ran:.1f} s; starting it again in {self.delay:g} s",
            err=True,
        )
        self.delay = min(self.delay * 2, self.longest)

    @property
    def pid(self) -> int | None:
        """The pid of the current run."""
        return self.process.pid if self.process is not None else None

    def terminate(self) -> None:
        """Ask the process to stop (SIGTERM), and forget any planned restart."""
        self.restart_at = None
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def reap(self, deadline: float) -> None:
        """Wait for the process until ``deadline`` (a monotonic time), then SIGKILL it."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            click.echo(f"{self.name} (pid {self.process.pid}) did not stop in time; killing it", err=True)
            self.process.kill()
            self.process.wait()


def stop_all(children: list[Child], seconds: float) -> None:
    """SIGTERM every child at once, then wait at most ``seconds`` for them all (SIGKILL after)."""
    for child in children:
        child.terminate()
    deadline = time.monotonic() + seconds
    for child in children:
        child.reap(deadline)


def _exit_status(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"
