"""A start the database cannot store (a full disk): said in one line, exit 1, no harm."""

from __future__ import annotations

import subprocess
import sys

from tests.server.disk_full import disk_full

from cardroom.server.settings import ServerSettings


def _cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardroom", *args], capture_output=True, text=True, timeout=120
    )


def test_10_10_a_start_whose_tables_cannot_be_stored_says_so_in_one_line_and_exits_1(
    settings: ServerSettings,
) -> None:
    """The start opens (or recovers) each table and stores it; a disk full then ended
    the start in uvicorn's traceback of some 100 lines, "Task exception was never
    retrieved", and exit status 3, which the README's exit codes (0, 1, 2) do not name.
    Now one line says what could not be stored and why, and the status is 1, as for any
    database that will not serve; with space back the room starts and the ledger holds."""
    url, tables = settings.database_url, settings.tables_file
    assert url is not None and tables is not None
    assert _cardroom("db", "upgrade", "--db", url).returncode == 0
    disk_full(url, "table_snapshots")  # stored by every table's opening
    refused = _cardroom("serve", "--port", "0", "--no-bots", "--db", url, "--tables", str(tables))
    lines = [line for line in refused.stderr.splitlines() if line.strip()]
    assert refused.returncode == 1, refused.stderr
    assert "Traceback" not in refused.stderr, refused.stderr
    assert len(lines) == 1, refused.stderr
    assert lines[0].startswith("cardroom serve: the room could not start:"), lines[0]
    assert "full" in lines[0] or "No space" in lines[0], lines[0]
    assert "serving" not in refused.stdout
    disk_full(url, "table_snapshots", full=False)
    from tests.server.conftest import running_server

    with running_server(settings):  # space back: the room starts as ever
        pass
    assert _cardroom("ledger", "check", "--db", url).returncode == 0
