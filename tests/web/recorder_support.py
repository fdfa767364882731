"""Driving the recorder in Chromium at phone width: a page, the new-match form, and taps chosen
from the controls the page offers (read from their data-* attributes, as a person would pick)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.web.conftest import Watched, watching

PHONE = {"width": 375, "height": 740}


@pytest.fixture
def phone(browser: Any) -> Iterator[Watched]:
    """A page on a 375 px wide touch screen whose JavaScript errors are collected."""
    with watching(browser, 15_000, viewport=PHONE, is_mobile=True, has_touch=True) as seen:
        yield seen


def no_sideways_scrolling(page: Any) -> None:
    """The page is no wider than the screen."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the page is {wide} px wide"


def settled(page: Any) -> None:
    """Wait until the recorder has drawn its answer and sends nothing."""
    page.wait_for_selector("#recorder[data-busy='0']")


def moved_on(page: Any, before: str | None) -> None:
    """Wait until the recorder shows the answer after a recorded action (a newer version)."""
    page.wait_for_function(
        "v => { const r = document.getElementById('recorder');"
        " const refused = document.getElementById('alert').textContent !== '';"
        " return r.dataset.busy === '0' && (r.dataset.version !== v || refused); }",
        arg=before,
    )
    assert page.get_attribute("#status", "data-state") == "recorded", page.text_content("#alert")


def record_path(match_id: str) -> str:
    """The recorder's path for a match."""
    return f"/matches/{match_id}/record"


def create_with_form(
    page: Any, site: str, game: str, players: list[str], setup: dict[str, Any], options: dict[str, Any]
) -> str:
    """Fill /new?game=… as a person would and create the match; the recorder's match id."""
    page.goto(f"{site}/new?game={game}")
    page.wait_for_selector("#seats input[name='players']")
    while page.locator("input[name='players']").count() < len(players):
        page.click("#add-seat")
    for i, name in enumerate(players):
        page.locator("input[name='players']").nth(i).fill(name)
    for part, values in (("setup", setup), ("options", options)):
        for key, value in values.items():
            fill(page, f"{part}.{key}", value)
    page.click("#create")
    page.wait_for_url("**/record")
    settled(page)
    return str(page.url.split("/")[-2])


def fill(page: Any, name: str, value: Any) -> None:
    """Set the form's control(s) for one field: a map by player, a short list, or one value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            fill(page, f"{name}.{key}", inner)
        return
    controls = page.locator(f"[name='{name}']")
    if isinstance(value, list) and controls.count() > 1:
        for i, item in enumerate(value):
            one = controls.nth(i)
            if one.evaluate("c => c.tagName") == "SELECT":
                one.select_option(str(item))
            else:
                one.fill(str(item))
        return
    control = controls.first
    kind = control.evaluate("c => c.tagName + ':' + (c.type || '')")
    if kind.startswith("SELECT"):
        control.select_option([str(v) for v in value] if isinstance(value, list) else str(value))
    elif kind.endswith("checkbox"):
        control.set_checked(bool(value))
    else:
        control.fill(" ".join(value) if isinstance(value, list) else str(value))


def tap_first(
    page: Any, prefer: tuple[str, ...] = (), optional: tuple[str, ...] = (), rng: random.Random | None = None
) -> str:
    """Record the first action offered (of a preferred type when there is one), with the first
    value each field allows (and of the optional fields named, the first not taken yet); its type.
    With ``rng``: a random action offered, and a random value each field allows."""
    if rng is not None:
        return tap_random(page, rng, optional)
    entry = page.locator("#choices .entry").first
    for kind in prefer:
        if page.locator(f"#choices .entry[data-entry='{kind}']").count():
            entry = page.locator(f"#choices .entry[data-entry='{kind}']").first
            break
    kind = str(entry.get_attribute("data-entry"))
    send = entry.locator("[data-submit]")
    values = entry.locator("[data-value]")
    if send.count() and not values.count():
        send.click()
        return kind
    if not send.count():
        values.first.click()
        return kind
    taken: set[str] = set()
    for group in entry.locator(".field-group").all():
        shown = group_shown(group)
        if shown["pressed"] or not shown["values"]:
            continue
        chosen_by_name = "(optional)" in shown["label"]
        if chosen_by_name and shown["values"][0]["field"] not in optional:
            continue
        enabled = [v for v in shown["values"] if v["enabled"]]
        if not chosen_by_name:
            tap_value(group, enabled[0])
            continue
        # Optional values that exclude each other (Hat Trick's colour and grey props): one each.
        free = [v for v in enabled if v["value"] not in taken]
        if free:
            taken.add(free[0]["value"])
            tap_value(group, free[0])
    send.click()
    return kind


def tap_random(page: Any, rng: random.Random, optional: tuple[str, ...] = ()) -> str:
    """Record a random action offered with random values, as the page allows them, field by field
    (of the optional fields named, a value not taken by another)."""
    entry = rng.choice(page.locator("#choices .entry").all())
    kind = str(entry.get_attribute("data-entry"))
    send = entry.locator("[data-submit]")
    if not send.count():
        rng.choice(entry.locator("[data-value]").all()).click()
        return kind
    taken: set[str] = set()
    for group in entry.locator(".field-group").all():
        shown = group_shown(group)
        enabled = [v for v in shown["values"] if v["enabled"]]
        if not enabled or shown["pressed"]:
            continue
        if "(optional)" in shown["label"]:
            enabled = [v for v in enabled if v["value"] not in taken]
            if not enabled or enabled[0]["field"] not in optional:
                continue
        picked = rng.choice(enabled)
        taken.add(picked["value"])
        tap_value(group, picked)
    send.click()
    return kind


# A field group as the page shows it, read in one call: its label, whether a value of it is
# pressed, and each of its values (the buttons are tapped by Playwright, as a person taps them).
_GROUP_SHOWN = """group => ({
    label: group.getAttribute('aria-label') || '',
    pressed: group.querySelector("[aria-pressed='true']") !== null,
    values: [...group.querySelectorAll('[data-value]')].map((button, index) => ({
        index, value: button.dataset.value, field: button.dataset.field, enabled: button.matches(':enabled'),
    })),
})"""


def group_shown(group: Any) -> dict[str, Any]:
    """A field group's label, whether one of its values is pressed, and its values."""
    shown: dict[str, Any] = group.evaluate(_GROUP_SHOWN)
    return shown


