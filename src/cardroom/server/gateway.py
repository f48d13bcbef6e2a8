"""The WebSocket endpoint ``/ws``: connections, separate from table ownership.

A connection is authenticated once (bearer token or same-origin session
cookie; a later ban closes it, ``server/sanctions.py``), takes one of its
account's connection slots before awaiting anything else, then reads client
messages one at a time: size limit (in UTF-8 bytes), rate limits
(per connection and per account), decoding against the protocol's models, the
client id (a resent id is answered again, never acted on twice), then a job
for the table's actor. The ids that acted are stored with what they did; an id
not among the account's last answers here is looked up in the store before
anything is done for it, so a resend is answered however long ago (a day) it
was first sent, and after a restart too. What goes out is queued per
connection and written by its own task; a client too slow to read it is
disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import re
import time
from collections import OrderedDict
from typing import Any, NamedTuple

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardroom.room import commands as cmd
from cardroom.room.clock import system_clock
from cardroom.server import auth
from cardroom.server import protocol as p
from cardroom.server.dispatch import dispatch, stores_its_id
from cardroom.server.jobs import Job, Outcome, unwatch
from cardroom.server.limits import AccountBuckets, TokenBucket
from cardroom.server.settings import Limits

OUTBOX = 2000
"""Messages queued for one connection at most before it is dropped as too slow."""
_conn_ids = itertools.count(1)
REUSED = Outcome("id_reused", "this id was used before for a different message: use a new id")
"""The answer to an id sent again with another message (nothing is done)."""
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What a device id looks like (the browser's is a random UUID)."""


class Seen(NamedTuple):
    """An id seen lately: its outcome (perhaps still coming) and its message's digest."""

    outcome: asyncio.Future[Outcome]
    digest: str


class Answers:
    """Per account, the outcome of each client id seen lately (idempotency), with the
    digest of its message: the last ``size`` answered, and every one still being done,
    for the ``accounts`` that sent one most lately (a server runs for weeks: the others
    are forgotten, but for the ids still being done). A miss proves nothing (an id that
    acted may be older, or from before a restart): the store is asked then."""

    def __init__(self, size: int, accounts: int = 1000) -> None:
        self.size, self.accounts = size, accounts
        self.by_account: OrderedDict[str, OrderedDict[str, Seen]] = OrderedDict()

    def seen(self, account: str, client_id: str) -> Seen | None:
        """The outcome (perhaps still coming) of an id already sent, and its digest."""
        return self.by_account.get(account, OrderedDict()).get(client_id)

    def start(self, account: str, client_id: str, digest: str) -> asyncio.Future[Outcome]:
        """Remember a new id; its outcome is set when known. The oldest answered ids
        make room (one still being done is never forgotten: a resend waits for it)."""
        ids = self.by_account.get(account)
        if ids is None:
            ids = self.by_account[account] = OrderedDict()
            self._forget_accounts()
        else:
            self.by_account.move_to_end(account)
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        ids[client_id] = Seen(future, digest)
        if len(ids) > self.size:
            done = [k for k, seen in ids.items() if seen.outcome.done()]
            for key in done[: len(ids) - self.size]:
                del ids[key]
        return future

    def forget(self, account: str, client_id: str) -> None:
        """Drop an id that was not done (its resend is tried again)."""
        self.by_account.get(account, OrderedDict()).pop(client_id, None)

    def _forget_accounts(self) -> None:
        """Past ``accounts``, forget the least recently active account's answered ids
        (its ids still being done stay: a resend waits for them)."""
        for _ in range(len(self.by_account) - self.accounts):
            account, ids = self.by_account.popitem(last=False)
            pending = OrderedDict((k, seen) for k, seen in ids.items() if not seen.outcome.done())
            if pending:
                self.by_account[account] = pending


