"""A body that is not JSON, said as a sentence: where it went wrong and what would be right.

"Invalid JSON body." tells a person at a table nothing; JSON pasted from a phone usually fails on
curly quotes, and JSON typed by hand on single quotes or a trailing comma. The sentence names the
line and column (counted from 1) and the likely fix; the parser's own words are kept for programs.
"""

from __future__ import annotations

from typing import Any

from games.contract import Message

CURLY = "\u201c\u201d\u2018\u2019\u201e\u201f\uff02\u300c\u300d"


def _place(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def explain(body: bytes, error: Any) -> tuple[Message, dict[str, Any]]:
    """The sentence for a body that does not parse, and the details for programs."""
    text = body.decode("utf-8", errors="replace")
    found = getattr(error, "msg", None) or str(error)
    details: dict[str, Any] = {"parser": found}
    if not text.strip():
        return Message("the body is empty: send a JSON object"), details
    curly = next((i for i, c in enumerate(text) if c in CURLY), None)
    if curly is not None:
        line, column = _place(text, curly)
        details.update(line=line, column=column)
        return Message(
            'curly quotes at line {line}, column {column}: use straight quotes (")', line=line, column=column
        ), details
    at = getattr(error, "pos", None)
    line, column = _place(text, at) if isinstance(at, int) and at <= len(text) else (1, 1)
    details.update(line=line, column=column)
    if "'" in text and '"' not in text:
        return Message(
            'single quotes at line {line}, column {column}: JSON takes double quotes (")',
            line=line,
            column=column,
        ), details
    return Message(
        "the body is not JSON: something is wrong at line {line}, column {column} "
        "(a missing comma or quote, or a comma before a closing bracket)",
        line=line,
        column=column,
    ), details
