"""RULEBOOK §12 over every channel of a real server: what each seat, each watcher, a
player who stood up or left mid-hand, one who came back (events since, or a fresh
snapshot), one away on a disconnect all-in, and each player's own hand histories
(``GET /api/hands``: record and PHH) show of the others' cards.

Every message every client receives is checked on arrival against the table's stored
record (``secrecy.py``, hooked in by ``conftest.py``); each hand history is checked
against the same record (:func:`secrecy.check_hand_record`); messages that carry no
table view (``ok``, ``error``, ``hello``) must name no card at all. Each test also
checks that what it meant to exercise happened (a mucked loser, a fold, a hand won
without a showdown, a cancel...), so no check passes for want of something to hide.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import OPEN_SIGNUPS, running_server
from tests.server.secrecy import cards_in, check_hand_record, items
from tests.server.sessions import answer, operator_client
from websockets.exceptions import ConnectionClosed

from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.placement import random_placement
from cardroom.bots.random_bot import RandomBot
from cardroom.server.settings import ServerSettings

Policy = Callable[[dict[str, Any]], dict[str, Any] | None]
"""A turn message -> the fields of the ``act`` or ``place`` answering it (None: wait)."""


class Seat:
    """One connection of one player: every message kept (and checked on arrival by the
    conftest hook); turns at ``table`` answered by ``policy`` while it is set."""

    def __init__(
        self, client: ProtocolClient, player: str, token: str, table: str, policy: Policy | None
    ) -> None:
        self.client, self.player, self.token, self.table = client, player, token, table
        self.policy = policy
        self.log: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            await self._answer()
        except ConnectionClosed:
            pass
        finally:
            self.arrived.set()  # a waiter sees the end (a leak found, the line closed)

    async def _answer(self) -> None:
        """Keep and check every message; answer the turns."""
        while True:
            msg = await self.client.receive()
            if not list(items(msg)):  # no table view: no card at all
                assert not list(cards_in(msg)), msg
            self.log.append(msg)
            self.arrived.set()
            if msg["type"] == "turn" and msg["table"] == self.table and self.policy:
                fields = self.policy(msg)
                if fields is not None:
                    kind = "place" if "place" in msg["legal"]["actions"] else "act"
                    await self.client.send(kind, table=self.table, turn=msg["seq"], **fields)

    async def wait(self, found: Callable[[dict[str, Any]], Any], limit: float = 30) -> Any:
        """The first thing ``found`` returns (not None) for a message received, from the
        first message on."""
        i = 0
        async with asyncio.timeout(limit):
            while True:
                while i < len(self.log):
                    hit = found(self.log[i])
                    i += 1
                    if hit is not None:
                        return hit
                if self.task.done():  # a leak found on receipt fails the test here
                    self.task.result()
                    raise AssertionError(f"{self.player}'s connection closed")
                self.arrived.clear()
                await self.arrived.wait()

    def events(self) -> Iterator[dict[str, Any]]:
        """Every table event received so far."""
        for m in self.log:
            if m["type"] == "events":
                yield from (e["event"] for e in m["events"])

    async def stop(self) -> None:
        """Stop reading."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
            await self.task

    async def close(self) -> None:
        """Stop reading and close the connection."""
        await self.stop()
        await self.client.close()


def event(kind: str, after: int = 0, **match: Any) -> Callable[[dict[str, Any]], Any]:
    """A finder of the first table event of ``kind`` past ``after`` whose fields
    include ``match``: that event with its ``seq``."""

    def found(msg: dict[str, Any]) -> Any:
        for e in msg.get("events", []) if msg["type"] == "events" else []:
            ev = e["event"]
            if (
                ev["type"] == kind
                and e["seq"] > after
                and all(ev.get(k) == v for k, v in match.items())
            ):
                return {**ev, "seq": e["seq"]}
        return None

    return found


def own_cards(seat: int) -> Callable[[dict[str, Any]], Any]:
    """A finder of the first ``HoleDealt`` of ``seat`` with its cards face up to it."""

    def found(msg: dict[str, Any]) -> Any:
        hit = event("HoleDealt", seat=seat)(msg)
        return hit if hit is not None and None not in hit["cards"] else None

    return found


