"""Hostile clients against a real server: the message size limit counts bytes, the
per-account rate limit holds over several connections, and the per-account connection
limit holds when many connections open at once (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from tests.server.conftest import running_server, with_limits
from tests.server.sessions import player

from cardroom.bots.client import ProtocolClient, account, http_json
from cardroom.server.settings import Limits, ServerSettings


async def _codes(client: ProtocolClient, count: int) -> list[str]:
    """The codes of the next ``count`` answers (``ok`` for an ok)."""
    codes: list[str] = []
    async with asyncio.timeout(10):
        while len(codes) < count:
            msg = await client.receive()
            if msg["type"] in ("ok", "error"):
                codes.append(msg.get("code", "ok"))
    return codes


async def _two_answers(client: Any) -> list[dict[str, Any]]:
    """The next two answers (``ok`` or ``error``) ``client`` gets; then it closes."""
    got = []
    async with asyncio.timeout(10):
        while len(got) < 2:
            msg = await client.receive()
            if msg["type"] in ("ok", "error"):
                got.append(msg)
    await client.close()
    return got


def test_the_size_limit_counts_utf8_bytes_not_characters(server: str) -> None:
    async def go() -> list[dict[str, Any]]:
        a, _ = await player(server, "alice")
        # 2,100 characters of four bytes each: 8,400 bytes with the rest of the message,
        # fewer characters than the 8 KiB limit.
        text = "\N{GRINNING FACE}" * 2100
        big = json.dumps(
            {"v": 1, "type": "chat", "id": "big", "table": "holdem", "text": text},
            ensure_ascii=False,
        )
        assert len(big) < 8192 < len(big.encode())
        await a.ws.send(big)
        # Just under the limit in bytes with multi-byte characters: read as usual.
        small = json.dumps(
            {"v": 1, "type": "chat", "id": "small", "table": "holdem", "text": "\u20ac" * 400},
            ensure_ascii=False,
        )
        assert len(small.encode()) < 8192
        await a.ws.send(small)
        return await _two_answers(a)

    big, small = asyncio.run(go())
    assert big["type"] == "error" and big["code"] == "too_large" and big["re"] is None, big
    assert small["re"] == "small" and small.get("code") != "too_large", small


def test_rate_limit_per_account_holds_over_several_connections(settings: ServerSettings) -> None:
    settings = with_limits(
        settings,
        per_account_rate=0.5,
        per_account_burst=6.0,
        per_connection_rate=100.0,
        per_connection_burst=100.0,
    )

    async def go(base: str) -> tuple[list[str], list[str]]:
        login = await asyncio.to_thread(account, base, "alice", "password1")
        conns = [await ProtocolClient.connect(base, login["token"]) for _ in range(3)]
        for c in conns:
            assert (await c.receive())["type"] == "hello"
        for c in conns:  # 15 messages, 5 on each: each connection alone is far within its own
            for i in range(5):
                await c.send("ping", id=f"{c.prefix}-{i}")
        alice = [code for c in conns for code in await _codes(c, 5)]
        other, _ = await player(base, "bobby")  # another account has its own allowance
        for i in range(5):
            await other.send("ping", id=f"b{i}")
        bobby = await _codes(other, 5)
        for c in [*conns, other]:
            await c.close()
        return alice, bobby

    with running_server(settings) as base:
        alice, bobby = asyncio.run(go(base))
    assert alice.count("ok") in (6, 7, 8) and alice.count("rate_limited") >= 7, alice
    assert set(alice) == {"ok", "rate_limited"}
    assert bobby == ["ok"] * 5


def test_connections_opened_at_once_never_pass_the_per_account_limit(server: str) -> None:
    async def go() -> list[str]:
        login = await asyncio.to_thread(account, server, "crowd", "password1")

        async def one() -> tuple[ProtocolClient, str]:
            client = await ProtocolClient.connect(server, login["token"])
            first = await client.receive()
            return client, str(first.get("code") or first["type"])

        opened = await asyncio.gather(*(one() for _ in range(20)))
        for client, _ in opened:
            await client.close()
        return [kind for _, kind in opened]

    kinds = asyncio.run(go())
    assert kinds.count("hello") == 8, kinds  # Limits.max_connections_per_account
    assert kinds.count("too_many_connections") == 12, kinds


def test_a_frame_over_the_frame_limit_closes_its_connection_and_nothing_else(
    server: str,
) -> None:
    """Past ``MAX_FRAME_BYTES`` (64 KiB) a frame is not read at all: its connection is
    closed with 1009 ("message too big", the standard code), as ``cardroom serve`` does
    (the tests' servers run its uvicorn configuration); the account connects again."""
    from websockets.exceptions import ConnectionClosed

    from cardroom.server.serve import MAX_FRAME_BYTES

    async def go() -> tuple[int | None, dict[str, Any]]:
        a, _ = await player(server, "alice")
        await a.ws.send(json.dumps({"v": 1, "type": "ping", "id": "x" * MAX_FRAME_BYTES}))
        code = None
        try:
            async with asyncio.timeout(10):
                while True:
                    await a.receive()
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
        again, _ = await player(server, "alice")
        await again.send("ping", id="after")
        answered = await _codes(again, 1)
        await again.close()
        return code, {"after": answered}

    code, after = asyncio.run(go())
    assert code == 1009
    assert after == {"after": ["ok"]}


def test_api_requests_past_an_address_s_allowance_are_throttled(tmp_path: Any) -> None:
    # The lobby and the history are answered on the loop every table runs on: a flood of
    # them from one address is refused (429 throttled, Retry-After) before any work.
    limits = Limits(api_per_address_burst=5, api_per_address_rate=0.01)
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'db'}", limits=limits)
    with running_server(settings, signup_limits=True) as base, httpx.Client() as http:
        answers = [http.get(f"{base}/api/tables") for _ in range(7)]
        assert [a.status_code for a in answers] == [200] * 5 + [429] * 2
        refused = answers[-1]
        assert refused.json()["code"] == "throttled", refused.json()
        assert 1 <= int(refused.headers["retry-after"]) <= 101
        # Any route of the API counts, a login too; what is refused does nothing.
        login = http.post(f"{base}/api/login", json={"alias": "nobody", "password": "x" * 10})
        assert login.status_code == 429 and login.json()["code"] == "throttled"
        assert http.get(f"{base}/healthz").status_code == 200  # not the API: monitoring


