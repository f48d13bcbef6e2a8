"""The operator area (``/api/operator/...``), for players with the ``operator`` role.

The role is a column of the players (migration 0005), granted by an operator
(``POST /api/operator/roles``, audited) or from the command line; a player
gets 403 ``forbidden`` here. Routes:

- open a table (the table-file entry as JSON), read its settings back, and close one (its hand
  cancelled by §10.10, its players cashed out, its record marked closed);
- players: a player's profile (role, sanctions with their ids, balances);
- sanctions: freeze (or ban, chat-ban) an account, lift a sanction; a freeze or a
  ban takes effect at once on this server's tables and connections
  (``server/sanctions.py``);
- integrity: the cashier's flags (shared IP/device, chip dumping) and the
  tables' ``ReviewFlagged`` entries (RULEBOOK §10.9);
- logs: the disconnect log (``Disconnected``, ``Reconnected``, ``TimedOut``,
  disconnect all-ins and their resets) and the chat log (lines said, blocked,
  reported, and the chat bans and reports in the audit log), from the
  tables' records, paged by ``after`` (the last ``id`` seen).
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Annotated, Any, Final, Literal, Protocol

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardroom.chat_bans import MAX_SANCTION_HOURS
from cardroom.ledger import ChipDumpFlag, SharedAccessFlag
from cardroom.room.settings import TableSettings, settings_from_dict, settings_to_dict
from cardroom.server.actor import TableActor
from cardroom.server.api_accounts import Profile, profile_of
from cardroom.server.api_common import (
    ApiError,
    Caller,
    Ok,
    accounts_of,
    endpoint,
    int_param,
    read_body,
    reply,
    require_operator,
    server_of,
    whole,
)
from cardroom.server.auth import Accounts
from cardroom.server.jobs import Job, Outcome
from cardroom.server.protocol import CLOSED_BY_OPERATOR, TABLE_ID, TableId
from cardroom.server.tables_file import Origin, TablesFileError, TableSpec, spec_from_dict
from cardroom.store import ROLES, SanctionKind
from cardroom.store.errors import LARGEST_ID
from cardroom.store.history import LogEntry, TableHistory
from cardroom.store.leases import LeaseLost
from cardroom.store.tables import TableRecords

DISCONNECT_KINDS: Final = (
    "Disconnected",
    "Reconnected",
    "TimedOut",
    "DisconnectAllInUsed",
    "AllowanceReset",
)
CHAT_KINDS: Final = ("ChatSaid", "ChatBlocked", "ChatReported")
FLAG_KINDS: Final = ("ReviewFlagged",)
LOG_PAGE: Final = 1000
"""Log entries (and chat notes) a page holds at most."""
FLAGS_SHOWN: Final = 1000
"""The table flags the integrity page shows: the newest, newest first."""
FLAG_PAGES: Final = 20
"""How many pages of flags it reads back at most to find them (flags among house bots
are recorded but not shown)."""
NOTE_ACTIONS: Final = ("chat_ban", "chat_offence", "report")
"""What the audit log holds about table chat: chat bans (an offence at a table bans
the account, escalating, ``dispatch``), older offence notes, and reports."""
Alias = Annotated[str, Meta(min_length=1, max_length=64)]
Text = Annotated[str, Meta(max_length=500, pattern=r"^[^\x00]*$")]
"""An operator's note: any text but NUL (PostgreSQL refuses it in text: a 503 else)."""


class RoomControl(Protocol):
    """What the operator routes need of the room (the server's ``Room``): its actors and
    the specs of its open tables, ``open_table``, and, when it offers it, ``close_table``
    (else :func:`close_on` does it through the room's public parts)."""

    actors: dict[str, Any]
    specs: dict[str, TableSpec]


async def open_on(room: Any, spec: TableSpec) -> None:
    """Open a table in ``room`` (the server's ``Room.open_table``: its record continued,
    or new; its actor started). Refused by the lease's fence, the room stops at once,
    as for a table's step (``Room.lease_refused``)."""
    try:
        await room.open_table(spec)
    except LeaseLost:
        _lease_refused(room)
        raise


def _lease_refused(room: Any) -> None:
    if callable(getattr(room, "lease_refused", None)):
        room.lease_refused()