class Connection:
    """One authenticated WebSocket."""

    def __init__(self, websocket: WebSocket, player: str, alias: str, token: str = "") -> None:
        self.id = next(_conn_ids)
        self.websocket = websocket
        self.player = player
        self.alias = alias
        self.token = token
        """The session it was opened with: its end (a logout) ends the connection."""
        self.ip = auth.client_ip(websocket)
        self.device = device_of(websocket)
        """Where the player plays from, for the integrity monitor (RULEBOOK §10.9)."""
        self.outbox: asyncio.Queue[bytes | None] = asyncio.Queue(OUTBOX)
        self.watching: set[str] = set()
        self.closed = False
        self.close_code = 1008
        """Sent when the server ends the connection (too slow: 1008; banned: 4403)."""

    def end(self, code: str, message: str, close_code: int) -> None:
        """Tell the client why, then close the connection (the reader stops with it)."""
        if self.closed:
            return
        self.send(p.encode(p.Error(re=None, code=code, message=message)))
        self.close_code = close_code
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)

    def send(self, data: bytes) -> None:
        """Queue a message; a full queue drops the connection."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(data)
        except asyncio.QueueFull:
            # Everything queued goes, not one message: what the client read is then all
            # it was sent up to the last one, and a reconnect's ``since`` (the last
            # sequence number read) gets it the rest. Dropping the oldest queued message
            # left a hole the client could not see, and never got filled.
            self.closed = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    async def writer(self) -> None:
        """Write queued messages until told to stop (None)."""
        while True:
            data = await self.outbox.get()
            if data is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close(code=self.close_code)
                return
            await self.websocket.send_text(data.decode())


def device_of(websocket: WebSocket) -> str:
    """The device id the client sent (``/ws?device=…``), or "" when absent or not a
    plain token of 8 to 64 letters, digits, ``-`` and ``_``.

    The browser client keeps a random id in its local storage; like any device
    fingerprint it is what the client says, so it only feeds review flags (two
    accounts from one device), never a decision."""
    device = websocket.query_params.get("device", "")
    return device if DEVICE_ID.fullmatch(device) else ""


async def _authenticate(websocket: WebSocket) -> tuple[str, str, str] | None:
    state = websocket.app.state.server
    token, from_cookie = auth.token_of(websocket, state.settings)
    if from_cookie and not auth.same_origin(websocket, state.settings):
        return None
    if state.accounts is None:
        return None
    info = await state.accounts.authenticate(token)
    return None if info is None or token is None else (str(info.id), info.alias, token)


async def _turn_away(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Tell a connection why it is not served, and close it (a client already gone is
    the client's doing: it escaped the endpoint, logged as an ERROR with a traceback)."""
    error = p.Error(re=None, code=code, message=message)
    with contextlib.suppress(WebSocketDisconnect):
        await websocket.send_text(p.encode(error).decode())
        await websocket.close(code=close_code)


async def websocket_endpoint(websocket: WebSocket) -> None:
    """Serve one WebSocket connection."""
    await websocket.accept()
    state = websocket.app.state.server
    refused = state.refused_handshakes.bucket(auth.client_ip(websocket))
    if refused.wait() > 0:  # a flood of bad tokens from one address: no lookup for it
        await _turn_away(websocket, "throttled", "too many refused connections: wait", 1013)
        return
    try:
        who = await _authenticate(websocket)
    except Exception:  # the session could not be checked (the database): not gone
        # 4401 tells a client to log in again (the browser client stops reconnecting):
        # 1013, "try again later", has it reconnect, its session still good.
        await _turn_away(websocket, "busy", "the session could not be checked: try again", 1013)
        return
    if who is None or state.room is None:
        refused.take()
        await _turn_away(websocket, "unauthorized", "log in first", 4401)
        return
    conn = Connection(websocket, *who)
    shared: Shared = state.shared
    # The slot is taken before anything else is awaited: counted, then checked, in one
    # step (20 connections opened at once used to pass a check made before an await).
    if not shared.reserve(conn):
        await _turn_away(websocket, "too_many_connections", "close another first", 1008)
        return
    writer: asyncio.Task[None] | None = None
    try:
        state.room.aliases[conn.player] = conn.alias
        writer = asyncio.create_task(conn.writer())
        hello = p.Hello(
            server="cardroom",
            player=conn.player,
            alias=conn.alias,
            release=state.release,
            run=state.room.instance,
        )
        conn.send(p.encode(hello))
        await _read(conn, state)
    except WebSocketDisconnect:
        pass
    finally:
        conn.closed = True
        shared.release(conn)
        if conn.player not in shared.connections:
            _leave_waitlists_unless_back(state.room, shared, conn.player)
            state.room.forget_alias(conn.player, shared.connections)
        for table_id in list(conn.watching):
            actor = state.room.actor(table_id)
            if actor is not None:
                with contextlib.suppress(Exception):
                    await _unwatch(actor, conn.id)
        if writer is not None:
            if conn.close_code != 1008:  # ended by the server: let the goodbye out first
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(asyncio.shield(writer), 2.0)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


