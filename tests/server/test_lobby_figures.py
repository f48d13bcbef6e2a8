"""RULEBOOK §12 over a real server: the lobby's line of a table is that table's, even
when a table of the same id was closed and another opened (SQLite and PostgreSQL)."""

from __future__ import annotations

import httpx

from cardroom.server.settings import ServerSettings

from .conftest import running_server
from .sessions import money_problems, operator_client


def _row(base: str, table: str) -> dict[str, object]:
    rows = httpx.get(f"{base}/api/tables").json()["tables"]
    return next(r for r in rows if r["table_id"] == table)


def test_12_a_table_reopened_under_its_id_is_listed_as_it_is_now(
    settings: ServerSettings,
) -> None:
    """The operator closes NL Hold'em 1/2 table ``x`` and opens a PLO5 5/10 table ``x``
    before anyone looks at the lobby: the lobby lists PLO5 5/10 (it used to keep
    listing the closed table's badge, stakes and seats, since it had not seen the id
    go, and a filter by game did not find the new table)."""
    url = settings.database_url
    assert url is not None
    with running_server(settings) as base:
        boss = operator_client(base, url)
        holdem = {"id": "x", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
        assert boss.post("/api/operator/tables", json=holdem).status_code == 201
        assert _row(base, "x")["badge"] == "NL Hold'em"
        assert boss.post("/api/operator/tables/x/close").status_code == 200
        plo5 = {
            "id": "x",
            "game": "plo5",
            "stakes": {"small_blind": 5, "big_blind": 10},
            "seats": 6,
        }
        assert boss.post("/api/operator/tables", json=plo5).status_code == 201
        row = _row(base, "x")
        assert (row["badge"], row["game"], row["stakes"], row["max_seats"]) == (
            "PL Omaha 5-Card", "plo5", "5/10", 6,
        )  # fmt: skip
        found = httpx.get(f"{base}/api/tables", params={"game": "plo5"}).json()["tables"]
        assert [r["table_id"] for r in found] == ["x"]
        boss.close()
    assert money_problems(url) == []
