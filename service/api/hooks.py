"""Webhooks: an operator registers URLs for kinds of event; workers deliver them, signed."""

from __future__ import annotations

from typing import Any

from flask import Response

from projections.hooks.registry import Hooks, public
from service.api import Blueprint, api_key, services
from service.api.schemas.hooks import DeliveryLog, HookIn, HookList, HookOut
from service.http.errors import RequestRefused

blp = Blueprint(
    "hooks",
    __name__,
    url_prefix="/v1/hooks",
    description="Webhooks (X-API-Key: a deployment key): signed deliveries of match events, retried.",
)


def _operator() -> str:
    """The id of the deployment key the request carries; 401/403 otherwise."""
    credentials = services().recorder.credentials
    if not credentials.required:
        raise RequestRefused(
            403, "hooks_need_api_keys", "webhooks need deployment API keys: set TABLETAPE_API_KEYS"
        )
    presented = api_key()
    if presented is None:
        raise RequestRefused(401, "missing_api_key", "webhooks are the operator's: send X-API-Key: <key>")
    ident = credentials.known(presented)
    if ident is None:
        raise RequestRefused(403, "wrong_api_key", "this key is not one of the deployment's API keys")
    return ident


def _hooks() -> Hooks:
    return Hooks(services().client, services().keys)


@blp.route("", methods=["POST"])
@blp.arguments(HookIn())
@blp.response(201, HookOut)
def register(body: dict[str, Any]) -> dict[str, Any]:
    """Register a URL for kinds of event; the answer holds the secret that signs its deliveries.

    A URL whose host is loopback, link-local or private is refused (422) unless the deployment
    allows that network (TABLETAPE_HOOKS_ALLOW)."""
    owner = _operator()
    hook = _hooks().register(body["url"], body["events"], list(services().settings.hooks_allow), owner)
    # Deliveries start with what the feed publishes from now on.
    services().client.set(services().keys.hook_position(hook["id"]), services().feed.head())
    return {k: v for k, v in hook.items() if k != "allow"}


@blp.route("", methods=["GET"])
@blp.response(200, HookList)
def list_hooks() -> dict[str, Any]:
    """Every hook, with whether it is paused and why."""
    _operator()
    return {"hooks": [public(h) for h in _hooks().all()]}


@blp.route("/<hook_id>", methods=["DELETE"])
@blp.response(204)
def delete(hook_id: str) -> Response:
    """Remove a hook and its delivery log."""
    _operator()
    _hooks().delete(hook_id)
    return Response(status=204)


@blp.route("/<hook_id>/resume", methods=["POST"])
@blp.response(200, HookOut)
def resume(hook_id: str) -> dict[str, Any]:
    """Deliver to a paused hook again."""
    _operator()
    return public(_hooks().resume(hook_id))


@blp.route("/<hook_id>/deliveries", methods=["GET"])
@blp.response(200, DeliveryLog)
def deliveries(hook_id: str) -> dict[str, Any]:
    """The hook's delivery log, newest first: each attempt, its status or error."""
    _operator()
    return {"deliveries": _hooks().log(hook_id)}