_LEAVING: dict[tuple[str, str], asyncio.Task[None]] = {}
"""The wait of each (player, table) whose last connection closed, until it ends: a
player gone again after coming back waits afresh (the earlier wait is cancelled)."""


def _leave_waitlists_unless_back(room: Any, shared: Shared, player: str) -> None:
    """``player``'s last connection is gone (a logout too): unless one is back within the
    table's ``reconnect_seconds`` (a reload, a short drop), he leaves each waiting list
    (RULEBOOK §10.3): he could be neither told of a seat nor take it, and the seat would
    be held for him ``waitlist_offer_seconds`` while the table played short."""
    for table_id, actor in list(room.actors.items()):
        if player in actor.table.state.waitlist:
            key = (player, table_id)
            if (earlier := _LEAVING.get(key)) is not None:
                earlier.cancel()
            task = asyncio.create_task(_leave_waitlist_unless_back(actor, shared, player))
            _LEAVING[key] = task
            task.add_done_callback(functools.partial(_forget, key))


def _forget(key: tuple[str, str], done: asyncio.Task[None]) -> None:
    if _LEAVING.get(key) is done:  # not a later wait that cancelled this one
        del _LEAVING[key]


async def _leave_waitlist_unless_back(actor: Any, shared: Shared, player: str) -> None:
    await asyncio.sleep(actor.table.settings.reconnect_seconds)
    if player in shared.connections or player not in actor.table.state.waitlist:
        return
    with contextlib.suppress(Exception):  # the table closed meanwhile
        await actor.submit(Job(cmd.LeaveWaitlist(player, "disconnected"), None))


async def _unwatch(actor: Any, conn_id: int) -> None:
    await actor.submit(unwatch(conn_id))


class Shared:
    """What the connections of one server share: the limits, the per-account buckets
    and the client ids answered."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.per_account = AccountBuckets(limits.per_account_rate, limits.per_account_burst)
        self.answers = Answers(limits.seen_ids, limits.seen_accounts)
        self.connections: dict[str, set[Connection]] = {}
        """The open connections of each account."""
        self.by_token: dict[str, set[Connection]] = {}
        """The open connections of each session token (:meth:`player_of`)."""

    def reserve(self, conn: Connection) -> bool:
        """Count ``conn`` among its account's connections, unless they are at the limit
        (no await in here: the check and the count are one step)."""
        mine = self.connections.setdefault(conn.player, set())
        if len(mine) >= self.limits.max_connections_per_account:
            if not mine:
                del self.connections[conn.player]
            return False
        mine.add(conn)
        if conn.token:
            self.by_token.setdefault(conn.token, set()).add(conn)
        return True

    def player_of(self, token: str) -> str | None:
        """The player whose open connection was opened with session ``token``, if any:
        known without the database (a session that ends closes its connections: at
        once for a logout, within ``sanction_check_seconds`` otherwise)."""
        for conn in self.by_token.get(token, ()):
            if not conn.closed:
                return conn.player
        return None

    async def drained(self, limit: float) -> None:
        """Wait until every connection has written what was queued for it (at most
        ``limit`` seconds): a clean stop's notices reach the clients before uvicorn
        closes the connections."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and any(
            not c.outbox.empty() for mine in self.connections.values() for c in mine
        ):
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.02)  # the last message taken is being written

    def release(self, conn: Connection) -> None:
        """``conn`` is closed: its slot is free."""
        mine = self.connections.get(conn.player)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.connections[conn.player]
        same = self.by_token.get(conn.token)
        if same is not None:
            same.discard(conn)
            if not same:
                del self.by_token[conn.token]

    def end_account(self, player: str, code: str, message: str) -> int:
        """Close every connection of ``player`` (a ban); how many there were."""
        found = list(self.connections.get(player, ()))
        for conn in found:
            conn.end(code, message, close_code=4403)
        return len(found)

    def tokens(self) -> set[str]:
        """The sessions the open connections were opened with."""
        return {c.token for conns in self.connections.values() for c in conns if c.token}

    def renew_session(self, old: str, new: str) -> None:
        """The connections opened with session ``old`` go on under ``new`` (a password
        changed by that session: its holder proved the password, every other session
        ends, and these are checked against the new one from now on)."""
        moved = self.by_token.pop(old, set())
        for conn in moved:
            conn.token = new
        if moved:
            self.by_token.setdefault(new, set()).update(moved)

    def end_sessions(self, tokens: set[str]) -> int:
        """Close the connections opened with ``tokens`` (sessions that ended: a logout, a
        revocation, an expiry); how many there were. The client is told ``session_ended``
        and the close code is 4401, as for a connection that never had a session."""
        found = [c for conns in self.connections.values() for c in conns if c.token in tokens]
        for conn in found:
            conn.end("session_ended", "the session has ended: log in again", close_code=4401)
        return len(found)


