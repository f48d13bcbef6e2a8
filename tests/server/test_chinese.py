"""Chinese poker over the wire (RULEBOOK §8): the ``place`` message, its error codes, a
hand placed to its showdown and settled in the ledger, and recovery of an unfinished one."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from pathlib import Path
from typing import Any

import httpx
from tests.server.conftest import running_server
from tests.server.sessions import answer, money_problems, player, until

from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.placement import random_placement
from cardroom.server.settings import ServerSettings
from cardroom.server.tables_file import TablesFileError, spec_from_dict


async def _turn_of(clients: dict[str, ProtocolClient]) -> tuple[str, dict[str, Any]]:
    """The first ``turn`` message any of ``clients`` receives, and whose it is."""
    tasks = {asyncio.create_task(until(c, "turn", 20, table="ofc")): n for n, c in clients.items()}
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for t in pending:
        t.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    first = done.pop()
    return tasks[first], first.result()


def test_8_place_messages_play_an_ofc_hand_to_its_showdown_with_error_codes(
    server: str, settings: ServerSettings
) -> None:
    async def go() -> dict[str, Any]:
        ann, _ = await player(server, "annofc")
        bob, _ = await player(server, "bobofc")
        clients = {"ann": ann, "bob": bob}
        for i, (name, c) in enumerate(clients.items()):
            await c.send("join", id=f"j{name}", table="ofc", seat=i, amount=100)
            assert (await answer(c, f"j{name}"))["type"] == "ok"
        who, turn = await _turn_of(clients)
        me, other = clients[who], clients["bob" if who == "ann" else "ann"]
        assert turn["legal"] == {
            "actions": ["place"], "place": 5, "discard": 0,
            "free": {"top": 3, "middle": 5, "bottom": 5},
        }  # fmt: skip
        assert len(turn["cards"]) == 5 and turn["board"] == []
        await other.send("place", id="o1", table="ofc", bottom=turn["cards"])
        assert (await answer(other, "o1"))["code"] == "not_your_turn"
        await me.send("place", id="b1", table="ofc", top=turn["cards"][:3])
        assert (await answer(me, "b1"))["code"] == "bad_placement"  # two cards left out
        await me.send("place", id="b2", table="ofc", top=["Zz"])
        assert (await answer(me, "b2"))["code"] == "bad_message"
        await me.send("act", id="b3", table="ofc", kind="check")
        assert (await answer(me, "b3"))["code"] == "wrong_game"
        await me.send("place", id="b4", table="holdem", bottom=turn["cards"])
        assert (await answer(me, "b4"))["code"] == "wrong_game"  # a poker table
        rng = random.Random(1)
        events: list[dict[str, Any]] = []
        for n in range(18):  # 9 streets, 2 players
            if n:
                who, turn = await _turn_of(clients)
            me = clients[who]
            cid = await me.send("place", table="ofc", **random_placement(turn, rng))
            async with asyncio.timeout(10):
                while (msg := await me.receive()).get("re") != cid:
                    events += [e["event"] for e in msg.get("events", [])]
            assert msg["type"] == "ok", msg
        settled = next(e for e in events if e["type"] == "HandSettled")
        for c in clients.values():
            await c.close()
        return settled

    settled = asyncio.run(go())
    assert {r["seat"] for r in settled["results"]} == {0, 1}
    assert sum(r["chips"] for r in settled["results"]) == 0
    assert all(len(r["top"]) == 3 and len(r["bottom"]) == 5 for r in settled["results"])
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []
    token = account(server, "annofc", "password1")["token"]
    page = httpx.get(server + "/api/hands", headers={"Authorization": f"Bearer {token}"}).json()
    (hand,) = page["hands"]  # the history lists it, as ann's seat saw it; no PHH for it
    assert hand["phh"] is None and hand["events"][-1]["type"] == "HandFinished"
    assert "PHH has no standard form for Chinese poker" in hand["phh_note"]  # said clearly
    assert hand["phh_refusal"] == "chinese"  # and with a stable code
    assert any(e["type"] == "HandSettled" for e in hand["events"])


CLASSIC = """
[[table]]
id = "classic"
game = "classic"
point_value = 1
seats = 3
hand_pause_seconds = 600.0
"""


def test_8_classic_players_set_at_once_each_placement_naming_the_seq_it_was_made_at(
    settings: ServerSettings, tmp_path: Path
) -> None:
    """In classic everyone sets at once: a placement decided before another player's was
    stored is still the player's own decision, so naming the seq it was made at (as the
    browser client does) it is played, not refused ``stale_turn``; a placement naming a
    seq the table has not reached is malformed."""
    tables = tmp_path / "classic.toml"
    tables.write_text(CLASSIC)

    async def go(base: str) -> list[dict[str, Any]]:
        clients = [(await player(base, name))[0] for name in ("annclassic", "bobclassic")]
        mine: dict[int, list[str]] = {}
        seen = 0
        for i, c in enumerate(clients):
            await c.send("join", id=f"j{i}", table="classic", seat=i, amount=100)
            assert (await answer(c, f"j{i}"))["type"] == "ok"
        for i, c in enumerate(clients):  # each reads its own 13 cards as they are dealt
            async with asyncio.timeout(20):
                while i not in mine:
                    msg = await c.receive()
                    for e in msg.get("events", []) if msg["type"] == "events" else []:
                        seen = max(seen, e["seq"])
                        event = e["event"]
                        if event["type"] == "CardsDealt" and event["seat"] == i:
                            mine[i] = event["cards"]
        answers = []
        late = {"top": mine[0][:3], "middle": mine[0][3:8], "bottom": mine[0][8:]}
        await clients[0].send("place", id="future", table="classic", turn=10**9, **late)
        answers.append(await answer(clients[0], "future"))
        for i, c in enumerate(clients):  # both decided at `seen`; the first is stored first
            cards = mine[i]
            rows = {"top": cards[:3], "middle": cards[3:8], "bottom": cards[8:]}
            await c.send("place", id=f"p{i}", table="classic", turn=seen, **rows)
            answers.append(await answer(c, f"p{i}"))
        for c in clients:
            await c.close()
        return answers

    with running_server(dataclasses.replace(settings, tables_file=tables)) as base:
        future, *placed = asyncio.run(go(base))
    assert future["code"] == "bad_message", future
    assert [a["type"] for a in placed] == ["ok", "ok"], placed


def test_10_10_an_unfinished_ofc_hand_is_voided_on_restart_and_the_chips_go_back(
    settings: ServerSettings,
) -> None:
    async def sit_and_start(base: str) -> None:
        ann, _ = await player(base, "annrec")
        bob, _ = await player(base, "bobrec")
        for i, c in enumerate((ann, bob)):
            await c.send("join", id=f"j{i}", table="ofc", seat=i, amount=200)
            assert (await answer(c, f"j{i}"))["type"] == "ok"
        await _turn_of({"ann": ann, "bob": bob})  # a hand is on

    with running_server(settings) as base:
        asyncio.run(sit_and_start(base))
    with running_server(settings) as base:

        async def look() -> dict[str, Any]:
            watcher, _ = await player(base, "annrec")
            await watcher.send("watch", id="w", table="ofc")
            snap = await until(watcher, "snapshot", table="ofc")
            await watcher.close()
            return snap

        snap = asyncio.run(look())
    assert all(s is None for s in snap["view"]["seats"])  # everyone stood up, chips back
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []
    from cardroom.store import make_engine
    from cardroom.store.tables import TableRecords

    engine = make_engine(settings.database_url)
    hands = TableRecords(engine).hands("ofc")["ofc"]
    engine.dispose()
    assert hands.dealt and hands.voided == hands.dealt[-1:] and not hands.finished


def test_tables_file_takes_chinese_games_and_says_what_is_wrong() -> None:
    spec = spec_from_dict({"id": "p1", "game": "pineapple", "point_value": 5, "bots": 2})
    assert spec.settings.chinese is not None and spec.settings.seat_count == 3
    assert spec.settings.buy_in_range == (150, 1500)
    for bad, words in (
        ({"id": "x", "game": "ofc"}, "point_value"),
        ({"id": "x", "game": "ofc", "point_value": 0}, "point_value"),
        ({"id": "x", "game": "ofc", "point_value": 1, "stakes": {}}, "unknown keys"),
        ({"id": "x", "game": "pineapple", "point_value": 1, "seats": 4}, "seats"),
        ({"id": "x", "game": "ofc", "point_value": 1, "bots": 5}, "bots"),
    ):
        try:
            spec_from_dict(bad)
        except TablesFileError as exc:
            assert words in str(exc), (bad, exc)
        else:
            raise AssertionError(f"{bad} was taken")