async def sit(
    base: str,
    alias: str,
    table: str,
    seat: int | None,
    policy: Policy | None,
    amount: int = 40,
    **watch: Any,
) -> Seat:
    """A player logged in, sitting at ``seat`` of ``table`` (None: watching it, with the
    ``watch`` message's other fields: ``since``)."""
    login = await asyncio.to_thread(account, base, alias, "password1")
    client = await ProtocolClient.connect(base, login["token"])
    assert (await client.receive())["type"] == "hello"
    if seat is None:
        await client.send("watch", table=table, **watch)
    else:
        await client.send("join", id=f"{alias}-j", table=table, seat=seat, amount=amount)
        assert (await answer(client, f"{alias}-j"))["type"] == "ok"
    return Seat(client, str(login["player"]), login["token"], table, policy)


def hands_of(base: str, token: str) -> list[dict[str, Any]]:
    """Every finished hand the player of ``token`` played, from the HTTP API."""
    got = httpx.get(f"{base}/api/hands?limit=50", headers={"authorization": f"Bearer {token}"})
    assert got.status_code == 200, got.text
    page = got.json()
    assert page["next_offset"] is None, "more hands than one page"
    return list(page["hands"])


def check_histories(base: str, url: str, players: list[tuple[str, str]]) -> int:
    """Check every hand history of ``players`` (player, token); the number of others'
    hidden cards cut."""
    cut = 0
    for player, token in players:
        for record in hands_of(base, token):
            cut += check_hand_record(url, player, record)
    return cut


def passive(turn: dict[str, Any]) -> dict[str, Any]:
    """Check, call, post the bring-in, or draw the first two cards."""
    kinds = turn["legal"]["actions"]
    if "draw" in kinds:
        cards = [c for c in turn["cards"] if c is not None]
        return {"kind": "draw", "cards": cards[: min(2, int(turn["legal"]["draw"]))]}
    for kind in ("check", "call", "bring_in"):
        if kind in kinds:
            return {"kind": kind}
    return {"kind": kinds[0]}


def folder(turn: dict[str, Any]) -> dict[str, Any]:
    """Check when free, else fold."""
    return {"kind": "check" if "check" in turn["legal"]["actions"] else "fold"}


def by_turns(*policies: Policy) -> Policy:
    """Each of ``policies`` in turn, round and round."""
    turns = itertools.cycle(policies)
    return lambda turn: next(turns)(turn)


def raiser(turn: dict[str, Any]) -> dict[str, Any]:
    """Bet or raise the least allowed when possible, else call or check."""
    legal = turn["legal"]
    if "raise" in legal["actions"]:
        return {"kind": "raise", "amount": legal["min_raise_to"]}
    return passive(turn)


def _settings(tmp_path: Path, tables: str) -> ServerSettings:
    path = tmp_path / "tables.toml"
    path.write_text(tables)
    return ServerSettings(
        database_url=f"sqlite:///{tmp_path / 'secrecy.db'}",
        tables_file=path,
        cheap_passwords=True,
        tick_seconds=0.05,
        limits=OPEN_SIGNUPS,
    )


