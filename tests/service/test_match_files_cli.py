"""`tabletape export` and `tabletape import` as a person runs them: many matches at once, one-line
errors with their exit codes, and progress on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient

from service.cli.main import main
from tests.service.conftest import SHORT, Table


def new_ids(result: Result) -> list[str]:
    """The ids of the matches an import made, from its lines."""
    return [line.split("match ", 1)[1].split()[0] for line in result.stdout.splitlines() if "match " in line]


def test_a_match_exported_to_a_file_imports_back_as_the_same_match(
    recorded: Callable[..., Table], client: FlaskClient, cli: Callable[..., Result], tmp_path: Path
) -> None:
    match = recorded("other-hat-trick", 6)
    target = tmp_path / "match.ndjson"
    exported = cli("export", match.id, "-o", str(target))
    assert exported.exit_code == 0 and "(REDIS_URL)" in exported.stderr
    lines = target.read_text().splitlines()
    assert json.loads(lines[0])["id"] == match.id and len(lines) == match.log_length() + 1
    imported = cli("import", str(target))
    assert imported.exit_code == 0
    [new_id] = new_ids(imported)
    assert client.get(f"/v1/matches/{new_id}/state").json["state"] == match.get("state").json["state"]


def test_every_match_exports_to_a_folder_and_to_one_stream_and_both_import_back(
    recorded: Callable[..., Table], client: FlaskClient, cli: Callable[..., Result], tmp_path: Path
) -> None:
    originals = [recorded(game, SHORT[game]) for game in ("hats", "wizard", "hat-trick")]
    folder = tmp_path / "backup"
    into_folder = cli("export", "--all", "-o", f"{folder}/")
    assert into_folder.exit_code == 0, into_folder.output
    assert sorted(p.stem for p in folder.glob("*.ndjson")) == sorted(m.id for m in originals)
    assert "exporting: 3/3" in into_folder.stderr
    stream = tmp_path / "all.ndjson"
    assert cli("export", "--all", "-o", str(stream)).exit_code == 0
    # Copies: the store holds the matches the exports came from.
    from_folder, from_stream = cli("import", "--copy", str(folder)), cli("import", "--copy", str(stream))
    assert from_folder.exit_code == 0 and from_stream.exit_code == 0, from_stream.output
    assert len(new_ids(from_folder)) == len(new_ids(from_stream)) == 3
    assert "imported 3 of 3 matches" in from_stream.stderr and "importing: 3/3" in from_stream.stderr
    states = sorted(json.dumps(m.get("state").json["state"]) for m in originals)
    again = sorted(
        json.dumps(client.get(f"/v1/matches/{i}/state").json["state"]) for i in new_ids(from_stream)
    )
    assert again == states


def test_export_chooses_matches_by_game_once_they_are_projected(
    recorded: Callable[..., Table], cli: Callable[..., Result], work: Callable[[], int]
) -> None:
    hats, _ = recorded("hats", SHORT["hats"]), recorded("wizard", SHORT["wizard"])
    work()
    chosen = cli("export", "--game", "hats")
    headers = [json.loads(line) for line in chosen.stdout.splitlines() if '"format"' in line]
    assert [h["id"] for h in headers] == [hats.id]


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
    assert refused.exit_code == 1 and "line 5" in refused.stderr
    assert client.get("/v1/matches").json["total"] == before


def test_a_file_cut_short_is_refused_with_how_many_steps_it_lacks(
    recorded: Callable[..., Table], cli: Callable[..., Result], tmp_path: Path
) -> None:
    match = recorded("wizard", SHORT["wizard"])
    target = tmp_path / "match.ndjson"
    assert cli("export", match.id, "-o", str(target)).exit_code == 0
    lines = target.read_text().splitlines()
    target.write_text("\n".join(lines[:10]) + "\n")
    refused = cli("import", str(target))
    assert refused.exit_code == 1
    assert f"shorter than its header claims: match {match.id} has {len(lines) - 1} steps" in refused.stderr
    assert "the file holds 9" in refused.stderr


def test_finished_matches_export_as_one_bg_stats_file_from_the_command_line(
    recorded: Callable[..., Table], cli: Callable[..., Result]
) -> None:
    hobbit, wizard = recorded("hobbit", SHORT["hobbit"]), recorded("wizard", SHORT["wizard"])
    recorded("hats", 1, upto=3)  # unfinished: left out, and said so
    answer = cli("export", "--all", "--format", "bgstats")
    assert answer.exit_code == 0, answer.output
    document = json.loads(answer.stdout)
    assert sorted(g["name"] for g in document["games"]) == ["The Hobbit Card Game", "Wizard"]
    assert sorted(p["board"] for p in document["plays"]) == sorted(
        f"tabletape match {m.id}" for m in (hobbit, wizard)
    )
    assert "left out 1 matches that are not finished" in answer.stderr
    links = cli("export", wizard.id, "--format", "bgstats-link")
    assert links.stdout.startswith("https://app.bgstatsapp.com/createPlay.html?data=")


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (("export", "nosuchmatch"), 3, "nosuchmatch"),
        (("import", "/no/such/file.ndjson"), 3, "cannot open /no/such/file.ndjson"),
        (("export",), 2, "name the matches to export"),
        (("verify",), 0, "verified 0 matches"),
    ],
)
def test_a_failing_command_says_why_in_one_line_with_its_exit_code(
    cli: Callable[..., Result], args: tuple[str, ...], code: int, words: str
) -> None:
    answer = cli(*args)
    assert answer.exit_code == code, answer.output
    assert words in answer.output and "Traceback" not in answer.output


def test_a_store_that_does_not_answer_exits_4_in_one_line(cli: Callable[..., Result]) -> None:
    answer = cli("verify", REDIS_URL="redis://127.0.0.1:9/0")
    assert answer.exit_code == 4 and "not answering" in answer.stderr
    assert len(answer.stderr.strip().splitlines()) == 2  # which store, then why it failed


def test_without_redis_url_or_a_serve_in_the_data_dir_a_command_says_what_to_start(
    tmp_path: Path,
) -> None:
    answer = CliRunner().invoke(main, ["verify", "--data-dir", str(tmp_path)], env={"REDIS_URL": ""})
    assert answer.exit_code == 4
    assert f"no tabletape serve is running with the data dir {tmp_path}" in answer.stderr


def test_an_export_whose_reader_stops_early_ends_quietly(
    recorded: Callable[..., Table], store_env: dict[str, str]
) -> None:
    match = recorded("wizard", SHORT["wizard"])
    command = [str(Path(sys.executable).parent / "tabletape"), "export", match.id]
    env = os.environ | store_env
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None
    process.stdout.close()  # as `tabletape export … | head -0` does
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 0, errors
    assert b"unexpectedly" not in errors and b"Traceback" not in errors and b"Exception" not in errors


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"LANG": "ja_JP.UTF-8"}, "tabletape: 試合 'nosuchmatch' はありません"),
        ({"LANGUAGE": "zh_CN:en", "LANG": "en_US.UTF-8"}, "tabletape: 没有比赛 'nosuchmatch'"),
        ({"LANG": "C", "LANGUAGE": "", "LC_ALL": ""}, "tabletape: there is no match 'nosuchmatch'"),
    ],
)
def test_a_commands_one_line_error_is_in_the_terminals_language(
    cli: Callable[..., Result], env: dict[str, str], said: str
) -> None:
    answer = cli("export", "nosuchmatch", **{"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", **env})
    assert answer.exit_code != 0
    assert said in answer.stderr.splitlines()
