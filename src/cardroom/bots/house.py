"""The house's bots: ``cardroom serve`` seats them so a fresh room has games running.

Each bot is an ordinary account (``Bot001``, ``Bot002``...) playing over the
public protocol: the sensible bot (hand strength against pot odds) with
human-looking think times. Its password is derived from a secret the caller
gives (``cardroom serve``: ``CARDROOM_BOT_SECRET``, else a random secret kept
in the database, ``cardroom.server.house``); there is no default secret.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Final

from cardroom.bots.player import Bot
from cardroom.bots.strategy import sensible_action
from cardroom.bots.timing import HUMAN, Timing

PUBLIC_SECRET: Final = "cardroom-house-bots"
"""The default secret of earlier versions, published in their source: never used to
log in, only to find (and reset) bot accounts whose password anyone could derive."""
RESTART_SECONDS = 5.0
"""Pause before a bot that gave up (server gone for long) starts over."""


def bot_password(alias: str, secret: str) -> str:
    """The password of a house bot."""
    if not secret:
        raise ValueError("a house bot's password needs a secret")
    return hashlib.sha256(f"{secret}:{alias}".encode()).hexdigest()[:32]


async def run_house_bots(
    base: str, aliases: dict[str, list[str]], secret: str, timing: Timing = HUMAN
) -> None:
    """Seat the bots ``aliases[table]`` at each table and keep them playing (until
    cancelled; the house names them: ``cardroom.server.house.house_aliases``);
    a bot reconnects by itself after a drop, and starts over if that fails; it stops
    for good when an operator closes its table. They decide
    in worker threads: they share the event loop of the server that seats them."""
    tasks = []
    for table, names in aliases.items():
        for seat, alias in enumerate(names):
            password = bot_password(alias, secret)
            play = _keep_playing(base, alias, password, table, seat, timing)
            tasks.append(asyncio.create_task(play))
    await asyncio.gather(*tasks)


async def _keep_playing(
    base: str, alias: str, password: str, table: str, seat: int, timing: Timing
) -> None:
    # The house's n-th bot asks for the n-th seat (a random free one if a player has
    # it): the bots fill the table from the front, so the seats a newcomer sees free
    # are not the ones a bot still logging in is about to take.
    while True:
        bot = Bot(base, alias, password, table, strategy=sensible_action, seat=seat,
                  timing=timing, offload=True, register=False)  # fmt: skip
        try:
            await bot.play()
        except asyncio.CancelledError:
            raise
        except Exception:  # the server restarted or refused: try again shortly
            pass
        if bot.closed:  # an operator closed the table: nothing to sit at any more
            return
        await asyncio.sleep(RESTART_SECONDS)
