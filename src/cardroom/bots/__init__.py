"""Bot players that speak the public protocol over a real WebSocket, as any client would.

:func:`run_bots` fills tables (``cardroom serve``, the server benchmark);
:class:`RandomBot` plays any legal action, :class:`SensibleBot` weighs its
hand's strength against the pot odds. Nothing of the server is imported: only
``cardroom.cards`` and ``cardroom.evaluation`` (pure libraries) besides the
protocol's JSON.
"""

from cardroom.bots.fleet import run_bots
from cardroom.bots.player import Bot, BotStats
from cardroom.bots.random_bot import RandomBot
from cardroom.bots.sensible_bot import SensibleBot
from cardroom.bots.timing import FAST, HUMAN, Timing

__all__ = ["FAST", "HUMAN", "Bot", "BotStats", "RandomBot", "SensibleBot", "Timing", "run_bots"]