def test_a_bot_waits_out_a_short_throttle_and_is_answered(tmp_path: Any) -> None:
    limits = Limits(api_per_address_burst=2, api_per_address_rate=0.5)
    url = f"sqlite:///{tmp_path / 'db'}"
    settings = ServerSettings(database_url=url, limits=limits, cheap_passwords=True)
    with running_server(settings, signup_limits=True) as base:
        statuses = [http_json(base, "/api/login", {"alias": "nobody", "password": "x" * 10})[0]]
        statuses += [http_json(base, "/api/login", {"alias": "nobody", "password": "x" * 10})[0]]
        # The third is throttled for a few seconds, waited out, then answered (refused: no
        # such player) rather than failing the bot's start.
        statuses += [http_json(base, "/api/login", {"alias": "nobody", "password": "x" * 10})[0]]
        assert statuses == [401, 401, 401]
        # The allowance was spent: the server was throttling this address all along.
        assert httpx.get(f"{base}/api/tables").status_code == 429


def test_refused_handshakes_past_an_address_s_allowance_are_turned_away_unlooked(
    tmp_path: Any,
) -> None:
    # Each WebSocket handshake with a bad token cost a session lookup in the database, and
    # one address could open hundreds a second. Refused ones count against the address's
    # allowance (a good token never does); past it, a handshake from that address is
    # turned away (1013, try later) before any lookup, until the allowance refills.
    limits = Limits(api_per_address_burst=3, api_per_address_rate=0.5)
    url = f"sqlite:///{tmp_path / 'db'}"
    settings = ServerSettings(database_url=url, limits=limits, cheap_passwords=True)
    with running_server(settings, signup_limits=True) as base:
        token = account(base, "Handshaker", "a good password")["token"]

        async def handshake(bearer: str) -> tuple[str, int | None]:
            client = await ProtocolClient.connect(base, bearer)
            first = await client.receive()
            if first["type"] == "error":
                await client.ws.wait_closed()
            code = client.ws.close_code
            await client.close()
            return first.get("code", first["type"]), code

        async def go() -> list[tuple[str, int | None]]:
            seen = [await handshake("not-a-token") for _ in range(5)]
            seen.append(await handshake(token))  # the address is over: no lookup
            await asyncio.sleep(2.2)  # one refusal's worth refilled
            seen.append(await handshake(token))
            return seen

        seen = asyncio.run(go())
    assert seen[:3] == [("unauthorized", 4401)] * 3
    assert seen[3:6] == [("throttled", 1013)] * 3
    assert seen[6][0] == "hello"


def test_a_message_of_exactly_the_size_limit_is_read_and_one_byte_more_is_too_large(
    server: str,
) -> None:
    """The limit is a maximum: a frame of exactly ``max_message_bytes`` is read as usual
    (a client that sizes its messages to the published limit is not refused), the next
    byte makes it ``too_large``. Padded with JSON whitespace, which the decoder skips."""
    limit = Limits().max_message_bytes

    def ping(client_id: str, size: int) -> str:
        body = json.dumps({"v": 1, "type": "ping", "id": client_id})
        return body[:-1] + " " * (size - len(body)) + "}"

    async def go() -> list[dict[str, Any]]:
        a, _ = await player(server, "alice")
        at, over = ping("at", limit), ping("over", limit + 1)
        assert (len(at.encode()), len(over.encode())) == (limit, limit + 1)
        await a.ws.send(at)
        await a.ws.send(over)
        return await _two_answers(a)

    at, over = asyncio.run(go())
    assert at["type"] == "ok" and at["re"] == "at", at
    assert over["type"] == "error" and over["code"] == "too_large" and over["re"] is None, over
