"""The reader's language, negotiated as the web does it, and said back in the answer's headers.

The API follows ``Accept-Language``; the pages follow ``?lang=``, then the language the reader
chose before (the ``lang`` cookie, which ``?lang=`` sets), then the browser's ``Accept-Language``.
English when nothing matches. Every answer carries ``Content-Language`` and
``Vary: Accept-Language`` (a page also ``Vary: Cookie``), so a cache keeps each language apart.
The catalogs are read through flask-babel (``service.language.catalogs`` names them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Flask, Request, Response, g, request
from flask_babel import Babel
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from games.contract import Message
from service.language import catalogs

COOKIE = "lang"
# A remembered choice lasts a year.
COOKIE_AGE = 365 * 24 * 3600


def init_app(app: Flask) -> None:
    """Read the catalogs with flask-babel, choosing the locale per request."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(catalogs.DIRECTORY))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", catalogs.DEFAULT)
    Babel(app, locale_selector=current)


def current() -> str:
    """The locale of this request (chosen once, remembered in ``g``)."""
    chosen = g.get("reader_locale")
    if chosen is None:
        chosen = g.reader_locale = _choose(request)
    return str(chosen)


def render(message: Message | str) -> str:
    """A Message (or an English msgid) in this request's language."""
    return catalogs.render(message, current())


def renderer() -> Callable[[Message], str] | None:
    """``render`` fixed to this request's language, for an answer streamed after the request has
    gone (a live feed); None for an English reader, who reads stored sentences as recorded."""
    locale = current()
    return None if locale == catalogs.DEFAULT else functools.partial(catalogs.render, locale=locale)


def _is_page(req: Request) -> bool:
    return (req.endpoint or "").startswith("web.") or req.path.startswith("/i18n/")


@functools.lru_cache(maxsize=256)
def _for_header(header: str) -> str:
    """The locale an Accept-Language header chooses. Parsing it costs a request more than the rest
    of this step, and a client sends the same header every time: each distinct one is parsed once."""
    asked = parse_accept_header(header, LanguageAccept)
    return catalogs.best(tag for tag, _quality in asked) or catalogs.DEFAULT


def api_locale(environ: dict[str, Any]) -> str:
    """The locale of a request to the API (not a page): what its Accept-Language chooses."""
    header = environ.get("HTTP_ACCEPT_LANGUAGE")
    return _for_header(header) if header else catalogs.DEFAULT


def _choose(req: Request) -> str:
    if _is_page(req):
        for tag in (req.args.get("lang"), req.cookies.get(COOKIE)):
            found = catalogs.locale_of(tag) if tag else None
            if found is not None:
                return found
    return api_locale(req.environ)


def headers(req: Request, ctx: Any, response: Response) -> Response:
    """Say the answer's language and what it varied by; remember a page's ``?lang=`` choice."""
    locale = current()
    response.headers["Content-Language"] = catalogs.TAGS[locale]
    response.vary.add("Accept-Language")
    if _is_page(req):
        response.vary.add("Cookie")
        chosen = req.args.get("lang")
        if chosen and catalogs.locale_of(chosen) == locale and req.cookies.get(COOKIE) != locale:
            response.set_cookie(COOKIE, locale, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
    return response
