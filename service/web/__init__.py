"""The web viewer: HTML pages beside the JSON API.

The pages are static shells; the browser reads everything it shows from the public API
(``/v1/...``) with ``fetch`` and ``EventSource``, so what the API hides stays hidden. Nothing here
reads the store but oEmbed (``oembed.py``), which names the match it embeds through the API's reads,
and a match's pages, which name its game's modules (``match_game``), read from the match's header.
"""

from __future__ import annotations

import posixpath
import re
from functools import cache
from pathlib import Path
from typing import Any

import redis
from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from events.errors import UnknownMatch
from games.registry import all_games
from projections.sharing.importing import MATCH_ID
from service.api import services
from service.http.errors import http_problem
from service.http.language import current
from service.language import catalogs
from service.web import oembed as oembed_answer

blp = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)


# A module's static imports (`import … from "./x.js"`, `import "./x.js"`, `export … from "./x.js"`).
_IMPORTS = re.compile(r"""(?:\bfrom|^\s*import)\s*["'](\.{1,2}/[^"']+\.js)["']""", re.MULTILINE)
_STATIC = Path(__file__).parent / "static"


@cache
def module_graph(entry: str) -> tuple[str, ...]:
    """``entry`` (a path under static/) and every module it imports, however deep, sorted.

    Pages name their entry's graph (`modulepreload`), so that the browser fetches every module at
    once rather than one import after another, and no module the page does not run. Read once
    per process, at its first page.
    """
    seen: set[str] = set()
    waiting = [posixpath.normpath(entry)]
    while waiting:
        module = waiting.pop()
        if module in seen:
            continue
        seen.add(module)
        folder = posixpath.dirname(module)
        for name in _IMPORTS.findall((_STATIC / module).read_text(encoding="utf-8")):
            waiting.append(posixpath.normpath(posixpath.join(folder, name)))
    return tuple(sorted(seen))


def match_game(match_id: str) -> str:
    """The match's game, read from its header (kept per process), for a page that names its
    game's modules; "" when that is not known here: no such match, an id no match can have, a
    store that does not answer now. Such a page learns its game from the match's answer."""
    if not MATCH_ID.fullmatch(match_id):
        return ""
    try:
        game = services().store.header(match_id).get("game", "")
    except (UnknownMatch, redis.RedisError):
        return ""
    return game if game in all_games() else ""


def with_game(entry: str, per_game: str, game: str) -> tuple[str, ...]:
    """``entry``'s module graph, with the graph of ``game``'s own module (``per_game``, a path
    under static/ naming ``{game}``) when there is one.

    On a phone every wait is a round trip: a page that imports its game's module once it knows
    its game would fetch it, then what it imports, one after another, after the match's answer.
    Named in the page, they load with the page's own modules."""
    modules = module_graph(entry)
    own = per_game.format(game=game)
    if not game or not (_STATIC / own).is_file():
        return modules
    return tuple(sorted({*modules, *module_graph(own)}))


@blp.app_context_processor
def page_language() -> dict[str, Any]:
    """What every page needs of its language: its locale and tag, and the switcher's choices."""
    locale = current()
    return {
        "page_locale": locale,
        "page_tag": catalogs.TAGS[locale],
        "page_tags": catalogs.TAGS,
        "page_languages": list(catalogs.NAMES.items()),
    }


@blp.route("/i18n/<locale>.json", methods=["GET"])
def catalog(locale: str) -> Response:
    """A language's catalog for the pages' JavaScript, from the same compiled .mo the server reads."""
    if locale not in catalogs.LOCALES:
        abort(404)
    answer = jsonify(catalogs.exported(locale))
    answer.cache_control.public = True
    answer.cache_control.max_age = 3600
    return answer


@blp.app_errorhandler(404)
def not_found(error: NotFound) -> Any:
    """An address that leads nowhere: a page for a person's browser, a problem for a program.

    A browser asks for HTML first; a program (curl, a client library) takes anything or JSON,
    and the API's addresses always answer JSON."""
    accepts = request.accept_mimetypes
    person = accepts.best_match(["application/json", "text/html"]) == "text/html"
    if person and not request.path.startswith("/v1/"):
        return render_template("not_found.html"), 404
    return http_problem(error)


@blp.route("/", methods=["GET"])
def index() -> str:
    """Recent matches, newest first, filtered by game and player."""
    return render_template("index.html", modules=module_graph("js/index.js"))


@blp.route("/matches", methods=["GET"])
def open_match() -> Response:
    """The match id typed into the index page's form (works without JavaScript too)."""
    match_id = request.args.get("id", "").strip()
    if not match_id:
        return redirect(url_for("web.index"))
    return redirect(url_for("web.viewer", match_id=match_id))


@blp.route("/matches/<match_id>", methods=["GET"])
def viewer(match_id: str) -> str:
    """One match: its board at a step, the event list, step controls, the score chart, live steps."""
    return viewer_page("viewer.html", match_id)


@blp.route("/embed/<match_id>", methods=["GET"])
def embed(match_id: str) -> str:
    """One match for an iframe: its board, step controls and score chart, sized by its container."""
    return viewer_page("embed.html", match_id)


def viewer_page(template: str, match_id: str) -> str:
    """A viewer page (``template``: the viewer or its embed), naming its match's game and newest
    step, and the viewer's modules with its game's board.

    A spectator's phone fetches the board of the match it watches, not every game's
    (``js/boards/registry.js`` imports each on demand), and asks for the steps it shows first,
    its game's title and the match at once: the steps would otherwise wait for the match's answer
    to learn where the match is. A page served a step behind a match that went on meanwhile asks
    for them again once the match's answer names the newer step."""
    game = match_game(match_id)
    version = 0
    if game:
        try:
            version = services().store.version(match_id)
        except (UnknownMatch, redis.RedisError):
            game = ""
    modules = with_game("js/viewer.js", "js/boards/{game}.js", game)
    return render_template(template, match_id=match_id, game=game, version=version, modules=modules)


@blp.route("/oembed", methods=["GET"])
def oembed() -> Response:
    """oEmbed for a viewer URL (``?url=…&format=json``): an iframe of ``/embed/{id}``."""
    return oembed_answer.oembed()  # type: ignore[no-any-return]


# The recorder's pages (/new, /matches/<id>/record, the service worker and the app manifest)
# are routes of this blueprint too, kept in their own module.
from service.web import recorder as _recorder  # noqa: E402,F401
