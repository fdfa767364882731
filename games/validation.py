"""Shape checks shared by every game: actions, setup and options against the game's JSON Schemas."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator, ValidationError

from games.contract import Action, Game, InvalidAction, Message, words
from games.players import invisible_in, name_key, seat_name
from games.sentences import explain

# Building a validator costs far more than using one; a game's schemas never change.
_VALIDATORS: dict[int, tuple[Mapping[str, Any], Draft202012Validator, Any]] = {}


def schema_validators(schema: Mapping[str, Any]) -> tuple[Draft202012Validator, Any]:
    """The reference validator (jsonschema: its messages are the API's) and a compiled one
    (jsonschema-rs, some fifty times faster) that answers only whether a value fits."""
    cached = _VALIDATORS.get(id(schema))
    if cached is None or cached[0] is not schema:
        cached = (schema, Draft202012Validator(schema), jsonschema_rs.validator_for(dict(schema)))
        _VALIDATORS[id(schema)] = cached
    return cached[1], cached[2]


def _first_error(schema: Mapping[str, Any], value: Any, what: str) -> None:
    reference, compiled = schema_validators(schema)
    # The common value fits: the compiled validator says so; only a misfit is explained, by the
    # reference validator, whose verdict stands (a test keeps the two agreeing).
    try:
        if compiled.is_valid(value):
            return
    except (ValueError, TypeError, OverflowError):
        pass  # a value JSON cannot hold (a key that is not a string): the reference explains it
    errors = sorted(reference.iter_errors(value), key=lambda e: (len(e.path), e.message))
    if not errors:
        return
    refusal = InvalidAction(f"invalid_{what.split()[0]}", explain(errors[0], _whole(what)))
    refusal.extra = {"errors": [machine_details(e) for e in errors[:10]]}
    raise refusal


def _whole(what: str) -> Message:
    kind, _, name = what.partition(" ")
    if kind == "action":
        return words("the action {action}", action=name.strip("'"))
    return words("the setup") if kind == "setup" else words("the options")


def machine_details(error: ValidationError) -> dict[str, Any]:
    """What a program reads of one schema error (the ``errors`` member of the problem)."""
    return {
        "path": list(error.path),
        "validator": error.validator,
        "expected": error.validator_value if not isinstance(error.validator_value, dict) else None,
        "message": error.message,
    }


def validate_action(game: Game, action: Any) -> Action:
    """Check an action's type and fields against the game's published schema."""
    if not isinstance(action, dict):
        raise InvalidAction("invalid_action", "an action must be a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in game.actions:
        # The decider owns the sentence; it imports this module, so this one imports it here.
        from games.decider import unknown_action

        raise unknown_action(game.title, kind, game.actions)
    fields = {k: v for k, v in action.items() if k != "type"}
    if not _fits(game.actions[kind], fields):
        _first_error(game.actions[kind], fields, f"action '{kind}'")
    return dict(action)


def _fits(schema: Mapping[str, Any], value: Any) -> bool:
    """Whether the compiled validator finds that ``value`` fits (every write asks; only a misfit
    is explained, and its sentence built, by ``_first_error``)."""
    try:
        return bool(schema_validators(schema)[1].is_valid(value))
    except (ValueError, TypeError, OverflowError):
        return False


def with_defaults(schema: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """The given object with each missing top-level property set to its schema default."""
    filled = copy.deepcopy(dict(given))
    for name, prop in schema.get("properties", {}).items():
        if name not in filled and "default" in prop:
            filled[name] = copy.deepcopy(prop["default"])
    return filled


def _refuse_same_names(names: list[str]) -> None:
    """Refuse two seats one name means: names are told apart by ``name_key`` (ignoring case, width
    and Unicode form), as actions and statistics find players, so ``ann`` and ``ANN`` would be one
    person."""
    seen: dict[str, str] = {}
    for name in names:
        first = seen.get(name_key(name))
        if first is None:
            seen[name_key(name)] = name
            continue
        if first == name:
            raise InvalidAction(
                "invalid_players", "{name!r} is seated twice: give each player a different name", name=name
            )
        how = (
            words("only in case")
            if first.casefold() == name.casefold()
            else words("only in how they are typed")
        )
        raise InvalidAction(
            "invalid_players",
            "{first!r} and {name!r} differ {how} (case, width or accents written apart), and "
            "tabletape takes them for one person: give each player a different name",
            first=first,
            name=name,
            how=how,
        )


def validate_match(
    game: Game, players: Any, setup: Any, options: Any
) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """Check players, setup and options; return them with the options' defaults filled in."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidAction("invalid_players", "players must be a list of names")
    names = [seat_name(p) for p in players]
    if any(not n for n in names):
        raise InvalidAction("invalid_players", "a player's name may not be empty")
    for name in names:
        invisible = invisible_in(name)
        if invisible:
            raise InvalidAction("invalid_players", invisible)
    _refuse_same_names(names)
    if not game.min_players <= len(names) <= game.max_players:
        span = (
            str(game.min_players)
            if game.min_players == game.max_players
            else f"{game.min_players} to {game.max_players}"
        )
        raise InvalidAction(
            "player_count",
            "{title} is played by {span} players, not {count}",
            title=game.title,
            span=span,
            count=len(names),
        )
    setup = {} if setup is None else setup
    options = {} if options is None else options
    if not isinstance(setup, dict):
        raise InvalidAction("invalid_setup", "setup must be a JSON object")
    if not isinstance(options, dict):
        raise InvalidAction("invalid_options", "options must be a JSON object")
    _first_error(game.setup_schema, setup, "setup")
    filled = with_defaults(game.options_schema, options)
    _first_error(game.options_schema, filled, "options")
    return names, setup, filled
