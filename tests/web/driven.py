"""What a browser test drives besides the page: a seated bot that makes the test's moves
(:class:`Puppet`), and a slow network between the page and the server (:class:`Lag`)."""

from __future__ import annotations

import contextlib
import json
import queue
import random
import re
import time
from typing import Any

from cardroom.bots.client import ProtocolClient
from cardroom.bots.player import Bot
from cardroom.bots.tracker import HandTracker

WS_URL = re.compile(r"/ws(\?.*)?$")
"""The page's WebSocket, whatever its query (the device id)."""


class Puppet:
    """A player the test moves: each of its turns waits for :meth:`move`.

    The bot's own loop runs in another thread; the test reads the turns it is given
    (:meth:`turn`) and the table events it saw (``seen``, in order).
    """

    def __init__(self) -> None:
        self.turns: queue.Queue[dict[str, Any]] = queue.Queue()
        self.moves: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.closed = False

    def strategy(self, turn: dict[str, Any], _hand: HandTracker, _rng: random.Random) -> Any:
        """The bot's decision: the test's next move (a fold once the test is over)."""
        self.turns.put(turn)
        while not self.closed:
            with contextlib.suppress(queue.Empty):
                return self.moves.get(timeout=0.2)
        return {"kind": "fold"}

    def turn(self) -> dict[str, Any] | None:
        """The turn waiting for a move, if any."""
        try:
            return self.turns.get_nowait()
        except queue.Empty:
            return None

    def move(self, kind: str, amount: int | None = None) -> int:
        """Make the move of the waiting turn; returns how many events were seen before it."""
        seen = len(self.seen)
        self.moves.put({"kind": kind} if amount is None else {"kind": kind, "amount": amount})
        return seen

    def passive(self) -> None:
        """Check, or call (stand pat on a draw), on the turn waiting, if any."""
        turn = self.turn()
        if turn is None:
            return
        actions = turn["legal"]["actions"]
        if "draw" in actions:
            self.moves.put({"kind": "draw", "cards": []})
        else:
            self.move("check" if "check" in actions else "call")

    def passive_until(self, page: Any, done: Any, what: str, seconds: float = 60.0) -> None:
        """Check, or call, on each of the puppet's turns until ``done()``; fail saying
        ``what`` did not come within ``seconds``."""
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, what
            self.passive()
            page.wait_for_timeout(50)

    def next_turn_after(self, index: int, pump: Any, seconds: float = 10.0) -> int:
        """The seat of the first turn started after event ``index`` (``pump`` waits a bit)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for event in self.seen[index:]:
                if event.get("type") == "TurnStarted":
                    return int(event["seat"])
            pump()
        raise AssertionError("no turn started after the puppet's move")


class _Posting:
    """A bot's client whose messages post the big blind now (only ``join`` reads it)."""

    def __init__(self, client: ProtocolClient) -> None:
        self.client = client

    async def send(self, type_: str, **fields: Any) -> str:
        return await self.client.send(type_, post_now=True, **fields)


class PuppetBot(Bot):
    """The :class:`Bot` of a :class:`Puppet` (decides in a worker thread, so waiting for
    the test's move never blocks the other bots). ``post_now``: it joins posting the big
    blind at once (RULEBOOK §10.3), dealt in at the next hand rather than when the blind
    comes round: a full ring of newcomers plays together within a hand or two."""

    def __init__(self, puppet: Puppet, *args: Any, post_now: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, strategy=puppet.strategy, offload=True, **kwargs)
        self.puppet = puppet
        self.post_now = post_now

    async def join(self, client: ProtocolClient, view: dict[str, Any]) -> None:
        """Ask for a seat, posting now if told to."""
        await super().join(_Posting(client) if self.post_now else client, view)  # type: ignore[arg-type]

    async def on_event(self, client: ProtocolClient, event: dict[str, Any], now: float) -> None:
        """Follow the table, and tell the puppet."""
        await super().on_event(client, event, now)
        self.puppet.seat = self.seat
        self.puppet.seen.append(event)


class Lag:
    """The page's WebSocket through a proxy that can hold the server's table news
    (events, turns, snapshots: a slow network) while answers to the page's own
    messages still pass. Install it before the page opens the connection."""

    HELD = ("events", "turn", "snapshot")

    def __init__(self, page: Any) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.route: Any = None
        page.route_web_socket(WS_URL, self._connect)

    def _connect(self, route: Any) -> None:
        server = route.connect_to_server()
        self.route = route
        server.on_message(self._from_server)  # the page's messages go through unchanged

    def _from_server(self, message: str | bytes) -> None:
        kind = json.loads(message).get("type") if isinstance(message, str) else None
        if self.holding and kind in self.HELD:
            self.held.append(message)
        else:
            self.route.send(message)

    def hold(self) -> None:
        """Hold the table's news from now on."""
        self.holding = True

    def release(self) -> None:
        """Deliver what was held, in order, and stop holding."""
        self.holding = False
        for message in self.held:
            self.route.send(message)
        self.held.clear()


class Cut:
    """The page's WebSocket through a switch: while :meth:`block` is on, the connection
    is cut and every new one refused at once (the network is down), so the page stays
    "reconnecting" until :meth:`unblock`. Install it before the page opens the
    connection."""

    def __init__(self, page: Any) -> None:
        self.blocked = False
        self.routes: list[Any] = []
        page.route_web_socket(WS_URL, self._connect)

    def _connect(self, route: Any) -> None:
        if self.blocked:
            route.close(code=4000, reason="network down")
            return
        route.connect_to_server()  # messages pass both ways unchanged
        self.routes.append(route)

    def block(self) -> None:
        """Cut the open connection and refuse new ones."""
        self.blocked = True
        for route in self.routes:
            with contextlib.suppress(Exception):
                route.close(code=4000, reason="network down")
        self.routes.clear()

    def unblock(self) -> None:
        """Let the page's next try through."""
        self.blocked = False


class Stall:
    """The page's WebSocket through a switch that, while :meth:`stall` is on, lets
    nothing through either way and closes nothing: a network gone silent (the socket
    stays "open" to the page). Install it before the page opens the connection."""

    def __init__(self, page: Any) -> None:
        self.stalled = False
        self.sent: list[str | bytes] = []
        """Every message the page sent, passed or not."""
        page.route_web_socket(WS_URL, self._connect)

    def _connect(self, route: Any) -> None:
        server = route.connect_to_server()
        route.on_message(lambda m: self._from_page(server, m))
        server.on_message(lambda m: None if self.stalled else route.send(m))

    def _from_page(self, server: Any, message: str | bytes) -> None:
        self.sent.append(message)
        if not self.stalled:
            server.send(message)

    def stall(self) -> None:
        """From now on, nothing passes (until :meth:`resume`)."""
        self.stalled = True

    def resume(self) -> None:
        """Let messages through again (a new connection's too)."""
        self.stalled = False
