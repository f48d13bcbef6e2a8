"""The house's bots: ``cardroom serve`` seats them so a fresh room has games running.

Each bot is an ordinary account (``Bot001``, ``Bot002``...) playing over the
public protocol: the sensible bot (hand strength against pot odds) with
human-looking think times. Its password is derived from
``CARDROOM_BOT_SECRET`` (set it on a public server: anyone knowing the secret
can log in as a bot).
"""

from __future__ import annotations

import asyncio
import hashlib
import os

from cardroom.bots.player import Bot
from cardroom.bots.strategy import sensible_action
from cardroom.bots.timing import HUMAN, Timing

DEFAULT_SECRET = "cardroom-house-bots"
RESTART_SECONDS = 5.0
"""Pause before a bot that gave up (server gone for long) starts over."""


def bot_password(alias: str, secret: str | None = None) -> str:
    """The password of a house bot."""
    secret = secret or os.environ.get("CARDROOM_BOT_SECRET") or DEFAULT_SECRET
    return hashlib.sha256(f"{secret}:{alias}".encode()).hexdigest()[:32]


async def run_house_bots(base: str, wanted: dict[str, int], timing: Timing = HUMAN) -> None:
    """Seat ``wanted[table]`` bots at each table and keep them playing (until cancelled);
    a bot reconnects by itself after a drop, and starts over if that fails. They decide
    in worker threads: they share the event loop of the server that seats them."""
    numbers = iter(range(1, 10_000))
    tasks = []
    for table, count in wanted.items():
        for _ in range(count):
            alias = f"Bot{next(numbers):03d}"
            tasks.append(asyncio.create_task(_keep_playing(base, alias, table, timing)))
    await asyncio.gather(*tasks)


async def _keep_playing(base: str, alias: str, table: str, timing: Timing) -> None:
    while True:
        bot = Bot(base, alias, bot_password(alias), table, strategy=sensible_action,
                  timing=timing, offload=True)  # fmt: skip
        try:
            await bot.play()
        except asyncio.CancelledError:
            raise
        except Exception:  # the server restarted or refused: try again shortly
            pass
        await asyncio.sleep(RESTART_SECONDS)
