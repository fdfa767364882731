"""An app developer's view: a Python client generated from openapi.yaml by openapi-python-client
(a package that declares what it needs) records a Wizard round against the real API served on a
free port, with the game's own types for the create body and the state."""

from __future__ import annotations

import importlib
import io
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def generated(tmp_path: Path) -> Iterator[ModuleType]:
    """The client package openapi-python-client generates from the committed openapi.yaml."""
    tool = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert tool, "openapi-python-client is in the test extras"
    target = tmp_path / "tabletape-client"
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    run = subprocess.run(
        [
            tool,
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--config",
            str(ROOT / "openapi-client.yaml"),
            "--meta",
            "uv",
            "--output-path",
            str(target),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # The package says what it needs, so `pip install` of it brings its HTTP client and models.
    project = tomllib.loads((target / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needs = {re.split(r"[<>=!~ \[]", spec, maxsplit=1)[0].lower() for spec in project["dependencies"]}
    assert project["name"] == "tabletape-client" and {"httpx", "attrs"} <= needs, project
    sys.path.insert(0, str(target))
    try:
        yield importlib.import_module("tabletape_client")
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.split(".")[0] == "tabletape_client"]:
            del sys.modules[name]


def part(name: str) -> Any:
    """A module of the generated client."""
    return importlib.import_module(f"tabletape_client.{name}")


def test_a_generated_client_records_a_wizard_round_and_reads_its_scores(
    generated: ModuleType, live_url: str
) -> None:
    models = part("models")
    open_client = generated.Client(base_url=live_url, raise_on_unexpected_status=True)
    made = part("api.matches.create_match").sync(
        client=open_client,
        body=models.WizardCreateMatch(
            game="wizard",
            players=["ann", "bob", "cy"],
            setup=models.WizardSetup(first_dealer="ann"),
            options=models.WizardOptions(canadian_rule=True),
        ),
    )
    assert isinstance(made, models.Created), made
    writer = generated.AuthenticatedClient(base_url=live_url, token=made.token)
    record = part("api.matches.record_action")
    round_one = [
        models.WizardStartRoundAction(type_="start_round", trump_card="7H"),
        models.WizardBidAction(type_="bid", player="bob", tricks=1),
        models.WizardBidAction(type_="bid", player="cy", tricks=0),
        models.WizardBidAction(type_="bid", player="ann", tricks=1),
        models.WizardPlayAction(type_="play", player="bob", card="AS"),
        models.WizardPlayAction(type_="play", player="cy", card="KS"),
        models.WizardPlayAction(type_="play", player="ann", card="3H"),
    ]
    for action in round_one:
        answer = record.sync_detailed(made.id, client=writer, body=action)
        assert answer.status_code == 201, answer.content
    assert [e.type_ for e in answer.parsed.events] == ["CardPlayed", "TrickWon", "RoundScored"]
    after = answer.parsed.state
    assert isinstance(after, models.WizardView), after
    assert after.phase == models.WizardViewPhase.START_ROUND and after.round_ == 2
    assert after.totals.to_dict() == {"ann": 30, "bob": -10, "cy": 20}
    refused = record.sync_detailed(made.id, client=open_client.with_headers({}), body=round_one[1])
    assert refused.status_code == 401 and isinstance(refused.parsed, models.Problem)
    board = part("api.reads.get_match_scores").sync(made.id, client=open_client)
    assert board.finished is False
    assert board.to_dict()["totals"] == {"ann": 30, "bob": -10, "cy": 20}
    exported = open_client.get_httpx_client().get(f"/v1/matches/{made.id}/export").content
    importing = part("api.history.import_match")
    held = importing.sync(client=open_client, body=part("types").File(payload=io.BytesIO(exported)))
    assert isinstance(held, models.CopiedOut) and held.existing is True and held.id == made.id
    copy = importing.sync(
        client=open_client, body=part("types").File(payload=io.BytesIO(exported)), copy=True
    )
    assert isinstance(copy, models.CopiedOut) and copy.version == 10 and copy.id != made.id
