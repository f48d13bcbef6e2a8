"""The names other layers import from ``cardroom.games`` exist."""

from __future__ import annotations

import cardroom.games as games


def test_every_exported_name_exists() -> None:
    missing = [name for name in games.__all__ if not hasattr(games, name)]
    assert missing == []
    for name in ("Hand", "Action", "TableConfig", "Stakes", "IllegalAction", "replay", "view"):
        assert name in games.__all__
