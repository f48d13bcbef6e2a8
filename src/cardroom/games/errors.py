"""The engine's error types: one for actions, one for configurations."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``reason`` says why. The hand is unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ConfigError(ValueError):
    """A table configuration, seat list or deck that cannot start a hand; says what was wrong."""
