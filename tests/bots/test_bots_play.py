"""Bots end to end against a real server over real WebSockets (fast mode)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from cardroom.bots import FAST, Bot, run_bots
from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.strategy import random_action, sensible_action


async def _watch_hands(base: str, tables: list[str], hands: int, limit: float) -> dict[str, int]:
    """A spectator counts finished hands at each table until every one has ``hands``."""
    login = await asyncio.to_thread(account, base, "railbird", "password1")
    spectator = await ProtocolClient.connect(base, login["token"])
    for t in tables:
        await spectator.send("watch", table=t)
    finished = dict.fromkeys(tables, 0)
    async with asyncio.timeout(limit):
        while min(finished.values()) < hands:
            msg = await spectator.receive()
            if msg["type"] == "events":
                done = sum(e["event"]["type"] == "HandFinished" for e in msg["events"])
                finished[msg["table"]] += done
    await spectator.close()
    return finished


async def _seats_taken(base: str, table: str) -> list[int]:
    """The seats taken at ``table``, from a spectator's snapshot."""
    login = await asyncio.to_thread(account, base, "seatcounter", "password1")
    spectator = await ProtocolClient.connect(base, login["token"])
    await spectator.send("watch", table=table)
    async with asyncio.timeout(10):
        while (msg := await spectator.receive())["type"] != "snapshot":
            pass
    await spectator.close()
    return [i for i, s in enumerate(msg["view"]["seats"]) if s is not None]


def test_sensible_and_random_bots_play_flop_stud_and_draw_hands_without_a_refusal(
    server: str,
) -> None:
    tables = ["holdem", "stud", "draw"]

    async def session() -> tuple[list[Any], list[Any], dict[str, int]]:
        stop = asyncio.Event()
        sensible = asyncio.create_task(
            run_bots(server, tables, 2, password="botpass1", prefix="wise", timing=FAST, stop=stop)
        )
        randoms = [
            Bot(server, f"rand{t}", "botpass1", t, strategy=random_action, seed=i, seat=4)
            for i, t in enumerate(["holdem", "draw"])
        ]
        tasks = [asyncio.create_task(b.play(stop)) for b in randoms]
        finished = await _watch_hands(server, tables, 3, 90)
        stop.set()
        for b in randoms:
            if b.client is not None:  # None while a bot is between two connections
                await b.client.close()
        await asyncio.gather(*tasks)
        return await sensible, [b.stats for b in randoms], finished

    wise, rand, finished = asyncio.run(session())
    assert min(finished.values()) >= 3
    for stats in [*wise, *rand]:
        assert stats.errors == 0, stats.codes
    # A bot may sit the three hands out waiting for its big blind, or win a blind
    # unopposed, without a decision: each kind of bot, taken together, played and acted.
    for kind in (wise, rand):
        assert sum(s.hands for s in kind) > 0 and sum(s.actions for s in kind) > 0


