"""The operator area over a real server: refused to players, tables opened and closed,
sanctions, integrity flags, the disconnect and chat logs; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.routing import Route

from cardroom.bots.client import ProtocolClient
from cardroom.room import events as rv
from cardroom.room.clock import day_of
from cardroom.room.codec import encode_room_event
from cardroom.server.app import create_app
from cardroom.server.tables_file import TablesFileError, spec_from_dict
from cardroom.store import make_engine
from cardroom.store.allowances import AllowanceChange
from cardroom.store.tables import TableRecords

from .api_client import BACKENDS, PASSWORD, Api, bearer, login, make_operator, register, start_api


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("operator")
    yield from start_api(request, tmp)


@pytest.fixture(scope="module")
def boss(api: Api) -> httpx.Client:
    alias = register(api)
    make_operator(api, alias)
    return bearer(api, alias)


def _operator_routes(api: Api) -> list[tuple[str, str]]:
    app = create_app(api.settings)
    found = []
    for route in app.routes:
        if isinstance(route, Route) and route.path.startswith("/api/operator"):
            path = re.sub(r"{(\w+):whole}", "1", route.path)
            path = re.sub(r"{(\w+):str}", "holdem", path)
            found += [(m, path) for m in sorted(route.methods or ()) if m != "HEAD"]
    return found


def test_operator_routes_are_refused_to_players_and_to_strangers(api: Api) -> None:
    routes = _operator_routes(api)
    assert len(routes) >= 8
    player = bearer(api, register(api))
    for method, path in routes:
        answer = player.request(method, path, json={})
        assert answer.status_code == 403 and answer.json()["code"] == "forbidden", path
        anonymous = httpx.request(method, api.base + path, json={})
        assert anonymous.status_code == 401 and anonymous.json()["code"] == "unauthorized"
    assert httpx.get(api.base + "/api/tables").status_code == 200  # the room still runs


def test_operator_cookie_writes_need_the_csrf_token(api: Api) -> None:
    alias = register(api)
    make_operator(api, alias)
    client, session = login(api, alias)
    target = register(api)
    body = {"alias": target, "kind": "chat_ban", "hours": 1}
    refused = client.post("/api/operator/sanctions", json=body)
    assert refused.status_code == 403 and refused.json()["code"] == "csrf"
    done = client.post(
        "/api/operator/sanctions", json=body, headers={"x-csrf-token": session["csrf"]}
    )
    assert done.status_code == 201


def test_10_9_freeze_shows_in_the_profile_until_lifted(api: Api, boss: httpx.Client) -> None:
    alias = register(api)
    player = bearer(api, alias)
    made = boss.post("/api/operator/sanctions", json={"alias": alias, "reason": "chargeback"})
    assert made.status_code == 201
    assert [s["kind"] for s in player.get("/api/me").json()["sanctions"]] == ["freeze"]
    assert player.post("/api/topup", json={}).json()["code"] == "frozen"
    seen = boss.get(f"/api/operator/players/{alias}").json()
    assert [s["id"] for s in seen["sanctions"]] == [made.json()["id"]] and seen["csrf"] == ""
    missing = boss.get("/api/operator/players/NoSuchPlayer9")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_player"
    by_id = boss.get(f"/api/operator/players/{seen['player']}").json()  # as the logs name it
    assert by_id["alias"] == alias and by_id["sanctions"] == seen["sanctions"]
    for junk in ("0", "9" * 40, "99999999"):
        assert boss.get(f"/api/operator/players/{junk}").status_code == 404
    lifted = boss.post(f"/api/operator/sanctions/{made.json()['id']}/lift")
    assert lifted.status_code == 200
    assert player.get("/api/me").json()["sanctions"] == []
    again = boss.post(f"/api/operator/sanctions/{made.json()['id']}/lift")
    assert again.status_code == 404 and again.json()["code"] == "no_such_sanction"
    nobody = boss.post("/api/operator/sanctions", json={"alias": "NoSuchPlayer9"})
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_such_player"


def test_10_9_a_banned_player_cannot_return(api: Api, boss: httpx.Client) -> None:
    alias = register(api)
    player = bearer(api, alias)
    assert boss.post("/api/operator/sanctions", json={"alias": alias, "kind": "ban"}).is_success
    assert player.get("/api/me").status_code == 401
    relog = httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD})
    # Told why (the password was right), and given no session: test_banned_login.py.
    assert relog.status_code == 403 and relog.json()["code"] == "account_banned"
    assert "token" not in relog.json() and not relog.cookies


def test_an_operator_grants_the_role(api: Api, boss: httpx.Client) -> None:
    alias = register(api)
    helper = bearer(api, alias)
    assert helper.get("/api/operator/integrity").status_code == 403
    granted = boss.post("/api/operator/roles", json={"alias": alias, "role": "operator"})
    assert granted.status_code == 200
    assert helper.get("/api/me").json()["role"] == "operator"
    assert helper.get("/api/operator/integrity").status_code == 200


def test_an_operator_cannot_lock_themselves_out_nor_sanction_twice(
    api: Api, boss: httpx.Client
) -> None:
    me = boss.get("/api/me").json()["alias"]
    for path, body in [
        ("/api/operator/sanctions", {"alias": me, "kind": "ban"}),
        ("/api/operator/sanctions", {"alias": me.upper(), "kind": "freeze"}),
        ("/api/operator/roles", {"alias": me, "role": "player"}),
    ]:
        refused = boss.post(path, json=body)
        assert refused.status_code == 400 and refused.json()["code"] == "own_account", body
    assert boss.get("/api/operator/integrity").status_code == 200  # still an operator
    alias = register(api)
    assert boss.post("/api/operator/sanctions", json={"alias": alias}).status_code == 201
    twice = boss.post("/api/operator/sanctions", json={"alias": alias})
    assert twice.status_code >= 400 and "freeze already" in twice.json()["message"], twice.text
    seen = boss.get(f"/api/operator/players/{alias}").json()
    assert [s["kind"] for s in seen["sanctions"]] == ["freeze"]  # one to lift, not two
    # A freeze for a while may be made lasting (until lifted), not repeated.
    other = register(api)
    assert boss.post("/api/operator/sanctions", json={"alias": other, "hours": 1}).is_success
    again = boss.post("/api/operator/sanctions", json={"alias": other, "hours": 1})
    assert again.status_code >= 400
    longer = boss.post("/api/operator/sanctions", json={"alias": other})
    assert longer.status_code == 201, longer.text
    # Nor may an operator lift a sanction on their own account: another operator must.
    helper = register(api)
    assert boss.post("/api/operator/roles", json={"alias": helper, "role": "operator"}).is_success
    frozen = bearer(api, helper).post("/api/operator/sanctions", json={"alias": me})
    assert frozen.status_code == 201
    lifted = boss.post(f"/api/operator/sanctions/{frozen.json()['id']}/lift")
    assert lifted.status_code == 400 and lifted.json()["code"] == "own_account"
    lift = f"/api/operator/sanctions/{frozen.json()['id']}/lift"
    assert bearer(api, helper).post(lift).is_success


def _listed(api: Api) -> set[str]:
    return {r["table_id"] for r in httpx.get(api.base + "/api/tables").json()["tables"]}


def test_operator_opens_and_closes_a_table(api: Api, boss: httpx.Client) -> None:
    spec = {
        "id": "razz-op",
        "game": "razz",
        "stakes": {"small_bet": 2, "big_bet": 4, "ante": 1},
        "seats": 6,
        "options": {"action_seconds": 9},
    }
    opened = boss.post("/api/operator/tables", json=spec)
    assert opened.status_code == 201, opened.text
    assert "razz-op" in _listed(api)
    twice = boss.post("/api/operator/tables", json=spec)
    assert twice.status_code == 409 and twice.json()["code"] == "table_exists"
    bad = boss.post("/api/operator/tables", json={**spec, "id": "x1", "game": "chess"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_table"
    closed = boss.post("/api/operator/tables/razz-op/close")
    assert closed.status_code == 200
    assert "razz-op" not in _listed(api)
    gone = boss.post("/api/operator/tables/razz-op/close")
    assert gone.status_code == 404 and gone.json()["code"] == "no_such_table"
    engine = make_engine(api.database_url)
    try:
        assert "razz-op" not in TableRecords(engine).open_tables()  # closed for good
    finally:
        engine.dispose()


def test_operator_opens_a_table_with_straddles_as_the_tables_file_does(
    api: Api, boss: httpx.Client
) -> None:
    """The operator's entry is the tables file's as JSON (docs/tables_file.md), whose
    `straddles` and `spread` are lists: the body took only whole numbers in `stakes`."""
    stakes = {"small_blind": 1, "big_blind": 2, "straddles": [4]}
    opened = boss.post(
        "/api/operator/tables", json={"id": "strad", "game": "holdem", "stakes": stakes}
    )
    assert opened.status_code == 201, opened.text
    listed = httpx.get(api.base + "/api/tables").json()["tables"]
    (row,) = [t for t in listed if t["table_id"] == "strad"]
    assert row["stakes"] == "1/2 straddle 4"
    spread = {"small_blind": 1, "big_blind": 2, "spread": [2, 4, 6, 8]}
    body = {"id": "spread", "game": "holdem", "structure": "spread_limit", "stakes": spread}
    spread_opened = boss.post("/api/operator/tables", json=body)
    assert spread_opened.status_code == 201, spread_opened.text
    assert boss.post("/api/operator/tables/strad/close").status_code == 200
    assert boss.post("/api/operator/tables/spread/close").status_code == 200


BAD_OPTIONS = [
    ("action_seconds", "x"), ("action_seconds", -1), ("action_seconds", 0),
    ("hand_pause_seconds", True), ("time_bank_start", -5), ("reducing_minutes", "30"),
    ("disconnect_allins_per_day", -1), ("disconnect_allins_per_day", 1.5),
    ("min_buy_in", True), ("disconnect_protection", "no"), ("draw_button", 1),
]  # fmt: skip
"""Table options of the wrong kind or out of range (a string clock crashed the table's
actor at every tick once two players sat; a negative clock timed every turn out)."""


def test_a_table_option_of_the_wrong_kind_is_refused_and_opens_nothing(
    api: Api, boss: httpx.Client
) -> None:
    base = {"game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    for n, (key, value) in enumerate(BAD_OPTIONS):
        body = {**base, "id": f"badopt{n}", "options": {key: value}}
        answer = boss.post("/api/operator/tables", json=body)
        assert answer.status_code == 400, (key, value, answer.text)
        assert answer.json()["code"] == "bad_table" and key in answer.json()["message"]
    assert not {f"badopt{n}" for n in range(len(BAD_OPTIONS))} & _listed(api)
    # A line feed ending the id passed the id's pattern (Python's ``$``): 400 ``refused``
    # in the ledger's words ("account owner ... must be ... trimmed").
    answer = boss.post("/api/operator/tables", json={**base, "id": "lf\n"})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request", answer.text
    good = boss.post("/api/operator/tables", json={**base, "id": "okopt", "options": {
        "action_seconds": 9.5, "hand_pause_seconds": 0, "min_buy_in": 30,
        "disconnect_protection": True,
    }})  # fmt: skip
    assert good.status_code == 201, good.text
    assert boss.post("/api/operator/tables/okopt/close").status_code == 200
    for value in (math.inf, math.nan):  # TOML writes them (inf, nan); JSON cannot
        with pytest.raises(TablesFileError, match="action_seconds"):
            spec_from_dict({**base, "id": "t", "action_seconds": value})
    with pytest.raises(TablesFileError, match="set_seconds"):
        spec_from_dict({"id": "o", "game": "ofc", "point_value": 1, "set_seconds": "x"})


def test_operator_opens_a_table_with_rule_options_as_the_tables_file_does(
    api: Api, boss: httpx.Client
) -> None:
    """The tables file's `rules` (docs/tables_file.md) was refused by the route as an
    unknown field, and inside `options` as "a table of game options": no table opened
    through the API could set a rule option."""
    body = {"id": "ruled", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2},
            "rules": {"burn_cards": False, "max_raises": 3}}  # fmt: skip
    opened = boss.post("/api/operator/tables", json=body)
    assert opened.status_code == 201, opened.text
    games = boss.get("/api/operator/tables/ruled").json()["settings"]["games"]
    assert (games[0]["burn_cards"], games[0]["max_raises"]) == (False, 3)
    assert boss.post("/api/operator/tables/ruled/close").status_code == 200
    wrong = boss.post("/api/operator/tables", json={**body, "id": "ruled2", "rules": {"nope": 1}})
    assert wrong.status_code == 400 and "nope" in wrong.json()["message"], wrong.text
    assert "ruled2" not in _listed(api)


def test_racing_opens_and_closes_of_one_table_are_one_each(api: Api, boss: httpx.Client) -> None:
    token = boss.headers["authorization"]
    body = {"id": "raced", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}

    async def race(path: str, **kwargs: Any) -> list[httpx.Response]:
        async with httpx.AsyncClient(
            base_url=api.base, headers={"authorization": token}, timeout=30
        ) as client:
            return list(await asyncio.gather(*(client.post(path, **kwargs) for _ in range(6))))

    for _ in range(2):  # a table opened, closed, then opened again under its id
        opened = asyncio.run(race("/api/operator/tables", json=body))
        codes = sorted(a.status_code for a in opened)
        assert codes == [201, 409, 409, 409, 409, 409], [a.text for a in opened]
        closed = asyncio.run(race("/api/operator/tables/raced/close"))
        codes = sorted(a.status_code for a in closed)
        assert codes == [200, 404, 404, 404, 404, 404], [a.text for a in closed]
        assert all(a.json()["code"] == "no_such_table" for a in closed if a.status_code == 404)
    assert "raced" not in _listed(api)


def test_9_operator_opens_a_mixed_table(api: Api, boss: httpx.Client) -> None:
    spec = {"id": "horse-op", "mixed": "HORSE", "stakes": {"small_bet": 4}, "hands_per_game": 2}
    opened = boss.post("/api/operator/tables", json=spec)
    assert opened.status_code == 201, opened.text
    rows = {r["table_id"]: r for r in httpx.get(api.base + "/api/tables").json()["tables"]}
    assert (rows["horse-op"]["badge"], rows["horse-op"]["current_game"]) == ("HORSE", "FL Hold'em")
    bad = boss.post("/api/operator/tables", json={**spec, "id": "x2", "games": ["holdem", "razz"]})
    assert bad.status_code == 400 and "HORSE plays its official games" in bad.json()["message"]
    assert boss.post("/api/operator/tables/horse-op/close").status_code == 200


def test_8_operator_opens_a_chinese_poker_table(api: Api, boss: httpx.Client) -> None:
    spec = {"id": "ofc-op", "game": "pineapple", "point_value": 5, "seats": 3}
    opened = boss.post("/api/operator/tables", json=spec)
    assert opened.status_code == 201, opened.text
    rows = {r["table_id"]: r for r in httpx.get(api.base + "/api/tables").json()["tables"]}
    assert (rows["ofc-op"]["badge"], rows["ofc-op"]["stakes"]) == ("Pineapple OFC", "5 a point")
    bad = boss.post("/api/operator/tables", json={**spec, "id": "x3", "stakes": {"ante": 1}})
    assert bad.status_code == 400 and "unknown keys" in bad.json()["message"]
    assert boss.post("/api/operator/tables/ofc-op/close").status_code == 200


def test_closing_a_table_cashes_its_players_out(api: Api, boss: httpx.Client) -> None:
    spec = {"id": "close-me", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    assert boss.post("/api/operator/tables", json=spec).status_code == 201
    alias = register(api)
    player = bearer(api, alias)
    before = player.get("/api/balances").json()["play"]

    async def sit() -> int:
        token = player.headers["authorization"].split()[1]
        client = await ProtocolClient.connect(api.base, token)
        await client.send("watch", table="close-me")
        snapshot = None
        while snapshot is None:
            message = await client.receive()
            snapshot = message if message["type"] == "snapshot" else None
        low = snapshot["info"]["buy_in"][0]
        await client.send("join", id="sit", table="close-me", seat=0, amount=low)
        while (message := await client.receive()).get("re") != "sit":
            pass
        assert message["type"] == "ok", message
        await client.close()
        return int(low)

    bought = asyncio.run(sit())
    assert player.get("/api/balances").json()["play"] == before - bought
    assert boss.post("/api/operator/tables/close-me/close").status_code == 200
    assert player.get("/api/balances").json()["play"] == before  # the stack came back
    assert "close-me" not in _listed(api)


def test_a_nul_in_an_operator_s_text_is_a_bad_request_on_every_database(
    api: Api, boss: httpx.Client
) -> None:
    # PostgreSQL refuses NUL in text: these were 503 "unavailable" there (as if the
    # database were down), and done on SQLite.
    for path in ("/api/operator/logs/chat", "/api/operator/logs/disconnects"):
        for table in ("a\x00b", "x" * 41, "../holdem", "holdem\n"):
            answer = boss.get(path, params={"table": table})
            assert answer.status_code == 400, (path, table, answer.text)
            assert answer.json()["code"] == "bad_request"
        assert boss.get(path, params={"table": "holdem"}).status_code == 200
    target = register(api)
    body = {"alias": target, "kind": "chat_ban", "hours": 1, "reason": "spam\x00"}
    refused = boss.post("/api/operator/sanctions", json=body)
    assert refused.status_code == 400 and refused.json()["code"] == "bad_request", refused.text
    assert bearer(api, target).get("/api/me").json()["sanctions"] == []  # nothing was done
    made = boss.post("/api/operator/sanctions", json={**body, "reason": "spam,\nagain"})
    assert made.status_code == 201, made.text


def test_10_9_integrity_flags_accounts_sharing_an_address(api: Api, boss: httpx.Client) -> None:
    first, second = register(api), register(api)
    bearer(api, first), bearer(api, second)  # both log in from 127.0.0.1
    report = boss.get("/api/operator/integrity").json()
    shared = [f for f in report["shared_access"] if f["via"] == "ip" and f["value"] == "127.0.0.1"]
    assert shared and {first, second} <= set(shared[0]["players"])
    assert report["table_flags"] == [] and report["chip_dumping"] == []


def _log_entries(api: Api, player: str, table: str) -> None:
    """A table's record with disconnects, as a table writes it (the all-in it used with it)."""
    day = day_of(time.time())
    events = [
        rv.PlayerSeated(player, 2, 40, None, False, 30.0, time.time()),
        rv.Disconnected(seat=2, at=time.time()),
        rv.DisconnectAllInUsed(seat=2, player=player, hand_no=7, used_today=1, day=day),
        rv.Reconnected(seat=2),
    ]
    engine = make_engine(api.database_url)
    try:
        used = [AllowanceChange(player, day, False, 2)]
        TableRecords(engine).commit(
            table, 1, [encode_room_event(e) for e in events], allowances=used
        )
    finally:
        engine.dispose()


