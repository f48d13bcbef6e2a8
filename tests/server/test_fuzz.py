"""Hostile clients: 10,000 random and mutated messages (CARDROOM_FUZZ_MESSAGES for more),
then every table still plays and the money invariant holds."""

from __future__ import annotations

import asyncio
import json
import os
import random
from typing import Any

from tests.server.conftest import running_server, with_limits
from tests.server.sessions import bot_session, money_problems, player

from cardroom.server.protocol import CLIENT_TYPES
from cardroom.server.settings import ServerSettings

MESSAGES = int(os.environ.get("CARDROOM_FUZZ_MESSAGES", "10000"))
TABLES = ["holdem", "stud", "draw", "real", "ofc", "nowhere"]
TEMPLATES: list[dict[str, Any]] = [
    {"type": "watch", "since": 3},
    {"type": "unwatch"},
    {"type": "join", "seat": 1, "amount": 40, "post_now": True},
    {"type": "leave"},
    {"type": "stay"},
    {"type": "auto_muck", "on": False},
    {"type": "waitlist", "on": True},
    {"type": "rebuy", "amount": 10},
    {"type": "sit_out"},
    {"type": "sit_in", "post_now": False},
    {"type": "act", "kind": "raise", "amount": 8},
    {"type": "act", "kind": "call"},
    {"type": "act", "kind": "draw", "cards": ["Ah", "2c"]},
    {"type": "place", "top": ["Ah"], "middle": ["2c", "3d"], "bottom": ["Kd", "Ks"]},
    {"type": "place", "bottom": ["Ah", "2c"], "discard": ["7h"]},
    {"type": "advance", "kind": "check_fold"},
    {"type": "advance", "kind": "call", "amount": 2},
    {"type": "time_bank"},
    {"type": "reset_allowance"},
    {"type": "chat", "text": "nice hand"},
    {"type": "report", "player": "fuzz0", "reason": "collusion"},
    {"type": "ping"},
]
WEIRD: list[Any] = [
    None, True, -1, 0, 2**53, 2**63, 2**64 + 7, -(2**70), 1e308, -0.0, 3.5, "", "x" * 300,
    "\u0000", "ñ", [], {}, [[[[[]]]]], {"a": {"b": [1]}}, "holdem", "raise", 99, "Zz",
]  # fmt: skip


def mutated(rng: random.Random, n: int) -> str | bytes:
    """One hostile message."""
    base = dict(rng.choice(TEMPLATES))
    base.update(v=1, id=f"f{n}")
    if base["type"] != "ping":
        base["table"] = rng.choice(TABLES)
    roll = rng.random()
    if roll < 0.15:
        return json.dumps(base)  # well formed
    if roll < 0.35:
        key = rng.choice(list(base))
        base[key] = rng.choice(WEIRD)
    elif roll < 0.45:
        base.pop(rng.choice(list(base)))
    elif roll < 0.55:
        base[rng.choice(["seat2", "player", "__proto__", "type2"])] = rng.choice(WEIRD)
    elif roll < 0.65:
        base["type"] = rng.choice(["", "acts", "JOIN", "admin", "close", 7])
    elif roll < 0.75:
        text = json.dumps(base)
        return text[: rng.randrange(len(text))]
    elif roll < 0.85:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    elif roll < 0.9:
        base["v"] = rng.choice([0, 2, "1", None])
    else:
        return json.dumps(rng.choice(WEIRD))
    return json.dumps(base)


IN_FLIGHT = 500
"""Messages a connection sends ahead of their answers. Unbounded, a flood of tens of
thousands queues the client's answer to the server's keepalive ping behind itself, and
the server rightly closes the connection (1011) before it reads that far."""


async def fuzz(base: str, clients: int, count: int, seed: int) -> dict[str, int]:
    """Send ``count`` messages over ``clients`` connections; tally the answers."""
    rng = random.Random(seed)
    conns = [await player(base, f"fuzz{i}") for i in range(clients)]
    tally: dict[str, int] = {}
    windows = [asyncio.Semaphore(IN_FLIGHT) for _ in conns]

    async def reader(client: Any, expect: int, window: asyncio.Semaphore) -> None:
        got = 0
        while got < expect:
            msg = await client.receive()
            if msg["type"] in ("ok", "error"):
                got += 1
                window.release()
                code = msg.get("code", "ok")
                tally[code] = tally.get(code, 0) + 1

    per = count // clients
    readers = [
        asyncio.create_task(reader(c, per, w)) for (c, _), w in zip(conns, windows, strict=True)
    ]
    for n in range(per):
        for i, (c, _) in enumerate(conns):
            await windows[i].acquire()
            await c.ws.send(mutated(rng, n * clients + i))
    async with asyncio.timeout(120):
        await asyncio.gather(*readers)
    for c, _ in conns:
        for t in TABLES[:4]:
            await c.send("leave", table=t)
        await c.close()
    return tally


def test_the_templates_cover_every_client_message() -> None:
    # A message type left out is never fuzzed (``stay`` and ``auto_muck`` were not).
    tags = {c.__struct_config__.tag for c in CLIENT_TYPES}
    assert {t["type"] for t in TEMPLATES} == tags


def test_fuzz_10000_hostile_messages_then_every_table_plays_and_money_holds(
    settings: ServerSettings,
) -> None:
    settings = with_limits(
        settings, per_connection_rate=1e6, per_connection_burst=1e6,
        per_account_rate=1e6, per_account_burst=1e6,
    )  # fmt: skip
    with running_server(settings) as base:
        tally = asyncio.run(fuzz(base, 4, MESSAGES, seed=14))
        assert sum(tally.values()) == MESSAGES // 4 * 4  # every message answered
        for code in ("bad_json", "bad_message", "unknown_type", "bad_version", "no_such_table"):
            assert tally.get(code, 0) > 0, tally
        assert "internal" not in tally and "busy" not in tally, tally
        asyncio.run(bot_session(base, ["holdem", "stud", "draw", "ofc"], 2, hands=2))
    assert settings.database_url is not None
    assert money_problems(settings.database_url) == []