async def _close_inside(actor: TableActor) -> Outcome:
    """Run by the actor itself: cancel the hand (§10.10), cash everyone out, store it."""
    actor.pending.extend(actor.table.close())
    if not await actor.flush():  # not stored: the table was rebuilt as it was, still open
        return Outcome("not_stored", "the cash-outs could not be stored")
    actor.closed = True  # what comes after is refused, not run on the closed table
    actor.tell_closed(CLOSED_BY_OPERATOR)
    return Outcome(seq=actor.seq)


async def close_on(room: Any, table_id: str) -> None:
    """Close a table of ``room`` for good: everyone cashed out, its record marked closed."""
    if callable(getattr(room, "close_table", None)):
        await room.close_table(table_id)
        return
    actor: TableActor = room.actors[table_id]
    outcome = await actor.submit(Job(None, _close_inside))
    if outcome.code is not None:
        raise ApiError(503, "not_stored", f"the table could not be closed: {outcome.message}")
    await actor.stop()
    try:
        await room.storage.run(room.records.close, table_id)
    except LeaseLost:  # the room stops at once, as for a table's step
        _lease_refused(room)
        raise
    room.actors.pop(table_id, None)
    room.specs.pop(table_id, None)


_Chips = Annotated[int, Meta(ge=0, le=2**53 - 1)]
_ChipsList = Annotated[list[_Chips], Meta(max_length=10)]


class OpenTableBody(msgspec.Struct, forbid_unknown_fields=True):
    """A table to open: the fields of a ``--tables`` file entry (``server/tables_file.py``)."""

    id: Annotated[str, Meta(min_length=1, max_length=40, pattern=TABLE_ID)]
    stakes: dict[Annotated[str, Meta(max_length=40)], _Chips | _ChipsList] | None = None
    """Every poker table's (a Chinese poker table has ``point_value`` instead); lists for
    ``straddles`` and ``spread``, as in the tables file."""
    game: Annotated[str, Meta(min_length=1, max_length=40)] | None = None
    """One game; a mixed table has ``mixed`` and / or ``games`` instead."""
    point_value: Annotated[int, Meta(ge=1, le=2**53 - 1)] | None = None
    """A Chinese poker table (``game`` ``ofc``, ``pineapple``...): chips a point."""
    min_points: Annotated[int, Meta(ge=0, le=1000)] | None = None
    set_seconds: Annotated[float, Meta(gt=0, le=600)] | None = None
    mixed: Annotated[str, Meta(min_length=1, max_length=20)] | None = None
    """``HORSE``, ``8-Game`` or ``CUSTOM_MIXED`` (RULEBOOK §9)."""
    games: Annotated[list[Annotated[str, Meta(max_length=40)]], Meta(max_length=16)] | None = None
    """A CUSTOM_MIXED table's games, in order."""
    hands_per_game: Annotated[int, Meta(ge=1, le=1000)] | None = None
    structure: Annotated[str, Meta(max_length=40)] | None = None
    seats: Annotated[int, Meta(ge=2, le=10)] | None = None
    money: Literal["play", "real"] = "play"
    bots: Annotated[int, Meta(ge=0, le=10)] = 0
    rules: dict[Annotated[str, Meta(max_length=40)], int | bool | str] | None = None
    """The game's rule options (``burn_cards``...), as the tables file's ``rules``."""
    options: dict[Annotated[str, Meta(max_length=40)], int | float | bool | str] = {}
    """Any other TableSettings option (``action_seconds``...)."""


class TableOpened(msgspec.Struct):
    """The table now open."""

    table_id: str


class TableView(msgspec.Struct):
    """A table's settings as its record stores them (``settings_to_dict``: every option,
    its game(s) with stakes and seats; not the deck's seed), whether it is open here,
    where it came from (``tables_file`` or ``operator``; None once closed), the house
    bots seated at start, the buy-in range in force (maximum None: the whole balance)
    and the rake rule each game's hands pay (None: no rake, as at play money)."""

    table_id: str
    open: bool
    origin: Origin | None
    bots: int | None
    buy_in: tuple[int, int | None]
    rakes: list[dict[str, Any] | None]
    settings: dict[str, Any]


