"""The WebSocket protocol (``/ws``): versioned JSON messages as msgspec models.

Every message is one JSON object with ``v`` (the protocol version, 1) and
``type``. A client message also carries ``id``, the client's own id for it
(1-64 characters); the server answers it with ``ok`` (after the events it
caused, each with its table sequence number) or ``error`` (a stable ``code``),
both naming the id in ``re``. Resending an id the server has seen returns the
answer again, marked ``replay``, and does nothing else (an id that did something is
stored with it: never done twice, ``docs/protocol.md``).

The models here are the single source: decoding checks every field (types,
bounds, string shapes) and the JSON Schema at ``/schema/ws.json`` is generated
from them. ``docs/protocol.md`` describes each message.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta

from cardroom.cards import RANKS, SUITS
from cardroom.chinese import Event as ChineseEvent
from cardroom.games import Event as HandEvent
from cardroom.games.errors import CODES as ENGINE_CODES
from cardroom.room import events as rv
from cardroom.room.clock import system_clock
from cardroom.room.errors import CODES as ROOM_CODES

VERSION: Final = 1
MAX_AMOUNT: Final = 2**53 - 1
"""Amounts above this are refused at decoding (JSON clients lose precision there)."""

END: Final = r"$(?!\n)"
"""The end of a pattern's text. msgspec (and a Python JSON Schema validator) search with
``re``, whose ``$`` also matches before a last line feed: "holdem\\n" passed as a table
id, "m1\\n" as an id. The look-ahead refuses that place, and changes nothing for an
ECMA-262 reader of the schema, whose ``$`` is the end alone."""
TABLE_ID: Final = r"^[A-Za-z0-9_-]+" + END
"""A table id's pattern: letters, digits, ``-`` and ``_`` (the tables file's rule)."""
TableId = Annotated[str, Meta(min_length=1, max_length=40, pattern=TABLE_ID)]
ClientId = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f]+" + END)]
"""A client's message id: 1-64 characters, none a control character (an id is stored
with what it did, and PostgreSQL refuses NUL in text: such an id failed its look-up)."""
Amount = Annotated[int, Meta(ge=0, le=MAX_AMOUNT)]
Seq = Annotated[int, Meta(ge=0, le=MAX_AMOUNT)]
SeatNo = Annotated[int, Meta(ge=0, le=63)]
CardText = Annotated[
    str,
    Meta(min_length=2, max_length=2, pattern=f"^[{RANKS}{RANKS.lower()}][{SUITS}{SUITS.upper()}]$"),
]
"""A card as ``Card.parse`` reads it (``Ah``, ``td``): published in the schema, so a client
validating against it learns of a malformed card before the server refuses it."""
RunId = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[0-9a-f]+" + END)]
"""A server run's name (``hello.run``): lowercase hexadecimal digits."""
Word = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[a-z_]+" + END)]


