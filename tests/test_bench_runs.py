"""`make bench` runs to its end: each benchmark that runs in process, on a small run, prints its
figures (a benchmark that fails at run time is otherwise only found by the next person who needs
its figures). Nothing here looks at a timing: the figures are the benchmark's to judge."""

from __future__ import annotations

import re
from pathlib import Path

import psutil
import pytest
import redis

from bench import durability, http, writes
from bench.__main__ import rewind_vs_naive
from bench.harness import bench_parts

pytestmark = pytest.mark.e2e


def test_the_in_process_benchmarks_print_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    with bench_parts() as parts:
        assert writes.record_vs_evalsha(parts, actions=40) > 0
        assert writes.record_vs_evalsha(parts, actions=40, carry=False) > 0
        # The marking run leaves the recorder carrying projections again.
        assert parts.recorder.projector is parts.projector
        assert writes.own_work(parts, matches=2, actions=20) > 0
        assert writes.own_work(parts, carry=False, matches=2, actions=20) > 0
        # Its stand-in for Redis is gone afterwards: the next write reaches the log again.
        assert parts.recorder.projector is parts.projector
        script = writes.wizard_script()
        made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
        written = parts.recorder.act(made.match_id, made.token, script["actions"][0])
        assert parts.store.version(made.match_id) == written.version
        assert writes.first_writes(parts, matches=3) > 0
        writes.correction_cost(parts, lengths=(2, 4))
        writes.projection_with_corrections(parts, lengths=(2, 4))
        rewind_vs_naive(parts, steps=(40, 80))
        assert http.in_process(parts, matches=1) > 0
        prefix, url = parts.keys.prefix, parts.settings.redis_url
    printed = capsys.readouterr().out
    for figure in (
        r"write: record one Wizard action in process \d+ us .* ratio \d+\.\d\dx",
        r"\d+ of 39 writes moved their projection in",
        r"write, marking its match for the workers instead of carrying its projection: .* ratio "
        r"\d+\.\d\dx.*; 0 of 39 writes moved their projection in",
        r"own work, carrying its projection, Redis's answer stubbed \(medians of 40 writes\): before "
        r"\d+\.\d us, packing \d+\.\d us, meanwhile \d+\.\d us, after \d+\.\d us; .* at least \d+\.\d\dx",
        r"own work, marking its match, Redis's answer stubbed .* at least \d+\.\d\dx",
        r"first write: a process's first write to a match, over 3 matches, .* ratio of medians "
        r"\d+\.\d\dx \(the next write \d+\.\d\dx\)",
        r"correction: .* N=2: \d+\.\d\dx; N=4: \d+\.\d\dx",
        r"projection from step 1 .* ratio \d+\.\d\dx",
        r"recording in a long match: .* at step 80 ",
        r"rewind to step 40: .* ratio \d+x",
        r"rewind to step 80: .* ratio \d+x",
        r"memory for \d+ steps: log \d+ B/step",
        r"http: served in process .* ratio of rates \d+\.\d\dx",
    ):
        assert re.search(figure, printed), f"{figure!r} not in:\n{printed}"
    # Its matches and their keys are removed afterwards, on a Redis that may be shared.
    assert list(redis.Redis.from_url(url).scan_iter(match=f"*{prefix}*", count=1000)) == []


def test_the_durability_benchmark_records_on_two_embedded_stores_and_stops_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert durability.durability(actions=6, where=tmp_path) > 0
    printed = capsys.readouterr().out
    said = r"durability: .* appendfsync always \d+ us .* ratio \d+\.\d\dx .* 6 actions each"
    assert re.search(said, printed), printed
    # Its two redis-servers stopped and their data dirs removed.
    assert list(tmp_path.iterdir()) == []
    assert not [
        p for p in psutil.process_iter(["cmdline"]) if str(tmp_path) in " ".join(p.info["cmdline"] or [])
    ]
