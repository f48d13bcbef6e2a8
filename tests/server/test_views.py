"""RULEBOOK §12 over the wire: what a client receives is its own seat's projection only.

Every message every client of every server test receives is checked as it arrives
(``secrecy.py``, hooked in by ``conftest.py``); these tests show that check sees the
messages and catches a leak, and check a whole bot session's logs after the fact too."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.server.secrecy import Hidden, SecrecyCheck, check_no_hidden_cards
from tests.server.sessions import bot_session, player, until, was_asked

from cardroom.bots.random_bot import RandomBot
from cardroom.room.views import project
from cardroom.server import broadcast
from cardroom.server.settings import ServerSettings


def test_12_no_message_holds_another_players_hidden_cards_flop_stud_draw_ofc(
    server: str, settings: ServerSettings, every_message_checked: SecrecyCheck
) -> None:
    logs = asyncio.run(
        bot_session(server, ["holdem", "stud", "draw", "ofc"], 3, hands=3, every_bot_acts=True)
    )
    assert settings.database_url is not None
    own = check_no_hidden_cards(settings.database_url, logs)
    players = [p for p, msgs in logs.items() if was_asked(msgs)]
    # The check saw cards: every seated bot was shown its own hidden cards, and the
    # spectator (who never had a turn) none.
    assert len(players) == 12 and all(own[p] > 0 for p in players)
    assert sum(len(m) for m in logs.values()) > 100
    # ...and each of those messages was checked when it arrived.
    assert every_message_checked.checked > 100


def test_12_the_check_on_receipt_catches_a_leak(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def leaky(event: Any, seat: int | None) -> Any:  # hole cards as their owner sees them
        return project(event, getattr(event, "seat", seat))

    monkeypatch.setattr(broadcast, "project", leaky)

    async def go() -> None:
        # The rail watches before the bots sit: had the hand been dealt before its
        # watch, it would see the deal in its snapshot, not as leaked events, and the
        # bots (whose own checks caught the leak first) would deal no more.
        rail, _ = await player(server, "railbird")
        await rail.send("watch", table="holdem")
        await until(rail, "snapshot", table="holdem")
        stop = asyncio.Event()
        bots = [RandomBot(server, f"leak{i}", "password1", "holdem", seed=i) for i in range(2)]
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        try:
            async with asyncio.timeout(60):  # a check that misses the leak fails, not hangs
                while True:
                    await until(rail, "events", limit=60, table="holdem")
        finally:
            stop.set()
            await rail.close()
            for b in bots:
                if b.client is not None:
                    await b.client.close()
            await asyncio.gather(*tasks, return_exceptions=True)

    with pytest.raises(AssertionError, match="shown to"):
        asyncio.run(go())


def test_12_burn_cards_discards_and_the_deck_are_nobody_elses() -> None:
    entries: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "PlayerSeated", "player": "7", "seat": 0}),
        (2, {"type": "PlayerSeated", "player": "8", "seat": 1}),
        (3, {"type": "HandDealt"}),
        (4, {"type": "HoleDealt", "seat": 0, "cards": ["Ah", "Kd"], "up": [False, True]}),
        (5, {"type": "HoleDealt", "seat": 1, "cards": ["2c", "3c"], "up": [False, False]}),
        (6, {"type": "Burned", "card": "9s"}),
        (7, {"type": "Drew", "seat": 1, "discarded": ["2c"], "dealt": ["9s"]}),
        (8, {"type": "Shown", "seat": 0, "cards": ["Ah"]}),
    ]
    hidden = Hidden(entries)
    assert hidden.leaks("8", 4, ["Ah"]) and not hidden.leaks("8", 4, ["Kd"])  # up: public
    assert hidden.leaks("7", 6, ["9s"]) == ["9s of the deck shown to 7 at 6"]
    assert hidden.leaks("8", 6, ["9s"])  # a burn card is nobody's
    assert not hidden.leaks("8", 7, ["9s", "2c"])  # dealt from the burn pile to seat 1
    assert hidden.leaks("7", 7, ["9s"]) and hidden.leaks("7", 7, ["2c"])  # a discard too
    assert not hidden.leaks("8", 8, ["Ah"])  # shown


def test_12_the_cards_of_a_poker_deck_not_dealt_yet_are_nobodys() -> None:
    # The check knows a poker hand's deck from its HandStarted (as it knows a Chinese
    # poker hand's): the next board card, still in the deck, shown to anyone is a leak.
    entries: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "PlayerSeated", "player": "7", "seat": 0}),
        (2, {"type": "HandDealt"}),
        (3, {"type": "HandStarted", "config": {"game": "short_deck"}}),
        (4, {"type": "HoleDealt", "seat": 0, "cards": ["Ah", "Kd"], "up": [False, False]}),
        (5, {"type": "BoardDealt", "cards": ["6c", "7c", "8c"]}),
    ]
    hidden = Hidden(entries)
    assert hidden.leaks("7", 4, ["9d"]) == ["9d of the deck shown to 7 at 4"]
    assert hidden.leaks("7", 4, ["6c"]) and not hidden.leaks("7", 5, ["6c"])  # dealt: public
    assert not hidden.leaks("7", 4, ["Ah", "2c"])  # one's own; not in a Short Deck at all
