"""``/openapi.json`` documents every route of the app; random and malformed bodies sent to
every POST route get a 4xx with a stable code, never a 500 (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate
from starlette.routing import Route, WebSocketRoute

from cardroom.server.app import create_app
from cardroom.server.protocol import TABLE_ID

from .api_client import (
    BACKENDS,
    Api,
    bearer,
    fresh_alias,
    login,
    make_operator,
    register,
    start_api,
)

BODIES_PER_ROUTE = int(os.environ.get("CARDROOM_API_FUZZ_BODIES", "25"))
"""Random bodies sent to each POST route (more through the environment variable)."""


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("openapi")
    yield from start_api(request, tmp)


def _app_routes(api: Api) -> list[tuple[str, str]]:
    """Every (method, documented path) of the app's HTTP routes."""
    out = []
    for route in create_app(api.settings).routes:
        if isinstance(route, WebSocketRoute) or not isinstance(route, Route):
            continue
        path = re.sub(r"{(\w+):\w+}", r"{\1}", route.path)
        out += [(m.lower(), path) for m in sorted(route.methods or ()) if m != "HEAD"]
    return out


def test_openapi_lists_every_route_of_the_app(api: Api) -> None:
    document = httpx.get(api.base + "/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    routes = _app_routes(api)
    assert len(routes) >= 20
    missing = [(m, p) for m, p in routes if m not in document["paths"].get(p, {})]
    assert missing == []
    extra = [
        (m, p) for p, ops in document["paths"].items() for m in ops if (m, p) not in set(routes)
    ]
    assert extra == []  # and nothing documented that the app does not serve


def test_openapi_references_resolve_and_every_operation_has_an_error_body(api: Api) -> None:
    document = httpx.get(api.base + "/openapi.json").json()
    validate(document)  # a valid OpenAPI 3.1 document
    schemas = document["components"]["schemas"]
    refs = re.findall(r'"\$ref": "#/components/schemas/(\w+)"', json.dumps(document))
    assert refs and set(refs) <= set(schemas)
    for ops in document["paths"].values():
        for op in ops.values():
            error = op["responses"]["400"]["content"]["application/json"]["schema"]
            assert error == {"$ref": "#/components/schemas/ErrorBody"}
    register_body = schemas["RegisterBody"]
    assert set(register_body["required"]) == {"alias", "password", "age_confirmed"}


def test_openapi_gives_the_status_a_success_is_answered_with(api: Api) -> None:
    document = httpx.get(api.base + "/openapi.json").json()
    alias = fresh_alias()
    made = httpx.post(
        api.base + "/api/register",
        json={"alias": alias, "password": "password1", "age_confirmed": True},
    )
    assert made.status_code == 201, made.text
    assert set(document["paths"]["/api/register"]["post"]["responses"]) >= {"201"}
    assert "200" not in document["paths"]["/api/register"]["post"]["responses"]
    assert "200" in document["paths"]["/api/login"]["post"]["responses"]


def _junk(rng: random.Random, valid: dict[str, Any]) -> bytes:
    """A random, malformed or mutated body."""
    choice = rng.randrange(8)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if choice == 1:
        return rng.choice([b"", b"{", b"null", b"[]", b'"x"', b"1e999", b"{}", b"\xff\xfe"])
    if choice == 2:
        return json.dumps(rng.choice([1, -1, 2**70, [], [1], "s", True, None])).encode()
    mutated = dict(valid)
    key = rng.choice([*mutated, "extra"]) if mutated else "extra"
    value = rng.choice([None, -1, 2**64, 1.5, "", "x" * 5000, [], {}, True, "\u0000", "ｂｏｂ"])
    if choice == 3:
        mutated.pop(key, None)
    else:
        mutated[key] = value
    return json.dumps(mutated).encode()


VALID: dict[str, dict[str, Any]] = {
    "/api/register": {"alias": "Fuzzy", "password": "password1", "age_confirmed": True},
    "/api/login": {"alias": "Fuzzy", "password": "password1"},
    "/api/topup": {"amount": 1},
    "/api/operator/tables": {"id": "f1", "game": "holdem", "stakes": {"big_blind": 2}},
    "/api/operator/sanctions": {"alias": "Fuzzy", "kind": "chat_ban"},
    "/api/operator/roles": {"alias": "Fuzzy", "role": "player"},
}


def test_malformed_bodies_to_every_post_route_get_a_4xx_with_a_code(api: Api) -> None:
    alias = register(api)
    make_operator(api, alias)
    client, session = login(api, alias)  # an operator by cookie: every check is reached
    headers = {"x-csrf-token": session["csrf"], "content-type": "application/json"}
    rng = random.Random(14)
    posts = sorted((p for m, p in _app_routes(api) if m == "post"), key=lambda p: "logout" in p)
    assert len(posts) >= 9
    seen: set[int] = set()
    for path in posts:
        concrete = path.replace("{table}", "holdem").replace("{id}", "1")
        for _ in range(BODIES_PER_ROUTE):
            body = _junk(rng, VALID.get(path, {}))
            answer = client.post(concrete, content=body, headers=headers)
            seen.add(answer.status_code)
            if answer.is_success:
                continue  # a mutation may still be a valid request
            assert 400 <= answer.status_code < 500, (path, body, answer.text)
            assert isinstance(answer.json()["code"], str), (path, body)
    assert 400 in seen
    assert httpx.get(api.base + "/healthz").json()["ok"] is True


def test_unknown_routes_and_wrong_methods_answer_json_codes(api: Api) -> None:
    missing = httpx.get(api.base + "/api/no-such-thing")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    wrong = httpx.delete(api.base + "/api/tables")  # the static client's mount answers too
    assert wrong.status_code == 405 and wrong.json()["code"] == "method_not_allowed"
    for method, path in (("GET", "/api/topup"), ("GET", "/api/register"), ("POST", "/api/me")):
        # A GET of a POST-only route is the API's, not the client's files' (a 404 there).
        answer = httpx.request(method, api.base + path)
        assert answer.status_code == 405, (method, path, answer.text)
        assert answer.json()["code"] == "method_not_allowed"
    assert httpx.get(api.base + "/").status_code == 200  # the client is still served
    huge = httpx.post(api.base + "/api/login", content=b"{" + b" " * 20_000 + b"}")
    assert huge.status_code == 413 and huge.json()["code"] == "too_large"


def test_a_huge_streamed_body_is_refused_without_reading_it_all(api: Api) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"alias": "'
        for _ in range(1000):  # 1 MB, sent without a content-length
            yield b"x" * 1024

    answer = httpx.post(api.base + "/api/login", content=chunks())
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"


def test_openapi_declares_the_refusals_a_route_can_answer_too_large_and_internal(
    api: Api,
) -> None:
    """A client validating every answer against ``/openapi.json`` met a 413 ``too_large``
    (docs/api.md: bodies are at most 8 KiB) that no operation declared, nor the 500
    ``internal`` docs/api.md promises for a fault: each operation that reads a body now
    declares 413, every operation 500, both as ``ErrorBody``."""
    document = httpx.get(api.base + "/openapi.json").json()
    error = {"$ref": "#/components/schemas/ErrorBody"}
    alias = register(api)
    make_operator(api, alias)
    client, session = login(api, alias)  # an operator: every route reads its body
    headers = {"x-csrf-token": session["csrf"], "content-type": "application/json"}
    for method, path in _app_routes(api):
        responses = document["paths"][path][method]["responses"]
        assert responses["500"]["content"]["application/json"]["schema"] == error, (method, path)
        if "requestBody" not in document["paths"][path][method]:
            continue  # read no body (logout, a close): nothing too large
        concrete = path.replace("{table}", "holdem").replace("{id}", "1")
        huge = client.post(concrete, content=b"{" + b" " * 9000 + b"}", headers=headers)
        assert huge.status_code == 413 and huge.json()["code"] == "too_large", (path, huge.text)
        assert responses["413"]["content"]["application/json"]["schema"] == error, path


def _query_params(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every GET operation's query parameter: path, name and schema."""
    for path, ops in document["paths"].items():
        for param in ops.get("get", {}).get("parameters", []):
            if param["in"] == "query":
                yield path, param["name"], param["schema"]


def test_openapi_gives_each_query_its_bounds_and_choices_and_the_server_keeps_them(
    api: Api,
) -> None:
    """schemathesis (positive data acceptance) sent ``limit=0``, ``game=``, ``money=``: values
    the document allowed and the server refused with 400. The document now states the
    server's bounds and choices, and the server takes every one it states: each bound
    (``after`` up to the largest 64-bit id: a 19-digit number was refused, though the
    refusal itself named that bound) and each choice, and refuses one past a bound and a
    word outside the choices."""
    document = httpx.get(api.base + "/openapi.json").json()
    alias = register(api)
    make_operator(api, alias)
    with bearer(api, alias) as client:
        checked = 0
        for path, name, schema in _query_params(document):
            if schema["type"] == "integer":
                low, high = schema["minimum"], schema["maximum"]
                cases = [(low, True), (high, True), (low - 1, False), (high + 1, False)]
            elif "enum" in schema:
                cases = [(value, True) for value in schema["enum"]] + [("", False)]
            elif name == "before":  # a hand of one's own (next_before); this player has none
                assert schema["pattern"] == "^[A-Za-z0-9_-]{1,40}/[0-9]{1,19}$", path
                cases = [("holdem/1", False), ("a b/1", False), ("holdem/" + "9" * 20, False)]
            else:  # a table's id
                assert schema["pattern"] == TABLE_ID, (path, name)
                cases = [("holdem", True), ("a b", False), ("x" * 41, False), ("holdem\n", False)]
            for value, taken in cases:
                answer = client.get(path, params={name: value})
                assert (answer.status_code == 200) is taken, (path, name, value, answer.text)
                checked += 1
        assert checked > 60  # every game of the lobby's filter among them
    for path in ("/api/hands/{table}/{hand_no}", "/api/operator/sanctions/{id}/lift"):
        method = "get" if path.startswith("/api/hands") else "post"
        params = document["paths"][path][method]["parameters"]
        number = next(p for p in params if p["name"] in ("hand_no", "id"))
        assert number["schema"] == {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}


def test_openapi_says_a_logout_needs_no_session(api: Api) -> None:
    """schemathesis (ignored auth) logged out without a session and was answered 200: the
    server answers every logout 200 and clears the cookie (a browser whose session ran
    out can still log out), while the document required a session. It allows none now."""
    document = httpx.get(api.base + "/openapi.json").json()
    assert {} in document["paths"]["/api/logout"]["post"]["security"]
    answer = httpx.post(api.base + "/api/logout")
    assert answer.status_code == 200 and answer.json() == {"ok": True}
    assert document["paths"]["/api/me"]["get"].get("security") is None  # the global one


def test_a_logout_from_another_site_is_refused_even_without_a_session(api: Api) -> None:
    """A SameSite=Strict cookie is not sent with another site's form post, so such a post
    came without a session; it was still answered 200 with the cookie cleared (a cross-site
    logout). It is refused ``csrf`` as any write from another site is, and changes nothing."""
    answer = httpx.post(api.base + "/api/logout", headers={"origin": "https://evil.example"})
    assert answer.status_code == 403 and answer.json()["code"] == "csrf"
    assert "set-cookie" not in answer.headers
    own = httpx.post(api.base + "/api/logout", headers={"origin": api.base})
    assert own.status_code == 200 and "set-cookie" in own.headers
