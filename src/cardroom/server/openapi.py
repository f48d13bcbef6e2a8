"""The OpenAPI document of the HTTP API (``/openapi.json``), written from our own models.

Each operation names its msgspec request and response models; their JSON
Schemas come from msgspec, so the document cannot drift from the code.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cardroom import __version__
from cardroom.server.auth import LoginBody, RegisterBody, Session

_OPERATIONS: list[tuple[str, str, str, type | None, type | None]] = [
    ("/api/register", "post", "Register (alias rules, 18+ confirmation)", RegisterBody, None),
    ("/api/login", "post", "Log in: bearer token and session cookie", LoginBody, Session),
    ("/api/logout", "post", "Log out (revokes the token)", None, None),
    ("/healthz", "get", "200 when the database is reachable", None, None),
]


def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document."""
    models = [m for op in _OPERATIONS for m in op[3:] if m is not None]
    _, components = msgspec.json.schema_components(
        models, ref_template="#/components/schemas/{name}"
    )
    paths: dict[str, Any] = {}
    for path, method, summary, body, answer in _OPERATIONS:
        op: dict[str, Any] = {"summary": summary, "responses": {"200": {"description": "ok"}}}
        if body is not None:
            ref = {"$ref": f"#/components/schemas/{body.__name__}"}
            op["requestBody"] = {"content": {"application/json": {"schema": ref}}}
        if answer is not None:
            ref = {"$ref": f"#/components/schemas/{answer.__name__}"}
            op["responses"]["200"]["content"] = {"application/json": {"schema": ref}}
        paths.setdefault(path, {})[method] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": "cardroom", "version": __version__},
        "paths": paths,
        "components": {"schemas": components},
        "externalDocs": {"description": "WebSocket messages", "url": "/schema/ws.json"},
    }