async def _read(conn: Connection, state: Any) -> None:
    """Read the connection's frames as they come and hand them, in order, to
    :func:`_work`, which answers them one at a time.

    Reading never waits for an answer: it did, and a message waiting on a slow database
    (a table's step behind a lock) held the reading of every frame after it, so uvicorn
    stopped reading the socket, the client's keepalive pongs with it, and the server
    closed a live connection as dead after two pings (its player away, §10.6)."""
    # Bounded: a client far ahead of its answers is read no further until they catch up
    # (the socket's own backpressure, as before), not buffered without end.
    inbox: asyncio.Queue[p.AnyClientMessage | bytes | None] = asyncio.Queue(
        state.shared.limits.queued_messages
    )
    worker = asyncio.create_task(_work(conn, state, inbox))
    try:
        client_closed = await _take(conn, state, inbox)
    except BaseException:
        await _stop(worker, inbox)
        raise
    if client_closed and not conn.closed:
        # What the client sent before it closed is done, in order, as it was when each
        # frame was answered before the next was read: an action sent just before a
        # tab is closed counts (dropped, the seat was then away with its turn to come).
        await inbox.put(None)
        await worker
    else:  # ended by the server (a session ended, too slow): nothing more is done for it
        await _stop(worker, inbox)


async def _stop(worker: asyncio.Task[None], inbox: asyncio.Queue[Any]) -> None:
    """End :func:`_work`: the message being answered is answered (its id's outcome), the
    ones not begun are dropped, as frames never read were."""
    while not inbox.empty():
        inbox.get_nowait()
    inbox.put_nowait(None)
    try:
        await asyncio.shield(worker)
    except asyncio.CancelledError:
        worker.cancel()
        raise


async def _work(conn: Connection, state: Any, inbox: asyncio.Queue[Any]) -> None:
    """Answer what :func:`_read` hands over, one at a time, in the order it was read: a
    message, or a refusal made on reading (sent in its turn: one naming no id is told
    from another only by its place among the answers)."""
    answers = state.shared.answers
    while (item := await inbox.get()) is not None:
        if isinstance(item, bytes):
            conn.send(item)
        else:
            await _once(conn, state, answers, item)


async def _take(conn: Connection, state: Any, inbox: asyncio.Queue[Any]) -> bool:
    """Read frames until the connection ends and queue each (at most
    ``Limits.queued_messages`` waiting: beyond, the next is read once one is answered);
    whether the client ended it (else the server closed it)."""
    shared: Shared = state.shared
    limits, per_account = shared.limits, shared.per_account
    per_conn = TokenBucket(limits.per_connection_rate, limits.per_connection_burst)
    while not conn.closed:
        message = await conn.websocket.receive()
        if message["type"] == "websocket.disconnect":
            return True
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        # Every message counts against the limits, an oversized one too (it was read).
        await inbox.put(_checked(raw, limits, per_conn.take() and per_account.take(conn.player)))
    return False


