"""Durability (RULEBOOK §10.10, issue 14): a real server process under bot load is killed
with SIGKILL at random moments and restarted, again and again; then the ledger checks,
every chip is accounted for, no hand is half-settled and every cancelled hand is in the
history. ``CARDROOM_CRASH_KILLS`` sets the number of kills per database (default 12: 24
in a run, SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import atexit
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from tests.server.secrecy import serving
from tests.server.sessions import horse_problems, money_problems, stacks_come_back

from cardroom.bots.client import ProtocolClient, account
from cardroom.bots.random_bot import RandomBot
from cardroom.cli import main as cli_main
from cardroom.ledger import AccountKind, Currency, Reason
from cardroom.server.room import INTEGRITY
from cardroom.store import SqlLedger, make_engine
from cardroom.store.room_memory import RoomMemories
from cardroom.store.tables import TableRecords

KILLS = int(os.environ.get("CARDROOM_CRASH_KILLS", "12"))
SRC = str(Path(__file__).resolve().parents[2] / "src")
TABLES = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
action_seconds = 3

[[table]]
id = "stud"
game = "stud"
stakes = { small_bet = 4, big_bet = 8, ante = 1 }
seats = 6
action_seconds = 3
money = "real"

[[table]]
id = "draw"
game = "triple_draw_27"
stakes = { small_blind = 2, big_blind = 4, small_bet = 4, big_bet = 8 }
seats = 6
action_seconds = 3

[[table]]
id = "ofc"
game = "ofc"
point_value = 2
seats = 3
action_seconds = 3

[[table]]
id = "horse"
mixed = "HORSE"
stakes = { small_bet = 4 }
hands_per_game = 1
seats = 3
action_seconds = 3
"""


WARM = (
    "import sys, cardroom.cli, cardroom.cli.serve_cmd, cardroom.server.serve, cardroom.store; "
    "sys.exit(cardroom.cli.main(sys.argv[1:]) if sys.stdin.readline() else 0)"
)
"""``cardroom serve``, its modules imported first, started when told (a line on stdin;
its stdin closed first, it exits without serving)."""


class ServerProcess:
    """``cardroom serve`` in a child process. ``start=False``: the process imports the
    server's modules and waits; :meth:`start` makes it serve (a restart after a kill
    then costs the database and the recovery, not the imports: most of a start)."""

    def __init__(
        self,
        url: str,
        tables: Path,
        bots: bool = False,
        env: dict[str, str] | None = None,
        start: bool = True,
        args: tuple[str, ...] = (),
        log: Path | None = None,
    ) -> None:
        env = {**(os.environ if env is None else env), "PYTHONPATH": SRC}
        self.url = url
        err = subprocess.DEVNULL if log is None else log.open("w")  # its log, when wanted
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WARM, "serve", "--port", "0", "--db", url,
             "--tables", str(tables), *([] if bots else ["--no-bots"]), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env, text=True,
        )  # fmt: skip
        if log is not None:
            err.close()  # the child has its own copy
        self.base = ""
        # A test that fails before its kill would leave a serving child behind, for good
        # (its parent gone): the test process kills what is left when it exits.
        atexit.register(self.gone)
        if start:
            self.start()

    def gone(self) -> None:
        """Kill the child if it still runs (at the test process's exit)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def start(self) -> ServerProcess:
        """Serve; return once the tables are recovered and open (health answered)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        found = re.search(r"http://[\d.]+:\d+/", line)
        assert found, f"no URL in {line!r}"
        self.base = found.group(0).rstrip("/")
        serving(int(self.base.rsplit(":", 1)[1]), self.url)  # its messages are checked too
        deadline = time.monotonic() + 60
        with httpx.Client(timeout=2) as client:  # one client: a new one costs ~0.1 s
            while True:
                try:
                    if client.get(self.base + "/healthz").status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline and self.proc.poll() is None, "server died"
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)


async def load(
    base: str,
    tokens: list[tuple[str, str, str]],
    seconds: float,
    seed: int,
    crash: Any,
    mid_hand: Any = None,
) -> None:
    """Bots (already registered: their tokens survive restarts) play for ``seconds``;
    then, once ``mid_hand()`` says a hand is in progress (when given), ``crash()`` kills
    the server while the bots are still playing, as a real crash would."""
    bots = []
    for i, (alias, token, table) in enumerate(tokens):
        bot = RandomBot(base, alias, "password1", table, seed=seed * 100 + i)
        bot.client = await ProtocolClient.connect(base, token)
        bots.append(bot)
    tasks = [asyncio.create_task(b.play()) for b in bots]
    await asyncio.sleep(seconds)
    deadline = time.monotonic() + 20
    while mid_hand is not None and time.monotonic() < deadline:
        if await asyncio.to_thread(mid_hand):
            break
        await asyncio.sleep(0.01)
    await asyncio.to_thread(crash)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def deposits_by_currency(ledger: SqlLedger) -> dict[Currency, int]:
    out: dict[Currency, int] = {}
    for e in ledger.entries(limit=None):
        t = e.transfer
        sign = {Reason.DEPOSIT: 1, Reason.WITHDRAWAL: -1}.get(t.reason, 0)
        out[t.currency] = out.get(t.currency, 0) + sign * t.amount
    return out


