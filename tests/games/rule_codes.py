"""Every rule code games/ can raise, found by reading its source (an AST walk, not a grep).

A code is the first argument of ``RuleViolation``, ``InvalidAction`` or ``fail`` (the second of
``require``), the ``"code"`` of a dispute, or the code half of a ``(code, sentence)`` pair
(the sentence an f-string or a ``words(...)`` phrase) that a
game hands to ``fail(*pair)`` (Hats says where a card lies that way).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import games

GAMES_DIR = Path(games.__file__).parent
_RAISERS = {"RuleViolation": 0, "InvalidAction": 0, "fail": 0, "require": 1}


def codes_by_place() -> dict[str, set[str]]:
    """Each code and where it is raised: a game's package name, or ``games`` for shared modules."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(GAMES_DIR.rglob("*.py")):
        place = path.parent.name if path.parent != GAMES_DIR else "games"
        for code in _codes(ast.parse(path.read_text(encoding="utf-8"))):
            found[code].add(place)
    return dict(found)


def _codes(tree: ast.AST) -> list[str]:
    codes: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            codes += _raised(node)
        elif isinstance(node, ast.Dict):
            codes += [
                value.value
                for key, value in zip(node.keys, node.values, strict=True)
                if _text(key) == "code" and isinstance(_text(value), str)
            ]
        elif isinstance(node, ast.Tuple) and len(node.elts) == 2 and _is_sentence(node.elts[1]):
            code = _text(node.elts[0])
            if isinstance(code, str) and code.replace("_", "").isalpha() and code.islower():
                codes.append(code)
    return codes


def _is_sentence(node: ast.AST) -> bool:
    """An f-string, or a phrase for the catalogs: ``words("{card} is on the tea table", ...)``."""
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "words"


def _raised(call: ast.Call) -> list[str]:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    at = _RAISERS.get(name)
    if at is None or len(call.args) <= at:
        return []
    code = _text(call.args[at])
    return [code] if isinstance(code, str) else []


def _text(node: ast.AST | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None