@pytest.mark.today
def test_10_6_disconnect_log_and_the_allowance_left_today(api: Api, boss: httpx.Client) -> None:
    alias = register(api)
    player = bearer(api, alias)
    _log_entries(api, player.get("/api/me").json()["player"], "logs-1")
    log = boss.get("/api/operator/logs/disconnects", params={"table": "logs-1"}).json()
    kinds = [e["kind"] for e in log["entries"]]
    assert kinds == ["Disconnected", "DisconnectAllInUsed", "Reconnected"]
    named = [e["entry"].get("alias") for e in log["entries"]]  # who sat at the seat then,
    assert named == [alias, alias, alias]  # or the player the entry names by id
    assert log["next_after"] is None
    paged = boss.get(
        "/api/operator/logs/disconnects", params={"table": "logs-1", "limit": 1}
    ).json()
    after = paged["next_after"]
    rest = boss.get("/api/operator/logs/disconnects", params={"table": "logs-1", "after": after})
    assert [e["kind"] for e in rest.json()["entries"]] == kinds[1:]
    allowance = player.get("/api/me").json()["disconnect_all_ins"]
    assert allowance == {"per_day": 2, "used_today": 1, "left_today": 1}


async def _answered(client: ProtocolClient, message_id: str) -> dict[str, Any]:
    """The server's answer (``ok`` or ``error``) to one of the client's messages."""
    async with asyncio.timeout(10):
        while True:
            message = await client.receive()
            if message.get("re") == message_id:
                return message


