"""A database that goes away: every answer is the project's own 503 with a clear message,
never the driver's error or a 500 (PostgreSQL: the database is dropped under the server)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .api_client import PASSWORD, login, register, start_api
from .conftest import PgDatabases


@pytest.mark.postgres
def test_a_lost_database_answers_503_unavailable_in_the_project_s_words(
    pg_databases: PgDatabases, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    for api in start_api(request, tmp_path, "postgresql"):
        alias = register(api)
        client, session = login(api, alias)
        name = api.database_url.rsplit("/", 1)[-1]
        with pg_databases.admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
        pg_databases.made.remove(name)
        answers = [
            client.get("/api/me"),
            client.get("/api/hands"),
            client.post("/api/topup", json={}, headers={"x-csrf-token": session["csrf"]}),
            httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD}),
            httpx.post(
                api.base + "/api/register",
                json={"alias": "Lost1", "password": PASSWORD, "age_confirmed": True},
            ),
        ]
        for answer in answers:
            assert answer.status_code == 503, answer.text
            body = answer.json()
            assert body["code"] == "unavailable"
            # Gone under the server: the pool's connection reports it unreachable, a new
            # connection that the database does not exist (the operator's words).
            words = ("unreachable or busy", "named in the URL does not exist")
            assert any(f"failed: the database {w}" in body["message"] for w in words), body
            assert "Traceback" not in body["message"] and "sqlalchemy" not in body["message"]
            # Nor the driver's words: they named the database and its host to anyone.
            assert name not in body["message"] and "127.0.0.1" not in body["message"], body
        health = httpx.get(api.base + "/healthz")
        assert health.status_code == 503
        # The refusal every route gives (docs/api.md, and /openapi.json's ErrorBody for
        # /healthz's 503): it was {"ok": false, "error": "OperationalError"}, no code.
        assert health.json()["code"] == "unavailable", health.text
        assert health.json()["ok"] is False
        assert "the database is unreachable" in health.json()["message"]