class ClientMessage(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Fields every client message has."""

    v: Literal[1] = 1
    id: ClientId


class TableMessage(ClientMessage, kw_only=True):
    """A client message about one table."""

    table: TableId


class Watch(TableMessage, tag="watch", kw_only=True):
    """Receive a table's events. ``since``: the last sequence number seen (a reconnect):
    the events after it, or a fresh snapshot when they are no longer at hand."""

    since: Seq | None = None
    run: RunId | None = None
    """The ``hello.run`` of the connection ``since`` was seen on: a ``since`` of another
    run beyond what this run found stored (a backup restored: the client saw events the
    restored record never held) is answered with a snapshot."""


class Unwatch(TableMessage, tag="unwatch", kw_only=True):
    """Stop receiving a table's events."""


class Join(TableMessage, tag="join", kw_only=True):
    """Sit at ``seat`` and buy in ``amount``; ``post_now``: post a big blind now rather
    than wait for it. Watches the table too."""

    seat: SeatNo
    amount: Amount
    post_now: bool = False


class Leave(TableMessage, tag="leave", kw_only=True):
    """Stand up and cash out (after the hand if dealt in)."""


class Stay(TableMessage, tag="stay", kw_only=True):
    """Take back a ``leave`` asked during the hand: keep the seat after it."""


class Waitlist(TableMessage, tag="waitlist", kw_only=True):
    """Join (``on``) or leave the waiting list of a full table."""

    on: bool = True


class Rebuy(TableMessage, tag="rebuy", kw_only=True):
    """Add chips between hands."""

    amount: Amount


class SitOut(TableMessage, tag="sit_out", kw_only=True):
    """Keep the seat, stop being dealt in."""


class AutoMuck(TableMessage, tag="auto_muck", kw_only=True):
    """Muck losing hands at the showdown (``on``, the default) or show them (RULEBOOK
    §7), from the next hand dealt."""

    on: bool


class SitIn(TableMessage, tag="sit_in", kw_only=True):
    """Come back; ``post_now``: post what is owed at once."""

    post_now: bool = False


class Act(TableMessage, tag="act", kw_only=True):
    """An action in the hand: ``fold``, ``check``, ``call``, ``raise`` (``amount``: the
    total to), ``bring_in``, ``draw`` (``cards``: those discarded); an amount or cards
    with any other kind is refused ``bad_action``."""

    kind: Word
    amount: Amount = 0
    cards: Annotated[list[CardText], Meta(max_length=13)] = []
    turn: Seq | None = None
    """The table's ``seq`` the action was decided at (the ``turn`` message's, or the last
    event seen): if the hand moved since, the action is refused ``stale_turn``."""


Cards = Annotated[list[CardText], Meta(max_length=5)]


class Place(TableMessage, tag="place", kw_only=True):
    """A Chinese poker placement (OFC, Pineapple, ...): the cards dealt to you this street
    put into rows (added left to right: ``top`` holds 3 in all, ``middle`` and ``bottom``
    5) and, where the game discards, ``discard``; every card dealt, each once."""

    top: Annotated[list[CardText], Meta(max_length=3)] = []
    middle: Cards = []
    bottom: Cards = []
    discard: Annotated[list[CardText], Meta(max_length=4)] = []
    turn: Seq | None = None
    """As :attr:`Act.turn`: the ``seq`` the placement was decided at."""


class Advance(TableMessage, tag="advance", kw_only=True):
    """Pre-select an action (``check_fold``, ``check``, ``call_any``, ``call`` with the
    ``amount`` it assumes, ``fold``), or withdraw it (``kind`` null)."""

    kind: Word | None
    amount: Amount = 0
    turn: Seq | None = None
    """The table's ``seq`` the choice was made at (the last event seen): if a new street
    or hand began since, the choice is refused ``stale_turn`` (it assumed what is gone)."""


class TimeBank(TableMessage, tag="time_bank", kw_only=True):
    """Ask about the time bank: it starts by itself when ``action_seconds`` run out
    (the answer's ``time_bank`` is what is left)."""


class ResetAllowance(TableMessage, tag="reset_allowance", kw_only=True):
    """Ask for today's disconnect all-ins back (granted once a day, logged)."""


class Chat(TableMessage, tag="chat", kw_only=True):
    """Say something at the table (filtered by the room's chat rules)."""

    text: Annotated[str, Meta(min_length=1, max_length=500)]


class Report(TableMessage, tag="report", kw_only=True):
    """Report a player at the table (seated, or left it lately) for review: ``player`` is
    the id (as in ``PlayerSeated``) or the alias."""

    player: Annotated[str, Meta(min_length=1, max_length=32)]
    reason: Word
    note: Annotated[str, Meta(max_length=500)] = ""


class Ping(ClientMessage, tag="ping", kw_only=True):
    """Keep the connection alive; answered with ``ok``."""


CLIENT_TYPES: Final = (
    Watch, Unwatch, Join, Leave, Stay, Waitlist, Rebuy, SitOut, SitIn, AutoMuck, Act, Place,
    Advance, TimeBank, ResetAllowance, Chat, Report, Ping,
)  # fmt: skip
AnyClientMessage = (
    Watch | Unwatch | Join | Leave | Stay | Waitlist | Rebuy | SitOut | SitIn | AutoMuck | Act
    | Place | Advance | TimeBank | ResetAllowance | Chat | Report | Ping
)  # fmt: skip


# ----------------------------------------------------------------- server -> client


class ServerMessage(msgspec.Struct, tag_field="type", kw_only=True, forbid_unknown_fields=True):
    """Fields every server message has (and no others than its own: the schema says so)."""

    v: Literal[1] = 1


class Hello(ServerMessage, tag="hello", kw_only=True):
    """Sent once on connecting: who the server takes you for, and its clock."""

    server: str
    player: str
    alias: str
    release: str = ""
    """The release of the browser client this server serves (a digest of its files; ""
    without one): a page that sees it change across a reconnection runs an old client."""
    server_time: float = msgspec.field(default_factory=system_clock)
    """The server's clock (Unix seconds) as the message is made: deadlines are on this
    clock, so a client whose own clock is off measures the difference here."""
    run: str = ""
    """This run of the server (new at each start): a client names it with the ``since``
    of a later ``watch`` (``Watch.run``)."""


class TableEvent(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One table event as your seat may see it, with its sequence number. ``event`` has
    its ``type``: a room event (its fields in the schema), or a hand's event (the
    engine's projection for your seat; Chinese poker's at its tables)."""

    seq: int
    event: dict[str, Any]


class Events(ServerMessage, tag="events", kw_only=True):
    """Table events in order (sequence numbers ascending, none skipped for you: an event
    you may not see is simply left out)."""

    table: str
    events: list[TableEvent]


class Reducing(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The reducing rule (RULEBOOK §10.2) raising your minimum buy-in at a table: you
    left it with ``chips``, and until ``until`` (the server's clock, Unix seconds) you may
    not come back with less."""

    chips: int
    until: float


class TableInfo(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A table's terms for you: ``buy_in`` [min, max] (max null: no maximum; the reducing
    rule may raise both), ``max_stack`` (the most a rebuy may bring a stack to: the
    table's own maximum, never raised; null: none), ``currency`` (``play`` or ``real``),
    ``seats``, ``reducing`` (why the reducing rule raised your minimum, and until when;
    null when it did not)."""

    buy_in: tuple[int, int | None]
    max_stack: int | None
    currency: str
    seats: int
    reducing: Reducing | None = None


class Snapshot(ServerMessage, tag="snapshot", kw_only=True):
    """The whole table as your seat sees it, as of sequence number ``seq``; ``players``
    maps the player ids of the view to aliases."""

    table: str
    seq: int
    view: dict[str, Any]
    players: dict[str, str]
    info: TableInfo


class Turn(ServerMessage, tag="turn", kw_only=True):
    """Your turn (sent to the player to act only): the legal actions (the engine's
    ``legal``: ``actions``, ``call``, ``min_raise_to``, ``max_raise_to``, ``raise_sizes``,
    ``no_raise``, ``bring_in``, ``draw``, ``draw_min``; at a Chinese poker table
    ``actions`` ["place"], ``place`` and ``discard`` (how many), ``free`` (slots left per
    row)), your cards (to place) and the board, and the deadline (on the server's clock,
    ``server_time``)."""

    table: str
    seq: int
    seat: int
    deadline: float
    bank: bool
    legal: dict[str, Any]
    cards: list[str | None]
    board: list[str]
    server_time: float = msgspec.field(default_factory=system_clock)
    """The server's clock as the message is made (Unix seconds), as in ``hello``."""


class ChatLine(ServerMessage, tag="chat", kw_only=True):
    """A line of table chat (as filtered)."""

    table: str
    player: str
    alias: str
    text: str
    at: float


class Ok(ServerMessage, tag="ok", kw_only=True):
    """Your message ``re`` was done; ``seq``: the table's last sequence number after it
    (its events were sent before this answer); ``detail``: what some messages return."""

    re: str
    seq: int | None = None
    replay: bool = False
    detail: dict[str, Any] | None = None


class Error(ServerMessage, tag="error", kw_only=True):
    """Your message ``re`` (null: unreadable) was refused; nothing changed. ``code`` is
    stable: an engine code, a room code or a server code (the schema's
    ``x-engine-error-codes``, ``x-room-error-codes`` and ``x-error-codes``)."""

    re: str | None
    code: str
    message: str
    replay: bool = False


CLOSED_BY_OPERATOR: Final = "closed_by_operator"
SERVER_STOPPING: Final = "server_stopping"
ClosedReason = Literal["closed_by_operator", "server_stopping"]


class TableClosed(ServerMessage, tag="table_closed", kw_only=True):
    """The table stopped for everyone at it: nothing more comes from it on this
    connection. ``reason``: ``closed_by_operator`` (closed for good: the hand in
    progress was cancelled, RULEBOOK §10.10, and every seat cashed out, the events
    before this message say so) or ``server_stopping`` (a clean stop of the server:
    at its next start the hand is voided and the chips go back to the accounts).
    ``seq``: the table's last sequence number."""

    table: str
    seq: int
    reason: ClosedReason


class TablePaused(ServerMessage, tag="table_paused", kw_only=True):
    """The room cannot store the table's steps (a full disk...): ``paused`` true, the
    table stands still, every action answered ``not_stored``; false, steps are stored
    again and play resumes (docs/server.md). Sent to every watcher when it begins and
    when it ends, and to one who starts watching meanwhile. ``seq``: the table's last
    sequence number."""

    table: str
    seq: int
    paused: bool


AnyServerMessage = (
    Hello | Events | Snapshot | Turn | ChatLine | Ok | Error | TableClosed | TablePaused
)

SERVER_CODES: Final = {
    "bad_json": "the message is not JSON",
    "bad_message": "the message does not match the schema (type, field, bound)",
    "unknown_type": "no such message type",
    "bad_version": "the protocol version is not supported",
    "too_large": "the message is over the size limit",
    "rate_limited": "too many messages: slow down",
    "no_such_table": "there is no such table",
    "not_watching": "watch the table first",
    "not_seated": "you are not seated at this table",
    "busy": "the server is busy: try again",
    "not_stored": "the change could not be stored: nothing happened, the view is resent",
    "stale_turn": "the hand moved past the action's ``turn``: it was not played",
    "id_reused": "the id was used before for a different message: nothing was done",
    "chat_refused": "the chat line was not sent (``message`` says why: a chat verdict code)",
    "bad_report": "no such player at the table, an unknown reason, or reported lately",
    "unauthorized": "log in first",
    "throttled": "too many refused connections from this address: try again later (1013)",
    "too_many_connections": "the account has too many connections open",
    "internal": "a fault in the server: nothing happened, the table was rebuilt from its record",
    "account_frozen": "the account is frozen: no chips may come to a table",
    "account_banned": "the account is banned (the connection is then closed, code 4403)",
    "session_ended": "the session ended (a logout, a revocation, an expiry): log in again",
}
"""The server's own error codes (the room's and the engine's pass through unchanged)."""

TRY_AGAIN: Final = frozenset({"busy", "not_stored", "internal", "rate_limited"})
"""The refusals of a message that did nothing for a reason of the moment (the database,
a fault, a rate): its id is not remembered, so a resend of it is tried again, not
answered with the refusal again (an id that acted is still found in the store)."""

_CLIENT_DECODER: Final = msgspec.json.Decoder(AnyClientMessage)
_ENCODER: Final = msgspec.json.Encoder()


class ProtocolError(ValueError):
    """A client message that cannot be read; ``code`` is a server code."""

    def __init__(self, code: str, message: str, client_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.client_id = client_id


def decode_client(raw: str | bytes) -> AnyClientMessage:
    """A client message, or :class:`ProtocolError` saying what is wrong with it."""
    try:
        message: AnyClientMessage = _CLIENT_DECODER.decode(raw)
        return message
    except msgspec.ValidationError as exc:
        code, client_id = _classify(raw)
        said = str(exc)
        if code == "bad_version":  # a client of another release: say which one we speak
            sent = msgspec.json.decode(raw).get("v")
            said = (
                f"protocol version {sent!r} is not supported: this server speaks version {VERSION}"
            )
        raise ProtocolError(code, said, client_id) from None
    except msgspec.DecodeError as exc:
        raise ProtocolError("bad_json", str(exc)) from None
    except RecursionError:  # msgspec's depth limit: no message of ours nests so deep
        raise ProtocolError("bad_message", "the message nests too deeply") from None


def digest(message: AnyClientMessage) -> str:
    """What a client message says, without its id (32 hex digits): an id sent again must
    say the same, or it is refused ``id_reused``. Taken from the decoded message, so
    spacing and the order of fields do not count."""
    body = _ENCODER.encode(msgspec.structs.replace(message, id=""))
    return hashlib.blake2b(body, digest_size=16).hexdigest()


_TYPES: Final = {c.__struct_config__.tag for c in CLIENT_TYPES}


def _classify(raw: str | bytes) -> tuple[str, str | None]:
    """Why a well-formed JSON message failed validation, and its id if readable."""
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return "bad_json", None
    except RecursionError:
        return "bad_message", None
    if not isinstance(data, dict):
        return "bad_message", None
    cid = data.get("id")
    client_id = _readable_id(cid)
    version = data.get("v", VERSION)
    if type(version) is not int or version != VERSION:  # 1.0 and true are not 1 here
        return "bad_version", client_id
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        return "unknown_type", client_id
    return "bad_message", client_id


def _readable_id(cid: object) -> str | None:
    """``cid`` if it is a valid :data:`ClientId` (one rule for both paths), else None."""
    if not isinstance(cid, str):
        return None
    try:
        return msgspec.convert(cid, ClientId)
    except msgspec.ValidationError:
        return None


def encode(message: ServerMessage) -> bytes:
    """A server message as JSON bytes."""
    return _ENCODER.encode(message)


def _event_schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    """The schema of ``TableEvent.event`` and the definitions it names: each room event
    exactly (its fields, as the room's projection gives them), and a hand's event by its
    type (its fields are the engine's projection for the seat: docs/protocol.md)."""
    refs, defs = msgspec.json.schema_components(rv.ROOM_EVENTS, ref_template="#/$defs/{name}")
    for cls in rv.ROOM_EVENTS:
        name = cls.__name__
        body = defs[name]
        body["properties"] = {"type": {"enum": [name]}, **body["properties"]}
        own = rv.OWN_FIELDS.get(cls, ())  # only the event's own seat is sent them
        body["required"] = ["type", *(f for f in body.get("required", []) if f not in own)]
        body["additionalProperties"] = False
    room = {c.__name__ for c in rv.ROOM_EVENTS}
    hand = sorted({c.__name__ for c in (*HandEvent.__args__, *ChineseEvent.__args__)} - room)
    other = {
        "title": "HandEvent",
        "type": "object",
        "properties": {"type": {"enum": hand}},
        "required": ["type"],
    }
    return {"anyOf": [*refs, other]}, defs


def schema() -> dict[str, Any]:
    """The JSON Schema of every message both ways (served at ``/schema/ws.json``)."""
    (client, server), components = msgspec.json.schema_components(
        [AnyClientMessage, AnyServerMessage], ref_template="#/$defs/{name}"
    )
    event, events = _event_schemas()
    assert not set(events) & set(components), "a room event is named like a message"
    for message in AnyServerMessage.__args__:  # the server writes every field, defaults too
        body = components[message.__name__]
        body["required"] = sorted(body["properties"])
    components["TableEvent"]["properties"]["event"] = event
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"cardroom WebSocket protocol, version {VERSION}",
        "description": "Client messages (client) and server messages (server) on /ws.",
        "$defs": {**components, **events},
        "properties": {"client": client, "server": server},
        "x-error-codes": dict(SERVER_CODES),
        "x-room-error-codes": sorted(ROOM_CODES),
        "x-engine-error-codes": sorted(ENGINE_CODES),
    }