def test_10_10_kill_9_under_bot_load_then_every_chip_and_hand_is_accounted_for(
    database_url: str, tmp_path: Path, capsys: Any
) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES)
    rng = random.Random(1014)
    keep = ("--integrity-keep-seconds", "0.2")  # the monitor's counts, kept as it runs
    server = ServerProcess(database_url, tables, args=keep)
    tokens = []
    seated = ["holdem", "holdem", "stud", "stud", "draw", "draw", "ofc", "ofc", "horse", "horse"]
    for i, table in enumerate(seated):
        alias = f"crash{i}"
        tokens.append((alias, account(server.base, alias, "password1")["token"], table))
    real = [a for a, _, t in tokens if t == "stud"]
    engine = make_engine(database_url)
    from cardroom.store import Cashier

    for alias in real:  # real money for the real-money table: rake goes to the house
        Cashier(engine).deposit(alias, 5000, Currency.REAL, operator="test")
    records = TableRecords(engine)

    def mid_hand() -> bool:  # a hand dealt and not yet ended, as stored
        return any(len(s.dealt) > len(s.finished) + len(s.voided) for s in records.hands().values())

    for kill in range(KILLS):
        # Mostly early in a hand, while one is in progress; every fourth run long enough
        # for hands to finish too, killed at whatever moment it has reached.
        seconds = 2.5 if kill % 4 == 3 else rng.uniform(0.15, 0.7)
        waiting = None if kill % 4 == 3 else mid_hand
        following = ServerProcess(database_url, tables, start=False, args=keep)  # imports now
        try:
            asyncio.run(load(server.base, tokens, seconds, kill, server.kill, waiting))
        except BaseException:
            following.kill()
            raise
        server = following.start()
    server.kill()  # after its start-up recovery (health answered): nothing is seated now

    assert cli_main(["ledger", "check", "--db", database_url]) == 0
    capsys.readouterr()
    assert money_problems(database_url) == []
    ledger = SqlLedger(engine)
    balances = ledger.balances()
    held: dict[Currency, int] = {}
    for ref, amount in balances.items():
        if ref.kind is not AccountKind.CASHIER:
            held[ref.currency] = held.get(ref.currency, 0) + amount
        if ref.kind in (AccountKind.TABLE_STACK, AccountKind.POT):
            assert amount == 0, f"{ref} still holds {amount} after recovery"
    assert held == deposits_by_currency(ledger)  # accounts + tables + house = deposits
    hands = TableRecords(engine).hands()
    voided = 0
    for table_id, summary in hands.items():
        ended = summary.finished + summary.voided
        assert sorted(ended) == sorted(summary.dealt), f"{table_id}: a hand half-settled"
        assert not set(summary.finished) & set(summary.voided)
        voided += len(summary.voided)
    assert hands["ofc"].dealt and hands["horse"].dealt, "the OFC or HORSE table dealt no hand"
    # Seat by seat: each cancelled hand gave back its start stacks, each player stood up
    # left with his; HORSE went on in its rotation, its button frozen in the stud games.
    assert stacks_come_back(database_url) == []
    horse = [e for _, e in TableRecords(engine).entries("horse", 0, 1_000_000)]
    assert horse_problems(horse, hands["horse"].voided) == []
    finished = sum(len(s.finished) for s in hands.values())
    assert finished > 0 and voided > 0  # hands were played and kills cancelled some
    # No server stopped cleanly, yet the integrity monitor's counts outlived the kills:
    # each process kept them as it ran and the next one read them back (§10.9).
    kept = RoomMemories(engine).read(INTEGRITY)
    assert kept is not None
    assert any(rule["pairs"] for rule in kept["rules"].values())
    dealt = sum(len(s.dealt) for s in hands.values())
    entries = len(ledger.entries())
    with capsys.disabled():  # the figures docs/server_crash.md reports for the long runs
        print(f"\ncrash: {KILLS} kills, {dealt} hands dealt, {finished} settled, "
              f"{voided} cancelled, {entries} ledger entries")  # fmt: skip
    engine.dispose()
