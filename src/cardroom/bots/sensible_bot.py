"""The sensible bot: hand strength against pot odds (:func:`strategy.sensible_action`)."""

from __future__ import annotations

from typing import Any

from cardroom.bots.player import Bot
from cardroom.bots.strategy import sensible_action


class SensibleBot(Bot):
    """A :class:`Bot` playing :func:`~cardroom.bots.strategy.sensible_action`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("strategy", sensible_action)
        super().__init__(*args, **kwargs)