# A value's button brought into sight, and whether a tap at its centre reaches it (not a bar or
# a dialog over it): what Playwright's click checks first, in one call instead of several
# animation frames, as a match of a hundred taps needs.
_IN_REACH = """button => {
    button.scrollIntoView({block: 'center', inline: 'center'});
    const box = button.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const at = document.elementFromPoint(x, y);
    const reached = box.width > 0 && box.height > 0 && at !== null && button.contains(at);
    return {x, y, reached, over: at === null ? null : at.outerHTML.slice(0, 120)};
}"""


def tap_value(group: Any, value: dict[str, Any]) -> None:
    """Tap one of a group's values (``group_shown``'s) where a finger would: at its centre."""
    reach = group.locator("[data-value]").nth(value["index"]).evaluate(_IN_REACH)
    assert reach["reached"], f"{value['value']!r} cannot be tapped: {reach['over']} is over it"
    group.page.mouse.click(reach["x"], reach["y"])


def tap_through(page: Any, limit: int, prefer: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> int:
    """Tap the first legal choice until the match is over; the number of actions recorded."""
    for done in range(limit):
        settled(page)
        if page.text_content("#turn") == "The match is over.":
            return done
        before = page.get_attribute("#recorder", "data-version")
        tap_first(page, prefer, optional)
        moved_on(page, before)
    raise AssertionError(f"the match did not end within {limit} actions")


def shown_totals(page: Any) -> str:
    """The score sheet's text, opened with one tap."""
    page.click("#sheet-open")
    page.wait_for_selector("#sheet-body .sheet-body")
    text = str(page.text_content("#sheet-body"))
    page.click("#sheet form button")
    return text


def api_log(site: str, match_id: str) -> list[dict[str, Any]]:
    """The match's raw log, every event in order."""
    answer = requests.get(f"{site}/v1/matches/{match_id}/events", params={"limit": 1000}, timeout=10)
    answer.raise_for_status()
    body = answer.json()
    return list(body["events"] if isinstance(body, dict) else body)


# game: players, setup, options, the action types to prefer (a short way through), most actions.
MATCHES: dict[str, tuple[list[str], dict[str, Any], dict[str, Any], tuple[str, ...], int]] = {
    # A name may hold dots (a field nests at its first dot only) and be in any script.
    "wizard": (
        ["ann", "j.r.", "cy", "dee", "eli", "fay"],
        {"first_dealer": "j.r."},
        {},
        ("record_round",),
        12,
    ),
    "hobbit": (
        ["j.r.", "bob"],
        {"characters": {"j.r.": "bilbo", "bob": "smaug"}},
        {"rounds": 1},
        (),
        400,
    ),
    "hats": (
        ["ann", "bob"],
        {
            "start_player": "ann",
            "removed_types": ["pink", "purple"],
            "table": ["red-1", "orange-2", "yellow-3", "green-4", "blue-5"],
        },
        {},
        ("swap", "black_hat", "favourite"),
        80,
    ),
    "other-hat-trick": (
        ["ann", "bob", "cy"],
        {"first_player": "cy", "first_trick": "hungry-rabbit"},
        {},
        (),
        300,
    ),
    "hat-trick": (["ann", "bob"], {}, {"target": 1}, ("reveal", "judge", "declare"), 40),
}
