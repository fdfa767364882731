"""Settings a deployment gets wrong are refused at start, in a sentence that names the variable."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from service.config import SettingRefused, Settings

NUMBERS = {
    "TABLETAPE_WAIT_REPLICAS": "a whole number",
    "TABLETAPE_WAIT_TIMEOUT_MS": "a whole number",
    "TABLETAPE_SNAPSHOT_EVERY": "a whole number",
    "TABLETAPE_MAX_BODY_BYTES": "a whole number",
    "TABLETAPE_BODY_SECONDS": "a number",
    "TABLETAPE_RATE_LIMIT_CREATE_BURST": "a whole number",
    "TABLETAPE_TRUSTED_PROXIES": "a whole number",
    "TABLETAPE_DISK_RESERVE_MB": "a whole number",
    "TABLETAPE_PROJECTION_LAG_LIMIT": "a number",
    "TABLETAPE_LIVE_STREAMS": "a whole number",
    "TABLETAPE_LIVE_STREAMS_PER_CLIENT": "a whole number",
    "TABLETAPE_LIVE_KEEPALIVE_SECONDS": "a number",
}


@pytest.mark.parametrize("name", sorted(NUMBERS))
def test_a_setting_that_is_not_a_number_is_refused_by_its_name(name: str) -> None:
    with pytest.raises(SettingRefused) as refused:
        Settings.from_env({name: "fifteen"})
    assert str(refused.value) == f"{name} must be {NUMBERS[name]}, not 'fifteen'"


def test_an_empty_number_means_its_default_and_spaces_around_a_number_are_fine() -> None:
    assert Settings.from_env({"TABLETAPE_SNAPSHOT_EVERY": ""}).snapshot_every == 100
    assert Settings.from_env({"TABLETAPE_SNAPSHOT_EVERY": " 50 "}).snapshot_every == 50
    assert Settings.from_env({"TABLETAPE_PROJECTION_LAG_LIMIT": "2.5"}).projection_lag_limit == 2.5


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("TABLETAPE_WAIT_REPLICAS", "-1", "TABLETAPE_WAIT_REPLICAS must be 0 or more, not -1"),
        (
            "TABLETAPE_RATE_LIMIT_CREATE_BURST",
            "0",
            "TABLETAPE_RATE_LIMIT_CREATE_BURST must be 1 or more, not 0",
        ),
        ("TABLETAPE_SNAPSHOT_EVERY", "0", "TABLETAPE_SNAPSHOT_EVERY must be 1 or more, not 0"),
        ("TABLETAPE_MAX_BODY_BYTES", "0", "TABLETAPE_MAX_BODY_BYTES must be 1 or more, not 0"),
        ("TABLETAPE_WAIT_TIMEOUT_MS", "-1", "TABLETAPE_WAIT_TIMEOUT_MS must be 0 or more, not -1"),
        ("TABLETAPE_TRUSTED_PROXIES", "-2", "TABLETAPE_TRUSTED_PROXIES must be 0 or more, not -2"),
        ("TABLETAPE_DISK_RESERVE_MB", "-64", "TABLETAPE_DISK_RESERVE_MB must be 0 or more, not -64"),
        ("TABLETAPE_PROJECTION_LAG_LIMIT", "0", "TABLETAPE_PROJECTION_LAG_LIMIT must be more than 0"),
        ("TABLETAPE_PROJECTION_LAG_LIMIT", "nan", "TABLETAPE_PROJECTION_LAG_LIMIT must be more than 0"),
        ("TABLETAPE_LIVE_KEEPALIVE_SECONDS", "nan", "TABLETAPE_LIVE_KEEPALIVE_SECONDS must be between"),
        ("TABLETAPE_BODY_SECONDS", "inf", "TABLETAPE_BODY_SECONDS must be between 1 and 3600"),
    ],
)
def test_a_number_out_of_its_range_is_refused_by_its_name(name: str, value: str, said: str) -> None:
    with pytest.raises(SettingRefused) as refused:
        Settings.from_env({name: value})
    assert str(refused.value).startswith(said)


def test_a_command_with_a_wrong_setting_says_which_in_one_line_and_exits_5(
    cli: Callable[..., Result],
) -> None:
    answer = cli("verify", TABLETAPE_LIVE_KEEPALIVE_SECONDS="often")
    assert answer.exit_code == 5
    assert answer.stderr.strip().splitlines()[-1] == (
        "tabletape: cannot run with these settings: "
        "TABLETAPE_LIVE_KEEPALIVE_SECONDS must be a number, not 'often'"
    )
    assert "report it" not in answer.stderr and "Traceback" not in answer.stderr


def test_the_refusal_is_in_the_language_of_the_person_at_the_terminal(cli: Callable[..., Result]) -> None:
    answer = cli("verify", TABLETAPE_SNAPSHOT_EVERY="0", LANG="ja_JP.UTF-8")
    assert answer.exit_code == 5
    assert "この設定では実行できません：TABLETAPE_SNAPSHOT_EVERY must be 1 or more, not 0" in answer.stderr


def test_a_wrong_setting_is_said_before_the_store_is_looked_for(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    # No REDIS_URL and no serve in the data dir: the setting is still what the person hears of.
    answer = cli("verify", "--data-dir", str(tmp_path), REDIS_URL=None, TABLETAPE_BODY_SECONDS="0")
    assert answer.exit_code == 5
    assert "TABLETAPE_BODY_SECONDS must be between 1 and 3600" in answer.stderr
    assert "no tabletape serve is running" not in answer.stderr
