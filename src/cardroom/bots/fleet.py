"""Many bots at once: :func:`run_bots` seats them at tables and lets them play.

``cardroom serve`` fills its tables with it; the server benchmark drives its
load with it. Every bot is an ordinary client on its own WebSocket.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence

from cardroom.bots.player import Bot, BotStats, Probe
from cardroom.bots.strategy import Strategy, random_action, sensible_action
from cardroom.bots.timing import HUMAN, Timing

STRATEGIES: dict[str, Strategy] = {"random": random_action, "sensible": sensible_action}
"""The bots by name."""


def plan(tables: Sequence[str] | Mapping[str, int], n: int) -> list[tuple[str, int]]:
    """(table, seat) of every bot: ``n`` per table of a list, or the count a mapping
    gives each table; seats numbered from 0 at each table."""
    counts = dict(tables) if isinstance(tables, Mapping) else dict.fromkeys(tables, n)
    return [(table, seat) for table, count in counts.items() for seat in range(count)]


async def run_bots(
    url: str,
    tables: Sequence[str] | Mapping[str, int],
    n: int = 2,
    *,
    password: str,
    strategy: str = "sensible",
    timing: Timing = HUMAN,
    prefix: str = "bot",
    stop: asyncio.Event | None = None,
    seconds: float | None = None,
    probe: Probe | None = None,
    logins: int = 8,
    seed: int = 0,
) -> list[BotStats]:
    """Seat bots at ``tables`` of the server at ``url`` and play until ``stop`` is set
    (or ``seconds`` have passed); returns each bot's statistics.

    ``tables``: table ids with ``n`` bots each, or a mapping of table id to its count.
    The bots are the accounts ``{prefix}0``, ``{prefix}1``, ... with ``password``
    (registered when new). ``strategy`` is ``"sensible"`` or ``"random"``; ``timing``
    their think time (``FAST`` for tests). At most ``logins`` log in at once.
    """
    play = STRATEGIES[strategy]
    bots = [
        Bot(url, f"{prefix}{k}", password, table, strategy=play, timing=timing,
            seed=seed * 100_003 + k, seat=seat, probe=probe, offload=strategy == "sensible")
        for k, (table, seat) in enumerate(plan(tables, n))
    ]  # fmt: skip
    stop = stop or asyncio.Event()
    gate = asyncio.Semaphore(logins)

    async def one(bot: Bot) -> BotStats:
        async with gate:
            await bot.start()
        return await bot.play(stop)

    tasks = [asyncio.create_task(one(b)) for b in bots]
    try:
        if seconds is None:
            await stop.wait()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), seconds)
    finally:
        stop.set()
        for b in bots:
            if b.client is not None:
                with contextlib.suppress(Exception):
                    await b.client.close()
        done = await asyncio.gather(*tasks, return_exceptions=True)
    for b, result in zip(bots, done, strict=True):
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            b.stats.errors += 1
            b.stats.codes[type(result).__name__] += 1
    return [b.stats for b in bots]