class SanctionBody(msgspec.Struct, forbid_unknown_fields=True):
    """Freeze (or ban, chat-ban) an account; ``hours`` None: until lifted (a chat ban
    without hours takes the next step of the escalation, RULEBOOK §10.7)."""

    alias: Alias
    kind: Literal["freeze", "ban", "chat_ban"] = "freeze"
    reason: Text = ""
    hours: Annotated[int, Meta(ge=1, le=MAX_SANCTION_HOURS)] | None = None


class SanctionMade(msgspec.Struct):
    """The sanction's id (to lift it)."""

    id: int


class RoleBody(msgspec.Struct, forbid_unknown_fields=True):
    """Give a player a role: ``player`` or ``operator``."""

    alias: Alias
    role: Literal["player", "operator"]


class LogLine(msgspec.Struct):
    """One entry of a table's record (``id`` orders the log; page with ``after``), with
    the aliases of the players it names: ``alias`` (the player it names by id, or who sat
    at the seat it names; a report's reporter) and ``accused_alias`` (a report's)."""

    id: int
    table_id: str
    seq: int
    kind: str
    at: str
    entry: dict[str, Any]


class LogPage(msgspec.Struct):
    """Log entries after ``after``, oldest first; ``next_after`` for the next page."""

    entries: list[LogLine]
    next_after: int | None


class NoteLine(msgspec.Struct):
    """An audit record about table chat: a chat ban, a report (``id``: the cursor)."""

    id: int
    at: str
    actor: str
    action: str
    subject: str
    detail: dict[str, Any]


class ChatLog(msgspec.Struct):
    """The chat log: the tables' chat entries (after ``after``) and the chat bans and
    reports in the audit log (after ``after_note``), oldest first."""

    entries: list[LogLine]
    notes: list[NoteLine]
    next_after: int | None
    next_after_note: int | None


class IntegrityView(msgspec.Struct):
    """Everything flagged for review: nothing here punishes anyone by itself."""

    shared_access: list[SharedAccessFlag]
    chip_dumping: list[ChipDumpFlag]
    table_flags: list[LogLine]
    sanctioned: dict[str, list[str]]
    """The accounts named above under a freeze or a ban now (alias -> the kinds): a
    banned player's new account shows beside the banned one."""


def _room(request: Request) -> RoomControl:
    room = server_of(request).room
    if room is None:
        raise ApiError(503, "starting", "the room is not open yet: try again")
    control: RoomControl = room
    return control


def _line(row: LogEntry) -> LogLine:
    return LogLine(row.id, row.table_id, row.seq, row.kind, row.at.isoformat(), row.entry)


async def _log(request: Request, kinds: tuple[str, ...]) -> LogPage:
    after = int_param(request, "after", 0, 0, LARGEST_ID)
    limit = int_param(request, "limit", 100, 1, LOG_PAGE)
    table_id = _table_param(request)
    storage = accounts_of(request).storage
    history = TableHistory(storage.engine)
    rows = await storage.run(history.by_kind, kinds, table_id=table_id, after_id=after, limit=limit)
    rows = await storage.run(_name_players, history, rows)
    return LogPage([_line(r) for r in rows], rows[-1].id if len(rows) == limit else None)


def _table_param(request: Request) -> str | None:
    """The ``table`` query parameter, a table id as the protocol writes them (400
    ``bad_request`` else: a NUL must not reach PostgreSQL, which refuses it: a 503)."""
    raw = request.query_params.get("table")
    return None if raw is None else msgspec.convert(raw, TableId)


NAMED: Final = {"player": "alias", "reporter": "alias", "accused": "accused_alias"}
"""The fields of a log entry that name a player by id, and the field that gets his alias
(a ``ChatReported``'s ``alias`` is the reporter's)."""


