"""The service worker keeps every file the recorder runs, so that it opens with no network."""

from __future__ import annotations

import re
from pathlib import Path

from games.registry import all_games
from service.web import module_graph

STATIC = Path(__file__).resolve().parents[2] / "service" / "web" / "static"


def test_the_service_worker_keeps_every_module_the_recorder_and_the_new_match_form_import() -> None:
    kept = set(re.findall(r'"(/assets/[^"]+)"', (STATIC / "sw.js").read_text(encoding="utf-8")))
    entries = ["js/recorder/record.js", "js/recorder/new.js"]
    entries += [f"js/recorder/labels/{game}.js" for game in all_games()]
    needed = {f"/assets/{module}" for entry in entries for module in module_graph(entry)}
    assert needed - kept == set(), "the recorder would not open offline without these"
