"""Per-seat secrecy (RULEBOOK §12, issue 14), checked on every message every test client
receives: no card another seat holds face down, and no card of the deck; and no other
seat's private state (:data:`OWN_SEAT_ONLY`, :data:`OWN_FIELDS`, :data:`STAFF_ONLY`,
:data:`SANCTIONS`): a pre-selected action, a showdown choice, a blocked chat line (a
chat offence: a ban and its length follow from it), a report, the disconnect all-ins
a player used or had reset today (§10.6: who has none left may be knocked offline to
fold), an integrity flag, a sanction named as a departure's reason.

The oracle is the table's stored record (a server stores a step before it sends a word
of it): :class:`Hidden` follows it entry by entry and knows, at each sequence number,
the cards each seat holds unseen by the others (hole cards face down, discards, cards
to place) and the cards nobody holds (the deck not dealt yet, burn cards).

:func:`check_message` is called on each message a :class:`ProtocolClient` receives in
``tests/server`` (the autouse fixture in ``conftest.py`` hooks it into ``receive``): it
learns the client's player from its ``hello``, reads what the record holds up to the
message's sequence number from the server's database (``serving`` maps a server's port
to it), and fails the test on any leak.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import Engine

from cardroom.bots.client import ProtocolClient
from cardroom.games import get_variant
from cardroom.store import make_engine
from cardroom.store.tables import TableRecords

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
NOBODY = -1
"""The owner of the cards no seat holds: the deck, burn cards."""

OWN_SEAT_ONLY = frozenset(
    {"AdvanceSet", "AdvanceCleared", "AutoMuckSet", "AllowanceReset", "ChatBlocked", "ChatReported"}
)
"""The record's entries that only their own ``seat`` may receive."""
OWN_FIELDS = {"DisconnectAllInUsed": ("used_today",)}
"""Fields of a public entry that only its own ``seat`` may receive (that the event
happened is public)."""
STAFF_ONLY = frozenset({"ReviewFlagged", "DeparturesForgotten"})
"""The record's entries no player may receive."""
SANCTIONS = frozenset({"frozen", "banned"})
"""Departure reasons that are the staff's business (a player sees ``left``)."""

DATABASES: dict[int, str] = {}
"""The database of each test server, by its port (the client finds it by the port it
is connected to)."""


def serving(port: int, database_url: str) -> None:
    """A test server on ``port`` stores its tables in ``database_url``."""
    DATABASES[port] = database_url


def cards_in(data: Any) -> Iterator[str]:
    """Every card written anywhere in a JSON value, but in a chat line's text."""
    if isinstance(data, str):
        if CARD.match(data):
            yield data
    elif isinstance(data, list):
        for x in data:
            yield from cards_in(x)
    elif isinstance(data, dict):  # a chat line's text is what a player typed ("As")
        for key, x in data.items():
            if key != "text":
                yield from cards_in(x)


