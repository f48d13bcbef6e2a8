"""``cardroom bench server``: a real server process under N bot clients, on loopback.

Starts ``cardroom serve``'s application in a child process on 127.0.0.1 (a
temporary SQLite file, or ``--db``), registers N bot accounts, seats them at T
six-seat hold'em tables and lets them play for S seconds from a load
generator (asyncio; ``--procs`` processes, each with whole tables). Prints one
JSON line: ``clients``, ``tables``, ``actions_per_s``, ``latency_ms`` (p50, p99,
max: from a bot sending an action to each other bot at the table receiving the
event of it), ``server_cpu_percent`` and ``server_rss_mb`` (``/proc`` of the
server process), ``errors`` (refusals, lost connections, failed bots).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardroom.cli.errors import positive_int, positive_seconds

if TYPE_CHECKING:  # the bots load the evaluators' tables: imported when the bench runs
    from cardroom.bots.player import Bot
    from cardroom.bots.timing import Timing

PASSWORD = "bench-password-1"
STARTUP_SECONDS = 120
"""The server must answer its health check within this."""
_SRC = str(Path(__file__).resolve().parents[2])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``cardroom bench server``."""
    parser.add_argument("--clients", type=positive_int, default=60, help="bot clients (60)")
    parser.add_argument(
        "--tables", type=positive_int, default=10, help="six-seat hold'em tables (10)"
    )
    parser.add_argument(
        "--seconds", type=positive_seconds, default=20.0, help="measured seconds (20)"
    )
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring (3)")
    parser.add_argument("--db", metavar="URL", help="database (a temporary SQLite file)")
    parser.add_argument("--think", default="0", help="bot think time: 0 (fast), S or LOW,HIGH")
    parser.add_argument("--procs", type=int, default=1, help="load generator processes (1)")
    parser.add_argument(
        "--db-threads", type=int, default=None, help="the server's database threads (its default)"
    )


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; print the figures."""
    from cardroom.bots.timing import Timing

    if not 1 <= args.tables <= args.clients or args.clients > 20_000 or args.procs < 1:
        print("error: need 1 <= tables <= clients <= 20000, procs >= 1", file=sys.stderr)
        return 2
    result = bench(args.clients, args.tables, args.seconds, args.warmup, args.db,
                   Timing.parse(args.think), args.procs, args.db_threads)  # fmt: skip
    print(json.dumps(result) if args.json else _text(result), flush=True)
    return 0


def _text(result: dict[str, Any]) -> str:
    lat = result["latency_ms"]
    return (
        f"{result['clients']} clients at {result['tables']} tables: "
        f"{result['actions_per_s']} actions/s, latency p50 {lat['p50']} p99 {lat['p99']} "
        f"max {lat['max']} ms, server {result['server_cpu_percent']}% CPU "
        f"{result['server_rss_mb']} MB, errors {result['errors']}"
    )


def table_list(clients: int, tables: int) -> str:
    """The TOML table list: ``tables`` hold'em tables with enough seats for the bots."""
    seats = min(10, max(2, math.ceil(clients / tables)))
    return "".join(
        f'[[table]]\nid = "bench-{t}"\ngame = "holdem"\n'
        f"stakes = {{ small_blind = 1, big_blind = 2 }}\nseats = {seats}\n"
        "action_seconds = 30\n\n"
        for t in range(tables)
    )


