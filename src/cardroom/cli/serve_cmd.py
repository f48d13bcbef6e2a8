"""``cardroom serve``: run the poker room (HTTP, WebSocket, the web client) until stopped."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

from cardroom.cli.db_cmd import DB_HELP
from cardroom.cli.errors import UsageError, positive_seconds


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535)")
    return int(text)


def _days(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 36500:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days (1-36500)")
    return int(text)


def _heartbeat(text: str) -> float:
    seconds = positive_seconds(text)
    if seconds > 10:  # a holder silent 30 s is taken as gone: renew well within it
        raise argparse.ArgumentTypeError(f"{text!r} is over 10 seconds")
    return seconds


def _hosts(text: str) -> tuple[str, ...]:
    """``--allowed-hosts``: comma-separated names, ``*.`` patterns or IP addresses."""
    from cardroom.server.hosts import host_pattern

    try:
        hosts = tuple(host_pattern(name) for name in text.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return hosts


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="run the poker room server")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port (8000; 0: any free)")
    parser.add_argument("--db", metavar="URL", default=None, help=DB_HELP)
    parser.add_argument("--tables", type=Path, metavar="FILE", help="a TOML table list")
    parser.add_argument("--no-bots", action="store_true", help="open the tables without bots")
    parser.add_argument(
        "--log-level",
        default="warning",
        help="the room's and uvicorn's log level (warning; info: the players a start stood up)",
    )
    parser.add_argument(
        "--allowed-hosts",
        type=_hosts,
        metavar="NAMES",
        help="answer only to these host names, comma-separated (poker.example,*.poker.example;"
        " default: any): another Host is refused 400 bad_host",
    )
    parser.add_argument(
        "--integrity-keep-seconds",
        type=positive_seconds,
        metavar="S",
        help="keep the integrity monitor's counts in the database this often (600)",
    )
    parser.add_argument(
        "--login-keep-days",
        type=_days,
        metavar="N",
        help="keep login rows nothing reads (expired sessions, old attempts) N days (30)",
    )
    parser.add_argument(
        "--heartbeat-seconds",
        type=_heartbeat,
        metavar="S",
        help="renew the database's lease this often (10; at most 10)",
    )
    parser.add_argument(
        "--drain-seconds",
        type=positive_seconds,
        metavar="S",
        help="at a clean stop (SIGTERM, Ctrl-C), deal no new hand and let those in progress"
        " finish, S seconds at most (0: voided at the next start); Ctrl-C again: stop now",
    )
    parser.add_argument(
        "--wait-lease",
        type=positive_seconds,
        metavar="S",
        help="another server on the database: wait up to S seconds for it to stop"
        " (a restart beside a stopping server, or one whose host died: 30 s)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from cardroom.server.serve import ListenError, serve
    from cardroom.server.settings import ServerSettings
    from cardroom.server.tables_file import TablesFileError
    from cardroom.store import DatabaseError

    settings = ServerSettings(
        database_url=args.db,
        host=args.host,
        port=args.port,
        tables_file=args.tables,
    )
    if args.integrity_keep_seconds is not None:  # else the settings' default
        keep = args.integrity_keep_seconds
        settings = dataclasses.replace(settings, integrity_keep_seconds=keep)
    if args.allowed_hosts is not None:
        settings = dataclasses.replace(settings, allowed_hosts=args.allowed_hosts)
    if args.drain_seconds is not None:
        settings = dataclasses.replace(settings, drain_seconds=args.drain_seconds)
    if args.heartbeat_seconds is not None:
        settings = dataclasses.replace(settings, heartbeat_seconds=args.heartbeat_seconds)
    if args.login_keep_days is not None:
        settings = dataclasses.replace(settings, login_keep_days=args.login_keep_days)
    held = _served_elsewhere(settings.database_url)
    if held is not None and args.wait_lease:
        held = _wait_for_lease(settings.database_url, args.wait_lease, held)
    if held is not None:
        print(
            f"cardroom serve: another server is running on this database ({held}):"
            " stop it first (one crashed on another host is taken as gone 30 s after it)",
            file=sys.stderr,
        )
        return 1
    try:
        on_ready = None if args.no_bots else _bots(settings)
        return serve(settings, log_level=args.log_level, on_ready=on_ready)
    except TablesFileError as exc:
        raise UsageError(str(exc)) from None
    except (DatabaseError, ListenError) as exc:
        print(f"cardroom serve: {exc}", file=sys.stderr)
        return 1


def _wait_for_lease(url: str | None, seconds: float, held: str) -> str | None:
    """Wait up to ``seconds`` for the server that holds the database to stop (a clean
    stop gives the lease back; a dead one's lease ages out): None once none serves it,
    else who still does. Said once on stderr, so the wait is not mistaken for a hang."""
    print(
        f"cardroom serve: another server is running on this database ({held}):"
        f" waiting up to {seconds:g} s for it to stop",
        file=sys.stderr,
        flush=True,
    )
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        time.sleep(min(1.0, left))
        held_now = _served_elsewhere(url)
        if held_now is None:
            return None
        held = held_now
    return held


def _served_elsewhere(url: str | None) -> str | None:
    """Who serves the database at ``url`` (None: the default) already, told before
    anything starts (the room checks again as it opens: of two starting at once, one
    only serves)."""
    from cardroom.server.lease import server_seen
    from cardroom.store import make_engine

    try:
        engine = make_engine(url)
    except Exception:  # not a database yet: the server says what is wrong
        return None
    try:
        return server_seen(engine)
    except Exception:  # no lease table yet (a new database): nobody serves it
        return None
    finally:
        engine.dispose()


def _bots(settings: Any) -> Any:
    """Start the bots each table asks for, once the server answers (their accounts
    made first, their passwords derived from the house's secret)."""
    import asyncio

    from cardroom.bots.house import run_house_bots
    from cardroom.server.house import house_aliases
    from cardroom.server.tables_file import load_tables

    wanted = {s.settings.table_id: s.bots for s in load_tables(settings.tables_file) if s.bots}
    aliases = house_aliases(wanted)

    async def start(base: str) -> None:
        secret = await asyncio.to_thread(_house_accounts, settings, aliases)
        await run_house_bots(base, aliases, secret)

    return start if wanted else None


def _house_accounts(settings: Any, by_table: dict[str, list[str]]) -> str:
    """Make the house bots' accounts (and reset any still on the old public password);
    the secret their passwords come from."""
    from cardroom.bots.house import PUBLIC_SECRET, bot_password
    from cardroom.server.house import house_bot_secret, prepare_house_bots
    from cardroom.store import make_engine

    engine = make_engine(settings.database_url)
    try:
        secret = house_bot_secret(engine)
        aliases = [a for names in by_table.values() for a in names]
        passwords = {a: bot_password(a, secret) for a in aliases}
        public = {a: bot_password(a, PUBLIC_SECRET) for a in aliases}
        prepare_house_bots(engine, passwords, public, settings.signup_play_chips)
        return secret
    finally:
        engine.dispose()
