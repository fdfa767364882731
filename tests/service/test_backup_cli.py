"""`tabletape export --all` as a backup: every readable match out, what it stepped over said, and
nothing written outside its folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from click.testing import Result

from events.indexes import Indexes
from events.keys import Keys
from tests.service.conftest import SHORT, Table


@pytest.fixture
def registry_with_holes(
    recorded: Callable[..., Table], redis_client: redis.Redis, keys: Keys
) -> tuple[list[Table], list[str]]:
    """Four matches, and registry entries between them with no match behind (one shaped like a path)."""
    matches = [recorded("hats", SHORT["hats"], upto=3) for _ in range(4)]
    registry = Indexes(redis_client, keys).registry()
    created = sorted(s for s in registry.scores([m.id for m in matches]) if s is not None)
    holes = {"0123456789abcdef": created[1] + 0.5, "../x": created[2] + 0.5, "a/../../y": created[2] + 0.6}
    registry.add(holes)
    return matches, list(holes)


def test_a_backup_exports_every_readable_match_and_says_what_it_stepped_over(
    registry_with_holes: tuple[list[Table], list[str]], cli: Callable[..., Result], tmp_path: Path
) -> None:
    matches, holes = registry_with_holes
    work = tmp_path / "work"
    work.mkdir()
    backup = work / "backup"
    result = cli("export", "--all", "-o", str(backup))
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in backup.iterdir()) == sorted(f"{m.id}.ndjson" for m in matches)
    for match in matches:
        lines = (backup / f"{match.id}.ndjson").read_text().splitlines()
        assert json.loads(lines[0])["id"] == match.id and len(lines) == match.log_length() + 1
    # Nothing outside the folder.
    assert sorted(p.name for p in work.iterdir()) == ["backup"]
    assert not (tmp_path / "x.ndjson").exists() and not (tmp_path / "y.ndjson").exists()
    for hole in holes:
        assert f"stepped over {hole}" in result.stderr
    assert "exported 4 of 7 matches" in result.stderr


def test_a_backup_to_one_stream_steps_over_the_same_and_imports_back(
    registry_with_holes: tuple[list[Table], list[str]], cli: Callable[..., Result], tmp_path: Path
) -> None:
    matches, holes = registry_with_holes
    target = tmp_path / "all.ndjson"
    result = cli("export", "--all", "-o", str(target))
    assert result.exit_code == 1, result.output
    headers = [json.loads(line) for line in target.read_text().splitlines() if '"format"' in line]
    assert [h["id"] for h in headers] == [m.id for m in matches]
    assert all(f"stepped over {hole}" in result.stderr for hole in holes)


def test_one_match_to_a_name_without_a_slash_is_still_one_file(
    recorded: Callable[..., Table], cli: Callable[..., Result], tmp_path: Path
) -> None:
    match = recorded("hats", SHORT["hats"], upto=3)
    result = cli("export", match.id, "-o", str(tmp_path / "one"))
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "one").read_text().splitlines()[0])["id"] == match.id