def _checked(raw: str | bytes, limits: Limits, allowed: bool) -> p.AnyClientMessage | bytes:
    """A frame read: its message, or its refusal (encoded) when it is over the rate
    (``allowed`` False), too large or malformed."""
    if not allowed:
        return _refusal(None, "rate_limited", "too many messages: slow down")
    if size_of(raw) > limits.max_message_bytes:
        return _refusal(None, "too_large", f"messages are at most {limits.max_message_bytes} bytes")
    try:
        return p.decode_client(raw)
    except p.ProtocolError as exc:
        return _refusal(exc.client_id, exc.code, str(exc))
    except Exception as exc:  # whatever a client sends, the connection goes on
        return _refusal(None, "bad_message", type(exc).__name__)


async def _once(conn: Connection, state: Any, answers: Answers, msg: p.AnyClientMessage) -> None:
    """Answer ``msg``, doing it unless its id was seen: answered lately (from memory),
    being done (its outcome awaited), or acted before (from the store); a message that
    stores nothing (a watch) is done again."""
    if isinstance(msg, p.Ping):  # does nothing, so is not remembered: it pushes out no id
        # Stamped on its way back, the clock bounds the client's offset from above: a
        # client on a slow line counts down what its action has left to reach us.
        _answer(conn, msg.id, Outcome(detail={"server_time": system_clock()}))
        return
    said = p.digest(msg)
    earlier = answers.seen(conn.player, msg.id)
    stores = stores_its_id(msg)
    if earlier is not None and earlier.digest != said:
        _answer(conn, msg.id, REUSED)
        return
    if earlier is not None and stores:
        _answer(conn, msg.id, await earlier.outcome, replay=True)
        return
    # A watch, unwatch or time bank sent again is done again: it stores nothing, and
    # what it does is this connection's (replayed to a new connection, a watch left it
    # watching nothing) or now's.
    future = answers.start(conn.player, msg.id, said)
    room = state.room
    if stores:
        try:
            stored = await room.storage.run(room.answered.find, conn.player, msg.id)
        except Exception:  # not known whether it acted: do nothing now
            answers.forget(conn.player, msg.id)
            busy = Outcome("busy", "the server is busy: try again")
            future.set_result(busy)
            _answer(conn, msg.id, busy)
            return
        if stored is not None:
            if stored.digest and stored.digest != said:  # '' : stored before digests
                answers.forget(conn.player, msg.id)
                future.set_result(REUSED)
                _answer(conn, msg.id, REUSED)
                return
            outcome = Outcome(seq=stored.seq)
            future.set_result(outcome)
            _answer(conn, msg.id, outcome, replay=True)
            return
    try:
        outcome = await dispatch(conn, room, msg, said)
    except Exception as exc:  # never let one message end the connection
        outcome = Outcome("busy", f"not done: {type(exc).__name__}")
    future.set_result(outcome)
    if outcome.code in p.TRY_AGAIN:  # nothing done for now: its resend is tried again
        answers.forget(conn.player, msg.id)
    _answer(conn, msg.id, outcome)


def size_of(raw: str | bytes) -> int:
    """A frame's size in bytes (a text frame's UTF-8 bytes, not its characters: one
    character may take four)."""
    if isinstance(raw, bytes) or raw.isascii():
        return len(raw)
    return len(raw.encode("utf-8", "surrogatepass"))


def _refusal(client_id: str | None, code: str, message: str) -> bytes:
    return p.encode(p.Error(re=client_id, code=code, message=message[:300]))


def _answer(conn: Connection, client_id: str, outcome: Outcome, replay: bool = False) -> None:
    if outcome.code is None:
        ok = p.Ok(re=client_id, seq=outcome.seq, replay=replay, detail=outcome.detail)
        conn.send(p.encode(ok))
    else:
        error = p.Error(re=client_id, code=outcome.code, message=outcome.message[:300])
        error.replay = replay
        conn.send(p.encode(error))
