"""Figures a suite measures (counts, seconds), noted by its tests and printed at the end of the run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


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


def figures_plugin(heading: str) -> tuple[Callable[[], Callable[[str], None]], Callable[[Any], None]]:
    """A suite's ``figure`` fixture and its ``pytest_terminal_summary`` hook, for its conftest:

    figure, pytest_terminal_summary = figures_plugin("cluster figures")
    """
    figures = Figures(heading)

    @pytest.fixture
    def figure() -> Callable[[str], None]:
        """Note a measured figure; the figures are printed at the end of the run."""
        return figures.note

    def pytest_terminal_summary(terminalreporter: Any) -> None:
        """Print the figures the suite measured."""
        figures.report(terminalreporter)

    return figure, pytest_terminal_summary
