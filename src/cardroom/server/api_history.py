"""Hand histories of one's own hands: ``GET /api/hands`` (paged) and one hand.

Each hand is given twice:

- ``events``: the table's record of the hand (``HandDealt`` to ``HandFinished``
  or ``HandVoided``), every entry projected for the caller's seat by the room's
  projection (:func:`cardroom.room.views.project`, the engine's views inside):
  another player's hidden cards never appear unless that player showed them;
  staff-only and other seats' private entries are left out;
- ``phh``: the hand in PHH as the caller's seat saw it
  (:func:`cardroom.games.phh_export.export_for`: each event's cards are those of
  the engine's projection of that event for the seat, every other card ``??``);
  None with ``phh_note`` saying why when PHH cannot describe the table (Chinese
  poker, which PHH has no form for) or the hand (a stud hand that used the room's
  fourth raise or big bet on an open pair, which PHH's reading refuses). A raked
  hand's ``finishing_stacks`` and ``winnings`` are after the rake, as the standard
  has it, and ``_rake`` says how much was taken.

Only hands that ended are listed, newest first; ``offset`` and ``limit`` page.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC
from typing import Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.games import Event as EngineEvent
from cardroom.games import events as ev
from cardroom.games.hand import Hand
from cardroom.games.phh import HandHistory, PhhError, dumps
from cardroom.games.phh_export import export_for
from cardroom.games.replay import replay
from cardroom.records import CodecError
from cardroom.room import events as rv
from cardroom.room.codec import decode_entry
from cardroom.room.views import CHINESE_EVENTS, project
from cardroom.server.api_common import (
    ApiError,
    accounts_of,
    endpoint,
    int_param,
    reply,
    require_player,
    whole,
)
from cardroom.server.protocol import TableId
from cardroom.store.history import HandRef, TableHistory

MAX_PAGE: Final = 50
MAX_OFFSET: Final = 10**9
BEFORE: Final = r"^[A-Za-z0-9_-]{1,40}/[0-9]{1,19}$"
"""A page's ``before``: a table id and a hand number (``next_before``)."""
CANCELLED_NOTE: Final = (
    "no PHH for this hand: it was cancelled (RULEBOOK 10.10), every stack back to its "
    "start-of-hand value (HandVoided in events); PHH has no form for a cancelled hand"
)
UNDESCRIBABLE: Final = "undescribable"
"""``phh_refusal`` of a hand export could not read (a record this version cannot replay)."""
CHINESE_NOTE: Final = (
    "no PHH for this hand: PHH has no standard form for Chinese poker (OFC, Pineapple...); "
    "the hand is in events"
)


class HandRecord(msgspec.Struct):
    """One of the caller's hands: its record as the caller's seat saw it, and its PHH.
    ``voided``: the hand was cancelled (RULEBOOK §10.10), every stack returned (the
    ``HandVoided`` event gives them); it has no PHH then."""

    table_id: str
    hand_no: int
    seat: int
    dealt_at: str
    voided: bool
    events: list[dict[str, Any]]
    phh: str | None
    phh_note: str
    players: dict[int, str] = msgspec.field(default_factory=dict)
    """Who sat where as the hand was dealt: seat -> alias."""
    phh_refusal: str = ""
    """Why ``phh`` is None, a stable code (empty when there is a PHH): ``chinese``,
    ``no_events``, ``undescribable``, or one of export's
    (:data:`cardroom.games.phh_export.REFUSALS`: ``cancelled``, ``disconnect_all_in``...)."""


class HandPage(msgspec.Struct):
    """A page of the caller's hands, newest first (``next_offset`` None: the last page).
    ``next_before``: the next page's ``before`` (the last hand of this one), which stays
    right while hands finish at the front of the list; an offset shifts with each."""

    hands: list[HandRecord]
    offset: int
    total: int
    next_offset: int | None
    next_before: str | None = None