def _name_players(history: TableHistory, rows: list[LogEntry]) -> list[LogEntry]:
    """Log entries with the aliases of the players they name (in the database pool): by
    id (``player``, a report's ``reporter`` and ``accused``: :data:`NAMED`), or only by
    seat (``Disconnected``, ``TimedOut``...: who sat there then, as ``alias``). The
    disconnect and chat logs alike: records name players by id, operators by alias."""
    bare: dict[str, list[int]] = {}
    for r in rows:
        if "seat" in r.entry and not NAMED.keys() & r.entry.keys():
            bare.setdefault(r.table_id, []).append(r.seq)
    seated = {table: history.seated(table, seqs) for table, seqs in bare.items()}
    ids = [str(r.entry[k]) for r in rows for k in NAMED if k in r.entry]
    known = history.aliases(ids) if ids else {}
    out = []
    for r in rows:
        names = {
            to: known[str(r.entry[k])] for k, to in NAMED.items() if str(r.entry.get(k)) in known
        }
        at = seated.get(r.table_id, {}).get(r.seq)
        if at is not None and (alias := at.get(int(r.entry["seat"]))) is not None:
            names["alias"] = alias
        out.append(dataclasses.replace(r, entry={**r.entry, **names}) if names else r)
    return out


@endpoint
async def open_table(request: Request) -> Response:
    """``POST /api/operator/tables``: 201, 400 ``bad_table``, 409 ``table_exists``."""
    await require_operator(request, write=True)
    body = await read_body(request, OpenTableBody)
    raw: dict[str, Any] = {**body.options, **msgspec.to_builtins(body)}
    raw.pop("options")
    raw = {k: v for k, v in raw.items() if v is not None}
    if body.bots:  # the command line seats house bots at start: none would come
        raise ApiError(400, "bad_table", "house bots are seated from the tables file at start")
    try:
        spec = dataclasses.replace(spec_from_dict(raw), origin="operator")
    except TablesFileError as exc:
        raise ApiError(400, "bad_table", str(exc)) from None
    room = _room(request)
    async with server_of(request).table_changes:
        if body.id in room.actors:
            raise ApiError(409, "table_exists", f"table {body.id!r} is open already")
        await open_on(room, spec)
    return reply(TableOpened(body.id), 201)


def _view(settings: TableSettings, spec: TableSpec | None) -> TableView:
    """A table's view: open (``spec``, the room's) or closed (its record's settings)."""
    rakes = [dataclasses.asdict(r) if (r := settings.hand_config(c).rake) else None
             for c in settings.games]  # fmt: skip
    return TableView(
        settings.table_id,
        spec is not None,
        None if spec is None else spec.origin,
        None if spec is None else spec.bots,
        settings.buy_in_range,
        rakes,
        settings_to_dict(settings),
    )


@endpoint
async def table_settings(request: Request) -> Response:
    """``GET /api/operator/tables/{table}``: an open table's settings, or a closed one's
    from its record; 404 ``no_such_table``; 400 ``bad_request`` for what is no table id
    (a NUL must not reach PostgreSQL, which refuses it: a 503)."""
    await require_operator(request)
    table_id = msgspec.convert(str(request.path_params["table"]), TableId)
    spec = _room(request).specs.get(table_id)
    if spec is not None:
        return reply(_view(spec.settings, spec))
    storage = accounts_of(request).storage
    stored = await storage.run(TableRecords(storage.engine).settings_of, table_id)
    if stored is None:
        raise ApiError(404, "no_such_table", f"no table {table_id!r}")
    return reply(_view(settings_from_dict(stored), None))


@endpoint
async def close_table(request: Request) -> Response:
    """``POST /api/operator/tables/{table}/close``: 404 ``no_such_table``."""
    await require_operator(request, write=True)
    table_id = str(request.path_params["table"])
    room = _room(request)
    async with server_of(request).table_changes:
        if table_id not in room.actors:
            raise ApiError(404, "no_such_table", f"no open table {table_id!r}")
        await close_on(room, table_id)
    return reply(Ok())


async def _not_oneself(accounts: Accounts, caller: Caller, alias: str, what: str) -> None:
    """An operator may not sanction or change the role of their own account (the last
    operator locked out of the API; another operator, or the command line, may)."""
    target = await accounts.storage.run(accounts.players.get, alias)
    if target.id == caller.player.id:
        raise ApiError(400, "own_account", f"no {what} of your own account: ask another operator")


