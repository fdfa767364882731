"""Refusals whose particulars used to stay English, under Accept-Language zh-CN and ja: an
import's line-by-line refusal, a wrong or missing token, a seat recording another's action, the
store's 503s (not now, out of disk, lagging projections, too many live feeds) and the CLI's lines
under LANG. Each says its sentence in the language; only the names programs read (headers,
settings, codes, ids, values the file held) stay as they are spelled."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from redis import exceptions

from events.errors import DiskFull
from projections.projecting.lag import ProjectionsLagging
from service.http.live_slots import LiveSlots, TooManyStreams
from tests.service.conftest import Table
from tests.service.test_sharing import export, send

LANGUAGES = {"zh-CN": re.compile(r"[\u4e00-\u9fff]"), "ja": re.compile(r"[\u3040-\u30ff]")}
# What programs read, spelled as they are: headers, settings, Redis codes, JSON member names.
KEPT = re.compile(
    r"Authorization: Bearer <token>|X-API-Key: <key>|Retry-After|(?:TABLETAPE|REDIS)_[A-Z_]+(?:=\d+)?|"
    r"\b[A-Z]{4,}\b|'[^']*'|MiB|\b[a-z]+(?:Created|Played|Placed|Started|Won|Scored)\b|[A-Z][a-z]+[A-Z]\w+"
)


def english_in(detail: str, kept: list[str]) -> list[str]:
    """The English words of ``detail`` once names and what programs read are taken out."""
    for word in sorted(kept, key=len, reverse=True):
        detail = detail.replace(word, " ")
    return re.findall(r"[A-Za-z]{2,}", KEPT.sub(" ", detail))


def said_in_each_language(ask: Callable[[dict[str, str]], Any], status: int, kept: list[str]) -> None:
    """The problem ``ask`` gets has its detail in Chinese and Japanese with no English word."""
    for language, script in LANGUAGES.items():
        answer = ask({"Accept-Language": language})
        assert answer.status_code == status, answer.json
        detail = answer.json["detail"]
        assert script.search(detail) and english_in(detail, kept) == [], (language, detail)


def test_an_imports_line_refusal_is_said_in_the_readers_language(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("wizard", 1, upto=4)
    values = export(client, match.id, match.token)
    values[2]["seq"] = 9
    text = "".join(json.dumps(v) + "\n" for v in values)

    def ask(headers: dict[str, str]) -> Any:
        return client.post(
            "/v1/matches/import", data=text, content_type="application/x-ndjson", headers=headers
        )

    said_in_each_language(ask, 422, [])
    english = send(client, values).json
    assert english["reason"] == "step 9 where step 2 was due" and english["line"] == 3


def test_a_wrong_or_missing_token_and_a_seats_overreach_are_said_in_the_readers_language(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    bid = {"type": "start_round", "trump_card": "7H"}
    url = f"/v1/matches/{match.id}/actions"
    said_in_each_language(lambda h: client.post(url, json=bid, headers=h), 401, [])
    wrong = {"Authorization": "Bearer not-the-token"}
    said_in_each_language(lambda h: client.post(url, json=bid, headers=wrong | h), 403, [])
    seat = client.post(f"/v1/matches/{match.id}/seats/bob", headers=match.auth).json["token"]
    match.ok(bid)
    as_bob = {"Authorization": f"Bearer {seat}"}
    ann_bids = {"type": "bid", "player": "ann", "tricks": 0}
    said_in_each_language(lambda h: client.post(url, json=ann_bids, headers=as_bob | h), 403, ["ann", "bob"])


@pytest.fixture
def refusing(app: Flask) -> Flask:
    """The API with one more route that raises the refusal the test names."""
    slots = LiveSlots(total=1, per_client=1)
    raised: dict[str, Callable[[], Exception]] = {
        "not-now": lambda: exceptions.ResponseError("READONLY You can't write against a read only replica."),
        "disk": lambda: DiskFull("MISCONF Errors writing to the AOF file: No space left on device"),
        "lagging": lambda: ProjectionsLagging(95.0, 60.0),
        "streams": lambda: _second_feed(slots),
    }

    def meet(what: str) -> str:
        raise raised[what]()

    app.add_url_rule("/test-only/refuse/<what>", view_func=meet, methods=["POST"])
    return app


def _second_feed(slots: LiveSlots) -> Exception:
    """The refusal of a feed beyond the caps (the first one is still held)."""
    if slots.open == 0:
        slots.take("10.0.0.1")
    try:
        slots.take("10.0.0.1")
    except TooManyStreams as refusal:
        return refusal
    raise AssertionError("the second feed was let in")


@pytest.mark.parametrize("what", ["not-now", "disk", "lagging", "streams"])
def test_the_stores_503s_say_their_particulars_in_the_readers_language(refusing: Flask, what: str) -> None:
    client = refusing.test_client()
    # Redis's own reply is quoted as Redis wrote it, for the operator.
    redis_words = ["Errors writing to the AOF file: No space left on device"]
    said_in_each_language(lambda h: client.post(f"/test-only/refuse/{what}", headers=h), 503, redis_words)


@pytest.mark.parametrize(
    "lang, script", [("zh_CN.UTF-8", LANGUAGES["zh-CN"]), ("ja_JP.UTF-8", LANGUAGES["ja"])]
)
def test_the_clis_import_lines_follow_lang(
    recorded: Callable[..., Table],
    client: FlaskClient,
    cli: Callable[..., Any],
    tmp_path: Any,
    lang: str,
    script: Any,
) -> None:
    match = recorded("wizard", 1, upto=4)
    values = export(client, match.id, match.token)
    good = tmp_path / "good.ndjson"
    good.write_text("".join(json.dumps(v) + "\n" for v in values))
    values[2]["seq"] = 9
    bad = tmp_path / "bad.ndjson"
    bad.write_text("".join(json.dumps(v) + "\n" for v in values))
    refused = cli("import", str(bad), LANG=lang, LANGUAGE="", LC_ALL="")
    # Every line it writes: the store it uses, the file's refusal, the progress and the summary.
    said = [line for line in refused.stderr.splitlines() if line.strip()]
    assert len(said) >= 2 and any("bad.ndjson" in line for line in said), said
    for line in said:
        assert script.search(line) and english_in(line, ["tabletape", str(bad), "redis://"]) == [], line
    held = cli("import", str(good), LANG=lang, LANGUAGE="", LC_ALL="")
    line = next(s for s in held.stdout.splitlines() if match.id in s)
    assert script.search(line) and english_in(line, ["wizard", match.id, str(good), "--copy"]) == [], line


@pytest.mark.parametrize(
    "lang, script", [("zh_CN.UTF-8", LANGUAGES["zh-CN"]), ("ja_JP.UTF-8", LANGUAGES["ja"])]
)
def test_serves_lines_about_its_children_follow_lang(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, script: Any
) -> None:
    import sys
    import time

    from games.contract import words
    from service.run.supervisor import Child

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    child = Child(words("worker {n}", n=1), [sys.executable, "-c", "raise SystemExit(3)"], {}, first=0.01)
    child.start()
    assert child.process is not None and child.process.wait(timeout=30) == 3
    child.tend(time.monotonic())  # it exited: the restart is planned and said
    child.tend(time.monotonic() + 1)  # and made
    child.terminate()
    child.reap(time.monotonic() + 5)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 2 and all(script.search(line) for line in lines), lines
    assert all(english_in(line, ["pid"]) == [] for line in lines), lines