def _usual_blinds(engine_events: list[EngineEvent]) -> list[EngineEvent]:
    """The same hand told without the room's choice of blind seats, when that choice is
    the engine's own (the room always names them; PHH can only write the usual ones):
    the replay checks that every event comes out the same."""
    started = engine_events[0]
    if not isinstance(started, ev.HandStarted) or started.blind_seats is None:
        return engine_events
    plain = [dataclasses.replace(started, blind_seats=None), *engine_events[1:]]
    try:
        replay(plain)
    except ValueError:  # other seats posted: keep the room's, PHH will say it cannot
        return engine_events
    return plain


def phh_for_seat(
    engine_events: list[EngineEvent], seat: int, about: HandRef | None = None,
    players: dict[int, str] | None = None,
) -> tuple[str | None, str, str]:  # fmt: skip
    """A hand in PHH as ``seat`` saw it (each event's cards from its projection for the
    seat, the rest ``??``), or None, why PHH cannot describe it and its stable code.
    ``about`` and ``players``: the hand's table, number and time, and who sat where,
    written in the standard's optional fields (:func:`_described`)."""
    try:
        hand = replay(_usual_blinds(engine_events))
        history = export_for(hand, seat)
    except (PhhError, ValueError) as exc:  # ConfigError and CodecError are ValueErrors
        code = exc.code if isinstance(exc, PhhError) and exc.code else UNDESCRIBABLE
        return None, f"no PHH for this hand: {exc}", code
    if about is not None:
        history = _described(history, hand, about, players or {})
    return dumps(history), "", ""


def _described(
    history: HandHistory, hand: Hand, about: HandRef, players: dict[int, str]
) -> HandHistory:
    """``history`` with what a downloaded file needs to be read alone, in the standard's
    optional fields (optional.rst): the table and hand number, the date and time the hand
    was dealt (UTC), the players' seat numbers (from 1, in ``p1``, ``p2``... order: who
    had the button follows from it) and names, and the table's seats."""
    at = about.at.astimezone(UTC)
    order = hand.order
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    fields = {
        "table": about.table_id,
        "hand": about.hand_no,
        "year": at.year,
        "month": at.month,
        "day": at.day,
        "time": at.time().replace(microsecond=0, tzinfo=None),
        "time_zone": "UTC",
        "seat_count": len(started.seats),
        "seats": [s + 1 for s in order],
        "players": [players.get(s, f"Seat {s + 1}") for s in order],
        **history.fields,
    }
    return dataclasses.replace(history, fields=fields)


def _record(history: TableHistory, ref: HandRef, players: dict[int, str]) -> HandRecord:
    """One hand, projected for the caller's seat."""
    entries = history.span(ref.table_id, ref.first_seq, ref.last_seq)
    return hand_record(ref, entries, players)


def hand_record(
    ref: HandRef, entries: list[dict[str, Any]], players: dict[int, str] | None = None
) -> HandRecord:
    """The hand ``ref`` from its stored ``entries`` (``HandDealt`` to its end), as the
    caller's seat saw it: each entry through the one projection, and the PHH built
    from the same projections. ``players``: who sat where as it was dealt (seat ->
    alias), named in the record and in its PHH."""
    projected: list[dict[str, Any]] = []
    engine_events: list[EngineEvent] = []
    voided = chinese = False
    for data in entries:
        try:
            event = decode_entry(data)
        except CodecError:
            continue  # an entry this version cannot read is left out, never guessed at
        if type(event) in rv.ROOM_EVENTS:
            voided = voided or isinstance(event, rv.HandVoided)
        elif isinstance(event, CHINESE_EVENTS):
            chinese = True
        else:
            engine_events.append(event)  # type: ignore[arg-type]
        view = project(event, ref.seat)
        if view is not None:
            projected.append(view)
    if voided:
        phh, note, code = None, CANCELLED_NOTE, "cancelled"
    elif chinese:
        phh, note, code = None, CHINESE_NOTE, "chinese"
    elif engine_events:
        phh, note, code = phh_for_seat(engine_events, ref.seat, ref, players)
    else:
        phh, note, code = None, "no engine events were recorded for this hand", "no_events"
    at = ref.at.isoformat()
    return HandRecord(
        ref.table_id,
        ref.hand_no,
        ref.seat,
        at,
        voided,
        projected,
        phh,
        note,
        dict(players or {}),
        code,
    )


