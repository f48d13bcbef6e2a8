"""A bot at one table: logs in, watches, sits, acts on its own turns, reconnects.

It knows the table only from what the server sends it: the ``snapshot`` (its
seat, the free seats, the buy-in), the ``events`` (followed by a
:class:`~cardroom.bots.tracker.HandTracker`) and the ``turn`` message, sent to
the player to act alone, with the legal set the bot chooses from. After a
dropped connection it logs in again if it must, reconnects and watches with
the last sequence number it saw, so the server sends what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from websockets.exceptions import ConnectionClosed

from cardroom.bots.client import ProtocolClient, account, login, top_up
from cardroom.bots.placement import is_placement, random_placement
from cardroom.bots.strategy import Strategy, random_action
from cardroom.bots.timing import FAST, Timing
from cardroom.bots.tracker import HandTracker

RECONNECT_TRIES = 20
"""Attempts to come back after a drop (about 30 s in all) before giving up."""
INSUFFICIENT_FUNDS = "insufficient_funds"
"""The protocol's code for a buy-in or rebuy the account cannot pay (a bot knows the
server only by its protocol: docs/protocol.md)."""
JOIN_TRIES = 10
"""Refused joins in a row after which a bot stops asking for a seat (counted since it
last sat down: over a long session, refusals of long ago made it give up at once)."""


@dataclass
class BotStats:
    """What a bot did and what was refused."""

    actions: int = 0
    errors: int = 0
    hands: int = 0
    reconnects: int = 0
    top_ups: int = 0
    """Play-money top-ups taken (the account was short for a rebuy or a seat)."""
    codes: Counter[str] = field(default_factory=Counter)
    """Error codes received, counted."""


class Probe(Protocol):
    """Told when a bot acts and when a bot sees another seat's action (latency)."""

    def sent(self, table: str, seat: int, at: float) -> None:
        """A bot at ``seat`` sent an action at ``at`` (``time.monotonic``)."""

    def seen(self, table: str, seat: int, at: float) -> None:
        """A bot at another seat received the action of ``seat`` at ``at``."""