def test_10_7_chat_log_holds_lines_offences_and_reports(api: Api, boss: httpx.Client) -> None:
    """Every line said over a real WebSocket is in the operator's chat log, as the table
    stored it before anyone heard it: said, blocked with its verdict's code; the chat ban
    and the report are in the audit log."""
    rude, witness = register(api), register(api)

    async def session() -> tuple[str, dict[str, Any]]:
        clients = []
        for alias in (rude, witness):
            token = httpx.post(
                api.base + "/api/login", json={"alias": alias, "password": PASSWORD}
            ).json()["token"]
            client = await ProtocolClient.connect(api.base, token)
            hello = await client.receive()
            await _answered(client, await client.send("watch", table="holdem"))
            clients.append((client, hello["player"]))
        (mouth, player), (ears, _) = clients
        sat = await mouth.send("join", table="holdem", seat=3, amount=40)  # only players chat
        assert (await _answered(mouth, sat))["type"] == "ok"
        said = await _answered(mouth, await mouth.send("chat", table="holdem", text="nice hand"))
        assert said["type"] == "ok" and said["detail"] == {"verdict": "ok"}
        async with asyncio.timeout(10):  # the witness hears it
            while (heard := await ears.receive())["type"] != "chat":
                pass
        text = "visit www.cheapchips.example now"
        refused = await _answered(mouth, await mouth.send("chat", table="holdem", text=text))
        assert refused["type"] == "error" and refused["code"] == "chat_refused"
        # By id (as events name players) or by alias; once per 10 minutes each.
        reported = await ears.send("report", table="holdem", player=player, reason="chat_abuse")
        assert (await _answered(ears, reported))["type"] == "ok"
        again = await _answered(
            ears, await ears.send("report", table="holdem", player=rude, reason="other")
        )
        assert again["code"] == "bad_report" and "lately" in again["message"], again
        nobody = await _answered(
            ears, await ears.send("report", table="holdem", player="nobody9", reason="other")
        )
        assert nobody["code"] == "bad_report" and "no player" in nobody["message"], nobody
        for c, _ in clients:
            await c.close()
        return player, heard

    player, heard = asyncio.run(session())
    assert heard["text"] == "nice hand" and heard["alias"] == rude
    log = boss.get("/api/operator/logs/chat", params={"table": "holdem"}).json()
    mine = [e for e in log["entries"] if e["entry"].get("player") == player]
    assert [(e["kind"], e["entry"].get("text"), e["entry"].get("code")) for e in mine] == [
        ("ChatSaid", "nice hand", None),
        ("ChatBlocked", None, "advertising"),
    ]
    assert mine[1]["entry"]["offence"] and mine[1]["entry"]["seat"] == 3
    assert [e["entry"]["alias"] for e in mine] == [rude, rude]  # not the id alone
    actions = {(n["action"], n["subject"].lower()) for n in log["notes"]}
    assert ("report", rude.lower()) in actions
    assert ("chat_ban", rude.lower()) in actions  # an offence bans the account (§10.7)


