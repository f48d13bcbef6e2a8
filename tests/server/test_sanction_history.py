"""RULEBOOK §10.7, §10.9 for the operator: a player's every sanction, in force, ended or
lifted, and the chat ban ladder's next step (``GET
/api/operator/players/{alias}/sanctions``), on SQLite and PostgreSQL. The profile lists
the sanctions in force only: a player whose chat bans were lifted showed none, and a
chat ban made without ``hours`` then took a month or for ever, the operator not told."""

from __future__ import annotations

import httpx
from tests.server.conftest import running_server
from tests.server.sessions import operator_client

from cardroom.bots.client import account
from cardroom.server.settings import ServerSettings


def test_10_7_the_operator_sees_every_sanction_and_the_next_chat_ban(
    settings: ServerSettings,
) -> None:
    with running_server(settings) as base:
        op = operator_client(base, settings.database_url or "")
        player = account(base, "mouthy", "password1")
        path = "/api/operator/players/mouthy/sanctions"
        fresh = op.get(path).json()
        assert fresh == {
            "alias": "mouthy",
            "sanctions": [],
            "chat_bans": 0,
            "next_chat_ban_hours": 24,
        }
        made = []
        for _ in range(4):  # each lifted at once: an offence, then a pardon of its time
            body = {"alias": "mouthy", "kind": "chat_ban", "reason": "foul language"}
            made.append(op.post("/api/operator/sanctions", json=body).json()["id"])
            assert op.post(f"/api/operator/sanctions/{made[-1]}/lift").status_code == 200
        freeze = op.post("/api/operator/sanctions", json={"alias": "mouthy", "reason": "review"})
        assert op.get("/api/operator/players/mouthy").json()["sanctions"][0]["kind"] == "freeze"
        seen = op.get(path).json()
        assert [s["id"] for s in seen["sanctions"]] == [freeze.json()["id"], *reversed(made)]
        assert (seen["chat_bans"], seen["next_chat_ban_hours"]) == (4, 30 * 24)
        first = seen["sanctions"][-1]
        assert first["kind"] == "chat_ban" and first["lifted_at"] and not first["in_force"]
        assert first["by"] == "boss" and first["reason"] == "foul language"
        assert seen["sanctions"][0]["in_force"] and seen["sanctions"][0]["ends_at"] is None
        body = {"alias": "mouthy", "kind": "chat_ban"}
        assert op.post("/api/operator/sanctions", json=body).status_code == 201
        last = op.get(f"/api/operator/players/{player['player']}/sanctions").json()
        assert (last["chat_bans"], last["next_chat_ban_hours"]) == (5, None)  # then for good
        assert op.get("/api/operator/players/nobody/sanctions").status_code == 404
        mine = {"authorization": f"Bearer {player['token']}"}
        assert httpx.get(base + path, headers=mine).status_code == 403
