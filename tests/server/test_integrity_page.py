"""The operator's integrity page (RULEBOOK §10.9) shows the newest table flags, newest
first, reading back past the flags recorded among the house's bots: it used to show the
oldest 1,000 ever recorded, so a busy room's new flags never appeared."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.room.codec import encode_room_event
from cardroom.room.events import ReviewFlagged
from cardroom.store import Players, SanctionKind, make_engine
from cardroom.store.tables import TableRecords

from .api_client import BACKENDS, Api, bearer, make_operator, register, start_api


@pytest.fixture(params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Api]:
    yield from start_api(request, tmp_path)


def test_10_9_the_integrity_page_shows_the_newest_flags_first(api: Api) -> None:
    """1,101 flags between two people, then 1,000 among house bots (recorded, never
    shown): the page holds the newest 1,000 of the people's, newest first."""
    boss = register(api)
    make_operator(api, boss)
    engine = make_engine(api.database_url)
    try:
        players = Players(engine)
        people = tuple(str(players.get(register(api)).id) for _ in range(2))
        house = tuple(str(players.get(register(api)).id) for _ in range(2))
        for bot in house:
            players.set_role(players.named(bot).alias, "house", operator="test")
        old = [ReviewFlagged("repeated_pots", people, f"old {i}", ()) for i in range(1100)]
        newest = ReviewFlagged("repeated_pots", people, "newest", ())
        bots = [ReviewFlagged("repeated_pots", house, "bots", ()) for _ in range(1000)]
        entries = [encode_room_event(e) for e in [*old, newest, *bots]]
        TableRecords(engine).commit("flags-a", 1, entries)
        shown = bearer(api, boss).get("/api/operator/integrity").json()["table_flags"]
    finally:
        engine.dispose()
    evidence = [f["entry"]["evidence"] for f in shown]
    assert len(evidence) == 1000 and "bots" not in evidence
    assert evidence[:3] == ["newest", "old 1099", "old 1098"] and evidence[-1] == "old 101"


def test_10_9_a_table_flag_names_its_accounts_by_alias(api: Api) -> None:
    """The tables' records name players by id: a flag read "2 lost 86 pots to 3" and
    listed ``accounts: ["2", "3"]``, so an operator looked each one up to know who; the
    page gives each flag its accounts' ``aliases``, in order, as the logs do."""
    boss = register(api)
    make_operator(api, boss)
    engine = make_engine(api.database_url)
    try:
        players = Players(engine)
        aliases = [register(api) for _ in range(3)]
        ids = tuple(str(players.get(a).id) for a in aliases)
        flags = [
            ReviewFlagged("repeated_pots", (ids[1], ids[0]), "dump", ("flags-b#1",)),
            ReviewFlagged("shared_ip", ids, "3 accounts from ip 10.0.0.5", ()),
        ]
        TableRecords(engine).commit("flags-b", 1, [encode_room_event(e) for e in flags])
        shown = bearer(api, boss).get("/api/operator/integrity").json()["table_flags"]
    finally:
        engine.dispose()
    named = {f["entry"]["evidence"]: f["entry"]["aliases"] for f in shown}
    assert named["dump"] == [aliases[1], aliases[0]]
    assert named["3 accounts from ip 10.0.0.5"] == aliases


def test_10_9_the_page_says_which_flagged_accounts_are_frozen_or_banned(api: Api) -> None:
    """A banned player's new account from his address was one more name in a shared
    address's list (§10.9 "banned players cannot return"; §10.1): nothing on the page
    said that another of its accounts was banned. ``sanctioned`` gives the freezes and
    bans in force of the accounts the page names."""
    boss = register(api)
    make_operator(api, boss)
    banned, frozen, free = (register(api) for _ in range(3))  # all from 127.0.0.1
    engine = make_engine(api.database_url)
    try:
        players = Players(engine)
        players.sanction(banned, SanctionKind.BAN, operator="test")
        players.sanction(frozen, SanctionKind.FREEZE, operator="test")
        flag = ReviewFlagged("repeated_pots", (str(players.get(frozen).id), "999999"), "x", ())
        TableRecords(engine).commit("flags-c", 1, [encode_room_event(flag)])
        page = bearer(api, boss).get("/api/operator/integrity").json()
    finally:
        engine.dispose()
    shared = {a for f in page["shared_access"] for a in f["players"]}
    assert {banned, frozen, free} <= shared
    assert page["sanctioned"] == {banned: ["ban"], frozen: ["freeze"]}
