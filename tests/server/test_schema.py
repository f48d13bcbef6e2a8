"""The published WebSocket schema (``/schema/ws.json``) holds for every message of real
sessions, both ways: bots playing flop, stud, draw, Chinese poker and a mixed table,
and a client sending every other kind of message; each message sent and received is
validated against the schema the server publishes (``jsonschema``, Draft 2020-12)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from tests.server.conftest import OPEN_SIGNUPS, TABLES_TOML, running_server
from tests.server.sessions import answer, bot_session, player

from cardroom.bots.client import ProtocolClient
from cardroom.server.settings import ServerSettings

MIXED = """
[[table]]
id = "mixed"
games = ["holdem", "stud"]
stakes = { small_bet = 4 }
hands_per_game = 1
seats = 6
hand_pause_seconds = 0.0
action_seconds = 5
"""
TABLES = ["holdem", "stud", "draw", "ofc", "mixed"]


class Wire:
    """Every message any ProtocolClient sends and receives while it is installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        send, receive = ProtocolClient.send, ProtocolClient.receive

        async def sending(client: ProtocolClient, type_: str, **fields: Any) -> str:
            message = {"v": 1, "type": type_, **fields}
            message["id"] = await send(client, type_, **fields)
            self.sent.append(message)
            return message["id"]

        async def receiving(client: ProtocolClient) -> dict[str, Any]:
            message = await receive(client)
            self.received.append(message)
            return message

        monkeypatch.setattr(ProtocolClient, "send", sending)
        monkeypatch.setattr(ProtocolClient, "receive", receiving)


def _validators(base: str) -> tuple[jsonschema.Draft202012Validator, ...]:
    published = httpx.get(base + "/schema/ws.json").json()
    jsonschema.Draft202012Validator.check_schema(published)
    return tuple(
        jsonschema.Draft202012Validator({"$defs": published["$defs"], **published["properties"][k]})
        for k in ("client", "server")
    )


async def _every_other_message(base: str) -> None:
    """One of each client message the bots do not send, each valid, at a hold'em table."""
    a, _ = await player(base, "schemer")
    b, _ = await player(base, "witness")
    await b.send("join", id="b-j", table="holdem", seat=4, amount=40)
    await answer(b, "b-j")
    script: list[tuple[str, dict[str, Any]]] = [
        ("ping", {}),
        ("watch", {"table": "holdem", "since": 0}),
        ("join", {"table": "holdem", "seat": 5, "amount": 40, "post_now": True}),
        ("advance", {"table": "holdem", "kind": "check_fold"}),
        ("advance", {"table": "holdem", "kind": None}),
        ("time_bank", {"table": "holdem"}),
        ("chat", {"table": "holdem", "text": "good luck all"}),
        ("report", {"table": "holdem", "player": "witness", "reason": "other", "note": "x"}),
        ("sit_out", {"table": "holdem"}),
        ("sit_in", {"table": "holdem", "post_now": False}),
        ("stay", {"table": "holdem"}),  # refused (no leave pending): an error
        ("rebuy", {"table": "holdem", "amount": 1}),
        ("reset_allowance", {"table": "holdem"}),
        ("waitlist", {"table": "holdem", "on": True}),
        ("leave", {"table": "holdem"}),
        ("unwatch", {"table": "holdem"}),
        ("act", {"table": "holdem", "kind": "check"}),  # refused (not seated): an error
        ("place", {"table": "holdem", "bottom": ["Ah"]}),  # refused: wrong_game
    ]
    for i, (kind, fields) in enumerate(script):
        await a.send(kind, id=f"s{i}", **fields)
        await answer(a, f"s{i}")
    await a.send("ping", id="s0")  # a resend: the replay is validated too
    await answer(a, "s0")
    for c in (a, b):
        await c.close()


def _errors(
    validator: jsonschema.Draft202012Validator, messages: list[dict[str, Any]]
) -> Iterator[str]:
    for m in messages:
        error = jsonschema.exceptions.best_match(validator.iter_errors(m))
        if error is not None:
            yield f"{m.get('type')}: {error.message} at {list(error.absolute_path)}"


def test_14_every_message_of_real_sessions_matches_the_published_schema(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES_TOML + MIXED)
    settings = ServerSettings(
        database_url=database_url,
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        limits=OPEN_SIGNUPS,  # a dozen bots register from 127.0.0.1
    )
    wire = Wire(monkeypatch)
    with running_server(settings) as base:
        client, server = _validators(base)
        asyncio.run(bot_session(base, TABLES, 3, hands=2, timeout=120))
        asyncio.run(_every_other_message(base))
    kinds = {m["type"] for m in wire.received}
    assert {"hello", "snapshot", "events", "turn", "ok", "error", "chat"} <= kinds
    assert {m["type"] for m in wire.sent} >= {"watch", "join", "act", "place", "chat", "ping"}
    events = {
        e["event"]["type"] for m in wire.received if m["type"] == "events" for e in m["events"]
    }
    assert {"HoleDealt", "Drew", "CardsPlaced", "HandFinished", "ChatSaid"} <= events
    problems = [*(_errors(client, wire.sent)), *(_errors(server, wire.received))]
    assert problems == [], problems[:20]
    # The schema has teeth: each message mutated as a wrong server or client would is refused.
    finished = next(
        m for m in wire.received
        if m["type"] == "events" and any(e["event"]["type"] == "HandFinished" for e in m["events"])
    )  # fmt: skip
    for wrong in _mutants(finished, next(m for m in wire.received if m["type"] == "ok")):
        assert not server.is_valid(wrong), wrong
    join = next(m for m in wire.sent if m["type"] == "join")
    for wrong in ({**join, "amount": -1}, {**join, "seat": "1"}, {**join, "extra": 1}):
        assert not client.is_valid(wrong), wrong


