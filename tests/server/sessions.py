"""Helpers of the server tests: bot sessions whose every message is kept, players,
reading answers, and the money check (the per-seat secrecy check is ``secrecy.py``)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.random_bot import RandomBot
from cardroom.store import Players, make_engine
from cardroom.store.tables import TableRecords


async def bot_session(
    base: str,
    tables: list[str],
    bots_per_table: int,
    hands: int,
    timeout: float = 60,
    every_bot_acts: bool = False,
) -> dict[str, list[dict[str, Any]]]:
    """Bots play at each table until ``hands`` hands finished at every one (and, with
    ``every_bot_acts``, until every bot was asked to act: a bot that sat down late
    waits for the big blind and may fold out of its first hands unasked); a spectator
    watches each. Returns every message each client received, by its player id."""
    logs: dict[str, list[dict[str, Any]]] = {}
    stop = asyncio.Event()
    bots = []
    for t in tables:
        for i in range(bots_per_table):
            bot = RandomBot(base, f"{t[:6]}b{i}", "password1", t, seed=i)
            client = await bot.start()
            client.log = logs.setdefault(str(bot.player_id), [])
            bots.append(bot)
    tasks = [asyncio.create_task(b.play(stop)) for b in bots]
    login = await asyncio.to_thread(account, base, "railbird", "password1")
    spectator = await ProtocolClient.connect(base, login["token"])
    spectator.log = logs.setdefault(login["player"], [])
    for t in tables:
        await spectator.send("watch", table=t)
    finished = dict.fromkeys(tables, 0)
    async with asyncio.timeout(timeout):
        while min(finished.values()) < hands or (every_bot_acts and not all_asked(bots)):
            msg = await spectator.receive()
            if msg["type"] == "events":
                done = sum(e["event"]["type"] == "HandFinished" for e in msg["events"])
                finished[msg["table"]] += done
    stop.set()
    for b in bots:
        assert b.client is not None
        await b.client.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    await spectator.close()
    return logs


def was_asked(messages: list[dict[str, Any]]) -> bool:
    """Whether a client with these messages was asked to act (sent a ``turn``)."""
    return any(m["type"] == "turn" for m in messages)


def all_asked(bots: list[RandomBot]) -> bool:
    """Whether every bot was asked to act yet."""
    return all(b.client is not None and was_asked(b.client.log or []) for b in bots)


async def player(base: str, alias: str) -> tuple[ProtocolClient, str]:
    """A logged-in connection and its player id (the hello is read)."""
    login = await asyncio.to_thread(account, base, alias, "password1")
    client = await ProtocolClient.connect(base, login["token"])
    hello = await client.receive()
    assert hello["type"] == "hello" and hello["player"] == login["player"]
    return client, str(login["player"])


async def answer(client: ProtocolClient, client_id: str, limit: float = 10) -> dict[str, Any]:
    """Read until the ok or error naming ``client_id``."""
    async with asyncio.timeout(limit):
        while True:
            msg = await client.receive()
            if msg["type"] in ("ok", "error") and msg.get("re") == client_id:
                return msg


async def seated_pair(
    base: str, join_id: str = "j"
) -> tuple[ProtocolClient, str, ProtocolClient, str]:
    """alice and bobby logged in and seated at holdem's seats 0 and 1 with 40 chips each
    (``join_id``: the id of their ``join``; a later run needs new ones): each
    connection and player id."""
    a, a_id = await player(base, "alice")
    b, b_id = await player(base, "bobby")
    for c, seat in ((a, 0), (b, 1)):
        await c.send("join", id=join_id, table="holdem", seat=seat, amount=40)
        assert (await answer(c, join_id))["type"] == "ok"
    return a, a_id, b, b_id


async def until(
    client: ProtocolClient, kind: str, limit: float = 10, **match: Any
) -> dict[str, Any]:
    """Read until a message of ``kind`` whose fields include ``match``."""
    async with asyncio.timeout(limit):
        while True:
            msg = await client.receive()
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg


async def table_event(client: ProtocolClient, kind: str, limit: float = 15) -> dict[str, Any]:
    """Read until a table event of ``kind``; that event."""
    async with asyncio.timeout(limit):
        while True:
            msg = await client.receive()
            for e in msg.get("events", []) if msg["type"] == "events" else []:
                if e["event"]["type"] == kind:
                    return dict(e["event"])


async def first_turn(
    clients: list[ProtocolClient], table: str, limit: float = 10
) -> tuple[ProtocolClient, dict[str, Any]]:
    """The client told it is to act at ``table`` first, and that turn message (the turn
    goes to the player to act only; who acts first depends on the draw for the button)."""
    waits = {asyncio.ensure_future(until(c, "turn", limit, table=table)): c for c in clients}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)  # their reads have stopped
    task = done.pop()
    return waits[task], task.result()


def money_problems(url: str) -> list[str]:
    """The ledger's broken invariants, and each table's stacks against its record (what
    ``cardroom ledger check`` reports)."""
    from cardroom.server.recovery import record_problems
    from cardroom.store import SqlLedger

    engine = make_engine(url)
    try:
        ledger = SqlLedger(engine)
        return [str(v) for v in ledger.check()] + record_problems(engine)
    finally:
        engine.dispose()


def operator_client(base: str, url: str, alias: str = "boss") -> httpx.Client:
    """An HTTP client of a new account ``alias`` made an operator straight in the
    database (as the command line would), authenticated with its bearer token."""
    login = account(base, alias, "password1")
    engine = make_engine(url)
    try:
        Players(engine).set_role(alias, "operator", operator="test")
    finally:
        engine.dispose()
    return httpx.Client(base_url=base, headers={"authorization": f"Bearer {login['token']}"})


def stored_events(url: str, kind: str) -> int:
    """How many entries of event type ``kind`` the tables' records hold."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from cardroom.store.models import TableEntry

    engine = make_engine(url)
    try:
        with Session(engine) as session:
            count = select(func.count()).where(TableEntry.kind == kind)
            return int(session.scalar(count) or 0)
    finally:
        engine.dispose()


