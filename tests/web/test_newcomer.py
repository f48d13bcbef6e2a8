"""The issue's "Done when": a newcomer runs ``cardroom serve`` (the real command, in its
own process, a fresh database), opens the URL it prints, registers, opens a table
with house bots, sits down and plays a hand to its end, with nothing but the pages to
go by: every step is a link or a button the page shows."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import PASSWORD, fresh_alias, shoot

pytestmark = pytest.mark.browser

SERVING = re.compile(r"cardroom serving on (http://\S+/)")


def _command() -> list[str]:
    """``cardroom`` as installed beside this Python (the README's command), else the same
    entry point through this Python."""
    script = Path(sys.executable).with_name("cardroom")
    if script.exists():
        return [sys.executable, str(script)]
    return [sys.executable, "-c", "import sys; from cardroom.cli import main; sys.exit(main())"]


def _absolute_path() -> str:
    """``$PYTHONPATH`` made absolute: the server runs in its own folder, and must import
    the same cardroom as these tests (``PYTHONPATH=src`` in a checkout)."""
    parts = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return os.pathsep.join(str(Path(p).resolve()) for p in parts if p)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """``cardroom serve`` on a free port with a new SQLite file; its printed URL."""
    args = ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'cardroom.db'}"]
    process = subprocess.Popen(
        [*_command(), *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": _absolute_path()},
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    out = process.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in out], daemon=True).start()
    said: list[str] = []
    try:
        deadline = time.monotonic() + 90  # it migrates a new database first
        while not (found := SERVING.search("".join(said))):
            assert process.poll() is None, f"cardroom serve stopped: {''.join(said)}"
            assert time.monotonic() < deadline, f"no URL printed: {''.join(said)}"
            with contextlib.suppress(queue.Empty):
                said.append(lines.get(timeout=0.5))
        yield found.group(1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _sit_down(page: Any, alias: str) -> Any:
    """Sit at the last free seat, as a player would; if a house bot still sitting down
    took it first ("Seat 4 is taken."), choose another free seat. Our seat's locator."""
    mine = page.locator(".seat.mine")
    for _ in range(3):
        page.get_by_role("button", name=re.compile(r"^Sit here: seat \d+$")).last.click()
        page.get_by_role("button", name="Buy in").click()
        taken = page.locator("#table-notice", has_text=re.compile(r"Seat \d+ is taken"))
        expect(mine.or_(taken).first).to_be_visible(timeout=30_000)
        if mine.count():
            expect(mine.locator(".alias")).to_have_text(alias, timeout=30_000)
            return mine
    raise AssertionError("every seat we chose was taken first")


def test_a_newcomer_plays_a_hand_from_cardroom_serve(served: str, page: Any) -> None:
    # (``served`` first: the server outlives the page, whose last look is its console.)
    alias = fresh_alias("new")
    page.goto(served)
    page.get_by_role("link", name="New here? Create an account").click()
    page.get_by_label("Alias").fill(alias)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("I am 18 or older").check()
    page.get_by_role("button", name="Create account").click()
    # The real password hash (argon2 at its full cost) takes seconds on a busy machine.
    page.get_by_role("heading", name="Lobby").wait_for(timeout=60_000)
    # A default table where the house bots play; its row says they are there.
    row = page.locator('tr[data-table="holdem-nl-1"]')
    expect(row.locator("td").nth(2)).to_have_text(re.compile(r"^[1-9]/6$"), timeout=60_000)
    row.get_by_role("link", name="Open table holdem-nl-1").click()
    mine = _sit_down(page, alias)
    shoot(page, "newcomer-seated")
    # Play the first hand we are dealt: check or call whenever the bar asks.
    bar = page.locator(".actionbar")
    heading = page.locator(".tablehead .gameinfo")
    played: int | None = None
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "no hand of ours came to its end"
        if played is None and mine.locator(".card.face").count() == 2:
            played = int(re.search(r"Hand #(\d+)", heading.inner_text()).group(1))  # type: ignore[union-attr]
        panel = page.locator(".showdown h2")
        if played is not None and panel.count() and f"hand #{played}" in panel.inner_text():
            break
        for name in ("Check", "Call"):
            button = bar.get_by_role("button", name=re.compile(f"^{name}"))
            if button.count():
                with contextlib.suppress(Exception):  # the hand may move on meanwhile
                    button.first.click(timeout=1000)
                break
        page.wait_for_timeout(100)
    assert " wins " in page.locator(".showdown").inner_text()
    expect(page.locator(".log")).to_contain_text(f"Hand #{played} begins.")
    shoot(page, "newcomer-hand-played")