class Recording(Bot):
    """A bot that notes, per connection, the first table message it got after watching."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.firsts: list[tuple[int, str, int]] = []
        self.acted: list[int] = []
        self.sinces: list[int | None] = []
        self.watches: list[dict[str, Any]] = []
        """The fields of each ``watch`` sent."""

    async def watch(self, client: ProtocolClient) -> None:
        self.sinces.append(self.hand.last_seq)
        send = client.send

        async def noted(type_: str, **fields: Any) -> str:
            if type_ == "watch":
                self.watches.append(fields)
            return await send(type_, **fields)

        client.send = noted  # type: ignore[method-assign]
        await super().watch(client)

    async def on_message(self, client: ProtocolClient, msg: dict[str, Any]) -> None:
        if msg.get("type") in ("events", "snapshot") and not any(
            f[0] == id(client) for f in self.firsts
        ):
            seq = msg["seq"] if msg["type"] == "snapshot" else msg["events"][0]["seq"]
            self.firsts.append((id(client), msg["type"], seq))
        if msg.get("type") == "turn":
            self.acted.append(self.stats.reconnects)
        await super().on_message(client, msg)


def test_a_dropped_bot_reconnects_with_its_last_sequence_number_and_plays_on(server: str) -> None:
    async def session() -> Recording:
        stop = asyncio.Event()
        bots = [
            Recording(server, f"drop{i}", "password1", "holdem", strategy=random_action,
                      seed=i, seat=i)
            for i in range(3)
        ]  # fmt: skip
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        await _watch_hands(server, ["holdem"], 2, 60)
        victim = bots[0]
        seat = victim.seat
        assert victim.client is not None and seat == 0
        victim.client.drop()  # as a network failure: no closing handshake
        async with asyncio.timeout(60):
            while victim.stats.reconnects == 0 or not victim.acted or victim.acted[-1] == 0:
                await asyncio.sleep(0.05)
        stop.set()
        for b in bots:
            assert b.client is not None
            await b.client.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert victim.seat == seat
        return victim

    victim = asyncio.run(session())
    assert victim.stats.reconnects == 1
    first_watch, second_watch = victim.sinces[:2]
    assert first_watch is None and second_watch is not None
    # With the run of the server it saw that number on (``hello.run``): a server restored
    # from a backup that never stored it answers with a snapshot (docs/server_backup.md).
    assert victim.watches[1].get("since") == second_watch
    assert victim.watches[1].get("run") == victim.run != ""
    # The second connection began where the first left off: the events missed after the
    # sequence number sent, not a fresh snapshot.
    _conn, kind, seq = victim.firsts[1]
    assert kind == "events" and seq > second_watch


def test_sensible_bots_take_the_pot_odds_into_account_at_a_real_table(server: str) -> None:
    """Two sensible bots heads-up: every action they send is accepted, and they fold
    sometimes and raise sometimes (they are not calling stations)."""
    kinds: list[str] = []

    def noting(turn: dict[str, Any], hand: Any, rng: Any) -> dict[str, Any]:
        fields = sensible_action(turn, hand, rng)
        kinds.append(fields["kind"])
        return fields

    async def session() -> list[Bot]:
        stop = asyncio.Event()
        bots = [
            Bot(server, f"wise{i}", "password1", "holdem", strategy=noting, seed=i, seat=i)
            for i in range(2)
        ]
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        await _watch_hands(server, ["holdem"], 12, 90)
        stop.set()
        for b in bots:
            assert b.client is not None
            await b.client.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        return bots

    bots = asyncio.run(session())
    assert all(b.stats.errors == 0 for b in bots), [b.stats.codes for b in bots]
    assert "raise" in kinds and ("fold" in kinds or "check" in kinds)


def test_house_bots_fill_a_table_and_play_until_cancelled(server: str, tmp_path: Path) -> None:
    from cardroom.bots.house import bot_password, run_house_bots
    from cardroom.server.house import house_aliases, prepare_house_bots
    from cardroom.store import make_engine

    # The server makes its bots' accounts (they only log in), as `cardroom serve` does.
    engine = make_engine(f"sqlite:///{tmp_path / 'bots.db'}")
    aliases = house_aliases({"holdem": 3})["holdem"]
    prepare_house_bots(engine, {a: bot_password(a, "s3cret") for a in aliases}, {}, 10_000)
    engine.dispose()

    async def session() -> tuple[dict[str, int], list[int]]:
        house = asyncio.create_task(run_house_bots(server, {"holdem": aliases}, "s3cret", FAST))
        finished = await _watch_hands(server, ["holdem"], 2, 60)
        # Two bots seated play hands while the third may still be logging in (a slow
        # password hash on a busy machine): give it time to sit.
        taken = await _seats_taken(server, "holdem")
        for _ in range(15):
            if len(taken) == 3:
                break
            await asyncio.sleep(2)
            taken = await _seats_taken(server, "holdem")
        house.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await house
        return finished, taken

    finished, taken = asyncio.run(session())
    assert finished["holdem"] >= 2
    # The house's bots fill the table from the front: the last seats stay free for people.
    assert taken == [0, 1, 2]
    assert bot_password("Bot001", "s3cret") != bot_password("Bot002", "s3cret")  # one each
    assert bot_password("Bot001", "s3cret") != bot_password("Bot001", "other")


def test_a_bot_stopped_while_it_still_connects_ends_its_play_without_an_error(
    server: str,
) -> None:
    # The test above once stopped a bot whose connection was closed before it watched
    # its table: the closed connection escaped play() instead of ending it.
    async def session() -> Any:
        login = await asyncio.to_thread(account, server, "stopped1", "botpass1")
        bot = Bot(server, "stopped1", "botpass1", "holdem", token=login["token"])
        bot.client = await ProtocolClient.connect(server, login["token"])
        await bot.client.receive()  # the hello
        await bot.client.close()  # stopped here before it could watch
        stop = asyncio.Event()
        stop.set()
        return await bot.play(stop)

    stats = asyncio.run(session())
    assert stats.errors == 0 and stats.hands == 0