@endpoint
async def sanction(request: Request) -> Response:
    """``POST /api/operator/sanctions``: freeze an account (or ban, chat-ban); 201."""
    caller = await require_operator(request, write=True)
    body = await read_body(request, SanctionBody)
    accounts = accounts_of(request)
    await _not_oneself(accounts, caller, body.alias, "sanction")
    duration = None if body.hours is None else timedelta(hours=body.hours)
    sanction_id = await accounts.storage.run(
        accounts.players.sanction,
        body.alias,
        SanctionKind(body.kind),
        operator=caller.player.alias,
        reason=body.reason,
        duration=duration,
    )
    watch = server_of(request).sanctions
    if watch is not None and body.kind != "chat_ban":  # at once on this server's sockets
        await watch.enforce()
    return reply(SanctionMade(sanction_id), 201)


@endpoint
async def lift(request: Request) -> Response:
    """``POST /api/operator/sanctions/{id}/lift``."""
    caller = await require_operator(request, write=True)
    accounts = accounts_of(request)
    sanction_id = int(request.path_params["id"])
    owner = await accounts.storage.run(accounts.players.sanction_owner, sanction_id)
    if owner == caller.player.id:
        raise ApiError(400, "own_account", "no lift of your own sanction: ask another operator")
    await accounts.storage.run(accounts.players.lift, sanction_id, operator=caller.player.alias)
    return reply(Ok())


@endpoint
async def set_role(request: Request) -> Response:
    """``POST /api/operator/roles``: give a player a role (audited)."""
    caller = await require_operator(request, write=True)
    body = await read_body(request, RoleBody)
    assert body.role in ROLES
    accounts = accounts_of(request)
    await _not_oneself(accounts, caller, body.alias, "role")
    await accounts.storage.run(
        accounts.players.set_role, body.alias, body.role, operator=caller.player.alias
    )
    return reply(Ok())


def _player_profile(accounts: Accounts, name: str) -> Profile:
    return profile_of(accounts, accounts.players.named(name))


@endpoint
async def player(request: Request) -> Response:
    """``GET /api/operator/players/{alias}``: a player's profile (sanction ids to lift);
    the alias, or the id the tables' records and the logs name the player by."""
    await require_operator(request)
    accounts = accounts_of(request)
    alias = str(request.path_params["alias"])
    return reply(await accounts.storage.run(_player_profile, accounts, alias))


@endpoint
async def integrity(request: Request) -> Response:
    """``GET /api/operator/integrity``: the flags to review."""
    await require_operator(request)
    accounts = accounts_of(request)
    report = await accounts.storage.run(accounts.cashier.integrity_report)
    history = TableHistory(accounts.storage.engine)
    house = await accounts.storage.run(accounts.cashier.house_accounts)
    lines: list[LogLine] = []
    before = LARGEST_ID
    for _ in range(FLAG_PAGES):  # the newest first, back past those among house bots
        flags = await accounts.storage.run(
            history.by_kind, FLAG_KINDS, limit=FLAGS_SHOWN, before_id=before
        )
        lines += [_line(r) for r in flags if _for_review(r.entry, house)]
        if len(flags) < FLAGS_SHOWN or len(lines) >= FLAGS_SHOWN:
            break
        before = flags[-1].id
    lines = await accounts.storage.run(_name_accounts, history, lines[:FLAGS_SHOWN])
    named = {a for f in report.shared_access for a in f.players}
    named |= {a for f in report.chip_dumping for a in (f.sender, f.receiver)}
    named |= {str(a) for line in lines for a in line.entry["aliases"]}
    stopped = await accounts.storage.run(accounts.players.restricted_named, named)
    sanctioned = {alias: sorted(k.value for k in kinds) for alias, kinds in stopped.items()}
    return reply(IntegrityView(report.shared_access, report.chip_dumping, lines, sanctioned))


def _name_accounts(history: TableHistory, lines: list[LogLine]) -> list[LogLine]:
    """Table flags with their accounts' ``aliases``, in order (in the database pool): a
    record names players by id (an account no longer known keeps its id)."""
    ids = [str(a) for line in lines for a in line.entry.get("accounts", ())]
    known = history.aliases(set(ids)) if ids else {}

    def named(line: LogLine) -> LogLine:
        aliases = [known.get(str(a), str(a)) for a in line.entry.get("accounts", ())]
        return msgspec.structs.replace(line, entry={**line.entry, "aliases": aliases})

    return [named(line) for line in lines]


