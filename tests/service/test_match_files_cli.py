"""`tabletape export` and `tabletape import`: a match to a file and back, against the same Redis."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient

from service.cli import main
from tests.service.conftest import Table


@pytest.fixture
def cli(store_env: dict[str, str]) -> Callable[..., Result]:
    """Run a `tabletape` command against the test's Redis and prefix."""
    env = store_env
    return lambda *args: CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def test_a_match_exported_to_a_file_imports_back_as_the_same_match(
    recorded: Callable[..., Table], client: FlaskClient, cli: Callable[..., Result], tmp_path: Path
) -> None:
    match = recorded("other-hat-trick", 6)
    target = tmp_path / "match.ndjson"
    exported = cli("export", match.id, "-o", str(target))
    assert exported.exit_code == 0
    lines = target.read_text().splitlines()
    assert json.loads(lines[0])["id"] == match.id and len(lines) == match.log_length() + 1
    imported = cli("import", str(target))
    assert imported.exit_code == 0
    new_id = imported.output.split("match ", 1)[1].split()[0]
    assert client.get(f"/v1/matches/{new_id}/state").json["state"] == match.get("state").json["state"]


def test_importing_a_corrupted_file_exits_1_and_creates_nothing(
    recorded: Callable[..., Table], client: FlaskClient, cli: Callable[..., Result], tmp_path: Path
) -> None:
    match = recorded("hats", 0, upto=5)
    target = tmp_path / "match.ndjson"
    assert cli("export", match.id, "-o", str(target)).exit_code == 0
    lines = target.read_text().splitlines()
    lines[4] = lines[4].replace('"seq":4', '"seq":40')
    target.write_text("\n".join(lines) + "\n")
    before = client.get("/v1/matches").json["total"]
    refused = cli("import", str(target))
    assert refused.exit_code == 1 and "line 5" in refused.output
    assert client.get("/v1/matches").json["total"] == before


def test_a_finished_match_exports_as_a_bg_stats_play_from_the_command_line(
    recorded: Callable[..., Table], cli: Callable[..., Result]
) -> None:
    match = recorded("hobbit", 1)
    answer = cli("export", match.id, "--format", "bgstats")
    assert answer.exit_code == 0
    play = json.loads(answer.stdout)
    assert play["sourcePlayId"] == match.id and play["game"]["sourceGameId"] == "hobbit"
