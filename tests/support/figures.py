"""Figures a suite measures (counts, seconds), noted by its tests and printed at the end of the run."""

from __future__ import annotations

from typing import Any


class Figures:
    """The lines one suite noted, printed under its own heading in pytest's summary."""

    def __init__(self, heading: str) -> None:
        self.heading = heading
        self.lines: list[str] = []

    def note(self, line: str) -> None:
        """Keep one measured figure for the summary."""
        self.lines.append(line)

    def report(self, terminalreporter: Any) -> None:
        """Print the noted figures, if any, under the heading."""
        if self.lines:
            terminalreporter.section(self.heading)
            for line in self.lines:
                terminalreporter.write_line(line)
