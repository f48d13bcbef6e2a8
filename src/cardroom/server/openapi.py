"""The OpenAPI document of the HTTP API (``/openapi.json``), written from our own models.

Each API module (``api_accounts``, ``api_lobby``, ``api_history``,
``api_operator``) lists its operations beside its routes: path, method,
summary, request model, answer model. Their JSON Schemas come from msgspec,
so the document cannot drift from the code; a test walks the app's routes and
checks that each is here. Every operation may answer an :class:`ErrorBody`.
"""

from __future__ import annotations

import re
from typing import Any, Final

import msgspec

from cardroom import __version__
from cardroom.server import api_accounts, api_history, api_lobby, api_operator, api_sanctions
from cardroom.server.api_common import CSRF_HEADER, ErrorBody, whole
from cardroom.server.protocol import TableId
from cardroom.store.errors import LARGEST_ID

Operation = tuple[str, str, str, type | None, type | None]

_PLAIN: Final[list[Operation]] = [
    (
        "/healthz",
        "get",
        "200 when the database answers and stores the tables' steps, 503 otherwise",
        None,
        None,
    ),
    ("/openapi.json", "get", "This document", None, None),
    ("/schema/ws.json", "get", "The JSON Schema of the WebSocket messages (/ws)", None, None),
]
QUERIES: Final[dict[str, dict[str, tuple[str, dict[str, Any]]]]] = {
    "/api/tables": api_lobby.QUERY,
    "/api/hands": api_history.QUERY,
    "/api/operator/logs/disconnects": api_operator.DISCONNECT_QUERY,
    "/api/operator/logs/chat": api_operator.CHAT_QUERY,
}
"""Each path's query parameters: description and JSON Schema, the bounds and choices the
route keeps (a value the document allows is never refused as malformed)."""
_PATH_PARAMS: Final = {
    "hand_no": whole(1, LARGEST_ID),
    "id": whole(1, LARGEST_ID),
    "table": msgspec.json.schema(TableId),
}
"""The path parameters' schemas (``alias`` is any text: an alias, or a player's id)."""
SESSION: Final[list[dict[str, list[str]]]] = [{"bearer": []}, {"cookie": []}]
"""Who may call an operation: a session, by bearer token or cookie."""
PUBLIC: Final = {"/healthz", "/openapi.json", "/schema/ws.json", "/api/register", "/api/login"}
"""Paths that need no session (the lobby too: anyone may look at the tables)."""
_ERRORS: Final = {
    "400": "malformed or refused (code says which)",
    "401": "no valid session",
    "403": "CSRF, role or sanction",
    "404": "nothing there",
    "409": "conflicts with the current state",
    "429": "too often (Retry-After)",
    "500": "a fault in the server (logged): internal",
    "503": "the database is unreachable or busy",
}
_TOO_LARGE: Final = "the body is above 8 KiB: too_large"


CREATED: Final = (api_accounts.Registered, api_operator.TableOpened, api_operator.SanctionMade)
"""The answers of a request that made something: 201 Created, not 200."""


def operations() -> list[Operation]:
    """Every operation of the HTTP API."""
    modules = (api_accounts, api_lobby, api_history, api_operator, api_sanctions)
    return [*_PLAIN, *(op for m in modules for op in m.OPERATIONS)]


def _param(
    name: str, where: str, description: str = "", schema: dict[str, Any] | None = None
) -> dict[str, Any]:
    schema = schema or _PATH_PARAMS.get(name, {"type": "string"})
    out: dict[str, Any] = {"name": name, "in": where, "schema": schema}
    out["required"] = where == "path"
    if description:
        out["description"] = description
    return out


def _ref(model: type) -> dict[str, Any]:
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"application/json": {"schema": schema}}


def _operation(path: str, method: str, summary: str, body: Any, answer: Any) -> dict[str, Any]:
    ok = {"description": "ok"} | ({"content": _ref(answer)} if answer is not None else {})
    status = "201" if answer in CREATED else "200"
    op: dict[str, Any] = {"summary": summary, "responses": {status: ok}}
    for status, why in _ERRORS.items():
        op["responses"][status] = {"description": why, "content": _ref(ErrorBody)}
    params = [_param(name, "path") for name in re.findall(r"{(\w+)}", path)]
    params += [_param(n, "query", d, s) for n, (d, s) in QUERIES.get(path, {}).items()]
    if body is not None:  # a body is read under the size limit
        op["responses"]["413"] = {"description": _TOO_LARGE, "content": _ref(ErrorBody)}
    if method == "post" and path.startswith("/api/") and not path.endswith(("login", "register")):
        params.append(_param(CSRF_HEADER, "header", "required with a session cookie"))
    if params:
        op["parameters"] = params
    if path in PUBLIC or path == "/api/tables":
        op["security"] = []
    elif path == "/api/logout":  # answered 200 without a session too: nothing to end
        op["security"] = [{}, *SESSION]
    if body is not None:
        op["requestBody"] = {"required": True, "content": _ref(body)}
    return op


def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document."""
    ops = operations()
    models = [m for op in ops for m in op[3:] if m is not None]
    _, components = msgspec.json.schema_components(
        [*models, ErrorBody], ref_template="#/components/schemas/{name}"
    )
    paths: dict[str, Any] = {}
    for path, method, summary, body, answer in ops:
        paths.setdefault(path, {})[method] = _operation(path, method, summary, body, answer)
    return {
        "openapi": "3.1.0",
        "info": {"title": "cardroom", "version": __version__},
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "cardroom_session",
                    "description": "over TLS (https, or a trusted proxy's X-Forwarded-Proto) "
                    "the cookie is __Host-cardroom_session, and only that name is read",
                },
            },
        },
        "security": SESSION,
        "externalDocs": {"description": "WebSocket messages", "url": "/schema/ws.json"},
    }
