"""Hostile HTTP requests a schema-driven fuzzer does not send (found by an audit with
schemathesis against ``/openapi.json``): path integers of thousands of digits, huge and
repeated query strings, odd path segments, bodies that are an array or 10 MB, the wrong
``Content-Type``. Each is a 4xx with a code or the answer a plain request gets, never a
500, and none moves a chip (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .api_client import BACKENDS, Api, bearer, make_operator, register, start_api
from .sessions import money_problems

DIGITS = "9" * 5000
"""Past Python's 4,300-digit limit on ``int(text)``: a ValueError where a path's
integer is read (it escaped Starlette's routing as a 500 and a logged traceback)."""


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("hostile_http")
    yield from start_api(request, tmp)


def test_a_path_integer_of_thousands_of_digits_is_404_not_a_server_error(api: Api) -> None:
    player = register(api)
    boss = register(api)
    make_operator(api, boss)
    with bearer(api, player) as client, bearer(api, boss) as operator:
        for who, method, path in (
            (client, "GET", f"/api/hands/holdem/{DIGITS}"),
            (operator, "POST", f"/api/operator/sanctions/{DIGITS}/lift"),
            (client, "GET", f"/api/hands/holdem/{'1' * 20}"),  # past any 64-bit id
            (operator, "POST", f"/api/operator/sanctions/{'1' * 20}/lift"),
        ):
            answer = who.request(method, path)
            assert answer.status_code == 404, (path[:40], answer.text)
            assert answer.json()["code"] == "not_found", path[:40]
        # The largest 64-bit id is still a number the routes take (and find nothing).
        largest = operator.post(f"/api/operator/sanctions/{2**63 - 1}/lift")
        assert largest.status_code == 404 and largest.json()["code"] == "no_such_sanction"
        hand = client.get(f"/api/hands/holdem/{2**63 - 1}")
        assert hand.status_code == 404 and hand.json()["code"] == "no_such_hand"


def _balances(client: httpx.Client) -> dict[str, int]:
    answer = client.get("/api/balances")
    assert answer.status_code == 200, answer.text
    result: dict[str, int] = answer.json()
    return result


def test_odd_queries_paths_and_bodies_get_a_4xx_and_move_no_chip(api: Api) -> None:
    alias = register(api)
    with bearer(api, alias) as client:
        before = _balances(client)
        odd = [
            client.get("/api/tables?game=" + "a" * 60_000),  # a huge query string
            client.get("/api/hands?offset=" + "1" * 60_000),
            client.get("/api/hands/%2e%2e/1"),  # `..` as a table's name
            client.get("/api/hands/%F0%9F%82%A1/1"),
            client.get("/api/hands/%00/1"),
            client.get("/api/hands/holdem/-1"),
            client.get("/api/hands/holdem/1.0"),
            client.post("/api/topup", content=b"[1, 2, 3]"),  # an array
            client.post("/api/topup", content=b'"' + b"x" * 10_000_000 + b'"'),  # 10 MB
            client.post("/api/topup", json={"amount": 1.5}),
            client.post("/api/topup", json={"amount": -5}),
            client.post("/api/topup", data={"amount": "5"}),  # a form
        ]
        for answer in odd:
            assert 400 <= answer.status_code < 500, (answer.request.url, answer.text[:200])
            assert isinstance(answer.json()["code"], str)
        # Unknown keys are ignored; of repeated keys the last one counts (every query).
        many = "&".join(f"k{i}=v" for i in range(2000))
        assert client.get(f"/api/tables?{many}").status_code == 200
        assert client.get("/api/hands?limit=100&limit=1").status_code == 200
        assert client.get("/api/hands?limit=1&limit=100").status_code == 400
        # The wrong Content-Type: the body is read as JSON all the same (a bearer or
        # CSRF-token request is no cross-site form); the new player is at the ceiling.
        typed = client.post("/api/topup", content=b"{}", headers={"content-type": "text/plain"})
        assert typed.status_code == 409 and typed.json()["code"] == "at_ceiling"
        assert _balances(client) == before
    assert money_problems(api.database_url) == []
