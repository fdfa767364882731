"""Settings, read from the environment once, by the factory or the CLI (never at import)."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from typing import Any

from events.defaults import BODY_SECONDS, LIVE_KEEPALIVE_SECONDS

# Creating: a burst of 200 at once (a tournament's round), then 300 an hour, per caller.
DEFAULT_CREATE_RATE = "300/hour"
DEFAULT_CREATE_BURST = 200
DEFAULT_WRITE_RATE = "600/minute"


class SettingRefused(ValueError):
    """A setting that tabletape cannot run with; the message names the variable and what it takes."""


def _number(env: dict[str, str], name: str, default: float, kind: type = int) -> Any:
    """The variable ``name`` as an int (or a float), ``default`` when it is unset or empty."""
    value = env.get(name, "").strip()
    if not value:
        return default
    try:
        return kind(value)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SettingRefused(f"{name} must be {what}, not {value!r}") from None


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _list(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def _bgg_ids(value: str) -> tuple[tuple[str, int], ...]:
    """ "hats=123,hobbit=456" as (game, id) pairs; a pair without a positive id is refused."""
    pairs = []
    for part in _list(value):
        game, _, number = part.partition("=")
        if not game.strip() or not number.strip().isdigit() or int(number) < 1:
            raise SettingRefused(f"TABLETAPE_BGG_IDS: {part!r} is not game=BoardGameGeek id (hats=123)")
        pairs.append((game.strip(), int(number)))
    return tuple(pairs)


def _rate(value: str | None, default: str) -> str | None:
    """A rate limit setting: unset means the default, "off" (or empty) means none."""
    if value is None:
        return default
    return None if value.strip().lower() in {"", "off", "0", "none"} else value.strip()


@dataclass(frozen=True)
class Settings:
    """Everything the API and the workers are configured by."""

    redis_url: str = "redis://127.0.0.1:6379/0"
    # REDIS_URL names any node of a Redis Cluster; the client finds the others.
    redis_cluster: bool = False
    # The job queue's own Redis; required on a cluster, where RQ cannot run.
    rq_redis_url: str | None = None
    # Each append waits until this many replicas have it before it is acknowledged.
    wait_replicas: int = 0
    wait_timeout_ms: int = 1000
    prefix: str = "tt"
    snapshot_every: int = 100
    # Run projection jobs inline in the API process instead of on workers (tests, demos).
    sync_projections: bool = False
    max_body_bytes: int = 1024 * 1024
    # Seconds a write's body has to arrive after its headers (a slow link gets longer; a client
    # trickling a body holds a connection no longer than this), then 408 request_timeout.
    body_seconds: float = BODY_SECONDS
    max_json_depth: int = 32
    cors_origins: tuple[str, ...] = field(default_factory=tuple)
    redis_timeout: float = 3.0
    # Deployment credentials for the writes that create matches; none: creating is open.
    api_keys: tuple[str, ...] = field(default_factory=tuple)
    # Creating: a token bucket per caller (its API key, else its address), ``create_burst`` at
    # once, refilled at ``create_rate`` ("N/period;M/period", one bucket each); None: off.
    create_rate: str | None = None
    create_burst: int = DEFAULT_CREATE_BURST
    # Writes to a match, per write token (else per address), fixed windows "N/period"; None: off.
    write_rate: str | None = None
    # How many proxies in front set X-Forwarded-For (the caller's address is theirs to tell).
    trusted_proxies: int = 0
    # One JSON object a log line, with the request id (TABLETAPE_LOG_FORMAT=json).
    json_logs: bool = False
    # BoardGameGeek ids of games for BG Stats exports, beside the ones tabletape knows
    # (TABLETAPE_BGG_IDS="hats=123,hobbit=456"); a game with none exports bggId 0.
    bgg_ids: tuple[tuple[str, int], ...] = field(default_factory=tuple)
    # When the embedded Redis of `tabletape serve` fsyncs its AOF: "always" (an acknowledged write
    # survives a machine crash), "everysec" (up to about a second may be lost) or "no".
    embedded_appendfsync: str = "always"
    # The embedded store's data dir (set by `tabletape serve`), and the free space to keep there:
    # below it, writes are refused with 503 disk_full before Redis fails on a full disk.
    data_dir: str | None = None
    disk_reserve_mb: int = 64
    # /healthz answers 503 (and /metrics shows it) once a projection lags its log this long.
    projection_lag_limit: float = 60.0
    # Live feeds (Server-Sent Events) one API process holds at most, in all and per caller
    # address; below its connection limit (2,000), so that writes always find a connection.
    live_streams: int = 1500
    live_streams_per_client: int = 500
    # Seconds between keep-alive comments on a live feed with nothing new: below the idle timeout
    # of any proxy in front, and how soon the slot of a spectator who went is noticed and freed.
    live_keepalive: float = LIVE_KEEPALIVE_SECONDS
    # Networks a webhook may point into beside the public internet (TABLETAPE_HOOKS_ALLOW, CIDRs
    # comma-separated, e.g. "127.0.0.0/8"); none: loopback, link-local and private are refused.
    hooks_allow: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from TABLETAPE_* variables and REDIS_URL / RQ_REDIS_URL."""
        env = dict(os.environ if env is None else env)
        values: dict[str, Any] = {
            "redis_url": env.get("REDIS_URL", cls.redis_url),
            "redis_cluster": _flag(env.get("TABLETAPE_REDIS_CLUSTER")),
            "rq_redis_url": env.get("RQ_REDIS_URL") or None,
            "wait_replicas": _number(env, "TABLETAPE_WAIT_REPLICAS", 0),
            "wait_timeout_ms": _number(env, "TABLETAPE_WAIT_TIMEOUT_MS", cls.wait_timeout_ms),
            "prefix": env.get("TABLETAPE_PREFIX", cls.prefix),
            "snapshot_every": _number(env, "TABLETAPE_SNAPSHOT_EVERY", cls.snapshot_every),
            "sync_projections": _flag(env.get("TABLETAPE_SYNC_PROJECTIONS")),
            "max_body_bytes": _number(env, "TABLETAPE_MAX_BODY_BYTES", cls.max_body_bytes),
            "body_seconds": _number(env, "TABLETAPE_BODY_SECONDS", cls.body_seconds, float),
            "json_logs": env.get("TABLETAPE_LOG_FORMAT", "").strip().lower() == "json",
            "cors_origins": _list(env.get("TABLETAPE_CORS_ORIGINS", "")),
            "api_keys": _list(env.get("TABLETAPE_API_KEYS", "")),
            "create_rate": _rate(env.get("TABLETAPE_RATE_LIMIT_CREATE"), DEFAULT_CREATE_RATE),
            "create_burst": _number(env, "TABLETAPE_RATE_LIMIT_CREATE_BURST", DEFAULT_CREATE_BURST),
            "write_rate": _rate(env.get("TABLETAPE_RATE_LIMIT_WRITE"), DEFAULT_WRITE_RATE),
            "trusted_proxies": _number(env, "TABLETAPE_TRUSTED_PROXIES", 0),
            "bgg_ids": _bgg_ids(env.get("TABLETAPE_BGG_IDS", "")),
            "embedded_appendfsync": env.get("TABLETAPE_APPENDFSYNC", cls.embedded_appendfsync)
            .strip()
            .lower(),
            "data_dir": env.get("TABLETAPE_DATA_DIR") or None,
            "disk_reserve_mb": _number(env, "TABLETAPE_DISK_RESERVE_MB", cls.disk_reserve_mb),
            "projection_lag_limit": _number(
                env, "TABLETAPE_PROJECTION_LAG_LIMIT", cls.projection_lag_limit, float
            ),
            "live_streams": _number(env, "TABLETAPE_LIVE_STREAMS", cls.live_streams),
            "live_streams_per_client": _number(
                env, "TABLETAPE_LIVE_STREAMS_PER_CLIENT", cls.live_streams_per_client
            ),
            "live_keepalive": _number(env, "TABLETAPE_LIVE_KEEPALIVE_SECONDS", cls.live_keepalive, float),
            "hooks_allow": _list(env.get("TABLETAPE_HOOKS_ALLOW", "")),
        }
        values.update(overrides)
        return cls(**values)

    def __post_init__(self) -> None:
        if self.redis_cluster and not self.rq_redis_url:
            raise SettingRefused(
                "TABLETAPE_REDIS_CLUSTER=1 needs RQ_REDIS_URL: the job queue cannot live on a "
                "Redis Cluster, so give it a standalone Redis of its own"
            )
        for name, value, least in (
            ("TABLETAPE_WAIT_REPLICAS", self.wait_replicas, 0),
            ("TABLETAPE_RATE_LIMIT_CREATE_BURST", self.create_burst, 1),
            ("TABLETAPE_SNAPSHOT_EVERY", self.snapshot_every, 1),
            ("TABLETAPE_MAX_BODY_BYTES", self.max_body_bytes, 1),
            ("TABLETAPE_WAIT_TIMEOUT_MS", self.wait_timeout_ms, 0),
            ("TABLETAPE_TRUSTED_PROXIES", self.trusted_proxies, 0),
            ("TABLETAPE_DISK_RESERVE_MB", self.disk_reserve_mb, 0),
        ):
            if value < least:
                raise SettingRefused(f"{name} must be {least} or more, not {value}")
        if not self.projection_lag_limit > 0:
            raise SettingRefused("TABLETAPE_PROJECTION_LAG_LIMIT must be more than 0 (seconds)")
        if self.embedded_appendfsync not in ("always", "everysec", "no"):
            raise SettingRefused("TABLETAPE_APPENDFSYNC must be always, everysec or no")
        if self.live_streams < 1 or self.live_streams_per_client < 1:
            raise SettingRefused(
                "TABLETAPE_LIVE_STREAMS and TABLETAPE_LIVE_STREAMS_PER_CLIENT must be 1 or more"
            )
        if not 0.5 <= self.live_keepalive <= 300:
            raise SettingRefused("TABLETAPE_LIVE_KEEPALIVE_SECONDS must be between 0.5 and 300")
        if not 1 <= self.body_seconds <= 3600:
            raise SettingRefused("TABLETAPE_BODY_SECONDS must be between 1 and 3600")
        for network in self.hooks_allow:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise SettingRefused(
                    f"TABLETAPE_HOOKS_ALLOW: {network!r} is not a network (e.g. 127.0.0.0/8)"
                ) from None