HOLDEM = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
hand_pause_seconds = 0.0
action_seconds = 5
reconnect_seconds = 5
reducing_minutes = 0.0
"""


def test_12_holdem_seats_leavers_returners_and_the_rail_see_only_what_was_shown(
    tmp_path: Path,
) -> None:
    """Three players and a rail: one raises one time in four, one folds to a bet every
    other time, one folds to any bet. Carol stands up in a hand she was dealt (and
    folds out of it as one leaving), watches on, reads the table again from the start
    (``since`` 0) and afresh, sits down again, sits out a hand and comes back calling
    down; Bobby's line drops in a hand and he comes back twice (the events since, a
    snapshot with his own cards).
    Then every history of the three is read. Showdowns with a mucked loser, folded
    hands and a pot won without a showdown all happen."""
    settings = _settings(tmp_path, HOLDEM)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> int:
        rail = await sit(base, "rail", "holdem", None, None)
        alice = await sit(base, "alice", "holdem", 0, by_turns(raiser, passive, passive, passive))
        bobby = await sit(base, "bobby", "holdem", 1, by_turns(folder, passive))
        carol = await sit(base, "carol", "holdem", 2, folder)
        seats = [alice, bobby, carol]
        # Carol stands up in a hand she holds cards in; she keeps watching.
        dealt = await carol.wait(own_cards(2))
        await carol.client.send("leave", table="holdem")
        left = await carol.wait(event("PlayerLeft", player=carol.player))
        await carol.wait(event("HandFinished", after=left["seq"]))
        # She reads the table again from the start, then afresh.
        for since in ({"since": 0}, {}):
            again = await sit(base, "carol", "holdem", None, None, **since)
            await again.wait(event("HandFinished", after=left["seq"]) if since else _snapshot)
            assert any(e.get("cards") == dealt["cards"] for e in again.events()) == bool(since)
            await again.close()
        # Back at another seat, then sitting out while the others play on.
        await carol.client.send("join", id="c-back", table="holdem", seat=4, amount=40)
        await carol.wait(own_cards(4))
        await carol.client.send("sit_out", table="holdem")
        out = await carol.wait(event("SatOut", seat=4))
        await carol.wait(event("HandFinished", after=out["seq"]))
        carol.policy = passive  # back in, calling down: showdowns of three
        await carol.client.send("sit_in", table="holdem")
        # Bobby's line drops in a hand; he comes back with the events since, and afresh.
        mine = await bobby.wait(own_cards(1))
        await bobby.stop()
        bobby.client.drop()
        back = await sit(base, "bobby", "holdem", None, None, since=mine["seq"])
        back.policy = by_turns(folder, passive)
        await back.wait(event("Reconnected", seat=1))
        if any(e["type"] == "SatOut" and e["seat"] == 1 for e in back.events()):
            await back.client.send("sit_in", table="holdem")  # sat out while away (§10.6)
        fresh = await sit(base, "bobby", "holdem", None, None)
        snap = await fresh.wait(_snapshot)
        seen = snap["view"]["hand"]
        if seen is not None and seen["seats"][1] is not None:  # his own cards, in full
            assert None not in seen["seats"][1]["cards"]
        await fresh.close()
        seats.append(back)
        # Play on until a loser mucked, a hand was folded and one won without showdown.
        await rail.wait(lambda m: _all_happened(rail) or None, limit=120)
        for s in [*seats, rail]:
            await s.close()
        return check_histories(base, url, [(s.player, s.token) for s in (alice, back, carol)])

    with running_server(settings) as base:
        cut = asyncio.run(go(base))
    assert cut > 0


def _snapshot(msg: dict[str, Any]) -> Any:
    return msg if msg["type"] == "snapshot" else None


def _all_happened(rail: Seat) -> bool:
    """A loser mucked at a showdown, a hand was folded, and a pot won without one."""
    kinds: list[str] = []
    unshown = False
    for e in rail.events():
        kinds.append(e["type"])
        unshown = unshown or (e["type"] == "PotAwarded" and e["hand"] == "")
    acted = [e for e in rail.events() if e["type"] == "Acted" and e["kind"] == "fold"]
    return "Mucked" in kinds and bool(acted) and unshown


MANY = """
[[table]]
id = "ohl"
game = "omaha_hi_lo"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
[[table]]
id = "stud"
game = "stud"
stakes = { small_bet = 4, big_bet = 8, ante = 1 }
seats = 8
[[table]]
id = "razz"
game = "razz"
stakes = { small_bet = 4, big_bet = 8, ante = 1 }
seats = 8
[[table]]
id = "draw"
game = "triple_draw_27"
stakes = { small_blind = 2, big_blind = 4, small_bet = 4, big_bet = 8 }
seats = 6
[[table]]
id = "badugi"
game = "badugi"
structure = "fixed_limit"
stakes = { small_blind = 2, big_blind = 4, small_bet = 4, big_bet = 8 }
seats = 6
[[table]]
id = "courchevel"
game = "courchevel"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
[[table]]
id = "eight"
mixed = "8-Game"
stakes = { small_bet = 4 }
hands_per_game = 1
seats = 6
[[table]]
id = "pine"
game = "pineapple"
point_value = 1
seats = 3
[[table]]
id = "classic"
game = "classic"
point_value = 1
seats = 4
"""
BOTS = {"ohl": 4, "stud": 5, "razz": 4, "draw": 6, "badugi": 5, "courchevel": 4}
BOTS |= {"eight": 4, "pine": 3, "classic": 4}


def test_12_every_family_s_hand_histories_show_only_what_the_seat_saw(tmp_path: Path) -> None:
    """Random bots at a table of each family (flop hi-lo, Courchevel, stud, razz, triple
    draw deep enough to reshuffle, badugi, an 8-Game table changing game every hand,
    Pineapple's discards, classic's face-down sets) play a few hands; every message is
    checked as it arrives, then every hand history of every bot, and the lobby."""
    settings = _settings(tmp_path, MANY.replace("seats =", "hand_pause_seconds = 0.0\nseats ="))
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> tuple[list[RandomBot], Counter[str]]:
        stop = asyncio.Event()
        bots = [
            RandomBot(base, f"{t[:6]}{i}", "password1", t, seed=i)
            for t, n in BOTS.items()
            for i in range(n)
        ]
        tasks = [asyncio.create_task(b.play(stop)) for b in bots]
        rail = await sit(base, "rail", "ohl", None, None)
        for t in BOTS:
            await rail.client.send("watch", table=t)
        done: dict[str, int] = {}

        def counted(msg: dict[str, Any]) -> Any:
            if msg["type"] == "events":
                for e in msg["events"]:
                    if e["event"]["type"] == "HandFinished":
                        done[msg["table"]] = done.get(msg["table"], 0) + 1
            return True if len(done) == len(BOTS) and min(done.values()) >= 4 else None

        await rail.wait(counted, limit=180)
        lobby = await asyncio.to_thread(httpx.get, f"{base}/api/tables")
        assert lobby.status_code == 200 and not list(cards_in(lobby.json()))
        stop.set()
        await rail.close()
        for b in bots:
            assert b.client is not None
            await b.client.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        return bots, Counter(_exercised(e) for e in rail.events())

    with running_server(settings) as base:
        bots, seen = asyncio.run(go(base))
        cut, tables = 0, set()
        for b in bots:
            assert b.token is not None and b.player_id is not None
            for record in hands_of(base, b.token):
                cut += check_hand_record(url, str(b.player_id), record)
                tables.add(record["table_id"])
    assert tables == set(BOTS) and cut > 0
    assert all(seen[k] for k in ("Mucked", "Drew", "discarded", "face_down", "fold")), seen


def _exercised(e: dict[str, Any]) -> str:
    """What a rail's event shows happened, of what the family test means to exercise."""
    if e["type"] == "CardsPlaced" and e["discarded"]:
        return "discarded"  # Pineapple: a discard, face down
    if e["type"] == "CardsPlaced" and e["face_down"]:
        return "face_down"  # classic: a hand set face down
    if e["type"] == "Acted" and e["kind"] == "fold":
        return "fold"
    return str(e["type"])


