"""openapi.yaml is generated from the code; this fails when the committed file is stale."""

from __future__ import annotations

from pathlib import Path

from service.openapi import spec_yaml

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_openapi_document_matches_the_code() -> None:
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == spec_yaml(), "openapi.yaml is stale: run `tabletape openapi -o openapi.yaml`"


def test_every_route_of_the_app_is_documented() -> None:
    import yaml

    paths = yaml.safe_load(spec_yaml())["paths"]
    for path in (
        "/v1/games",
        "/v1/matches",
        "/v1/matches/{match_id}/actions",
        "/v1/matches/{match_id}/undo",
        "/v1/matches/{match_id}/redo",
        "/v1/matches/{match_id}/events",
        "/v1/matches/{match_id}/state",
        "/v1/matches/{match_id}/replay",
        "/v1/matches/{match_id}/scores",
        "/healthz",
    ):
        assert path in paths
