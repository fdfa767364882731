"""What the OpenAPI document says beyond the views' own decorators, in one place.

An apispec plugin gives every operation a readable ``operationId``, its security (bearer tokens on
a match's writes), and every error answer it can give (each with the problem schema); the games'
action, setup, options and view schemas join the components. The action body becomes, per game, a
union discriminated by ``type``; the create body a union of the games' bodies discriminated by
``game``, each with its game's setup and options; a ``state`` one of the games' views. Client
generators (openapi-python-client, openapi-typescript) read all of it.
"""

from __future__ import annotations

import re
from typing import Any

from apispec import APISpec, BasePlugin

from games.registry import all_games
from service.api.schemas.positions import VIEWS

PROBLEM_TYPE = "application/problem+json"
BEARER = "bearerAuth"
# The deployment credential of the writes that create matches (TABLETAPE_API_KEYS; optional).
API_KEY = "apiKey"
CREATING = {"createMatch", "forkMatch", "importMatch"}
OPERATION_IDS: dict[tuple[str, str], str] = {
    ("get", "/healthz"): "getHealth",
    ("get", "/metrics"): "getMetrics",
    ("get", "/v1/games"): "listGames",
    ("get", "/v1/games/{game_id}"): "getGame",
    ("get", "/v1/leaderboards/{game_id}"): "getLeaderboard",
    ("get", "/v1/players/{name}"): "getPlayer",
    ("get", "/v1/matches"): "listMatches",
    ("post", "/v1/matches"): "createMatch",
    ("post", "/v1/matches/import"): "importMatch",
    ("get", "/v1/matches/{match_id}"): "getMatch",
    ("post", "/v1/matches/{match_id}/actions"): "recordAction",
    ("post", "/v1/matches/{match_id}/undo"): "undoAction",
    ("post", "/v1/matches/{match_id}/redo"): "redoAction",
    ("post", "/v1/matches/{match_id}/fork"): "forkMatch",
    ("get", "/v1/matches/{match_id}/events"): "getMatchEvents",
    ("get", "/v1/matches/{match_id}/state"): "getMatchState",
    ("get", "/v1/matches/{match_id}/replay"): "getMatchReplay",
    ("get", "/v1/matches/{match_id}/scores"): "getMatchScores",
    ("get", "/v1/matches/{match_id}/live"): "followMatch",
    ("get", "/v1/matches/{match_id}/export"): "exportMatch",
    ("get", "/v1/matches/{match_id}/next"): "getNextActions",
    ("post", "/v1/matches/{match_id}/actions/batch"): "recordActions",
    ("post", "/v1/matches/{match_id}/seats/{player}"): "issueSeat",
    ("delete", "/v1/matches/{match_id}/seats/{player}"): "revokeSeat",
    ("post", "/v1/matches/{match_id}/token"): "recoverToken",
    ("get", "/v1/feed"): "getFeed",
    ("post", "/v1/hooks"): "registerHook",
    ("get", "/v1/hooks"): "listHooks",
    ("delete", "/v1/hooks/{hook_id}"): "deleteHook",
    ("post", "/v1/hooks/{hook_id}/resume"): "resumeHook",
    ("get", "/v1/hooks/{hook_id}/deliveries"): "getHookDeliveries",
}
# The writes only the table's token may make (a seat's token is refused with 403).
TABLE_ONLY = {"issueSeat", "revokeSeat"}
# The webhooks' operations: the operator's, with one of the deployment's API keys.
HOOKS = {"registerHook", "listHooks", "deleteHook", "resumeHook", "getHookDeliveries"}
# The writes a match's token guards; every other write (create, fork, import) needs none.
TOKEN_WRITES = {"recordAction", "undoAction", "redoAction", "recordActions"}
# A batch answers a conflict or a refusal per item (its results), never for the whole request.
PER_ITEM = {"recordActions"}
# Copies the token may be sent with: with it they hold everything, hidden facts included; without
# it only the public history (docs/hidden-information.md).
TOKEN_OPTIONAL = {"forkMatch", "exportMatch", "getNextActions"}
# Request headers an operation reads beside its query (a live stream's resumption): added to the
# parameters its query schema gives, which a view's own parameters list would replace.
HEADERS: dict[str, list[dict[str, Any]]] = {
    "getFeed": [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "required": False,
            "schema": {"type": "string", "maxLength": 200},
            "description": "A live stream resumes after this position (what EventSource sends again).",
        }
    ],
    "followMatch": [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "required": False,
            "schema": {"type": "string", "pattern": r"^\s*[0-9]{0,15}\s*$"},
            "description": "Resume after this step (what a browser's EventSource sends on reconnecting).",
        }
    ],
}
ERRORS: dict[int, tuple[str, str]] = {
    400: ("BadRequest", "The request's parameters or body do not have the shape this operation takes."),
    401: (
        "Unauthorized",
        "No write token (Authorization: Bearer <token>), or no API key where the deployment needs one.",
    ),
    403: (
        "Forbidden",
        "The token is not this match's, the API key not the deployment's, a seat's token asks for "
        "another player's action or a table's write, the recovery code is not the match's (or a copy "
        "would need a hidden fact its reader cannot see).",
    ),
    404: ("NotFound", "There is no such match, game or player."),
    409: ("Conflict", "The write raced another (or the match is not in a state that allows it)."),
    412: ("PreconditionFailed", "If-Match named a version the match has moved on from."),
    413: ("PayloadTooLarge", "The body is over the size limit."),
    415: ("UnsupportedMediaType", "The body is not of a media type this operation takes."),
    429: (
        "TooManyRequests",
        "Over the caller's rate limit: retry after Retry-After seconds; the problem's `setting` "
        "names the deployment setting that raises the limit.",
    ),
    422: ("RefusedByTheRules", "The rules (or the history) refuse the request; the problem says which rule."),
    503: ("StoreUnavailable", "The event store is not answering; retry (with the same Idempotency-Key)."),
}


