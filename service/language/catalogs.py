"""The compiled catalogs: which locales there are, how a tag maps to one, and translating.

Used where no request is at hand (the CLI) and by the HTTP edge through flask-babel, which reads
the same files.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations

from games.contract import Message

DIRECTORY = Path(__file__).parent / "translations"
DEFAULT = "en"
LOCALES = ("en", "zh_Hans", "ja")
# What each locale is called in its own language, for the language switcher.
NAMES = {"en": "English", "zh_Hans": "简体中文", "ja": "日本語"}
# The HTML lang attribute / Content-Language of each locale (BCP 47).
TAGS = {"en": "en", "zh_Hans": "zh-Hans", "ja": "ja"}
_TRADITIONAL = ("hant", "tw", "hk", "mo")


def N_(text: str) -> str:
    """Mark an English msgid for the catalogs where it is written; translated where it is shown."""
    return text


def locale_of(tag: str) -> str | None:
    """The locale a language tag asks for (``zh``, ``zh-CN``, ``zh-Hans``, ``zh-SG`` are
    zh_Hans; ``ja-JP`` is ja; ``*`` and ``en-*`` are en), or None when tabletape does not speak it.
    Traditional Chinese (zh-Hant, zh-TW, zh-HK, zh-MO) is not Simplified: None."""
    parts = tag.strip().replace("_", "-").lower().split("-")
    if parts[0] == "*":
        return DEFAULT
    if parts[0] == "zh":
        return None if any(p in _TRADITIONAL for p in parts[1:]) else "zh_Hans"
    if parts[0] in ("ja", "en"):
        return parts[0]
    return None


def best(tags: Iterable[str]) -> str | None:
    """The first of ``tags`` (most wanted first) that tabletape speaks."""
    for tag in tags:
        found = locale_of(tag)
        if found is not None:
            return found
    return None


@functools.cache
def translations(locale: str) -> NullTranslations:
    """The compiled catalog of ``locale`` (English: the messages as written)."""
    if locale == DEFAULT:
        return NullTranslations()
    return Translations.load(str(DIRECTORY), [locale], domain="messages")


def translator(locale: str) -> Any:
    """A function that translates one Message's template in ``locale`` (for Message.render)."""
    catalog = translations(locale)

    def translate(message: Message) -> str:
        if message.plural is not None:
            return catalog.ngettext(message.template, message.plural, int(message.values.get("count", 0)))
        return catalog.gettext(message.template)

    return translate


def render(message: Message | str, locale: str) -> str:
    """A Message (or a plain English msgid) in ``locale``."""
    if isinstance(message, str):
        return translations(locale).gettext(message)
    return message.render(translator(locale))


def exported(locale: str) -> dict[str, Any]:
    """The catalog of ``locale`` as JSON for the pages' JavaScript: {msgid: msgstr}, and for a
    plural message {singular: [forms]}; the same .mo the server reads, so there is no second table."""
    catalog = translations(locale)
    found: dict[str, Any] = {}
    forms: dict[str, dict[int, str]] = {}
    for key, value in getattr(catalog, "_catalog", {}).items():
        if isinstance(key, tuple):
            forms.setdefault(key[0], {})[key[1]] = value
        elif key and value:
            found[key] = value
    for singular, by_index in forms.items():
        found[singular] = [by_index[i] for i in sorted(by_index)]
    return found
