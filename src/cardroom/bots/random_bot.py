"""The random-legal bot: any legal action, at random (checks and calls more often).

Kept as its own name for the tests and tools that seat random bots;
:class:`~cardroom.bots.player.Bot` does the work.
"""

from __future__ import annotations

from cardroom.bots.player import Bot, BotStats
from cardroom.bots.strategy import random_action

__all__ = ["BotStats", "RandomBot", "random_action"]


class RandomBot(Bot):
    """A :class:`Bot` playing :func:`~cardroom.bots.strategy.random_action`."""
