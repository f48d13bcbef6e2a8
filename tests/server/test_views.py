"""RULEBOOK §12 over the wire: what a client receives is its own seat's projection only."""

from __future__ import annotations

import asyncio

from tests.server.sessions import bot_session, check_no_hidden_cards

from cardroom.server.settings import ServerSettings


def test_12_no_message_holds_another_players_hidden_cards_flop_stud_draw_ofc(
    server: str, settings: ServerSettings
) -> None:
    logs = asyncio.run(bot_session(server, ["holdem", "stud", "draw", "ofc"], 3, hands=3))
    assert settings.database_url is not None
    own = check_no_hidden_cards(settings.database_url, logs)
    players = [p for p, msgs in logs.items() if any(m["type"] == "turn" for m in msgs)]
    # The check saw cards: every seated bot was shown its own hidden cards, and the
    # spectator (who never had a turn) none.
    assert len(players) == 12 and all(own[p] > 0 for p in players)
    assert sum(len(m) for m in logs.values()) > 100