LIMIT = """
[[table]]
id = "limit"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
hand_pause_seconds = 0.0
action_seconds = 5
time_bank_start = 0.0
reconnect_seconds = 0.3
disconnect_protection = true
"""


def test_12_a_disconnect_all_in_is_shown_at_the_showdown_and_nothing_before(
    tmp_path: Path,
) -> None:
    """Dave calls until Erin is to act, then his line drops; Erin raises: Dave, facing
    a raise with chips in, is all in by the room (§10.6). Erin checks it down: Dave's
    hand, a called all-in, is shown at the showdown (§7), and not one message before
    it (nor the rail's, nor the histories) holds his cards."""
    settings = _settings(tmp_path, LIMIT)
    url = settings.database_url
    assert url is not None

    async def go(base: str) -> None:
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
        erin.policy = passive
        shown = await rail.wait(event("Shown", seat=0, after=used["seq"]))
        assert None not in shown["cards"]
        await rail.wait(event("HandFinished", after=used["seq"]))
        for s in (rail, erin):
            await s.close()
        erin_hands = hands_of(base, erin.token)
        assert any(
            any(e["type"] == "Shown" and e["seat"] == 0 for e in h["events"]) for h in erin_hands
        )
        assert check_histories(base, url, [(s.player, s.token) for s in (dave, erin)]) > 0

    with running_server(settings) as base:
        asyncio.run(go(base))


