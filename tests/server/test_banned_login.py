"""RULEBOOK §10.9 at the door: a banned player who logs in with his right password is
told he is banned, until when and why (403 ``account_banned``, the ban's end and the
operator's reason, for the client to say in the player's own time), on SQLite and
PostgreSQL. He was told 401 ``login_refused`` "wrong alias or password, or the account
is closed", as a stranger guessing is: a two-hour ban read as a forgotten password. A
wrong password is still refused as for an unknown alias, so nothing is told to one
who does not hold the account."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx
from tests.server.conftest import running_server
from tests.server.sessions import operator_client

from cardroom.bots.client import account
from cardroom.server.settings import ServerSettings


def test_10_9_a_banned_player_is_told_until_when_and_why_at_login(
    settings: ServerSettings,
) -> None:
    with running_server(settings) as base:
        op = operator_client(base, settings.database_url or "")
        account(base, "shark", "password1")
        body = {"alias": "shark", "kind": "ban", "reason": "collusion at holdem", "hours": 2}
        made = op.post("/api/operator/sanctions", json=body)
        assert made.status_code == 201, made.text
        ban = next(s for s in op.get("/api/operator/players/shark").json()["sanctions"])
        login = {"alias": "shark", "password": "password1"}
        told = httpx.post(base + "/api/login", json=login)
        assert told.status_code == 403, told.text
        answer = told.json()
        assert answer["code"] == "account_banned"
        assert answer["until"] == ban["ends_at"] and answer["reason"] == "collusion at holdem"
        until = datetime.fromisoformat(answer["until"]) - datetime.fromisoformat(ban["starts_at"])
        assert until == timedelta(hours=2) and "banned until" in answer["message"]
        wrong = httpx.post(base + "/api/login", json={**login, "password": "not-it-at-all"})
        nobody = httpx.post(base + "/api/login", json={**login, "alias": "nobody"})
        assert wrong.status_code == nobody.status_code == 401
        assert (
            wrong.json()
            == nobody.json()
            == {
                "code": "login_refused",
                "message": "wrong alias or password",
            }
        )
        assert op.post(f"/api/operator/sanctions/{made.json()['id']}/lift").status_code == 200
        assert httpx.post(base + "/api/login", json=login).status_code == 200
        forever = op.post("/api/operator/sanctions", json={**body, "hours": None})
        assert forever.status_code == 201, forever.text
        answer = httpx.post(base + "/api/login", json=login).json()
        assert answer["code"] == "account_banned" and answer["until"] is None
        assert "until lifted" in answer["message"]
