"""A dead button on an empty seat (RULEBOOK §10.4, §12: the table shows the button).

When the small blind's player leaves, the next hand's button goes to his seat, now
empty (Robert's Rules' dead button), so that nobody posts the big blind twice or
skips it. The page drew the dealer button only on a taken seat: during such a hand no
button was shown at all, and who acts last after the flop could not be told. A server
of its own: four protocol players fold hands around until the small blind's player
has left and the button is dead; then nobody acts, and the page is looked at."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import PASSWORD, _table, fresh_alias, register, shoot
from tests.web.conftest import own_server

from cardroom.bots.client import ProtocolClient, account

pytestmark = pytest.mark.browser

TABLE = "deadbtn"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """A hold'em table whose clock never runs out in the test, no draw for the button."""
    table = _table(TABLE, "holdem", "small_blind = 1, big_blind = 2", action=600, min_buy_in=40)
    with own_server(tmp_path, table + "draw_button = false\n") as (base, _url):
        yield base


async def _dead_button(base: str, stop: asyncio.Event, box: dict[str, Any]) -> None:
    """Four players at seats 0-3 fold every hand around; in the first hand all four are
    dealt, the small blind's player leaves; the first hand whose button seat has nobody
    dealt in goes in ``box`` (its ``HandDealt``, and ``ready`` set), then nobody acts
    until ``stop``."""
    clients = []
    for _ in range(4):
        login = await asyncio.to_thread(account, base, fresh_alias("dbt"), PASSWORD)
        client = await ProtocolClient.connect(base, login["token"])
        await client.receive()
        clients.append(client)
    found: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    left: list[int] = []

    async def play(i: int, client: ProtocolClient) -> None:
        while not stop.is_set():
            try:
                msg = await asyncio.wait_for(client.receive(), 0.5)
            except TimeoutError:
                continue
            for item in msg.get("events", []) if msg["type"] == "events" and i == 0 else []:
                dealt = item["event"]
                if dealt["type"] != "HandDealt" or found.done():
                    continue
                if left and dealt["button"] not in dealt["dealt"]:
                    found.set_result(dealt)
                elif not left and len(dealt["dealt"]) == 4:
                    left.append(dealt["sb"])
                    await clients[dealt["sb"]].send("leave", table=TABLE)
            if msg["type"] == "turn" and not found.done():
                kind = "check" if "check" in msg["legal"]["actions"] else "fold"
                await client.send("act", table=TABLE, kind=kind, turn=msg["seq"])

    tasks = [asyncio.create_task(play(i, c)) for i, c in enumerate(clients)]
    for i, client in enumerate(clients):
        await client.send("join", table=TABLE, seat=i, amount=40)
    async with asyncio.timeout(60):
        box["hand"] = await found
    box["ready"].set()
    await stop.wait()
    await asyncio.gather(*tasks, return_exceptions=True)
    for client in clients:
        await client.close()


def test_10_4_a_dead_button_on_an_empty_seat_is_shown(served: str, page: Any) -> None:
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    stop = asyncio.Event()
    box: dict[str, Any] = {"ready": threading.Event()}
    players = asyncio.run_coroutine_threadsafe(_dead_button(served, stop, box), loop)
    try:
        register(page, served, fresh_alias())
        assert box["ready"].wait(60), f"no hand with a dead button was dealt {players}"
        hand = box["hand"]
        page.goto(f"{served}/#/table/{TABLE}")
        expect(page.get_by_text(f"Hand #{hand['hand_no']}")).to_be_visible(timeout=30_000)
        empty = page.locator(f'.seat.empty[data-seat="{hand["button"]}"]')
        expect(empty).to_have_count(1)  # the button's seat has nobody
        shoot(page, "dead-button")
        expect(empty.locator(".dealer")).to_have_count(1)
        expect(page.locator(".dealer")).to_have_count(1)  # and only there
        letter = empty.locator('.dealer [aria-hidden="true"]')
        assert letter.evaluate("e => getComputedStyle(e).color") == "rgb(17, 17, 17)"  # readable
    finally:
        loop.call_soon_threadsafe(stop.set)
        with contextlib.suppress(BaseException):
            players.result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
