"""Which server serves a database (``server/lease.py``): one at a time, taken at once,
and a holder gone (a kill -9 on this host, a zombie, a reused process id, an old lease)
is told from a live one."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from cardroom.server import lease
from cardroom.server.settings import ServerSettings
from cardroom.store import make_engine, migrate
from cardroom.store.leases import Holder, Leases
from cardroom.store.models import ServerLease
from cardroom.store.room_memory import RoomMemories


def _engine(url: str):  # type: ignore[no-untyped-def]
    engine = make_engine(url)
    migrate.upgrade(engine)
    return engine


def test_of_two_servers_starting_at_once_one_takes_the_lease(database_url: str) -> None:
    engine = _engine(database_url)
    try:
        leases = Leases(engine)
        first, second = lease.me("first"), lease.me("second")
        # Both looked and saw nobody: the insert lets one through only.
        assert leases.take(lease.SERVING, first, None) is True
        assert leases.take(lease.SERVING, second, None) is False
        # Both judged the holder gone: the update from it lets one through only.
        assert leases.take(lease.SERVING, second, "first") is True
        assert leases.take(lease.SERVING, first, "first") is False
        held = leases.holder(lease.SERVING)
        assert held is not None and held.instance == "second" and held.age < 5
        assert lease.renew(engine, "second") and not lease.renew(engine, "first")
        lease.give_back(engine, "first")  # not its own: nothing happens
        assert leases.holder(lease.SERVING) is not None
        lease.give_back(engine, "second")
        assert leases.holder(lease.SERVING) is None
    finally:
        engine.dispose()


def test_a_live_holder_keeps_the_lease_and_a_gone_one_loses_it(database_url: str) -> None:
    engine = _engine(database_url)
    leases = Leases(engine)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        alive = lease.me("live")
        lease.LIVE.add("live")  # a room of this process, serving
        assert lease.take(engine, "live") is None
        assert lease.take(engine, "other") is not None  # held: refused
        lease.LIVE.discard("live")  # this process's room stopped without giving it back
        assert lease.server_seen(engine) is None
        assert lease.take(engine, "other") is None

        started = lease.me("x").started
        other_process = Holder("sleeper", sleeper.pid, alive.host, "")
        assert leases.take(lease.SERVING, other_process, "other")
        assert lease.server_seen(engine) is not None  # a live process of this host
        reused = Holder("reused", sleeper.pid, alive.host, started + "0")
        assert leases.take(lease.SERVING, reused, "sleeper")
        assert lease.server_seen(engine) is None  # the same id, another process: gone
        sleeper.kill()
        time.sleep(0.2)  # killed, not reaped: a zombie
        zombie = Holder("zombie", sleeper.pid, alive.host, "")
        assert leases.take(lease.SERVING, zombie, "reused")
        assert lease.server_seen(engine) is None
        sleeper.wait()
        assert lease.server_seen(engine) is None  # reaped: no such process

        elsewhere = Holder("far", 1, "another-host", "")
        assert leases.take(lease.SERVING, elsewhere, "zombie")
        assert lease.server_seen(engine) is not None  # another host: only its age tells
        long_ago = datetime.now(UTC) - timedelta(seconds=lease.SERVER_GONE_SECONDS + 5)
        with engine.begin() as conn:  # silent for longer than a lease lasts
            conn.execute(update(ServerLease).values(beat_at=long_ago))
        assert lease.server_seen(engine) is None
        assert lease.take(engine, "next") is None
        assert lease.take(engine, "late", force=True) is None  # an operator sure of it
    finally:
        sleeper.kill()
        sleeper.wait()
        engine.dispose()


def test_a_second_cardroom_serve_says_so_in_one_line_and_exits_1(
    settings: ServerSettings,
) -> None:
    from tests.server.conftest import running_server

    assert settings.database_url is not None and settings.tables_file is not None
    with running_server(settings):
        second = subprocess.run(
            [sys.executable, "-m", "cardroom", "serve", "--port", "0", "--no-bots",
             "--db", settings.database_url, "--tables", str(settings.tables_file)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert second.returncode == 1, second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and "another server is running on this database" in lines[0]


def test_a_stop_by_sigterm_or_ctrl_c_exits_0_and_gives_the_lease_back(
    settings: ServerSettings,
) -> None:
    # uvicorn stops cleanly on SIGTERM and then raises the signal again, so the process
    # died of it (exit status 143, -15 here) where Ctrl-C exited 0: a service manager
    # or a deploy script checking the status saw a clean stop as a failure.
    import signal

    from tests.server.test_crash import ServerProcess

    assert settings.database_url is not None and settings.tables_file is not None
    engine = _engine(settings.database_url)
    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            server = ServerProcess(settings.database_url, settings.tables_file)
            server.proc.send_signal(sig)
            assert server.proc.wait(60) == 0, sig.name
            assert lease.server_seen(engine) is None, sig.name  # given back: none waits
    finally:
        engine.dispose()


def test_serve_waits_for_the_lease_when_asked_and_serves_once_the_other_stops(
    settings: ServerSettings,
) -> None:
    """``--wait-lease S``: a restart beside a server still stopping waits for its lease
    (said once), then serves; one that waits in vain exits 1 as without it."""
    import re
    import signal

    from tests.server.test_crash import ServerProcess

    assert settings.database_url is not None and settings.tables_file is not None
    serve = [sys.executable, "-m", "cardroom", "serve", "--port", "0", "--no-bots",
             "--db", settings.database_url, "--tables", str(settings.tables_file)]  # fmt: skip
    first = ServerProcess(settings.database_url, settings.tables_file)
    try:
        started = time.monotonic()
        vain = subprocess.run(
            [*serve, "--wait-lease", "1.5"], capture_output=True, text=True, timeout=60
        )
        assert vain.returncode == 1 and time.monotonic() - started >= 1.5, vain.stderr
        lines = vain.stderr.strip().splitlines()
        assert "waiting up to 1.5 s" in lines[0] and "stop it first" in lines[-1], lines
        second = subprocess.Popen(
            [*serve, "--wait-lease", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        try:
            assert second.stderr is not None and second.stdout is not None
            assert "waiting up to 60 s" in second.stderr.readline()
            first.proc.send_signal(signal.SIGTERM)  # a clean stop gives the lease back
            assert first.proc.wait(60) == 0
            url = re.search(r"http://[\d.]+:\d+", second.stdout.readline())
            assert url is not None and second.poll() is None
            import httpx

            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(url.group(0) + "/healthz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "the waiting server did not serve"
                time.sleep(0.1)
            second.send_signal(signal.SIGTERM)
            assert second.wait(60) == 0
        finally:
            if second.poll() is None:
                second.kill()
    finally:
        first.gone()


def test_a_server_of_a_release_before_the_lease_table_is_seen_serving(database_url: str) -> None:
    # Releases at migration 0009-0010 kept their heartbeat in the room's memory, as
    # "serving" ({pid, host, instance}), not in server_leases (migration 0011). The
    # current `cardroom serve` started beside such a server saw nobody, migrated the
    # database under it and ran its start-up recovery: every table's hand voided and
    # its players stood up behind the running server's back, two servers dealing.
    engine = make_engine(database_url)
    migrate.upgrade(engine, "0010")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        heartbeat = {"pid": sleeper.pid, "host": lease.me("x").host, "instance": "old"}
        RoomMemories(engine).keep(lease.SERVING, heartbeat)
        seen = lease.server_seen(engine)
        assert seen is not None and f"process {sleeper.pid}" in seen
        long_ago = datetime.now(UTC) - timedelta(seconds=lease.SERVER_GONE_SECONDS + 5)
        RoomMemories(engine, clock=lambda: long_ago).keep(lease.SERVING, heartbeat)
        assert lease.server_seen(engine) is None  # silent too long: stopped
        RoomMemories(engine).keep(lease.SERVING, heartbeat)
        sleeper.kill()
        sleeper.wait()
        assert lease.server_seen(engine) is None  # its process is gone (a kill -9)
        migrate.upgrade(engine)  # an old heartbeat left in the room's memory: no holder
        assert lease.server_seen(engine) is None and lease.take(engine, "new") is None
    finally:
        sleeper.kill()
        sleeper.wait()
        engine.dispose()