def _mutants(events: dict[str, Any], ok: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Server messages a wrong server could send: an unknown field, a room event missing
    a field or with one of the wrong type, an event of no known type."""
    yield {**ok, "extra": True}
    yield {**ok, "seq": "7"}
    finished = next(e for e in events["events"] if e["event"]["type"] == "HandFinished")
    for event in (
        {k: v for k, v in finished["event"].items() if k != "pot"},
        {**finished["event"], "pot": "a lot"},
        {**finished["event"], "winner": 3},
        {"type": "NoSuchEvent"},
        {"seat": 1},
    ):
        yield {**events, "events": [{"seq": finished["seq"], "event": event}]}


def test_every_error_code_is_published_in_the_schema_and_named_in_the_protocol_doc() -> None:
    """A client cannot handle a code nobody told it of: the server's, the room's and the
    engine's codes are all in ``/schema/ws.json`` and in docs/protocol.md."""
    from cardroom.games import errors as engine_errors
    from cardroom.room import errors as room_errors
    from cardroom.server.protocol import SERVER_CODES, schema

    module_codes = {v for k, v in vars(room_errors).items() if k.isupper() and isinstance(v, str)}
    assert module_codes == set(room_errors.CODES)  # CODES names every constant
    published = schema()
    assert set(published["x-room-error-codes"]) == set(room_errors.CODES)
    assert set(published["x-engine-error-codes"]) == set(engine_errors.CODES)
    assert set(published["x-error-codes"]) == set(SERVER_CODES)
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    every = set(SERVER_CODES) | set(room_errors.CODES) | set(engine_errors.CODES)
    missing = sorted(code for code in every if f"`{code}`" not in doc)
    assert missing == [], f"docs/protocol.md does not name {missing}"


def test_the_schema_requires_every_field_the_server_always_writes() -> None:
    from cardroom.server.protocol import schema

    defs = schema()["$defs"]
    assert "server_time" in defs["Hello"]["required"]
    assert "server_time" in defs["Turn"]["required"]
    assert set(defs["Ok"]["required"]) == set(defs["Ok"]["properties"])


def test_10_6_the_schema_fits_a_disconnect_all_in_as_another_seat_receives_it() -> None:
    """Another seat's ``DisconnectAllInUsed`` comes without ``used_today`` (the player's
    own): the published schema takes it so, and the player's own with it."""
    from cardroom.room import events as rv
    from cardroom.room.views import project
    from cardroom.server.protocol import schema

    published = schema()
    server = jsonschema.Draft202012Validator(
        {"$defs": published["$defs"], **published["properties"]["server"]}
    )
    used = rv.DisconnectAllInUsed(seat=1, player="7", hand_no=3, used_today=1, day=20000)
    for seat in (1, 0, None):
        event = project(used, seat)
        assert event is not None and ("used_today" in event) == (seat == 1)
        message = {"v": 1, "type": "events", "table": "t", "events": [{"seq": 9, "event": event}]}
        server.validate(message)


CARD_TEXTS = ["Ah", "td", "aS", "2c", "Zz", "10h", "A", "Ahh", "1h", "Ax", "A h"]


@pytest.mark.parametrize("text", CARD_TEXTS)
def test_the_schema_accepts_a_card_exactly_when_the_server_reads_it(text: str) -> None:
    """A client that validates against ``/schema/ws.json`` learns a card is malformed
    before sending it: the published card shape is the one ``Card.parse`` reads (the
    server refuses any other ``bad_message``), not merely two or three characters."""
    from cardroom.cards import Card, CardError
    from cardroom.server.protocol import schema

    published = schema()
    place = jsonschema.Draft202012Validator({"$defs": published["$defs"], "$ref": "#/$defs/Place"})
    act = jsonschema.Draft202012Validator({"$defs": published["$defs"], "$ref": "#/$defs/Act"})
    try:
        read = Card.parse(text) is not None
    except CardError:
        read = False
    message = {"v": 1, "id": "c", "table": "t"}
    assert place.is_valid({**message, "type": "place", "bottom": [text]}) == read
    assert act.is_valid({**message, "type": "act", "kind": "draw", "cards": [text]}) == read


def test_the_schema_descriptions_name_values_not_python_names() -> None:
    """A client has the schema, not the source: a description that says
    ``:data:`TABLE_CLOSED``` leaves it guessing the ``reason`` it will receive, so the
    published descriptions name the values themselves and carry no Sphinx role."""
    import re

    from cardroom.room import events as rv
    from cardroom.server.protocol import schema

    defs = schema()["$defs"]
    role = re.compile(r":[a-z]+:`")
    assert [k for k, d in defs.items() if role.search(d.get("description", ""))] == []
    for kind in ("PlayerLeft", "WaitlistLeft"):
        for reason in (rv.TABLE_CLOSED, rv.FROZEN, rv.BANNED):
            assert f"``{reason}``" in defs[kind]["description"], (kind, reason)


def test_the_turn_description_names_every_field_of_the_legal_actions() -> None:
    """``turn.legal`` is an open object in the schema, so its description is all a
    client reading the schema learns of it: it names every field the engine writes."""
    from cardroom.games import Hand, Stakes, TableConfig
    from cardroom.server.protocol import schema

    hand = Hand(TableConfig.of("holdem", Stakes.blinds(1, 2)), [200, 200, 200], button=0, seed=7)
    legal = hand.view(hand.actor)["legal"]
    description = schema()["$defs"]["Turn"]["description"]
    assert [k for k in legal if f"``{k}``" not in description] == []