def test_the_chat_log_names_each_player_by_alias_as_the_disconnect_log_does(
    api: Api, boss: httpx.Client
) -> None:
    # It named players by id only (the disconnect log added the alias of a seat's player).
    mouth, ears = register(api), register(api)
    ids = [bearer(api, a).get("/api/me").json()["player"] for a in (mouth, ears)]
    events = [
        rv.PlayerSeated(ids[0], 1, 40, None, False, 30.0, time.time()),
        rv.ChatSaid(ids[0], "hello", time.time()),
        rv.ChatBlocked(1, ids[0], "advertising", "www", False, time.time()),
        rv.ChatReported(2, ids[1], ids[0], "chat_abuse", "", time.time()),
    ]
    engine = make_engine(api.database_url)
    try:
        TableRecords(engine).commit("logs-chat", 1, [encode_room_event(e) for e in events])
    finally:
        engine.dispose()
    log = boss.get("/api/operator/logs/chat", params={"table": "logs-chat"}).json()
    named = [(e["entry"].get("alias"), e["entry"].get("accused_alias")) for e in log["entries"]]
    assert named == [(mouth, None), (mouth, None), (ears, mouth)]  # a report: its reporter


def test_a_table_opened_through_the_api_asks_for_no_house_bots(
    api: Api, boss: httpx.Client
) -> None:
    # House bots are seated from the tables file when the server starts: a table
    # opened here with bots would have waited for them for ever.
    body = {"id": "with-bots", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    refused = boss.post("/api/operator/tables", json={**body, "bots": 2})
    assert refused.status_code == 400 and "tables file" in refused.json()["message"]
    assert "with-bots" not in _listed(api)


def test_a_player_who_watched_a_closed_table_watches_it_again_when_sitting_at_its_reopening(
    api: Api, boss: httpx.Client
) -> None:
    # The connection remembered the table's id as watched after the close, so `join` at
    # the table reopened under that id did not watch it again: the player was seated
    # and heard nothing (no snapshot, no turn), away at a table he had just joined.
    spec = {"id": "reopen-me", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2}}
    assert boss.post("/api/operator/tables", json=spec).status_code == 201
    token = bearer(api, register(api)).headers["authorization"].split()[1]

    async def sit_after_reopening() -> list[dict[str, Any]]:
        client = await ProtocolClient.connect(api.base, token)
        await client.send("watch", id="w", table="reopen-me")
        while (await client.receive()).get("re") != "w":
            pass
        await asyncio.to_thread(boss.post, "/api/operator/tables/reopen-me/close")
        reopened = await asyncio.to_thread(boss.post, "/api/operator/tables", json=spec)
        assert reopened.status_code == 201, reopened.text
        await client.send("join", id="sit", table="reopen-me", seat=0, amount=40)
        heard = []
        while (message := await client.receive()).get("re") != "sit":
            heard.append(message)
        assert message["type"] == "ok", message
        await client.close()
        return heard

    heard = asyncio.run(sit_after_reopening())
    snapshots = [m for m in heard if m["type"] == "snapshot" and m["table"] == "reopen-me"]
    assert snapshots, heard
    assert boss.post("/api/operator/tables/reopen-me/close").status_code == 200


