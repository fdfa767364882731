"""The committed OpenAPI document as a JSON Schema registry: tests hold real answers and bodies
to the schemas it publishes (its components, their references resolved within it)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = Path(__file__).resolve().parents[2]
URI = "urn:tabletape:openapi"


@functools.cache
def document() -> dict[str, Any]:
    """openapi.yaml, as committed."""
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return loaded


@functools.cache
def validator(component: str) -> Draft202012Validator:
    """A validator of the component schema ``component`` (``WizardView``, ``StateOut``, …)."""
    resource = Resource.from_contents(document(), default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(URI, resource)
    return Draft202012Validator({"$ref": f"{URI}#/components/schemas/{component}"}, registry=registry)


def problems(component: str, value: Any) -> list[str]:
    """Where ``value`` departs from the published ``component`` (empty: it fits)."""
    found = []
    for error in validator(component).iter_errors(value):
        # A oneOf's own message names the whole value: its closest branch's errors say more.
        while error.context:
            branches: dict[Any, list[ValidationError]] = {}
            for inner in error.context:
                branches.setdefault(inner.relative_schema_path[0], []).append(inner)
            error = best_match(min(branches.values(), key=len))
        found.append(f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message[:300]}")
    return found
