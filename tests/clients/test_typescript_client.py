"""An app developer's view in TypeScript: a client generated from openapi.yaml by openapi-typescript
(with openapi-fetch) compiles with a program that records a Wizard round under `tsc --strict`,
without one non-null assertion, and that program, run by node, records the round against the
real API served on a free port.

The packages are those clients/typescript/package-lock.json pins, installed by `npm ci` once per
lock into .venv (npm's cache beside them), so that a second run installs nothing."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "typescript"
INSTALLED = ROOT / ".venv" / "typescript-client"
PROGRAM = "record-wizard-round"

pytestmark = pytest.mark.e2e


def run(*command: str, cwd: Path, timeout: int = 300) -> str:
    """Run a command; its output, or a failure that shows what it said."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def installed() -> Path:
    """node_modules as the lock pins it: `npm ci` only when the lock has changed since the last run."""
    npm = shutil.which("npm")
    assert npm, "npm is needed (Debian's nodejs and npm packages; .ci/run installs them)"
    lock = (CLIENT / "package-lock.json").read_bytes()
    stamp = INSTALLED / ".lock-sha256"
    digest = hashlib.sha256(lock).hexdigest()
    if not (stamp.exists() and stamp.read_text() == digest and (INSTALLED / "node_modules").is_dir()):
        INSTALLED.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(CLIENT / name, INSTALLED / name)
        cache = str(ROOT / ".venv" / "npm-cache")
        run(npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--cache", cache, cwd=INSTALLED)
        stamp.write_text(digest)
    return INSTALLED / "node_modules"


@pytest.fixture
def compiled(tmp_path: Path) -> Path:
    """The program, compiled strictly against a client generated from the committed openapi.yaml."""
    modules = installed()
    work = tmp_path / "client"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules", "dist", "generated"))
    os.symlink(modules, work / "node_modules")
    node = shutil.which("node")
    assert node
    run(
        node,
        str(modules / "openapi-typescript" / "bin" / "cli.js"),
        str(ROOT / "openapi.yaml"),
        "--default-non-nullable",
        "false",
        "--output",
        str(work / "src" / "generated" / "tabletape.ts"),
        cwd=work,
    )
    run(node, "no-non-null.mjs", f"src/{PROGRAM}.ts", cwd=work)
    tsconfig = json.loads((work / "tsconfig.json").read_text())
    assert tsconfig["compilerOptions"]["strict"] is True
    run(node, str(modules / "typescript" / "bin" / "tsc"), "--project", "tsconfig.json", cwd=work)
    return work / "dist" / f"{PROGRAM}.js"


def test_a_typescript_client_compiled_strictly_records_a_wizard_round(compiled: Path, live_url: str) -> None:
    node = shutil.which("node")
    assert node
    said: dict[str, Any] = json.loads(run(node, str(compiled), live_url, cwd=compiled.parent).strip())
    assert said["events"][-3:] == ["CardPlayed", "TrickWon", "RoundScored"]
    assert said["events"][:2] == ["RoundStarted", "BidPlaced"]
    assert said["phase"] == "start_round" and said["round"] == 2
    assert said["totals"] == {"ann": 30, "bob": -10, "cy": 20}
    assert said["bids"] == {}
    assert said["refused"] == {"status": 401, "code": "missing_token"}
    board = requests.get(f"{live_url}/v1/matches/{said['id']}/scores", timeout=10).json()
    assert board["totals"] == said["totals"] and board["log_version"] == said["version"]