class Bot:
    """One bot at one table, playing by ``strategy``.

    ``seat``: the seat it asks for (None: a random free one); ``token``: a session
    token already held (None: log in, registering ``alias`` if new); ``timing``: its
    think time (``think`` seconds, if given, means anything from 0 to that);
    ``offload``: decide in a worker thread (a costly strategy beside a server's loop);
    ``device``: the device id it connects with ("": none); ``register``: False for an
    account known to exist (a house bot: registering again would spend the address's
    registrations, which are limited).
    """

    def __init__(
        self, base: str, alias: str, password: str, table: str, *,
        strategy: Strategy = random_action, timing: Timing = FAST, think: float = 0.0,
        seed: int | None = None, seat: int | None = None, token: str | None = None,
        probe: Probe | None = None, offload: bool = False, device: str = "",
        register: bool = True,
    ) -> None:  # fmt: skip
        self.base, self.alias, self.password, self.table = base, alias, password, table
        self.strategy = strategy
        self.timing = Timing(0.0, think) if think else timing
        self.rng = random.Random(seed)
        self.wanted_seat = seat
        self.token = token
        self.probe = probe
        self.offload = offload
        self.device = device
        self.register = register
        self.stats = BotStats()
        self.hand = HandTracker()
        self.client: ProtocolClient | None = None
        self.player_id: str | None = None
        self.seat: int | None = None
        self.joining = False
        self.refused_joins = 0
        """Joins refused since the bot last sat down."""
        self.asked: dict[str, str] = {}
        """The id of the last join and act sent (to know what an error refers to)."""
        self.buy_in: list[int | None] = [None, None]
        self.closed = False
        """The table was closed for good (``table_closed``, ``closed_by_operator``)."""
        self.run = ""
        """The server run of the connection (``hello.run``)."""
        self.seen_on = ""
        """The run the last sequence number was seen on: a ``watch`` names it with
        ``since`` (a server restored from a backup then sends a snapshot)."""

    async def start(self) -> ProtocolClient:
        """Log in (unless a token is held) and connect."""
        if self.token is None:
            enter = account if self.register else login
            answer = await asyncio.to_thread(enter, self.base, self.alias, self.password)
            self.token, self.player_id = answer["token"], answer["player"]
        self.client = await ProtocolClient.connect(self.base, self.token, self.device)
        hello = await self.client.receive()
        self.player_id = hello.get("player", self.player_id)
        self.run = str(hello.get("run") or "")
        return self.client

    async def watch(self, client: ProtocolClient) -> None:
        """Watch the table, from the last sequence number seen if any."""
        fields: dict[str, Any] = {"table": self.table}
        if self.hand.last_seq is not None:
            fields["since"] = self.hand.last_seq
            if self.seen_on:  # the server run it was seen on (docs/protocol.md)
                fields["run"] = self.seen_on
        await client.send("watch", **fields)

    async def play(self, stop: asyncio.Event | None = None) -> BotStats:
        """Play until ``stop`` is set, the connection is closed here, the table is closed
        for good, or a drop cannot be recovered from."""
        try:
            client = self.client or await self.start()
            await self.watch(client)
        except (ConnectionClosed, OSError):
            # Stopped (and closed here) while still connecting: the end, not a drop.
            if _ended(self.client, stop):
                return self.stats
            raise
        while not self.closed and (stop is None or not stop.is_set()):
            try:
                await self.on_message(client, await client.receive())
            except (ConnectionClosed, OSError):
                if _ended(client, stop):
                    break
                found = await self.reconnect()
                if found is None:
                    break
                client = found
        return self.stats

    async def reconnect(self) -> ProtocolClient | None:
        """Connect again (logging in again if the token is refused) and watch with the
        last sequence number; None after :data:`RECONNECT_TRIES` failures."""
        for attempt in range(RECONNECT_TRIES):
            await asyncio.sleep(min(3.0, 0.05 * 2**attempt) * self.rng.uniform(0.5, 1.0))
            try:
                assert self.token is not None
                client = await ProtocolClient.connect(self.base, self.token, self.device)
                hello = await client.receive()
                if hello.get("type") != "hello":
                    answer = await asyncio.to_thread(login, self.base, self.alias, self.password)
                    self.token = answer["token"]
                    continue
            except Exception:
                continue
            self.client = client
            self.run = str(hello.get("run") or "")
            self.stats.reconnects += 1
            await self.watch(client)
            return client
        return None

    async def on_message(self, client: ProtocolClient, msg: dict[str, Any]) -> None:
        """React to one server message."""
        kind = msg.get("type")
        if msg.get("table") not in (None, self.table):
            return
        if kind in ("events", "turn", "snapshot"):
            self.seen_on = self.run  # the run its sequence numbers are of
        if kind == "hello":
            self.player_id = msg["player"]
        elif kind == "events":
            now = time.monotonic()
            for e in msg["events"]:
                self.hand.see_seq(int(e["seq"]))
                await self.on_event(client, e["event"], now)
        elif kind == "turn":
            self.hand.see_seq(int(msg["seq"]))
            await self.act(client, msg)
        elif kind == "snapshot":
            await self.on_snapshot(client, msg)
        elif kind == "error":
            await self.on_error(client, msg)
        elif kind == "table_paused" and not msg.get("paused") and self.seat is None:
            # The table stores again (its database refused steps, a full disk): joins
            # refused meanwhile count for nothing, and the bot asks for a seat again (it
            # had given up after JOIN_TRIES, and stayed away from a healthy table).
            self.refused_joins = 0
            if not self.joining and not self.closed:
                await self.watch_fresh(client)
        elif kind == "table_closed" and msg.get("reason") == "closed_by_operator":
            self.closed = True  # nothing more comes from it (a stopping server comes back)

    async def on_snapshot(self, client: ProtocolClient, snap: dict[str, Any]) -> None:
        """Take the seat and hand from a snapshot; sit down if not seated."""
        self.hand.last_seq = int(snap["seq"])
        self.buy_in = snap["info"]["buy_in"]
        view = snap["view"]
        self.hand.see_view(view)
        self.seat = view.get("you")
        if self.seat is None and not self.joining:
            await self.join(client, view)

    async def join(self, client: ProtocolClient, view: dict[str, Any]) -> None:
        """Ask for the wanted seat (or a random free one) with the maximum buy-in."""
        free = [i for i, s in enumerate(view["seats"]) if s is None]
        if not free:
            return
        seat = self.wanted_seat if self.wanted_seat in free else self.rng.choice(free)
        low, high = self.buy_in
        amount = high if high is not None else 2 * int(low or 1)
        self.joining = True
        self.asked["join"] = await client.send("join", table=self.table, seat=seat, amount=amount)

    async def on_error(self, client: ProtocolClient, msg: dict[str, Any]) -> None:
        """Count a refusal. A refused join is tried again from a fresh snapshot (another
        bot may have taken the seat); a refused action asks the table where it stands
        (the events since the last sequence number, and the turn again if it is ours)."""
        self.stats.errors += 1
        self.stats.codes[str(msg.get("code"))] += 1
        re = msg.get("re")
        broke = msg.get("code") == INSUFFICIENT_FUNDS
        if re is not None and re == self.asked.get("rebuy"):
            if broke and await self.top_up():
                await self.add_chips(client)
        elif re is not None and re == self.asked.get("join") and self.seat is None:
            self.joining = False
            if broke:
                await self.top_up()
            self.refused_joins += 1
            if self.refused_joins <= JOIN_TRIES:
                await asyncio.sleep(self.rng.uniform(0.05, 0.5))
                await self.watch_fresh(client)
        elif re is not None and re == self.asked.get("act"):
            await self.watch(client)

    async def act(self, client: ProtocolClient, turn: dict[str, Any]) -> None:
        """Think, then answer a turn with the strategy's action (at a Chinese poker
        table: a random legal placement)."""
        if not self.timing.fast:
            await asyncio.sleep(self.timing.draw(self.rng))
        if is_placement(turn):
            fields = random_placement(turn, self.rng)
            fields["turn"] = turn["seq"]  # the turn answered: a late answer is not played
            self.asked["act"] = await client.send("place", table=self.table, **fields)
            self.stats.actions += 1
            return
        if self.offload:  # a Monte Carlo must not stall a loop shared with others
            fields = await asyncio.to_thread(self.strategy, turn, self.hand, self.rng)
        else:
            fields = self.strategy(turn, self.hand, self.rng)
        if self.probe is not None:
            self.probe.sent(self.table, int(turn["seat"]), time.monotonic())
        fields = {**fields, "turn": turn["seq"]}  # a late answer is refused, not played
        self.asked["act"] = await client.send("act", table=self.table, **fields)
        self.stats.actions += 1

    async def on_event(self, client: ProtocolClient, event: dict[str, Any], now: float) -> None:
        """Follow the hand and one's own seat; add chips and come back when short."""
        self.hand.see(event)
        kind = event.get("type")
        if kind == "Acted" and self.probe is not None and event.get("seat") != self.seat:
            self.probe.seen(self.table, int(event["seat"]), now)
        elif kind == "HandFinished":
            self.stats.hands += 1
        elif kind == "PlayerSeated" and event.get("player") == self.player_id:
            self.seat, self.joining, self.refused_joins = event["seat"], False, 0
        elif kind == "PlayerLeft" and event.get("player") == self.player_id:
            self.seat, self.joining = None, False
            await self.watch_fresh(client)
        elif kind == "SatOut" and event.get("seat") == self.seat and self.seat is not None:
            if event.get("reason") == "short":
                await self.add_chips(client)
            else:
                await client.send("sit_in", table=self.table)

    async def add_chips(self, client: ProtocolClient) -> None:
        """Rebuy the minimum buy-in and sit in again (a refused rebuy, the account being
        short, asks for the play-money top-up and tries once more: :meth:`on_error`)."""
        amount = int(self.buy_in[0] or 1)
        self.asked["rebuy"] = await client.send("rebuy", table=self.table, amount=amount)
        await client.send("sit_in", table=self.table)

    async def top_up(self) -> int:
        """This period's play-money top-up, if not taken yet: the chips added (0: none).
        Without it a bot that lost its signup chips sat out for good (the browser
        tests' full-speed bots within minutes, a room's house bots within days)."""
        if self.token is None:
            return 0
        added = await asyncio.to_thread(top_up, self.base, self.token)
        self.stats.top_ups += added > 0
        return added

    async def watch_fresh(self, client: ProtocolClient) -> None:
        """Watch again without ``since``: the snapshot shows the free seats."""
        with contextlib.suppress(Exception):
            await client.send("watch", table=self.table)


def _ended(client: ProtocolClient | None, stop: asyncio.Event | None) -> bool:
    """A closed connection ends play: closed here, or ``stop`` set."""
    return (client is not None and client.closed_here) or (stop is not None and stop.is_set())
