"""The catalogs: every message has its 简体中文 and 日本語 translation, the compiled .mo files say
what the .po files say, and the template holds every message the code marks."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from service.language import catalogs

ROOT = Path(__file__).parents[1]
TRANSLATED = ("zh_Hans", "ja")
PLACEHOLDER = re.compile(r"\{(\w+)(?:![rsa])?\}")


def _po(locale: str):  # type: ignore[no-untyped-def]
    with open(catalogs.DIRECTORY / locale / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=locale)


def _forms(message) -> list[str]:  # type: ignore[no-untyped-def]
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_in_the_compiled_catalog_is_translated(locale: str) -> None:
    with open(catalogs.DIRECTORY / locale / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        compiled = read_mo(mo)
    with open(catalogs.DIRECTORY / "messages.pot", "rb") as pot:
        wanted = [m.id for m in read_po(pot) if m.id]
    untranslated = [m for m in wanted if not all(_forms(compiled[m]) if compiled.get(m) else [""])]
    assert not untranslated, f"translate these in {locale}/LC_MESSAGES/messages.po: {untranslated[:10]}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_a_translation_keeps_every_placeholder_of_its_message(locale: str) -> None:
    for message in _po(locale):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) - {"count"}
        for form in _forms(message):
            assert wanted <= set(PLACEHOLDER.findall(form)), (locale, message.id, form)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_compiled_catalog_is_the_po_file_compiled(locale: str) -> None:
    with open(catalogs.DIRECTORY / locale / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        committed = mo.read()
    fresh = io.BytesIO()
    write_mo(fresh, _po(locale))
    assert committed == fresh.getvalue(), "run make translations: the .mo is older than the .po"


def test_the_template_holds_every_message_the_code_marks(tmp_path: Path) -> None:
    keywords = re.search(r"BABEL_KEYWORDS := (.*?)\n(?!\t)", (ROOT / "Makefile").read_text(), re.DOTALL)
    assert keywords is not None
    args = keywords.group(1).replace("\\\n", " ").split()
    pybabel = Path(sys.executable).parent / "pybabel"
    made = {}
    for name, cfg, marks in (
        ("code", "babel.cfg", args),
        ("pages", "babel-js.cfg", ["-k", "t:1", "-k", "tn:1,2"]),
    ):
        out = tmp_path / f"{name}.pot"
        subprocess.run(
            [str(pybabel), "-q", "extract", "-F", cfg, *marks, "-o", str(out), "."], cwd=ROOT, check=True
        )
        with open(out, "rb") as pot:
            made.update({m.id: m for m in read_po(pot) if m.id})
    with open(catalogs.DIRECTORY / "messages.pot", "rb") as pot:
        kept = {m.id for m in read_po(pot) if m.id}
    assert not sorted(set(made) - kept, key=str), "run make translations: the template misses messages"


def test_no_refusal_in_games_is_an_f_string_the_catalogs_cannot_hold() -> None:
    import ast

    at = {"fail": 1, "require": 2, "RuleViolation": 1, "InvalidAction": 1, "words": 0}
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            place = at.get(name)
            if place is not None and len(node.args) > place and isinstance(node.args[place], ast.JoinedStr):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"give these a template with named values instead of an f-string: {found}"