class Hidden:
    """From a table's stored record: at each sequence number, the cards each seat holds
    face down and has not shown, the cards nobody holds, and where each player sits.
    Fed entry by entry (:meth:`feed`), in order."""

    def __init__(self, entries: Iterable[tuple[int, dict[str, Any]]] = ()) -> None:
        self.hidden: dict[int, dict[int, frozenset[str]]] = {}
        self.seats: dict[int, dict[str, int]] = {}
        self.last = 0
        self._held: dict[int, set[str]] = {}
        self._seated: dict[str, int] = {}
        self.owners: dict[int, tuple[str, int | None]] = {}
        """The entries with private state, by sequence number: their type and seat."""
        self.feed(entries)

    def feed(self, entries: Iterable[tuple[int, dict[str, Any]]]) -> None:
        """Follow more entries of the record."""
        for seq, e in entries:
            self._follow(e)
            if e["type"] in OWN_SEAT_ONLY | STAFF_ONLY | OWN_FIELDS.keys():
                self.owners[seq] = (e["type"], e.get("seat"))
            self.hidden[seq] = {s: frozenset(c) for s, c in self._held.items() if c}
            self.seats[seq] = self._seated
            self.last = seq

    def _deal(self, seat: int, cards: Iterable[str]) -> None:
        """``cards`` are now ``seat``'s alone (a card back from the muck leaves its owner)."""
        cards = set(cards)
        for owner, held in self._held.items():
            if owner != seat:
                held.difference_update(cards)
        self._held.setdefault(seat, set()).update(cards)

    def _show(self, cards: Iterable[str]) -> None:
        """``cards`` are face up: public."""
        cards = set(cards)
        for held in self._held.values():
            held.difference_update(cards)

    def _follow(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if kind == "ChineseEvent":  # a Chinese poker hand's event, wrapped
            e = e["event"]
            kind = "Chinese" + e["type"]
        if kind == "HandDealt":
            self._held = {}
        elif kind == "HandStarted":  # a poker hand: every card of its deck is nobody's yet
            deck = get_variant(e["config"]["game"]).cards
            self._held = {NOBODY: {str(c) for c in deck}}
        elif kind == "ChineseHandStarted":  # the deck: nobody's, never shown
            self._held = {NOBODY: set(e["deck"])}
        elif kind == "ChineseCardsDealt":
            self._deal(e["seat"], e["cards"])
        elif kind == "ChineseCardsPlaced":
            if not e["face_down"]:  # open face: public once placed
                self._show(e["top"] + e["middle"] + e["bottom"])
        elif kind == "ChineseHandSettled":  # the rows are shown; discards never
            for r in e["results"]:
                self._show(r["top"] + r["middle"] + r["bottom"])
        elif kind == "HoleDealt":
            ups = e["up"]
            self._deal(e["seat"], [c for c, up in zip(e["cards"], ups, strict=True) if not up])
            self._show([c for c, up in zip(e["cards"], ups, strict=True) if up])
        elif kind == "Burned":
            self._deal(NOBODY, [e["card"]])
        elif kind == "BoardDealt":
            self._show(e["cards"])
        elif kind == "Drew":  # the discards stay the drawer's secret (mucked face down)
            self._deal(e["seat"], e["dealt"])
        elif kind == "Shown":
            self._held.get(e["seat"], set()).difference_update(e["cards"])
        elif kind == "PlayerSeated":
            self._seated = {**self._seated, e["player"]: e["seat"]}
        elif kind == "PlayerLeft":
            self._seated = {k: v for k, v in self._seated.items() if k != e["player"]}

    def _at(self, seq: int) -> int | None:
        """``seq`` if the record reached it (entries are numbered without gaps)."""
        return seq if seq in self.hidden else None

    def leaks(self, player: str, seq: int, cards: Iterable[str]) -> list[str]:
        """The cards of ``cards`` another seat (or nobody) held face down at ``seq``."""
        at = self._at(seq)
        if at is None:
            return []
        mine = self.seats[at].get(player)
        found = []
        for c in cards:
            for seat, held in self.hidden[at].items():
                if seat != mine and c in held:
                    whose = "the deck" if seat == NOBODY else f"seat {seat}"
                    found.append(f"{c} of {whose} shown to {player} at {seq}")
        return found

    def private_leaks(self, player: str, seq: int, event: Any) -> list[str]:
        """What of another seat's private state (or the staff's) ``event``, the entry
        ``seq`` as ``player`` received it, holds."""
        at = self._at(seq)
        if at is None or not isinstance(event, dict):
            return []
        found = []
        if event.get("reason") in SANCTIONS:
            found.append(f"the sanction {event['reason']!r} shown to {player} at {seq}")
        if at not in self.owners:
            return found
        kind, owner = self.owners[at]
        mine = self.seats[at].get(player)
        if kind in STAFF_ONLY or (kind in OWN_SEAT_ONLY and owner != mine):
            found.append(f"{kind} of seat {owner} shown to {player} at {seq}")
        if owner != mine:
            found += [
                f"{kind}.{name} of seat {owner} shown to {player} at {seq}"
                for name in OWN_FIELDS.get(kind, ())
                if name in event
            ]
        return found

    def own_cards_seen(self, player: str, seq: int, cards: Iterable[str]) -> int:
        """How many of ``cards`` are the player's own face-down cards."""
        at = self._at(seq)
        mine = None if at is None else self.seats[at].get(player)
        if at is None or mine is None:
            return 0
        held = self.hidden[at].get(mine, frozenset())
        return sum(1 for c in cards if c in held)


def items(message: dict[str, Any]) -> Iterator[tuple[str, int, Any]]:
    """(table, seq, data) for each part of a message that can hold cards."""
    kind = message.get("type")
    if kind == "events":
        for e in message["events"]:
            yield message["table"], e["seq"], e["event"]
    elif kind in ("snapshot", "turn"):
        yield message["table"], message["seq"], message


class Records:
    """The tables' records of the test servers, read as far as the messages need."""

    def __init__(self) -> None:
        self.engines: dict[str, Engine] = {}
        self.tables: dict[tuple[str, str], Hidden] = {}

    def hidden(self, url: str, table: str, seq: int) -> Hidden:
        """What ``table`` of the database at ``url`` held hidden, followed to ``seq``."""
        found = self.tables.setdefault((url, table), Hidden())
        if found.last < seq:
            engine = self.engines.get(url)
            if engine is None:
                engine = self.engines[url] = make_engine(url)
            records = TableRecords(engine)
            while found.last < seq:
                more = records.entries(table, found.last, 10_000)
                if not more:
                    break
                found.feed(more)
        return found

    def close(self) -> None:
        for engine in self.engines.values():
            engine.dispose()
        self.engines.clear()
        self.tables.clear()


class SecrecyCheck:
    """The check of every received message, for one test."""

    def __init__(self) -> None:
        self.records = Records()
        self.players: weakref.WeakKeyDictionary[ProtocolClient, str] = weakref.WeakKeyDictionary()
        self.checked = 0
        """Messages that could hold cards and were checked (the check is not vacuous)."""
        self.private: Counter[str] = Counter()
        """Received events with private state, by type, checked (not vacuous either)."""

    def __call__(self, client: ProtocolClient, message: dict[str, Any]) -> None:
        check_message(self, client, message)

    def close(self) -> None:
        self.records.close()


def check_message(check: SecrecyCheck, client: ProtocolClient, message: dict[str, Any]) -> None:
    """Fail unless ``message``, received by ``client``, holds only what its seat may see."""
    if message.get("type") == "hello":
        check.players[client] = str(message["player"])
        return
    parts = list(items(message))
    if not parts:
        return
    player = check.players.get(client)
    assert player is not None, f"a {message['type']} message before the hello"
    port = client.ws.remote_address[1]
    url = DATABASES.get(port)
    assert url is not None, f"no database known for the server on port {port}"
    for table, seq, data in parts:
        hidden = check.records.hidden(url, table, seq)
        assert hidden.last >= seq, f"{table}: seq {seq} sent, the record ends at {hidden.last}"
        leaks = hidden.leaks(player, seq, cards_in(data))
        if message["type"] == "events":
            leaks += hidden.private_leaks(player, seq, data)
            if seq in hidden.owners:
                check.private[hidden.owners[seq][0]] += 1
        assert not leaks, leaks
    check.checked += 1


def check_no_hidden_cards(url: str, logs: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    """Assert no message of ``logs`` (by player) leaks; return, per player, how many own
    hidden cards were seen (so a test can check the check is not vacuous)."""
    engine = make_engine(url)
    records = TableRecords(engine)
    tables = {t for msgs in logs.values() for m in msgs for t, _, _ in items(m)}
    hidden = {t: Hidden(records.entries(t, 0, 1_000_000)) for t in tables}
    engine.dispose()
    own: dict[str, int] = {}
    for player, messages in logs.items():
        for m in messages:
            for table, seq, data in items(m):
                leaks = hidden[table].leaks(player, seq, cards_in(data))
                if m["type"] == "events":
                    leaks += hidden[table].private_leaks(player, seq, data)
                assert not leaks, leaks
                own[player] = own.get(player, 0) + hidden[table].own_cards_seen(
                    player, seq, cards_in(data)
                )
    return own


def _entry_type(entry: dict[str, Any]) -> str:
    """An entry's type as its projection names it (a Chinese poker event is wrapped)."""
    return str(entry["event"]["type"] if entry["type"] == "ChineseEvent" else entry["type"])


def _others_private(entry: dict[str, Any], seat: int) -> bool:
    """Whether ``entry`` is another seat's own (left out of ``seat``'s record)."""
    return entry["type"] in OWN_SEAT_ONLY and entry.get("seat") != seat


def check_hand_record(url: str, player: str, record: dict[str, Any]) -> int:
    """Assert that one hand of ``GET /api/hands``, read by ``player``, holds only what
    the player's seat saw at the table: each event against the cards hidden from the
    player when that event happened (the record's events are the hand's entries in
    order, those the seat did not see left out), and each card its PHH names seen by
    the player at some moment of the hand (an own discard dealt on to another player
    after a reshuffle was seen). Returns how many of the others' hidden cards the
    record cut out (``None`` in a ``HoleDealt``, a count in a Chinese ``CardsDealt``),
    so a test can check the check had something to hide."""
    engine = make_engine(url)
    try:
        entries = TableRecords(engine).entries(record["table_id"], 0, 1_000_000)
    finally:
        engine.dispose()
    hidden = Hidden(entries)
    start = next(
        i
        for i, (_, e) in enumerate(entries)
        if e["type"] == "HandDealt" and e["hand_no"] == record["hand_no"]
    )
    at, cut = start, 0
    seqs: list[int] = []
    for event in record["events"]:
        # Another seat's private entry of the same type is not in the record: not this one.
        while _entry_type(entries[at][1]) != event["type"] or _others_private(
            entries[at][1], record["seat"]
        ):
            at += 1
        seq = entries[at][0]
        seqs.append(seq)
        leaks = hidden.leaks(player, seq, cards_in(event))
        leaks += hidden.private_leaks(player, seq, event)
        assert not leaks, (record["table_id"], record["hand_no"], event, leaks)
        if event["type"] == "HoleDealt" and event["seat"] != record["seat"]:
            cut += sum(1 for c, up in zip(event["cards"], event["up"], strict=True) if not up)
        elif event["type"] == "CardsDealt" and isinstance(event["cards"], int):
            cut += event["cards"]
        at += 1
    for card in set(re.findall(r"(?<![A-Za-z0-9?])[2-9TJQKA][cdhs]", record["phh"] or "")):
        never_seen = all(hidden.leaks(player, seq, [card]) for seq in seqs)
        assert not never_seen, (record["table_id"], record["hand_no"], card, record["phh"])
    return cut
