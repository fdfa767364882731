"""What a page fetches, and what waits on what: on a phone's network every wait is a round trip.

Each page names the ES modules it runs, so that a phone fetches them at once, and no others; the
recorder's page names its match's game's words too, and asks for its match's choices and its
game's title while the match loads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from service.web import module_graph
from tests.web.conftest import open_viewer, record, shown_step, wait_for_viewer, wizard_rounds

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# A page, and what shows once its modules have run.
PAGES = {
    "viewer": ("/matches/{id}", "#viewer[data-loaded]"),
    "embed": ("/embed/{id}", "#viewer[data-loaded]"),
    "recorder": ("/matches/{id}/record", "#recorder[data-busy='0']"),
    "seat": ("/matches/{id}/seat/ann", "#recorder[data-busy='0']"),
    "new match": ("/new", "#seats input[name='players']"),
    "index": ("/", "#matches[data-query]"),
}


def modules_fetched(browser: Any, url: str, ready: str, preloads: bool) -> tuple[set[str], set[str]]:
    """The modules a fresh browser fetches opening ``url``, and those the page names to preload.

    Without ``preloads`` the page arrives with its modulepreload links taken out, so that only what
    its modules import is fetched. Service workers are kept out: the page's own fetches are counted.
    """
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        fetched: set[str] = set()
        page.on("request", lambda r: fetched.add(urlsplit(r.url).path) if r.url.endswith(".js") else None)

        def without_preloads(route: Any) -> None:
            answer = route.fetch()
            lines = answer.text().splitlines()
            route.fulfill(response=answer, body="\n".join(x for x in lines if 'rel="modulepreload"' not in x))

        if not preloads:
            page.route(url, without_preloads)
        page.goto(url)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        named = page.eval_on_selector_all(
            "link[rel=modulepreload]", "links => links.map(l => new URL(l.href).pathname)"
        )
        return fetched, set(named)
    finally:
        context.close()


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_names_every_module_it_imports_and_fetches_no_other(
    site: str, browser: Any, example: Any, name: str
) -> None:
    path, ready = PAGES[name]
    url = site + path.format(id=example("hobbit").id)
    imported, none_named = modules_fetched(browser, url, ready, preloads=False)
    fetched, named = modules_fetched(browser, url, ready, preloads=True)
    assert none_named == set()
    # Every module the page imports as it loads is named at once. On the new-match page only the
    # chosen game's labels (and what they import) come after: it imports them once a game is
    # chosen. Nothing else is fetched.
    labels = {m for m in imported if "/recorder/labels/" in m}
    later = {f"/assets/{m}" for label in labels for m in module_graph(label.removeprefix("/assets/"))}
    assert named <= imported
    assert imported - named <= later
    assert fetched == imported
    if name in ("recorder", "seat"):
        # The recorder's page names its match's game's words (and the board module they import).
        assert named == imported
        assert {"/assets/js/recorder/labels/hobbit.js", "/assets/js/boards/common.js"} <= named
    if name in ("viewer", "embed"):
        assert "/assets/js/viewer.js" in named and "/assets/js/boards/hobbit.js" in named
        assert named == imported
        # A spectator's phone fetches its match's board (and what it imports), no other game's.
        board = {f"/assets/{m}" for m in module_graph("js/boards/hobbit.js")}
        assert {m for m in fetched if "/boards/" in m} == {m for m in board if "/boards/" in m} | {
            "/assets/js/boards/registry.js"
        }
        assert not [m for m in fetched if "/recorder/" in m], "a spectator's phone fetches recorder code"
    else:
        assert not [m for m in fetched if m.endswith(("/viewer.js", "/chart.js"))]


def asked_and_answered(browser: Any, url: str, ready: Callable[[Any], object]) -> list[tuple[str, str]]:
    """Each request of a fresh page opening ``url`` until ``ready(page)`` returns, in order, as
    ("asked", path) and ("answered", path). Each answer takes 200 ms, as on a slow mobile network,
    so what waits on what shows in the order."""
    context = browser.new_context(service_workers="block")
    seen: list[tuple[str, str]] = []
    try:
        page = context.new_page()
        context.new_cdp_session(page).send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 200, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        page.on("request", lambda r: seen.append(("asked", urlsplit(r.url).path)))
        page.on("requestfinished", lambda r: seen.append(("answered", urlsplit(r.url).path)))
        page.goto(url)
        ready(page)
    finally:
        context.close()
    return seen


def test_the_recorder_asks_for_its_choices_and_its_game_s_words_and_title_while_the_match_loads(
    site: str, browser: Any, example: Any
) -> None:
    match = example("wizard")
    seen = asked_and_answered(
        browser,
        f"{site}/matches/{match.id}/record#token={match.token}",
        lambda page: page.wait_for_selector("#recorder[data-busy='0'] #choices [data-value]"),
    )

    def at(event: str, path: str) -> int:
        return seen.index((event, path))

    read = f"/v1/matches/{match.id}"
    # The choices and the state are asked for before the match's own answer is in.
    assert at("asked", f"{read}/next") < at("answered", read)
    assert at("asked", f"{read}/state") < at("answered", read)
    # So are the game's words and the board module they import (the page names them) and its
    # title: nothing waits on the match's answer to learn its game.
    assert at("asked", "/assets/js/recorder/labels/wizard.js") < at("answered", read)
    assert at("asked", "/assets/js/boards/wizard.js") < at("answered", read)
    assert at("asked", "/v1/games/wizard") < at("answered", read)
    # Each is read once.
    assert [p for e, p in seen if e == "asked" and p.startswith(read)].count(f"{read}/next") == 1


def test_the_viewer_asks_for_its_first_steps_with_the_match(site: str, browser: Any, example: Any) -> None:
    match = example("wizard")
    seen = asked_and_answered(browser, f"{site}/matches/{match.id}", wait_for_viewer)
    read = f"/v1/matches/{match.id}"
    # The page names its match's game and newest step: the steps shown first and the game's title
    # are asked for before the match's own answer is in, each once.
    assert seen.index(("asked", f"{read}/replay")) < seen.index(("answered", read))
    assert seen.index(("asked", "/v1/games/wizard")) < seen.index(("answered", read))
    assert [p for e, p in seen if e == "asked"].count("/v1/games/wizard") == 1


def test_a_viewer_page_served_before_the_match_went_on_shows_the_match_as_it_is(site: str, page: Any) -> None:
    script = wizard_rounds(["ann", "bob"], 2)
    match = record(site, "wizard", script)
    headers = {"Authorization": f"Bearer {match.token}"}
    assert requests.post(f"{site}/v1/matches/{match.id}/undo", headers=headers, timeout=5).status_code == 201
    # The last round recorded again: the newest step is an action's, after the undo.
    version = match.act(site, script["actions"][-1])["version"]

    def shown() -> tuple[int, list[str], int]:
        wait_for_viewer(page)
        undone = page.eval_on_selector_all("#events li.undone", "items => items.map(li => li.dataset.step)")
        return shown_step(page), undone, page.locator("#events li").count()

    open_viewer(page, site, match.id)
    now = shown()
    assert now[1], "the undone round is marked"

    # The same page as served one step earlier, before the round was recorded again: the steps it
    # asks for at once end before it, and the viewer asks again once the match's answer names it.
    def earlier(route: Any) -> None:
        answer = route.fetch()
        served = answer.text()
        assert f'data-version="{version}"' in served
        older = served.replace(f'data-version="{version}"', f'data-version="{version - 1}"')
        route.fulfill(response=answer, body=older)

    page.route(f"{site}/matches/{match.id}", earlier)
    page.goto(f"{site}/matches/{match.id}")
    assert shown() == now