def stacks_come_back(url: str) -> list[str]:
    """Each table's record, followed seat by seat: every cancelled hand gives back the
    stacks its players had when it was dealt, and every player stood up by a recovery
    leaves with exactly that (RULEBOOK §10.10); every hand dealt ended exactly once."""
    found: list[str] = []
    engine = make_engine(url)
    try:
        records = TableRecords(engine)
        for table in records.open_tables():
            stacks: dict[int, int] = {}
            for e in [e for _, e in records.entries(table, 0, 10_000_000)]:
                kind = e["type"]
                if kind in ("PlayerSeated", "ChipsAdded"):
                    stacks[e["seat"]] = e["stack"]
                elif kind == "HandFinished":
                    stacks.update({s: n for s, n in e["stacks"]})
                elif kind == "HandVoided":
                    back = {s: n for s, n in e["stacks"]}
                    if any(stacks.get(s) != n for s, n in back.items()):
                        found.append(f"{table} hand {e['hand_no']}: {back} != {stacks}")
                elif kind == "PlayerLeft":
                    if e["reason"] == "table_closed" and e["cashed_out"] != stacks.get(e["seat"]):
                        found.append(f"{table}: {e['player']} left with {e['cashed_out']}")
                    stacks.pop(e["seat"], None)
        for table, summary in records.hands().items():
            ended = sorted(summary.finished + summary.voided)
            if ended != sorted(summary.dealt) or set(summary.finished) & set(summary.voided):
                found.append(f"{table}: hands dealt {summary.dealt}, ended {ended}")
    finally:
        engine.dispose()
    return found


HORSE_STUD = {2, 3, 4}
"""The stud games of the HORSE rotation (razz, stud, stud hi-lo): the button frozen."""


def horse_problems(entries: list[dict[str, Any]], voided: list[int]) -> list[str]:
    """The HORSE rotation (one hand a game) as its record tells it: each game in turn, a
    cancelled hand and restarts included (a cancelled hand is dealt again in its
    game); the button of every stud hand is the one of the hand dealt before it
    (frozen, §9), unless a recovery stood everyone up in between: the table is then
    new, its button drawn again (``Table.game_goes_on``, §3)."""
    found, played, button = [], 0, None
    for e in entries:
        if e["type"] == "PlayerLeft" and e["reason"] == "table_closed":
            button = None
        if e["type"] != "HandDealt":
            continue
        if e["game"] != played % 5:
            found.append(f"hand {e['hand_no']} dealt game {e['game']}, not {played % 5}")
        if e["game"] in HORSE_STUD and button is not None and e["button"] != button:
            found.append(f"stud hand {e['hand_no']}: button {e['button']}, was {button}")
        button = e["button"]
        played += e["hand_no"] not in voided
    return found