def _with_players(history: TableHistory, refs: list[HandRef]) -> list[HandRecord]:
    """The records of ``refs``, each with who sat where as it was dealt."""
    seated: dict[str, dict[int, dict[int, str]]] = {}
    for table_id in {ref.table_id for ref in refs}:
        seqs = [ref.first_seq for ref in refs if ref.table_id == table_id]
        seated[table_id] = history.seated(table_id, seqs)
    return [_record(history, ref, seated[ref.table_id][ref.first_seq]) for ref in refs]


def _page(
    history: TableHistory, player: str, offset: int, limit: int, before: str | None = None
) -> HandPage:
    """A page of ``player``'s finished hands from ``offset``, counted after the hand
    ``before`` names (``table/hand_no``) when given."""
    ended = [h for h in history.hands_of(player) if h.last_seq is not None]
    if before is not None:
        keys = [_key(h) for h in ended]
        if before not in keys:
            raise ApiError(404, "no_such_hand", f"before: you played no finished hand {before}")
        ended = ended[keys.index(before) + 1 :]
    refs = ended[offset : offset + limit]
    more = offset + limit < len(ended)
    cursor = _key(refs[-1]) if more else None
    return HandPage(
        _with_players(history, refs), offset, len(ended), offset + limit if more else None, cursor
    )


def _key(ref: HandRef) -> str:
    """How a page's ``before`` names a hand: ``table/hand_no``."""
    return f"{ref.table_id}/{ref.hand_no}"


def _one(history: TableHistory, player: str, table_id: str, hand_no: int) -> HandRecord:
    # A table id no table can have (a NUL, which PostgreSQL refuses) never reaches the query.
    try:
        known = msgspec.convert(table_id, TableId) == table_id
    except msgspec.ValidationError:
        known = False
    for ref in history.hands_of(player, table_id) if known else ():
        if ref.table_id == table_id and ref.hand_no == hand_no and ref.last_seq is not None:
            return _with_players(history, [ref])[0]
    raise ApiError(404, "no_such_hand", f"you played no finished hand {hand_no} at {table_id}")


@endpoint
async def hands(request: Request) -> Response:
    """``GET /api/hands?offset=&limit=``: the caller's hands, newest first."""
    caller = await require_player(request)
    offset = int_param(request, "offset", 0, 0, MAX_OFFSET)
    limit = int_param(request, "limit", 20, 1, MAX_PAGE)
    before = request.query_params.get("before")
    if before is not None and not re.fullmatch(BEFORE, before):
        raise ApiError(400, "bad_request", "before: a hand as table/hand_no (next_before)")
    storage = accounts_of(request).storage
    history = TableHistory(storage.engine)
    owner = caller.player.owner
    return reply(await storage.run(_page, history, owner, offset, limit, before))


@endpoint
async def hand(request: Request) -> Response:
    """``GET /api/hands/{table}/{hand_no}``: one of the caller's hands."""
    caller = await require_player(request)
    table_id = str(request.path_params["table"])
    hand_no = int(request.path_params["hand_no"])
    storage = accounts_of(request).storage
    history = TableHistory(storage.engine)
    return reply(await storage.run(_one, history, caller.player.owner, table_id, hand_no))


def routes() -> list[Route]:
    """The hand history routes."""
    return [
        Route("/api/hands", hands, methods=["GET"]),
        Route("/api/hands/{table:str}/{hand_no:whole}", hand, methods=["GET"]),
    ]


QUERY: Final = {
    "offset": ("hands to skip", whole(0, MAX_OFFSET)),
    "limit": (f"hands per page (at most {MAX_PAGE})", whole(1, MAX_PAGE)),
    "before": (
        "list the hands after this one (table/hand_no: the previous page's next_before)",
        {"type": "string", "pattern": BEFORE},
    ),
}
"""``GET /api/hands``'s query: each parameter's description and JSON Schema."""
OPERATIONS: Final = [
    ("/api/hands", "get", "One's own finished hands, record and PHH, paged", None, HandPage),
    ("/api/hands/{table}/{hand_no}", "get", "One of one's own hands", None, HandRecord),
]
"""The OpenAPI operations of this module: path, method, summary, body, answer."""
