"""Helpers of the server tests: bot sessions whose every message is kept, and the check
that no message holds another player's hidden cards."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.random_bot import RandomBot
from cardroom.store import make_engine
from cardroom.store.tables import TableRecords

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
DECK = -1
"""The cards not dealt yet, held by no seat (Chinese poker hands record their deck)."""


async def bot_session(
    base: str, tables: list[str], bots_per_table: int, hands: int, timeout: float = 60
) -> dict[str, list[dict[str, Any]]]:
    """Bots play at each table until ``hands`` hands finished at every one; a spectator
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
        while min(finished.values()) < hands:
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


def cards_in(data: Any) -> Iterator[str]:
    """Every card written anywhere in a JSON value."""
    if isinstance(data, str):
        if CARD.match(data):
            yield data
    elif isinstance(data, list):
        for x in data:
            yield from cards_in(x)
    elif isinstance(data, dict):
        for x in data.values():
            yield from cards_in(x)


class Hidden:
    """From a table's stored record: at each sequence number, the cards each seat holds
    face down and has not shown, and where each player sits."""

    def __init__(self, entries: list[tuple[int, dict[str, Any]]]) -> None:
        self.hidden: dict[int, dict[int, frozenset[str]]] = {}
        self.seats: dict[int, dict[str, int]] = {}
        held: dict[int, set[str]] = {}
        seats: dict[str, int] = {}
        for seq, e in entries:
            kind = e["type"]
            if kind == "ChineseEvent":  # a Chinese poker hand's event, wrapped
                e = e["event"]
                kind = "Chinese" + e["type"]
            if kind == "HandDealt":
                held = {}
            elif kind == "ChineseHandStarted":  # the deck: nobody's, never shown
                held[DECK] = set(e["deck"])
            elif kind == "ChineseCardsDealt":
                held[DECK].difference_update(e["cards"])
                held.setdefault(e["seat"], set()).update(e["cards"])
            elif kind == "ChineseCardsPlaced":
                mine = held.setdefault(e["seat"], set())
                if not e["face_down"]:  # open face: public once placed
                    mine.difference_update(e["top"] + e["middle"] + e["bottom"])
            elif kind == "ChineseHandSettled":  # the rows are shown; discards never
                for r in e["results"]:
                    held.get(r["seat"], set()).difference_update(
                        r["top"] + r["middle"] + r["bottom"]
                    )
            elif kind == "HoleDealt":
                down = {c for c, up in zip(e["cards"], e["up"], strict=True) if not up}
                held.setdefault(e["seat"], set()).update(down)
            elif kind == "Drew":
                mine = held.setdefault(e["seat"], set())
                mine.difference_update(e["discarded"])
                mine.update(e["dealt"])
            elif kind == "Shown":
                held.get(e["seat"], set()).difference_update(e["cards"])
            elif kind == "PlayerSeated":
                seats = {**seats, e["player"]: e["seat"]}
            elif kind == "PlayerLeft":
                seats = {k: v for k, v in seats.items() if k != e["player"]}
            self.hidden[seq] = {s: frozenset(c) for s, c in held.items()}
            self.seats[seq] = seats

    def leaks(self, player: str, seq: int, cards: Iterator[str]) -> list[str]:
        """The cards of ``cards`` another seat held face down at ``seq``."""
        mine = self.seats.get(seq, {}).get(player)
        found = []
        for c in cards:
            for seat, held in self.hidden.get(seq, {}).items():
                if seat != mine and c in held:
                    found.append(f"{c} of seat {seat} shown to {player} at {seq}")
        return found

    def own_cards_seen(self, player: str, seq: int, cards: Iterator[str]) -> int:
        """How many of ``cards`` are the player's own face-down cards."""
        mine = self.seats.get(seq, {}).get(player)
        held = self.hidden.get(seq, {}).get(mine, frozenset()) if mine is not None else set()
        return sum(1 for c in cards if c in held)


def items(message: dict[str, Any]) -> Iterator[tuple[str, int, Any]]:
    """(table, seq, data) for each part of a message that can hold cards."""
    kind = message.get("type")
    if kind == "events":
        for e in message["events"]:
            yield message["table"], e["seq"], e["event"]
    elif kind in ("snapshot", "turn"):
        yield message["table"], message["seq"], message


def check_no_hidden_cards(url: str, logs: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    """Assert no message leaks; return, per player, how many own hidden cards were seen
    (so a test can check the check is not vacuous)."""
    engine = make_engine(url)
    records = TableRecords(engine)
    tables = {t for msgs in logs.values() for m in msgs for t, _, _ in items(m)}
    hidden = {t: Hidden(records.entries(t, 0, 1_000_000)) for t in tables}
    engine.dispose()
    own: dict[str, int] = {}
    for player, messages in logs.items():
        for m in messages:
            for table, seq, data in items(m):
                leaks = hidden[table].leaks(player, seq, cards_in(data))
                assert not leaks, leaks
                own[player] = own.get(player, 0) + hidden[table].own_cards_seen(
                    player, seq, cards_in(data)
                )
    return own


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


async def until(
    client: ProtocolClient, kind: str, limit: float = 10, **match: Any
) -> dict[str, Any]:
    """Read until a message of ``kind`` whose fields include ``match``."""
    async with asyncio.timeout(limit):
        while True:
            msg = await client.receive()
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg


def money_problems(url: str) -> list[str]:
    """The ledger's broken invariants, and each table's stacks against its record."""
    from cardroom.ledger import AccountKind
    from cardroom.room.codec import decode_entry
    from cardroom.room.kinds import table_type
    from cardroom.room.settings import settings_from_dict
    from cardroom.server.table_ledger import StepLedger
    from cardroom.store import SqlLedger

    engine = make_engine(url)
    try:
        ledger = SqlLedger(engine)
        found = [str(v) for v in ledger.check()]
        balances = ledger.balances()
        records = TableRecords(engine)
        for table_id in records.open_tables():
            record = records.load(table_id)
            assert record is not None and record.snapshot is not None
            settings = settings_from_dict(record.settings)
            events = [decode_entry(e) for _, e in record.entries]
            table = table_type(settings).restore(settings, record.snapshot, events, StepLedger())
            stacks = table.stacks()
            for ref, held in balances.items():
                if ref.kind is AccountKind.POT and ref.owner == table_id and held:
                    found.append(f"pot of {table_id} holds {held}")
                if ref.kind is AccountKind.TABLE_STACK and ref.owner.startswith(f"{table_id}:"):
                    who = ref.owner.partition(":")[2]
                    if held != stacks.get(who, 0):
                        found.append(f"{ref} holds {held}, the table says {stacks.get(who, 0)}")
        return found
    finally:
        engine.dispose()