def bench(
    clients: int, tables: int, seconds: float, warmup: float, db: str | None,
    think: Timing, procs: int, db_threads: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Start the server, play, measure; the figures."""
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as tmp:
        path = Path(tmp) / "tables.toml"
        path.write_text(table_list(clients, tables))
        url = db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        server = start_server(url, path, db_threads)
        try:
            base = server.base
            seats = plan_seats(clients, tables)
            tokens = asyncio.run(make_accounts(base, len(seats)))
            bots = [(f"bench-{t}", s, tok) for (t, s), tok in zip(seats, tokens, strict=True)]
            out = generate_all(base, bots, seconds, warmup, think, procs, server.proc.pid)
        finally:
            server.stop()
    return {"clients": clients, "tables": tables, **out}


class ServerProcess:
    """The server in a child process (cheap password hashing: the accounts are bots)."""

    def __init__(self, url: str, tables: Path, db_threads: int | None = None) -> None:
        code = (
            "import sys; from cardroom.bench.server_bench import serve_child; "
            "serve_child(sys.argv[1], sys.argv[2], int(sys.argv[3]))"
        )
        env = {**os.environ, "PYTHONPATH": _SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, url, str(tables), str(db_threads or 0)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found is None:
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.base = found.group(0)

    def stop(self) -> None:
        """Interrupt the server (a clean stop), killing it if it does not end."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_server(url: str, tables: Path, db_threads: int | None = None) -> ServerProcess:
    """Start the server and wait for its health check."""
    import httpx

    server = ServerProcess(url, tables, db_threads)
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline and server.proc.poll() is None:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(server.base + "/healthz", timeout=5).status_code == 200:
                return server
        time.sleep(0.1)
    server.stop()
    raise RuntimeError("the server did not become healthy")


def serve_child(url: str, tables: str, db_threads: int = 0) -> None:
    """The child process: serve on a free loopback port, without bots or web client
    (``db_threads`` 0: the server's default)."""
    from cardroom.server.serve import serve
    from cardroom.server.settings import Limits, ServerSettings

    # The load generator registers and logs in every client from 127.0.0.1: no limit of
    # an address.
    signups = Limits(
        registrations_per_address=1e9,
        registrations_burst=1e9,
        api_per_address_rate=1e9,
        api_per_address_burst=1e9,
    )
    settings = ServerSettings(
        database_url=url, host="127.0.0.1", port=0, tables_file=Path(tables),
        web_dir=None, cheap_passwords=True, limits=signups,
    )  # fmt: skip
    if db_threads:
        settings = dataclasses.replace(settings, db_threads=db_threads)
    sys.exit(serve(settings))


def plan_seats(clients: int, tables: int) -> list[tuple[int, int]]:
    """(table, seat) of each client: dealt round the tables, seat by seat."""
    return [(k % tables, k // tables) for k in range(clients)]


def bot_aliases(count: int, run: int) -> list[str]:
    """``count`` fresh aliases for this run (a reused database keeps earlier runs'
    accounts, perhaps broke), each one the alias rules accept. A run number whose
    prefix reads as a refused word (``bn194...``: digits read as letters) gives way to
    the next."""
    from cardroom.ledger import AliasError, validate_alias

    def accepted(alias: str) -> bool:
        try:
            validate_alias(alias)
        except AliasError:
            return False
        return True

    for prefix in range(run, run + 100):
        names = (f"bn{prefix}x{k}" for k in range(10 * count + 100))
        out = list(itertools.islice(filter(accepted, names), count))
        if len(out) == count:
            return out
    raise RuntimeError("could not make enough bot aliases")


async def make_accounts(base: str, count: int, at_once: int = 16) -> list[str]:
    """Register ``count`` new bot accounts and return their tokens."""
    from cardroom.bots.client import account

    gate = asyncio.Semaphore(at_once)
    aliases = bot_aliases(count, int.from_bytes(os.urandom(2), "big") % 10_000)

    async def one(alias: str) -> str:
        async with gate:
            answer = await asyncio.to_thread(account, base, alias, PASSWORD)
            return str(answer["token"])

    return list(await asyncio.gather(*(one(a) for a in aliases)))


class LatencyProbe:
    """Send times of each seat's last action, and the delays at the other seats."""

    def __init__(self) -> None:
        self.flight: dict[tuple[str, int], list[float | None]] = {}
        self.samples: list[float] = []
        self.recording = False
        self.actions = 0

    def sent(self, table: str, seat: int, at: float) -> None:
        """A bot sent an action."""
        self.flight[(table, seat)] = [at, None]
        if self.recording:
            self.actions += 1

    def seen(self, table: str, seat: int, at: float) -> None:
        """Another bot received it: one sample, unless the action was not a bot's send
        (a timeout long after, whose first receipt is long gone)."""
        entry = self.flight.get((table, seat))
        if entry is None or not self.recording:
            return
        sent, first = entry
        assert sent is not None
        if first is None:
            entry[1] = first = at
        if at - first < 1.0 and at - sent < 10.0:
            self.samples.append(at - sent)


async def seated(players: list[Bot], limit: float) -> int:
    """Wait until every bot has its seat (or ``limit`` seconds); how many have."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        count = sum(b.seat is not None for b in players)
        if count == len(players):
            break
        await asyncio.sleep(0.2)
    return sum(b.seat is not None for b in players)


async def generate(
    base: str, bots: list[tuple[str, int, str]], seconds: float, warmup: float, think: Timing,
    server_pid: int,
) -> dict[str, Any]:  # fmt: skip
    """Seat ``bots`` (table, seat, token), let them play ``warmup`` seconds, then measure
    ``seconds``: the latencies, actions, errors and the server's CPU share."""
    from cardroom.bots.player import Bot
    from cardroom.bots.strategy import random_action

    probe = LatencyProbe()
    stop = asyncio.Event()
    players = [
        Bot(base, f"b{k}", PASSWORD, table, strategy=random_action, timing=think, seed=k,
            seat=seat, token=token, probe=probe)
        for k, (table, seat, token) in enumerate(bots)
    ]  # fmt: skip
    gate = asyncio.Semaphore(32)

    async def one(bot: Bot) -> None:
        async with gate:
            await bot.start()
        await bot.play(stop)

    tasks = [asyncio.create_task(one(b)) for b in players]
    await seated(players, STARTUP_SECONDS)
    await asyncio.sleep(warmup)
    probe.recording = True
    errors0 = sum(b.stats.errors for b in players)
    c0, w0, t0 = _cpu_seconds(server_pid), _waiting_seconds(server_pid), time.monotonic()
    await asyncio.sleep(seconds)
    wall = time.monotonic() - t0
    cpu = (_cpu_seconds(server_pid) - c0) / wall
    waiting = (_waiting_seconds(server_pid) - w0) / wall
    probe.recording = False
    stop.set()
    for b in players:
        if b.client is not None:
            with contextlib.suppress(Exception):
                await b.client.close()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = sum(isinstance(r, BaseException) for r in results)
    errors = sum(b.stats.errors for b in players) - errors0
    codes: dict[str, int] = {}
    for b in players:
        for code, n in b.stats.codes.items():
            codes[code] = codes.get(code, 0) + n
    reconnects = sum(b.stats.reconnects for b in players)
    unseated = sum(b.seat is None for b in players)
    return {
        "samples": probe.samples, "actions": probe.actions, "errors": errors + failed + reconnects,
        "codes": codes, "reconnects": reconnects, "cpu": cpu, "waiting": waiting,
        "failed": failed,
        "unseated": unseated,
    }  # fmt: skip


def generate_all(
    base: str, bots: list[tuple[str, int, str]], seconds: float, warmup: float, think: Timing,
    procs: int, server_pid: int,
) -> dict[str, Any]:  # fmt: skip
    """Run the load generator (here, or in ``procs`` child processes, whole tables each)
    and read the server's CPU over the measured seconds."""
    children = []
    if procs > 1:
        share: dict[int, list[tuple[str, int, str]]] = {}
        for bot in bots:
            share.setdefault(int(bot[0].rsplit("-", 1)[1]) % procs, []).append(bot)
        for part in share.values():
            children.append(_child(base, part, seconds, warmup, think, server_pid))
        parts = [_collect(c) for c in children]
    else:
        parts = [asyncio.run(generate(base, bots, seconds, warmup, think, server_pid))]
    cpu = sum(p["cpu"] for p in parts) / len(parts)
    waiting = sum(p["waiting"] for p in parts) / len(parts)
    samples = sorted(s for p in parts for s in p["samples"])
    return {
        "actions_per_s": round(sum(p["actions"] for p in parts) / seconds, 1),
        "latency_ms": _percentiles(samples),
        "samples": len(samples),
        "server_rss_mb": _rss_mb(server_pid),
        "errors": sum(p["errors"] for p in parts),
        "error_codes": _merged([p["codes"] for p in parts]),
        "reconnects": sum(p["reconnects"] for p in parts),
        "failed_clients": sum(p["failed"] for p in parts),
        "unseated": sum(p["unseated"] for p in parts),
        "server_cpu_percent": round(100 * cpu, 1),
        "server_runqueue_percent": round(100 * waiting, 1),
    }


def _child(base: str, bots: list[tuple[str, int, str]], seconds: float, warmup: float,
           think: Timing, server_pid: int) -> subprocess.Popen[str]:  # fmt: skip
    code = "from cardroom.bench.server_bench import generator_child; generator_child()"
    env = {**os.environ, "PYTHONPATH": _SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        env=env, text=True,
    )  # fmt: skip
    assert proc.stdin is not None
    job = {"base": base, "bots": bots, "seconds": seconds, "warmup": warmup,
           "think": [think.low, think.high], "pid": server_pid}  # fmt: skip
    proc.stdin.write(json.dumps(job))
    proc.stdin.close()
    return proc


def _collect(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    out = proc.stdout.read()  # the job went in through stdin, already closed
    proc.wait(60)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def generator_child() -> None:
    """A load generator process: a job on stdin, its measures on stdout."""
    from cardroom.bots.timing import Timing

    job = json.loads(sys.stdin.read())
    bots = [tuple(b) for b in job["bots"]]
    think = Timing(*job["think"])
    args = (job["base"], bots, job["seconds"], job["warmup"], think, job["pid"])
    out = asyncio.run(generate(*args))
    print(json.dumps(out), flush=True)


def _percentiles(samples: list[float]) -> dict[str, float | None]:
    if not samples:
        return {"p50": None, "p99": None, "max": None}

    def at(q: float) -> float:
        return round(1000 * samples[min(len(samples) - 1, int(q * len(samples)))], 1)

    return {"p50": at(0.5), "p99": at(0.99), "max": round(1000 * samples[-1], 1)}


def _merged(counts: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return out


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (and its threads) from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _waiting_seconds(pid: int) -> float:
    """Seconds the process's threads were ready to run but waited for a CPU (the
    scheduler's run queue, ``/proc/PID/task/*/schedstat``): how starved it was."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def _rss_mb(pid: int) -> float:
    """Resident memory of a process, MB, from ``/proc``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0
