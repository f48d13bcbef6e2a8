"""How a bot asks for a seat again after a refusal (no server: a client that records)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardroom.bots import player
from cardroom.bots.player import JOIN_TRIES, Bot


class Recorder:
    """A stand-in for the protocol client: records what the bot sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send(self, type_: str, **fields: Any) -> str:
        self.sent.append((type_, fields))
        return f"m{len(self.sent)}"


def _refused_join(bot: Bot, client: Any, code: str = "seat_taken") -> int:
    """The bot's join refused once; the number of watches it sent to try again."""

    async def go() -> int:
        bot.asked["join"] = "j"
        before = len(client.sent)
        await bot.on_error(client, {"type": "error", "re": "j", "code": code})
        return sum(kind == "watch" for kind, _ in client.sent[before:])

    return asyncio.run(go())


def _seated(bot: Bot, client: Any, seat: int) -> None:
    event = {"type": "PlayerSeated", "player": bot.player_id, "seat": seat}
    asyncio.run(bot.on_event(client, event, 0.0))


def test_join_refusals_are_counted_since_the_bot_last_sat_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def no_pause(seconds: float) -> None:
        return None

    monkeypatch.setattr(player.asyncio, "sleep", no_pause)  # its pause before a new try
    # Refusals long ago (each followed by a seat) do not use up its tries: counted over
    # its whole life, a house bot gave up for good after its tenth refused join.
    bot = Bot("http://127.0.0.1:9", "joiner", "pw", "holdem", seed=1)
    bot.player_id = "7"
    client = Recorder()
    for _ in range(JOIN_TRIES + 5):
        assert _refused_join(bot, client) == 1
        _seated(bot, client, 2)
        bot.seat = None  # stood up again: it will ask once more
    # In a row, it stops after JOIN_TRIES refusals.
    tries = [_refused_join(bot, client) for _ in range(JOIN_TRIES + 2)]
    assert tries == [1] * JOIN_TRIES + [0, 0]


def test_a_bot_that_gave_up_asks_again_when_a_paused_table_plays_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full disk as the house bots sat down: every join refused, each bot gave up after
    JOIN_TRIES and the table stayed empty once the disk had room again (the paused
    audit). The room's ``table_paused`` with ``paused`` false brings it back."""

    async def no_pause(seconds: float) -> None:
        return None

    monkeypatch.setattr(player.asyncio, "sleep", no_pause)
    bot = Bot("http://127.0.0.1:9", "joiner", "pw", "holdem", seed=1)
    client = Recorder()
    tries = [_refused_join(bot, client, "not_stored") for _ in range(JOIN_TRIES + 1)]
    assert tries[-1] == 0  # given up

    def told(paused: bool) -> int:
        before = len(client.sent)
        message = {"type": "table_paused", "table": "holdem", "seq": 3, "paused": paused}
        asyncio.run(bot.on_message(client, message))
        return sum(kind == "watch" for kind, _ in client.sent[before:])

    assert told(True) == 0  # still paused: nothing to ask yet
    assert told(False) == 1  # plays on: a fresh snapshot, and from it a join
    assert _refused_join(bot, client, "seat_taken") == 1  # its tries counted afresh
