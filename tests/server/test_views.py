"""RULEBOOK §12 over the wire: what a client receives is its own seat's projection only.

Every message every client of every server test receives is checked as it arrives
(``secrecy.py``, hooked in by ``conftest.py``); these tests show that check sees the
messages and catches a leak, and check a whole bot session's logs after the fact too."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import OPEN_SIGNUPS, running_server
from tests.server.secrecy import Hidden, SecrecyCheck, check_no_hidden_cards
from tests.server.sessions import bot_session, operator_client, player, until, was_asked
from tests.server.test_secrecy_paths import LIMIT, check_histories, event, passive, sit

from cardroom.bots.random_bot import RandomBot
from cardroom.room import events as rv
from cardroom.room.views import project
from cardroom.server import broadcast
from cardroom.server.settings import ServerSettings
from cardroom.store import make_engine
from cardroom.store.tables import TableRecords


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


def _private_session(tmp_path: Path) -> str:
    """A session through the check on receipt (``secrecy.py``) with every kind of private
    state a table makes: Dave's line drops facing Erin's raise, the room puts him all in
    (§10.6: the rail and Erin are told it happened, not how many he used today); back,
    he is told his count and has it reset; his advertising is blocked and earns a chat
    ban (§10.7); Erin reports him; the operator freezes him (§10.9). The database's url."""
    (tmp_path / "tables.toml").write_text(LIMIT)
    url = f"sqlite:///{tmp_path / 'private.db'}"
    settings = ServerSettings(
        database_url=url, tables_file=tmp_path / "tables.toml", cheap_passwords=True,
        tick_seconds=0.05, limits=OPEN_SIGNUPS,
    )  # fmt: skip

    async def go(base: str, boss: httpx.Client) -> None:
        rail = await sit(base, "rail", "limit", None, None)
        dave = await sit(base, "dave", "limit", 0, passive)
        erin = await sit(base, "erin", "limit", 1, None)
        turn = await erin.wait(lambda m: m if m["type"] == "turn" else None)
        await dave.close()
        await erin.wait(event("Disconnected", seat=0))
        await erin.client.send(
            "act", table="limit", kind="raise", amount=turn["legal"]["min_raise_to"]
        )
        used = await rail.wait(event("DisconnectAllInUsed", seat=0))
        assert "used_today" not in used
        assert "used_today" not in await erin.wait(event("DisconnectAllInUsed", seat=0))
        erin.policy = passive
        await erin.wait(event("HandFinished", after=used["seq"]))
        back = await sit(base, "dave", "limit", None, passive, since=used["seq"] - 1)
        assert (await back.wait(event("DisconnectAllInUsed", seat=0)))["used_today"] == 1
        await back.client.send("reset_allowance", id="r", table="limit")
        await back.wait(event("AllowanceReset", seat=0))
        await back.client.send("chat", id="c", table="limit", text="play at www.pokerstars.com")
        await back.wait(event("ChatBlocked", seat=0))
        await back.client.send("chat", id="c2", table="limit", text="hello")
        refused = await back.wait(lambda m: m if m.get("re") == "c2" else None)
        assert (refused["code"], refused["message"]) == ("chat_refused", "banned")
        note = "he talks while I think"
        await erin.client.send(
            "report", id="rep", table="limit", player="dave", reason="coffee_housing", note=note
        )
        assert (await erin.wait(lambda m: m if m.get("re") == "rep" else None))["type"] == "ok"
        made = await asyncio.to_thread(
            boss.post, "/api/operator/sanctions", json={"alias": "dave", "kind": "freeze"}
        )
        assert made.status_code == 201, made.text
        left = await rail.wait(event("PlayerLeft", player=dave.player))
        assert left["reason"] == "left"
        await erin.client.send("chat", id="c3", table="limit", text="bye")
        await back.wait(lambda m: m if m["type"] == "chat" and m["text"] == "bye" else None)
        for s in (rail, erin, back):
            await s.close()
            if s is not erin:  # a report is stored for review, never told to the table
                assert note not in str(s.log) and "coffee_housing" not in str(s.log)
        assert check_histories(base, url, [(s.player, s.token) for s in (back, erin)]) > 0

    with running_server(settings) as base:
        boss = operator_client(base, url)
        try:
            asyncio.run(go(base, boss))
        finally:
            boss.close()
    return url


def test_10_6_no_seat_but_his_own_is_told_how_many_disconnect_all_ins_a_player_used(
    tmp_path: Path, every_message_checked: SecrecyCheck
) -> None:
    # Who has none left today folds when knocked offline: a DDoS would win the pot.
    url = _private_session(tmp_path)
    # The check on receipt saw each kind of private entry (its owner got it, the others
    # were checked not to), and the record keeps what the table was not told.
    seen = every_message_checked.private
    assert seen["DisconnectAllInUsed"] >= 3 and seen["AllowanceReset"] and seen["ChatBlocked"]
    entries = [e for _, e in _entries(url, "limit")]
    assert any(e["type"] == "DisconnectAllInUsed" and e["used_today"] == 1 for e in entries)
    assert any(e["type"] == "PlayerLeft" and e["reason"] == "frozen" for e in entries)


@pytest.mark.parametrize(
    ("name", "value", "found"),
    [
        ("OWN_FIELDS", {}, "DisconnectAllInUsed.used_today of seat 0 shown to"),
        ("PRIVATE", (), "AllowanceReset of seat 0 shown to"),
        ("SANCTIONED", frozenset(), "the sanction 'frozen' shown to"),
    ],
)
def test_12_the_check_on_receipt_catches_another_seat_s_private_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: Any, found: str
) -> None:
    # The projection told to forget one kind of privacy: the same session fails on it.
    monkeypatch.setattr(rv, name, value)
    with pytest.raises(AssertionError, match=found):
        _private_session(tmp_path)


def test_12_the_private_state_check_knows_whose_each_entry_is() -> None:
    entries: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "PlayerSeated", "player": "7", "seat": 0}),
        (2, {"type": "PlayerSeated", "player": "8", "seat": 1}),
        (3, {"type": "DisconnectAllInUsed", "seat": 0, "player": "7", "used_today": 2}),
        (4, {"type": "ChatBlocked", "seat": 0, "player": "7", "offence": True}),
        (5, {"type": "ReviewFlagged", "rule": "shared_ip", "accounts": ["7", "8"]}),
        (6, {"type": "PlayerLeft", "seat": 0, "player": "7", "reason": "banned"}),
    ]
    hidden = Hidden(entries)
    own, shown = dict(entries[2][1]), {"type": "ChatBlocked"}
    assert not hidden.private_leaks("7", 3, own) and not hidden.private_leaks("7", 4, shown)
    assert hidden.private_leaks("8", 3, own) == [
        "DisconnectAllInUsed.used_today of seat 0 shown to 8 at 3"
    ]
    assert not hidden.private_leaks("8", 3, {k: v for k, v in own.items() if k != "used_today"})
    assert hidden.private_leaks("8", 4, shown) == ["ChatBlocked of seat 0 shown to 8 at 4"]
    assert hidden.private_leaks("9", 4, shown)  # a spectator
    assert hidden.private_leaks("7", 5, {"type": "ReviewFlagged"})  # the staff's only
    assert hidden.private_leaks("8", 6, {"reason": "banned"})
    assert not hidden.private_leaks("8", 6, {"reason": "left"})


def _entries(url: str, table: str) -> list[tuple[int, dict[str, Any]]]:
    engine = make_engine(url)
    try:
        return TableRecords(engine).entries(table, 0, 100_000)
    finally:
        engine.dispose()
