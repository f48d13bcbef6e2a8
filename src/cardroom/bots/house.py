"""The house's bots: ``cardroom serve`` seats them so a fresh room has games running.

Each bot is an ordinary account (``Bot001``, ``Bot002``...) playing over the
public protocol. Its password is derived from ``CARDROOM_BOT_SECRET`` (set it
on a public server: anyone knowing the secret can log in as a bot).
"""

from __future__ import annotations

import asyncio
import hashlib
import os

from cardroom.bots.random_bot import RandomBot

DEFAULT_SECRET = "cardroom-house-bots"


def bot_password(alias: str, secret: str | None = None) -> str:
    """The password of a house bot."""
    secret = secret or os.environ.get("CARDROOM_BOT_SECRET") or DEFAULT_SECRET
    return hashlib.sha256(f"{secret}:{alias}".encode()).hexdigest()[:32]


async def run_house_bots(base: str, wanted: dict[str, int], think: float = 2.0) -> None:
    """Seat ``wanted[table]`` bots at each table and keep them playing (until cancelled);
    a bot whose connection drops comes back after a pause."""
    numbers = iter(range(1, 10_000))
    tasks = []
    for table, count in wanted.items():
        for _ in range(count):
            alias = f"Bot{next(numbers):03d}"
            tasks.append(asyncio.create_task(_keep_playing(base, alias, table, think)))
    await asyncio.gather(*tasks)


async def _keep_playing(base: str, alias: str, table: str, think: float) -> None:
    while True:
        bot = RandomBot(base, alias, bot_password(alias), table, think=think)
        try:
            await bot.play()
        except asyncio.CancelledError:
            raise
        except Exception:  # the server restarted or refused: try again shortly
            pass
        await asyncio.sleep(5.0)
