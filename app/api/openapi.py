"""One correction of the generated OpenAPI document, until the models say it themselves."""

from __future__ import annotations

from typing import Any


def require_discriminators(openapi: dict[str, Any]) -> dict[str, Any]:
    """A discriminated union's tag is required on the wire even when the model gives it a
    default (`Draw.type = "draw"`): say so, or clients build moves the server refuses."""
    components = openapi.get("components", {}).get("schemas", {})

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            tag = node.get("discriminator", {}).get("propertyName")
            for ref in node.get("discriminator", {}).get("mapping", {}).values():
                target = components.get(ref.rsplit("/", 1)[-1])
                if target is not None and tag in target.get("properties", {}):
                    required = target.setdefault("required", [])
                    if tag not in required:
                        required.insert(0, tag)
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(openapi)
    return openapi


def install(app: Any) -> None:
    """Serve the corrected document at /openapi.json (built once, like FastAPI's own)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = require_discriminators(generate())
        schema: dict[str, Any] = app.openapi_schema
        return schema

    app.openapi = openapi
