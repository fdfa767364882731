"""Webhooks an operator registered: what they are, where they may point, and their delivery logs.

A hook is a URL and the kinds of event it wants: ``match.created`` (a match's first step),
``match.finished``, ``dispute.raised``, any event type by name (``RoundScored``), or ``*``. Its
secret signs every delivery (projections.hooks.delivery). A URL whose host resolves to a loopback,
link-local, private or otherwise non-public address is refused unless a network the deployment
allows holds it (``TABLETAPE_HOOKS_ALLOW``); the allowance in force is kept with the hook, and
every delivery checks the address again.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import redis

from events.codec import as_text, dumps, loads
from events.defaults import HOOK_LOG_KEPT as LOG_LENGTH
from events.keys import Keys

KINDS = {"match.created", "match.finished", "dispute.raised", "*"}
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class HookRefused(ValueError):
    """A hook that may not be registered, with the reason in a sentence."""


class NoSuchHook(LookupError):
    """A hook id that names no hook."""


def kind_of(event: dict[str, Any]) -> set[str]:
    """The kinds an event of the feed is: its type, and the named kinds it stands for."""
    kinds = {event["type"], "*"}
    if event["seq"] == 1:
        kinds.add("match.created")
    if event["type"] == "MatchFinished":
        kinds.add("match.finished")
    if event["type"] == "DisputeRaised":
        kinds.add("dispute.raised")
    return kinds


def addresses(url: str) -> list[Address]:
    """Every address the URL's host resolves to; HookRefused when it is no http(s) URL or none."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HookRefused("a hook's url must be an http:// or https:// URL with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError) as exc:
        raise HookRefused(f"the hook's host {parts.hostname!r} does not resolve ({exc})") from exc
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]


def refusal(url: str, allow: list[str]) -> str | None:
    """Why a delivery to ``url`` is not allowed now (None: it is), given the allowed networks."""
    try:
        found = addresses(url)
    except HookRefused as refused:
        return str(refused)
    networks = [ipaddress.ip_network(n, strict=False) for n in allow]
    for address in found:
        if not address.is_global and not any(address in net for net in networks):
            return (
                f"the hook's host resolves to {address}, a loopback, link-local or private address "
                "this deployment does not allow (TABLETAPE_HOOKS_ALLOW names the networks it does)"
            )
    return None


@dataclass(frozen=True)
class Hooks:
    """The deployment's webhooks, on the store."""

    client: redis.Redis
    keys: Keys

    def register(self, url: str, kinds: list[str], allow: list[str], owner: str) -> dict[str, Any]:
        """A new hook (its secret included, shown this once); HookRefused when it may not be."""
        unknown = [k for k in kinds if "." in k and k not in KINDS]
        if unknown:
            raise HookRefused(f"unknown event kinds {unknown}: use {sorted(KINDS)} or event types")
        why = refusal(url, allow)
        if why is not None:
            raise HookRefused(why)
        hook: dict[str, Any] = {
            "id": uuid.uuid4().hex[:16],
            "url": url,
            "events": sorted(set(kinds)),
            "secret": "whsec_" + secrets.token_hex(24),
            "allow": allow,
            "owner": owner,
            "created_at": int(time.time()),
            "paused": False,
            "paused_reason": None,
        }
        self.client.hset(self.keys.hooks(), hook["id"], dumps(hook))
        return hook

    def get(self, hook_id: str) -> dict[str, Any]:
        """One hook; NoSuchHook when there is none of that id."""
        raw = self.client.hget(self.keys.hooks(), hook_id)
        if raw is None:
            raise NoSuchHook(f"there is no hook {hook_id!r}")
        found: dict[str, Any] = loads(as_text(raw))
        return found

    def all(self) -> list[dict[str, Any]]:
        """Every hook, oldest first."""
        found = [loads(as_text(raw)) for raw in self.client.hvals(self.keys.hooks())]
        return sorted(found, key=lambda h: (h["created_at"], h["id"]))

    def delete(self, hook_id: str) -> None:
        """Remove a hook and its log; NoSuchHook when there is none of that id."""
        if not self.client.hdel(self.keys.hooks(), hook_id):
            raise NoSuchHook(f"there is no hook {hook_id!r}")
        for key in (
            self.keys.hook_log(hook_id),
            self.keys.hook_position(hook_id),
            self.keys.hook_failures(hook_id),
        ):
            self.client.delete(key)

    def pause(self, hook_id: str, reason: str) -> None:
        """Stop delivering to a hook, saying why."""
        try:
            hook = self.get(hook_id)
        except NoSuchHook:
            return
        hook.update(paused=True, paused_reason=reason)
        self.client.hset(self.keys.hooks(), hook_id, dumps(hook))

    def resume(self, hook_id: str) -> dict[str, Any]:
        """Deliver to a paused hook again (its count of failures starts over)."""
        hook = self.get(hook_id)
        hook.update(paused=False, paused_reason=None)
        self.client.hset(self.keys.hooks(), hook_id, dumps(hook))
        self.client.delete(self.keys.hook_failures(hook_id))
        return hook

    def note(self, hook_id: str, entry: dict[str, Any]) -> None:
        """Add an entry to a hook's delivery log (the newest LOG_LENGTH are kept)."""
        with self.client.pipeline(transaction=False) as pipe:
            pipe.lpush(self.keys.hook_log(hook_id), dumps(entry))
            pipe.ltrim(self.keys.hook_log(hook_id), 0, LOG_LENGTH - 1)
            pipe.execute()

    def log(self, hook_id: str, limit: int = LOG_LENGTH) -> list[dict[str, Any]]:
        """A hook's delivery log, newest first; NoSuchHook when there is none of that id."""
        self.get(hook_id)
        return [loads(as_text(raw)) for raw in self.client.lrange(self.keys.hook_log(hook_id), 0, limit - 1)]


def public(hook: dict[str, Any]) -> dict[str, Any]:
    """A hook as a listing shows it: without its secret."""
    return {k: v for k, v in hook.items() if k not in ("secret", "allow")}