def test_an_operator_reads_back_the_settings_of_a_table_opened_through_the_api(
    api: Api, boss: httpx.Client
) -> None:
    # Nothing showed a table's clocks, rake or buy-in range once it was open.
    options = {"action_seconds": 12.5, "time_bank_start": 45.0, "hand_pause_seconds": 2.0,
               "min_buy_in": 60, "max_buy_in": 300}  # fmt: skip
    spec = {"id": "read-me", "game": "holdem", "money": "real", "seats": 9,
            "stakes": {"small_blind": 2, "big_blind": 4}, "options": options}  # fmt: skip
    assert boss.post("/api/operator/tables", json=spec).status_code == 201
    view = boss.get("/api/operator/tables/read-me")
    assert view.status_code == 200, view.text
    table = view.json()
    assert (table["table_id"], table["open"], table["origin"]) == ("read-me", True, "operator")
    settings = table["settings"]
    assert {k: settings[k] for k in options} == options
    assert settings["currency"] == "real" and settings["games"][0]["max_seats"] == 9
    assert settings["games"][0]["stakes"]["big_blind"] == 4 and "seed" not in settings
    assert table["buy_in"] == [60, 300] and table["bots"] == 0
    assert table["rakes"] and table["rakes"][0]["per"] > 0  # seed 003's, real money
    assert bearer(api, register(api)).get("/api/operator/tables/read-me").status_code == 403
    assert boss.post("/api/operator/tables/read-me/close").status_code == 200
    closed = boss.get("/api/operator/tables/read-me").json()  # from its record
    assert (closed["open"], closed["origin"], closed["settings"]) == (False, None, settings)
    unknown = boss.get("/api/operator/tables/never-was")
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_such_table"
    started = boss.get("/api/operator/tables/holdem").json()  # the test server's own
    assert started["open"] and started["origin"] == "tables_file"
    for bad in ("a%00b", "x" * 41, "holdem%0A"):  # not a table id: never sent to the database
        answer = boss.get(f"/api/operator/tables/{bad}")
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request", bad