def _for_review(flag: dict[str, Any], house: frozenset[str]) -> bool:
    """Whether a table's flag names two people (accounts not the house's bots): a flag
    between house bots, or between one player and bots, says nothing of collusion."""
    accounts = [str(a) for a in flag.get("accounts", ())]
    people = [a for a in accounts if a not in house]
    return len(people) == len(accounts) or len(people) >= 2


@endpoint
async def disconnect_log(request: Request) -> Response:
    """``GET /api/operator/logs/disconnects?table=&after=&limit=``."""
    await require_operator(request)
    return reply(await _log(request, DISCONNECT_KINDS))


@endpoint
async def chat_log(request: Request) -> Response:
    """``GET /api/operator/logs/chat?table=&after=&after_note=&limit=``."""
    await require_operator(request)
    page = await _log(request, CHAT_KINDS)
    after = int_param(request, "after_note", 0, 0, LARGEST_ID)
    limit = int_param(request, "limit", 100, 1, LOG_PAGE)
    storage = accounts_of(request).storage
    history = TableHistory(storage.engine)
    rows = await storage.run(history.notes, NOTE_ACTIONS, after_id=after, limit=limit)
    notes = [NoteLine(n.id, n.at.isoformat(), n.actor, n.action, n.subject, n.detail) for n in rows]
    last = rows[-1].id if len(rows) == limit else None
    return reply(ChatLog(page.entries, notes, page.next_after, last))


def routes() -> list[Route]:
    """The operator routes."""
    base = "/api/operator"
    return [
        Route(f"{base}/tables", open_table, methods=["POST"]),
        Route(f"{base}/tables/{{table:str}}", table_settings, methods=["GET"]),
        Route(f"{base}/tables/{{table:str}}/close", close_table, methods=["POST"]),
        Route(f"{base}/sanctions", sanction, methods=["POST"]),
        Route(f"{base}/sanctions/{{id:whole}}/lift", lift, methods=["POST"]),
        Route(f"{base}/roles", set_role, methods=["POST"]),
        Route(f"{base}/players/{{alias:str}}", player, methods=["GET"]),
        Route(f"{base}/integrity", integrity, methods=["GET"]),
        Route(f"{base}/logs/disconnects", disconnect_log, methods=["GET"]),
        Route(f"{base}/logs/chat", chat_log, methods=["GET"]),
    ]


DISCONNECT_QUERY: Final = {
    "table": ("one table's entries only", msgspec.json.schema(TableId)),
    "after": ("the last id seen", whole(0, LARGEST_ID)),
    "limit": (f"at most {LOG_PAGE}", whole(1, LOG_PAGE)),
}
"""The disconnect log's query: each parameter's description and JSON Schema."""
CHAT_QUERY: Final = {
    **DISCONNECT_QUERY,
    "after_note": ("the last note id seen", whole(0, LARGEST_ID)),
}
"""The chat log's query."""
OPERATIONS: Final = [
    ("/api/operator/tables", "post", "Open a table", OpenTableBody, TableOpened),
    ("/api/operator/tables/{table}", "get", "A table's settings", None, TableView),
    ("/api/operator/tables/{table}/close", "post", "Close a table", None, Ok),
    ("/api/operator/sanctions", "post", "Freeze, ban or chat-ban", SanctionBody, SanctionMade),
    ("/api/operator/sanctions/{id}/lift", "post", "Lift a sanction", None, Ok),
    ("/api/operator/roles", "post", "Give a player a role", RoleBody, Ok),
    ("/api/operator/players/{alias}", "get", "A player's profile and sanctions", None, Profile),
    ("/api/operator/integrity", "get", "Integrity flags to review", None, IntegrityView),
    ("/api/operator/logs/disconnects", "get", "The disconnect log", None, LogPage),
    ("/api/operator/logs/chat", "get", "The chat log, offences and reports", None, ChatLog),
]
"""The OpenAPI operations of this module: path, method, summary, body, answer."""
