"""A bot whose play-money account is short takes the period's top-up and plays on.

Without it a bot that lost its signup chips sat out for good: the browser tests' busy
table stopped after a few minutes of full-speed bots, and a room's house bots would in
days."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.bots.conftest import bot_settings
from tests.server.conftest import running_server
from tests.server.sessions import money_problems

from cardroom.bots import Bot
from cardroom.bots.strategy import random_action
from cardroom.server.settings import ServerSettings

BUY_IN = 40
"""The holdem table's maximum buy-in (20 big blinds of 2), what a bot sits down with."""


@pytest.fixture
def short_settings(tmp_path: Path) -> ServerSettings:
    return bot_settings(tmp_path)


def _play(base: str, stop_when: Any, limit: float = 90) -> list[Bot]:
    """Two random bots heads-up at holdem until ``stop_when(bots)``."""

    async def session() -> list[Bot]:
        stop = asyncio.Event()
        bots = [
            Bot(base, f"short{i}", "botpass1", "holdem", strategy=random_action, seed=i, seat=i)
            for i in range(2)
        ]
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        async with asyncio.timeout(limit):
            while not stop_when(bots):
                await asyncio.sleep(0.1)
        stop.set()
        for b in bots:
            if b.client is not None:
                await b.client.close()
        await asyncio.gather(*tasks)
        return bots

    return asyncio.run(session())


def test_a_bot_broke_with_an_empty_account_tops_up_rebuys_and_sits_in(
    short_settings: ServerSettings,
) -> None:
    # Signed up with exactly one buy-in: the first bust finds the account empty.
    settings = replace(short_settings, signup_play_chips=BUY_IN)
    hands_after: dict[str, int] = {}

    def done(bots: list[Bot]) -> bool:
        for b in bots:
            if b.stats.top_ups and b.alias not in hands_after:
                hands_after[b.alias] = b.stats.hands
        return any(b.stats.hands >= hands_after.get(b.alias, 10**9) + 3 for b in bots)

    with running_server(settings) as base:
        bots = _play(base, done)
    topped = [b for b in bots if b.stats.top_ups]
    assert topped, [b.stats for b in bots]
    assert all(b.stats.top_ups == 1 for b in topped)  # one top-up refilled the account
    assert all(b.stats.codes["insufficient_funds"] >= 1 for b in topped)  # the rebuy refused
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []


def test_a_bot_short_of_a_buy_in_tops_up_then_sits_down(short_settings: ServerSettings) -> None:
    settings = replace(short_settings, signup_play_chips=BUY_IN // 2 - 1)  # below the minimum
    with running_server(settings) as base:
        bots = _play(base, lambda bots: min(b.stats.hands for b in bots) >= 2)
    for b in bots:
        assert b.stats.top_ups == 1, b.stats
        assert b.stats.codes["insufficient_funds"] == 1  # the first join, then seated
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []
