"""openapi.yaml is generated from the code; this fails when the committed file is stale."""

from __future__ import annotations

from pathlib import Path

from service.api.openapi import spec_yaml

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


def operations() -> list[tuple[str, str, dict[str, object]]]:
    """Every (method, path, operation) of the committed document."""
    import yaml

    paths = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))["paths"]
    return [(m, p, op) for p, ops in paths.items() for m, op in ops.items() if m in ("get", "post")]


def test_every_operation_has_its_own_readable_operation_id() -> None:
    ids = [op["operationId"] for _, _, op in operations()]
    assert len(ids) == len(set(ids)) and all(i[0].islower() and "_" not in i for i in ids)
    named = {(m, p): op["operationId"] for m, p, op in operations()}
    assert named[("post", "/v1/matches/{match_id}/actions")] == "recordAction"
    assert named[("get", "/v1/matches/{match_id}/state")] == "getMatchState"


def test_a_matchs_writes_need_the_bearer_scheme_and_say_every_error_they_can_give() -> None:
    import yaml

    document = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert document["components"]["securitySchemes"]["bearerAuth"] == {"type": "http", "scheme": "bearer"}
    for method, path, op in operations():
        if method == "post":
            assert "security" in op, path
        if path.endswith(("/actions", "/undo", "/redo")):
            assert op["security"] == [{"bearerAuth": []}]
            assert {"401", "403", "404", "409", "412", "422", "503"} <= set(op["responses"])  # type: ignore[arg-type]
    problem = document["components"]["responses"]["PreconditionFailed"]["content"]["application/problem+json"]
    assert problem["schema"] == {"$ref": "#/components/schemas/Problem"}


def test_each_games_actions_are_a_union_discriminated_by_type() -> None:
    import yaml

    from games.registry import all_games

    schemas = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))["components"]["schemas"]
    for game in all_games().values():
        union = schemas[f"{''.join(w.capitalize() for w in game.id.split('-'))}Action"]
        assert union["discriminator"]["propertyName"] == "type"
        assert set(union["discriminator"]["mapping"]) == set(game.actions)
        for ref in union["discriminator"]["mapping"].values():
            variant = schemas[ref.rsplit("/", 1)[1]]
            assert "type" in variant["required"] and variant["properties"]["type"]["const"] in game.actions