def test_12_a_hand_cancelled_mid_way_shows_nobody_anyone_s_cards(tmp_path: Path) -> None:
    """The operator closes the table in the middle of a hand (§10.10: cancelled, every
    stack back): the cancel, the cash-outs and the voided hand's histories hold each
    player's own cards only."""
    settings = _settings(tmp_path, HOLDEM)
    url = settings.database_url
    assert url is not None

    async def go(base: str, boss: httpx.Client) -> None:
        rail = await sit(base, "rail", "holdem", None, None)
        players = [await sit(base, f"player{i}", "holdem", i, None) for i in range(2)]
        for i, p in enumerate(players):
            await p.wait(own_cards(i))
        closed = await asyncio.to_thread(boss.post, "/api/operator/tables/holdem/close")
        assert closed.status_code == 200, closed.text
        await rail.wait(event("HandCancelled"))
        for p in players:
            await p.wait(event("HandVoided"))
            (record,) = hands_of(base, p.token)
            assert record["voided"] and record["phh"] is None
            assert check_hand_record(url, p.player, record) > 0
        for s in (rail, *players):
            await s.close()

    with running_server(settings) as base:
        boss = operator_client(base, url)
        asyncio.run(go(base, boss))
        boss.close()


OFC = """
[[table]]
id = "ofc"
game = "ofc"
point_value = 1
seats = 3
hand_pause_seconds = 0.0
"""


def test_12_fantasyland_hands_are_set_unseen_until_the_showdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OFC: the first hand is dealt from a deck that gives one of two players queens on
    top (Fantasyland, §8); the next hand deals that player 13 cards at once, set face
    down. The other player and the rail see how many, never which, until the rows are
    shown; nobody ever sees the other's cards to place."""
    from tests.room.test_chinese_room import rig
    from tests.room.test_chinese_table import SEAT0, SEAT1, deck_for

    rig(monkeypatch, deck_for(SEAT1, SEAT0))
    rows = {c: row for plan in (SEAT0, SEAT1) for row, cards in plan.items() for c in cards.split()}
    settings = _settings(tmp_path, OFC)
    url = settings.database_url
    assert url is not None
    rng = random.Random(7)

    def planned(turn: dict[str, Any]) -> dict[str, Any]:
        """The first hand's plan; any legal placement after it."""
        out: dict[str, list[str]] = {"top": [], "middle": [], "bottom": []}
        for c in turn["cards"]:
            out.setdefault(rows.get(c, "discard"), []).append(c)
        free = turn["legal"]["free"]
        if "discard" in out or any(len(out[r]) > free[r] for r in free):
            return random_placement(turn, rng)
        return out

    async def go(base: str) -> None:
        rail = await sit(base, "rail", "ofc", None, None)
        one = await sit(base, "one", "ofc", 0, planned, amount=200)
        two = await sit(base, "two", "ofc", 1, planned, amount=200)
        started = await rail.wait(_fantasyland_started, limit=60)
        settled = await rail.wait(event("HandSettled", after=started["seq"]), limit=60)
        fantasy = started["seats"][started["fantasyland"].index(13)]
        other = two if fantasy == 0 else one
        dealt = [
            e
            for e in other.events()
            if e["type"] == "CardsDealt" and e["seat"] == fantasy and e["cards"] == 13
        ]
        set_down = [
            e
            for e in rail.events()
            if e["type"] == "CardsPlaced" and e["seat"] == fantasy and e["face_down"]
        ]
        assert dealt and set_down and settled
        for s in (rail, one, two):
            await s.close()
        assert check_histories(base, url, [(s.player, s.token) for s in (one, two)]) > 0

    with running_server(settings) as base:
        asyncio.run(go(base))


def _fantasyland_started(msg: dict[str, Any]) -> Any:
    """A Chinese poker hand started with a player in Fantasyland."""
    started = event("HandStarted")(msg)
    return started if started is not None and any(started["fantasyland"]) else None


def test_the_oracle_reads_no_card_in_what_a_player_typed() -> None:
    # A chat line "As" in a snapshot's chat (or a ChatSaid) is a word, not a card
    # dealt: the oracle read it as the deck's ace of spades and failed a live run.
    view = {"chat": [{"player": "3", "text": "As", "at": 1.0}], "board": ["Kd"]}
    assert list(cards_in(view)) == ["Kd"]
    assert list(cards_in({"type": "ChatSaid", "player": "3", "text": "Qh"})) == []