class ShapePlugin(BasePlugin):
    """Adds operation ids, security and error answers to every operation as it is registered."""

    def init_spec(self, spec: APISpec) -> None:
        """Keep the document: the create body is typed per game in its components."""
        self.spec = spec

    def operation_helper(self, path: str | None = None, operations: Any = None, **kwargs: Any) -> None:
        """Complete each operation of one path."""
        for method, operation in (operations or {}).items():
            if method in ("get", "post", "put", "patch", "delete") and path is not None:
                _complete(path, method, operation)
                if operation["operationId"] == "createMatch":
                    _type_create_body(self.spec)


def register_components(spec: APISpec) -> None:
    """The bearer scheme, the error answers and every game's schemas, as components."""
    spec.components.security_scheme(BEARER, {"type": "http", "scheme": "bearer"})
    spec.components.security_scheme(API_KEY, {"type": "apiKey", "in": "header", "name": "X-API-Key"})
    for name, description in ERRORS.values():
        content = {PROBLEM_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
        spec.components.response(name, {"description": description, "content": content})
    for game in all_games().values():
        for schema_name, schema in _game_schemas(game).items():
            spec.components.schema(schema_name, schema)
    for game_id, view in VIEWS.items():
        spec.components.schema(view_name(game_id), view)


def view_name(game_id: str) -> str:
    """The name of a game's view schema in the components: ``WizardView``."""
    return f"{_pascal(game_id)}View"


def game_view(description: str) -> dict[str, Any]:
    """A ``state`` member: one of the games' views (each view's members tell the games apart: a
    client narrows by one only its game's view has, e.g. ``trump_card`` for Wizard)."""
    return {"description": description, "oneOf": [{"$ref": _ref(view_name(g))} for g in VIEWS]}


def action_body() -> dict[str, Any]:
    """The action request body: any game's action, each game's a union discriminated by ``type``."""
    unions = [{"$ref": f"#/components/schemas/{_pascal(g.id)}Action"} for g in all_games().values()]
    return {"anyOf": unions}


def _type_create_body(spec: APISpec) -> None:
    """The create body, ``CreateMatch``, as a union of the games' bodies discriminated by
    ``game``: each fixes ``game``, counts the players as the game allows and takes the game's
    setup and options. The request schema's own members give the rest (time zone, location); the
    server loads the body as before, the game then checks the setup and options."""
    schemas = spec.components.schemas
    common = schemas["CreateMatch"]["properties"]
    mapping = {}
    for game in all_games().values():
        name = f"{_pascal(game.id)}CreateMatch"
        mapping[game.id] = _ref(name)
        schemas[name] = _create_body(game, common)
    schemas["CreateMatch"] = {
        "description": "A new match: the game, its players in seat order, and the game's setup "
        "and options; `game` says which game's body it is.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }


def _ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def _complete(path: str, method: str, operation: dict[str, Any]) -> None:
    op_id = OPERATION_IDS.get((method, path)) or _camel(method, path)
    operation["operationId"] = op_id
    if op_id == "forkMatch":
        operation["security"] = [{}, {BEARER: []}, {API_KEY: []}, {BEARER: [], API_KEY: []}]
    elif op_id in CREATING:
        operation["security"] = [{}, {API_KEY: []}]
    elif op_id in TOKEN_OPTIONAL:
        operation["security"] = [{}, {BEARER: []}]
    elif op_id in TABLE_ONLY:
        operation["security"] = [{BEARER: []}]
    elif op_id in HOOKS:
        operation["security"] = [{API_KEY: []}]
    elif method == "post":
        operation["security"] = [{BEARER: []}] if op_id in TOKEN_WRITES else []
    if op_id in HEADERS:
        operation.setdefault("parameters", []).extend(HEADERS[op_id])
    responses = operation.setdefault("responses", {})
    for status in _errors(path, method, op_id, "requestBody" in operation):
        responses.setdefault(str(status), ERRORS[status][0])
    if op_id == "recordAction":
        operation["requestBody"]["content"]["application/json"]["schema"] = action_body()


def _errors(path: str, method: str, op_id: str, has_body: bool) -> list[int]:
    found = [400]
    if "{" in path:
        found.append(404)
    if has_body:
        found += [413, 415]
    if method == "post" and op_id not in PER_ITEM:
        found.append(422)
    if op_id in TOKEN_WRITES:
        found += [401, 403, 429] if op_id in PER_ITEM else [401, 403, 409, 412, 429]
    if op_id in CREATING:
        found += [401, 403, 429]
    if op_id in TABLE_ONLY or op_id == "recoverToken":
        found += [401, 403] if op_id in TABLE_ONLY else [403]
    if op_id == "exportMatch":
        found.append(409)
    if op_id in HOOKS:
        found += [401, 403]
    if op_id in TOKEN_OPTIONAL:
        found.append(403)
    if op_id not in ("getHealth", "listGames", "getGame", "getMetrics"):
        found.append(503)
    return sorted(set(found))


def _game_schemas(game: Any) -> dict[str, dict[str, Any]]:
    prefix = _pascal(game.id)
    found: dict[str, dict[str, Any]] = {}
    mapping: dict[str, str] = {}
    for action, schema in game.actions.items():
        name = f"{prefix}{_pascal(action)}Action"
        found[name] = _action_schema(action, schema)
        mapping[action] = f"#/components/schemas/{name}"
    found[f"{prefix}Action"] = {
        "description": f"An action of {game.title}; `type` says which.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    found[f"{prefix}Setup"] = _plain(game.setup_schema)
    found[f"{prefix}Options"] = _plain(game.options_schema)
    return found


def _create_body(game: Any, common: dict[str, Any]) -> dict[str, Any]:
    prefix = _pascal(game.id)
    counted = {"minItems": game.min_players, "maxItems": game.max_players}
    return {
        "type": "object",
        "description": f"A new match of {game.title}.",
        "properties": {
            "game": {"type": "string", "const": game.id},
            "players": {**common["players"], **counted},
            "setup": {"$ref": _ref(f"{prefix}Setup")},
            "options": {"$ref": _ref(f"{prefix}Options")},
            "timezone": common["timezone"],
            "location": common["location"],
        },
        "required": ["game", "players"] + (["setup"] if game.setup_schema.get("required") else []),
        "additionalProperties": False,
    }


def _action_schema(action: str, schema: Any) -> dict[str, Any]:
    shaped = _plain(schema)
    shaped["properties"] = {"type": {"type": "string", "const": action}} | dict(shaped.get("properties", {}))
    shaped["required"] = ["type", *[r for r in shaped.get("required", []) if r != "type"]]
    shaped.setdefault("type", "object")
    return shaped


def _plain(schema: Any) -> dict[str, Any]:
    """A game's JSON Schema as an OpenAPI 3.1 schema object (the dialect is the document's)."""
    return {k: v for k, v in dict(schema).items() if k != "$schema"}


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def _camel(method: str, path: str) -> str:
    words = [w for w in re.split(r"[^A-Za-z0-9]+", path) if w and w != "v1"]
    name = _pascal(" ".join([method, *words]))
    return name[0].lower() + name[1:]
