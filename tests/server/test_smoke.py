"""A real server: health, accounts, a WebSocket session that plays hands."""

from __future__ import annotations

import asyncio

import httpx

from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.random_bot import RandomBot


def test_healthz_answers_when_the_database_is_reachable(server: str) -> None:
    answer = httpx.get(server + "/healthz")
    assert answer.status_code == 200 and answer.json()["ok"] is True
    assert answer.json()["tables"] == 5  # holdem, stud, draw, real, ofc


def test_two_random_bots_play_hands_over_real_websockets(server: str) -> None:
    async def session() -> tuple[list[dict], int]:
        bots = [RandomBot(server, f"bot{i}", "password1", "holdem", seed=i) for i in range(2)]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        login = await asyncio.to_thread(account, server, "watcher", "password1")
        watcher = await ProtocolClient.connect(server, login["token"])
        await watcher.send("watch", table="holdem")
        seen: list[dict] = []
        finished = 0
        async with asyncio.timeout(30):
            while finished < 3:
                msg = await watcher.receive()
                seen.append(msg)
                if msg["type"] == "events":
                    finished += sum(e["event"]["type"] == "HandFinished" for e in msg["events"])
        stop.set()
        for b in bots:
            assert b.client is not None
            await b.client.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        await watcher.close()
        return seen, finished

    seen, finished = asyncio.run(session())
    assert finished >= 3
    seqs = [e["seq"] for m in seen if m["type"] == "events" for e in m["events"]]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
