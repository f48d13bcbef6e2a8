"""A random-legal bot: sits down, then answers every ``turn`` with a random legal action.

It knows the game only through the protocol: the ``turn`` message lists the
legal actions (and bounds), the bot's own cards and the board. Timing is
configurable (``think`` seconds, uniformly 0..think) so tables look human.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from cardroom.bots.client import ProtocolClient, account


@dataclass
class BotStats:
    """What a bot did and what was refused."""

    actions: int = 0
    errors: int = 0
    hands: int = 0


def choose(legal: dict[str, Any], cards: list[str | None], rng: random.Random) -> dict[str, Any]:
    """A random legal action as message fields (kind, amount, cards)."""
    kinds = list(legal.get("actions") or [])
    if not kinds:
        return {"kind": "fold"}
    weights = {"fold": 1, "check": 4, "call": 4, "raise": 2, "bring_in": 3, "draw": 4}
    kind = rng.choices(kinds, [weights.get(k, 1) for k in kinds])[0]
    if kind == "raise":
        sizes = legal.get("raise_sizes") or []
        low, high = int(legal.get("min_raise_to") or 0), int(legal.get("max_raise_to") or 0)
        amount = rng.choice(sizes) if sizes else rng.randint(low, max(low, min(high, low * 3)))
        return {"kind": "raise", "amount": amount}
    if kind == "draw":
        mine = [c for c in cards if c is not None]
        count = rng.randint(0, min(int(legal.get("draw") or 0), len(mine)))
        return {"kind": "draw", "cards": rng.sample(mine, count)}
    return {"kind": kind}


class RandomBot:
    """One bot at one table."""

    def __init__(
        self, base: str, alias: str, password: str, table: str, *, think: float = 0.0,
        seed: int | None = None,
    ) -> None:  # fmt: skip
        self.base, self.alias, self.password, self.table = base, alias, password, table
        self.think = think
        self.rng = random.Random(seed)
        self.stats = BotStats()
        self.client: ProtocolClient | None = None
        self.player_id: str | None = None
        self.seat: int | None = None
        self.last_seq = 0
        self.last_act: str | None = None
        self.join_id: str | None = None
        self.sit_tries = 0
        self.buy_in: list[int | None] = [None, None]

    async def start(self) -> ProtocolClient:
        """Log in and connect."""
        login = await asyncio.to_thread(account, self.base, self.alias, self.password)
        self.player_id = login["player"]
        self.client = await ProtocolClient.connect(self.base, login["token"])
        return self.client

    async def sit(self, client: ProtocolClient) -> None:
        """Watch the table and take the first free seat with the minimum buy-in."""
        await client.send("watch", table=self.table)
        snap = None
        while snap is None:
            msg = await client.receive()
            if msg["type"] == "snapshot" and msg["table"] == self.table:
                snap = msg
        self.buy_in = snap["info"]["buy_in"]
        self.seat = snap["view"].get("you")
        if self.seat is not None:
            return
        free = [i for i, s in enumerate(snap["view"]["seats"]) if s is None]
        if free:
            low, high = self.buy_in
            amount = high if high is not None else 2 * int(low or 1)
            self.sit_tries += 1
            seat = self.rng.choice(free)
            self.join_id = await client.send("join", table=self.table, seat=seat, amount=amount)

    async def play(self, stop: asyncio.Event | None = None) -> BotStats:
        """Play until the connection ends or ``stop`` is set."""
        client = self.client or await self.start()
        await self.sit(client)
        while stop is None or not stop.is_set():
            try:
                msg = await client.receive()
            except Exception:
                break
            await self.on_message(client, msg)
        return self.stats

    async def on_message(self, client: ProtocolClient, msg: dict[str, Any]) -> None:
        """React to one server message."""
        kind = msg.get("type")
        if kind == "turn" and msg.get("table") == self.table:
            if self.think:
                await asyncio.sleep(self.rng.uniform(0, self.think))
            fields = choose(msg["legal"], msg.get("cards") or [], self.rng)
            self.last_act = await client.send("act", table=self.table, **fields)
            self.stats.actions += 1
        elif kind == "error":
            self.stats.errors += 1
            if msg.get("re") == self.last_act:  # refused: ask again where the table stands
                await client.send("watch", table=self.table, since=self.last_seq)
            elif msg.get("re") == self.join_id and self.sit_tries < 5:  # a seat taken first
                await self.sit(client)
        elif kind == "events":
            for e in msg["events"]:
                self.last_seq = max(self.last_seq, e["seq"])
                await self.on_event(client, e["event"])

    async def on_event(self, client: ProtocolClient, event: dict[str, Any]) -> None:
        """Follow one's own seat; add chips and come back when sat out short."""
        kind = event.get("type")
        if kind == "PlayerSeated" and event.get("player") == self.player_id:
            self.seat = event["seat"]
        elif kind == "PlayerLeft" and event.get("player") == self.player_id:
            self.seat = None
            await self.sit(client)
        elif kind == "SatOut" and event.get("seat") == self.seat and self.seat is not None:
            if event.get("reason") == "short":
                await client.send("rebuy", table=self.table, amount=int(self.buy_in[0] or 1))
            await client.send("sit_in", table=self.table)
