"""Bad input at scale: schemathesis over every operation of openapi.yaml, and hand-written abuse."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.faults.conftest import Stack
from tests.e2e.faults.stack import ROOT

pytestmark = pytest.mark.e2e

CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_headers_conformance,response_schema_conformance")
EXAMPLES = 30


def test_schemathesis_finds_no_server_error_and_no_answer_outside_the_spec(
    stack: Stack, figure: Callable[[str], None], tmp_path: Path
) -> None:
    env = dict(os.environ, SCHEMATHESIS_HOOKS=str(Path(__file__).with_name("schemathesis_hooks.py")))
    run = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run", str(ROOT / "openapi.yaml"), "--url", stack.url,
         "--checks", CHECKS, "--phases", "examples,coverage,fuzzing,stateful",
         "--max-examples", str(EXAMPLES), "--seed", "20261130", "--workers", "2", "--no-color",
         "--generation-database", "none", "--request-timeout", "20"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600,
    )
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]
    generated = re.search(r"(\d+) generated", run.stdout)
    assert generated is not None, run.stdout[-2000:]
    links = re.search(r"API Links:\s+(\d+) covered / (\d+) selected", run.stdout)
    covered = f"; {links.group(1)} of {links.group(2)} links followed statefully" if links else ""
    figure(f"schemathesis: {generated.group(1)} cases over every operation, no failure{covered}")
