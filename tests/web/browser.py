"""Helpers of the browser tests: aliases, registering through the form, axe-core."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, NoReturn

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

PASSWORD = "password1"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def _table(
    table_id: str,
    game: str,
    stakes: str,
    action: int = 20,
    bank: float = 30.0,
    structure: str = "",
    seats: int = 6,
    min_buy_in: int = 1000,
    extra: str = "",
) -> str:
    line = f'structure = "{structure}"' if structure else ""
    return f"""
[[table]]
id = "{table_id}"
game = "{game}"
{line}
stakes = {{ {stakes} }}
seats = {seats}
min_buy_in = {min_buy_in}
max_buy_in = 2000
action_seconds = {action}
time_bank_start = {bank}
{extra}
"""


BLINDS = "small_blind = 1, big_blind = 2"
DRAW_STAKES = "small_blind = 2, big_blind = 4, small_bet = 4, big_bet = 8"  # limit, blinds
# One table per test that sits down, so no test waits behind another's empty seat.
TABLES = {
    "holdem": ("holdem", BLINDS, 20, 30.0),
    "holdem-nl-1": ("holdem", BLINDS, 20, 30.0),  # a default table's name: the lobby finds it
    "reconnect": ("holdem", BLINDS, 20, 30.0),
    "phone": ("holdem", BLINDS, 20, 30.0),
    "axe": ("holdem", BLINDS, 20, 30.0),
    "csp": ("holdem", BLINDS, 20, 30.0),
    "keys": ("holdem", BLINDS, 20, 30.0),
    "replay": ("holdem", BLINDS, 20, 30.0),
    "focus": ("holdem", BLINDS, 20, 30.0),
    "plo": ("omaha", BLINDS, 20, 30.0, "pot_limit"),
    "quick": ("holdem", BLINDS, 2, 0.0),
    "stud": ("stud", "small_bet = 4, big_bet = 8, ante = 1", 20, 30.0),
    "limit": ("stud", "small_bet = 4, big_bet = 8, ante = 1", 20, 30.0),
    "draw": ("triple_draw_27", DRAW_STAKES, 20, 30.0),
    "draw-keys": ("triple_draw_27", DRAW_STAKES, 20, 30.0),
    "busy": ("holdem", BLINDS, 20, 30.0),  # four bots playing faster than anyone could
    "lobby-live": ("holdem", BLINDS, 20, 30.0),
    "chat": ("holdem", BLINDS, 20, 30.0),
    "chat-clock": ("holdem", BLINDS, 20, 30.0),
    "slow-line": ("holdem", BLINDS, 20, 30.0),
    "offline": ("holdem", BLINDS, 20, 30.0),
    "silent": ("holdem", BLINDS, 20, 30.0),
    "report": ("holdem", BLINDS, 20, 30.0),
    "late": ("holdem", BLINDS, 20, 30.0),
    "bank": ("holdem", BLINDS, 2, 30.0),  # 2 s to act: the time bank runs at once
    "draft": ("holdem", BLINDS, 20, 30.0),
    "expired": ("holdem", BLINDS, 20, 30.0),
    # A player of an earlier test stays seated (disconnected, the slow clock of §10.6):
    # one table for each case of the clock test.
    "clock-behind": ("holdem", BLINDS, 20, 30.0),
    "clock-ahead": ("holdem", BLINDS, 20, 30.0),
    "clock-set": ("holdem", BLINDS, 20, 30.0),
    "irish": ("irish", BLINDS, 20, 30.0),
    "hilo": ("omaha_hi_lo", DRAW_STAKES, 20, 30.0, "fixed_limit"),
    "bigo": ("big_o", BLINDS, 20, 30.0, "pot_limit"),
}
TABLES_TOML = "".join(_table(k, *v) for k, v in TABLES.items())
CHINESE_TABLES = {
    "ofc": "ofc", "ofc-axe": "ofc", "ofc-phone": "ofc", "pineapple": "pineapple",
    "classic": "classic", "classic-phone": "classic", "classic-clock": "classic",
    "ofc-said": "ofc",
}  # fmt: skip
"""One Chinese poker table per test that sits down (3 seats: two bots and the player;
``classic-clock``: players only)."""
MORE_TOML = (
    """
[[table]]
id = "mixed"
games = ["holdem", "stud"]
stakes = { small_bet = 4 }
hands_per_game = 2
seats = 6
action_seconds = 3
time_bank_start = 0.0

[[table]]
id = "mixed-bots"
games = ["holdem", "stud"]
stakes = { small_bet = 4 }
hands_per_game = 2
seats = 6
action_seconds = 3
time_bank_start = 0.0

[[table]]
id = "mixed-last"
games = ["holdem", "stud"]
stakes = { small_bet = 4 }
hands_per_game = 1
seats = 6
action_seconds = 3
time_bank_start = 0.0

[[table]]
id = "house-rules"
games = ["holdem", "stud"]
stakes = { small_bet = 4 }
rules = { burn_cards = false, stud_order_ties = "suit" }

[[table]]
id = "razz-rules"
game = "razz"
stakes = { small_bet = 4, ante = 1, bring_in = 1 }

[[table]]
id = "stud8-rules"
game = "stud_hi_lo"
stakes = { small_bet = 4, ante = 1, bring_in = 1 }

[[table]]
id = "wait"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20

[[table]]
id = "sidepot"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 3
min_buy_in = 20
max_buy_in = 2000
action_seconds = 20
time_bank_start = 30.0

[[table]]
id = "wait-far"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20

[[table]]
id = "wait-reload"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20

[[table]]
id = "wait-decline"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20

[[table]]
id = "wait-held"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20

[[table]]
id = "wait-lapse"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20
waitlist_offer_seconds = 6

[[table]]
id = "wait-side"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20

[[table]]
id = "sidepot-won"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 3
min_buy_in = 20
max_buy_in = 2000
action_seconds = 20
time_bank_start = 30.0

[[table]]
id = "advance"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 2
min_buy_in = 1000
max_buy_in = 2000
action_seconds = 20
"""
    + _table("words", "holdem", BLINDS)  # two puppets the test moves, nobody else
    + _table("press", "holdem", BLINDS)  # a page holding a button as a puppet sits down
    + _table("press-long", "holdem", BLINDS)  # ... and holding it far longer than a click
    + _table("words-stud", "stud", "small_bet = 4, big_bet = 8, ante = 1")
    + _table("complete-stud", "stud", "small_bet = 4, big_bet = 8, ante = 1", seats=2)
    + _table("stud-reload", "stud", "small_bet = 4, big_bet = 8, ante = 1", seats=2)
    + _table("stud8", "stud", "small_bet = 4, big_bet = 8, ante = 1", seats=8)  # puppets
    + _table("stud-replay", "stud", "small_bet = 4, big_bet = 8, ante = 1", seats=2)
    + _table("ring9", "holdem", BLINDS, seats=9)  # full ring: puppets and the player
    + _table("amount", "holdem", BLINDS, seats=2)  # heads-up with a puppet: the raise box
    + _table("sit-out", "holdem", BLINDS, seats=2)  # ... sitting out in a hand
    + _table("multi-a", "holdem", BLINDS, seats=2)  # one player at two tables, a tab each,
    + _table("multi-b", "holdem", BLINDS, seats=2)  # heads-up against a puppet at both
    + _table("multi-c", "holdem", BLINDS, seats=2)  # a buy-in from another tab
    + _table("short", "holdem", BLINDS, seats=2, min_buy_in=20)
    + _table("short-call", "holdem", BLINDS, seats=2, min_buy_in=20)  # a call all-in
    + _table("waiting", "holdem", BLINDS, seats=3)  # two puppets' hand, and the player
    + _table("stood-up", "holdem", BLINDS, extra="sit_out_minutes = 0.05")  # 3 s out: gone
    + _table("last-hands", "holdem", BLINDS, seats=2)  # a puppet: hands to replay
    + _table("reload", "holdem", BLINDS, seats=2)  # a puppet: a hand reloaded mid-way
    + _table("laptop", "holdem", BLINDS, seats=2)  # a puppet: our turn on a small screen
    + _table("ring10", "holdem", BLINDS, seats=10)
    + _table("rebuy", "holdem", BLINDS, seats=2)  # nobody else: no hand, chips may be added
    + _table("reducing", "holdem", BLINDS, seats=2)  # nobody else: we leave and come back
    + _table("automuck", "holdem", BLINDS, seats=2)  # nobody else: the seat's options
    + _table("topup", "holdem", BLINDS, seats=2)  # a puppet: the stack moves, the box follows
    + _table("rebuy-hand", "holdem", BLINDS, seats=2)  # a puppet: no rebuy in a hand
    + _table("chat-long", "holdem", BLINDS, seats=2)  # nobody else: a long chat line
    + _table("chat-wrap", "holdem", BLINDS, seats=2)  # nobody else: a chat line wrapped
    + _table("come-back", "holdem", BLINDS, seats=2)  # a player out owing the big blind
    + _table("waiting-bb", "holdem", BLINDS, seats=3)  # two puppets; we wait for the blind
    + _table("draw-pick", "triple_draw_27", DRAW_STAKES, seats=2)  # a puppet: our draw comes
    + _table("leaving", "holdem", BLINDS, seats=2)  # a puppet: we leave in a hand, then stay
    + _table("act-focus", "holdem", BLINDS, seats=2)  # a puppet: we act by keyboard
    + _table("advance-quiet", "holdem", BLINDS, seats=3)  # a puppet, a newcomer: said
    + _table("moves-said", "holdem", BLINDS, seats=2)  # a puppet: its moves announced
    + _table("draw-focus", "badugi", DRAW_STAKES, seats=2)  # a puppet: we draw by keyboard
    + _table("said", "holdem", BLINDS, action=12, bank=3.0, seats=2)  # a puppet: said aloud
    + _table("said-stud", "stud", "small_bet = 4, big_bet = 8, ante = 1", seats=2)  # a puppet
    + _table("focus-ring", "holdem", BLINDS)  # nobody: its empty seats' buttons
    + _table("touch-twice", "holdem", BLINDS, seats=2)  # a puppet: a phone's double tap
    + _table("touch-typing", "holdem", BLINDS, seats=2)  # a puppet: our turn while typing
    + _table("touch-sizes", "holdem", BLINDS, seats=2)  # a puppet: the phone's targets
    + _table("real-rake", "holdem", BLINDS, extra='money = "real"')  # watched: its rake said
    + _table("courchevel-hilo", "courchevel", BLINDS, seats=8, extra="rules = { hi_lo = true }")
    + "".join(
        f"""
[[table]]
id = "{table_id}"
game = "{game}"
point_value = 1
seats = 3
action_seconds = 25
hand_pause_seconds = 0.0
"""
        for table_id, game in CHINESE_TABLES.items()
    )
)
"""Tables beyond :data:`TABLES`: a CUSTOM_MIXED table changing game every two hands with a
short clock (``mixed``, where a player sits; ``mixed-bots``, bots only, so that no player
who left waits on the clock of a hand; ``mixed-last``, changing game every hand),
heads-up tables for the waiting list (``wait``; ``wait-far``, ``wait-reload``,
``wait-decline``, ``wait-held`` and ``wait-lapse`` (a seat held 6 s), a puppet and a
player; ``wait-side``, where one waiting sits alone),
tables for bots the test moves (``advance``; ``sidepot`` and ``sidepot-won``, where a
short stack may sit; ``words`` and ``words-stud``, two puppets alone; ``complete-stud``,
``stud-reload``, ``stud-replay``, ``amount``, ``sit-out``, ``last-hands``, ``reload``,
``laptop``, ``short`` and ``short-call`` (a 20-chip stack may sit), heads-up with one;
``waiting``, two; ``stud8``, seven; ``ring9`` and ``ring10``, full-ring Hold'em for
``test_layout.py``), ``stood-up`` (a seat out 3 s is given up), ``reducing`` (nobody:
we leave with chips and come back), ``topup`` (a puppet: the
stack moves under the rebuy box), ``rebuy-hand`` (a puppet: the box held in a hand),
``chat-long`` (a phone's player alone, chatting), ``chat-wrap`` (a player alone,
a chat line wrapping), ``waiting-bb`` (two puppets in a hand,
we sit down waiting for the big blind), ``come-back`` (a player sat out owing
the big blind, then a puppet), ``draw-pick`` (a puppet: our draw comes at once),
``leaving`` (a puppet: leaving asked in a hand, then taken back), ``act-focus`` (a
puppet: we act with the keyboard), ``advance-quiet`` and ``moves-said`` (a puppet: the
live regions), ``said`` and ``said-stud`` (a puppet: what a screen reader hears; ``said``
with a 12 s clock and a 3 s time bank), ``focus-ring`` (nobody: "Sit here" focused),
``draw-focus`` (a puppet: a draw by keyboard), ``touch-twice``, ``touch-typing`` and
``touch-sizes`` (a puppet: a phone played by touch, ``test_touch.py``), ``razz-rules``
and ``stud8-rules`` (no one: their rules links), and the Chinese poker tables (OFC,
Pineapple) of ``test_ofc_table.py``."""
THINK = 0.3
"""The session's bots think up to this many seconds a decision (still faster than people):
at full speed the bots of some thirty tables kept a core busy all session, and every
browser test waited behind them (67 tests: 5 min 35 s, then 4 min 31 s with this)."""
SLOW_BOTS: dict[str, float] = {"busy": 0.1}
"""Bots that think otherwise than :data:`THINK` (up to this many seconds): ``busy``'s
four play faster than anyone could (its tests are about a table that never rests), yet
not flat out: since they top up their play money they play all session (they used to go
broke within minutes), and flat out all session the table's stored steps would take the
CPU every other browser test waits on."""
BOT_TABLES = (
    {name: 3 for name in TABLES}
    | {"quick": 1, "busy": 4, "lobby-live": 0, "wait": 1}
    | {name: 2 for name in CHINESE_TABLES if name != "classic-clock"}
)
"""The session's bots, seated at a table the first time a page of a test watches it and
playing to the session's end (conftest's ``SessionBots``); the other tables of
MORE_TOML get theirs in their test."""


_counter = iter(range(1, 1_000_000))


def fresh_alias(prefix: str = "web") -> str:
    """A new alias for each registration (3-16 characters)."""
    return f"{prefix}{os.getpid() % 1000}x{next(_counter)}"


def register(page: Any, base: str, alias: str, password: str = PASSWORD) -> None:
    """Register through the form and land in the lobby."""
    page.goto(base + "/#/login/register")
    page.get_by_label("Alias").fill(alias)
    page.get_by_label("Password").fill(password)
    page.get_by_label("I am 18 or older").check()
    page.get_by_role("button", name="Create account").click()
    page.get_by_role("heading", name="Lobby").wait_for()


HERE = Path(__file__).resolve().parent
AXE_VERSION = json.loads((HERE / "package.json").read_text())["dependencies"]["axe-core"]
"""axe-core's exact version (``tests/web/package.json``, locked in ``package-lock.json``)."""


def in_ci() -> bool:
    """Whether CI runs the tests (it sets ``CI=true``)."""
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def missing(what: str) -> NoReturn:
    """A tool the browser tests need is missing: skip on a developer's machine, fail in
    CI (where a skipped check would pass without running)."""
    if in_ci():
        pytest.fail(f"{what} (CI=true: the browser checks must run)", pytrace=False)
    pytest.skip(what)


def axe_script() -> str:
    """axe-core's ``axe.min.js`` at the pinned version, installed by ``npm ci`` into a
    cache folder (``$CARDROOM_AXE_DIR``, else one per version under /tmp) when needed."""
    default = Path(tempfile.gettempdir()) / f"cardroom-axe-{AXE_VERSION}"
    cache = Path(os.environ.get("CARDROOM_AXE_DIR", default))
    script = cache / "node_modules" / "axe-core" / "axe.min.js"
    installed = cache / "node_modules" / "axe-core" / "package.json"
    if installed.exists() and json.loads(installed.read_text()).get("version") != AXE_VERSION:
        shutil.rmtree(cache / "node_modules")
    if not script.exists():
        if not shutil.which("npm"):
            missing("npm is missing: axe-core cannot be installed")
        cache.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(HERE / name, cache / name)
        done = subprocess.run(
            ["npm", "ci", "--silent", "--no-audit", "--no-fund", "--prefix", str(cache)],
            check=False,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if not script.exists():
            missing(f"npm could not install axe-core {AXE_VERSION}: {done.stderr[-500:]}")
    return script.read_text()


ANNOUNCED = """() => {
    window.announced = [];
    const live = (n) => n.closest('[aria-live], [role=status], [role=alert], [role=log]');
    new MutationObserver((changes) => {
        for (const c of changes) for (const n of c.addedNodes) {
            const root = live(n.nodeType === 1 ? n : c.target);
            const off = !root || root.getAttribute('aria-live') === 'off';
            if (!off) window.announced.push(n.textContent);
        }
    }).observe(document.body, { subtree: true, childList: true });
}"""
"""Records the text a screen reader would announce: nodes added in a live region."""


LABEL_IN_NAME = "label-content-name-mismatch"
"""axe's "label in name" rule (WCAG 2.5.3: a control's accessible name holds the text
it shows, what a voice user says to click it): experimental, so off by default, in
older axe-core releases; turned on here whatever the version."""


def serious_violations(page: Any, only: list[str] | None = None) -> list[str]:
    """axe-core run in the page (``only``: these rules alone; :data:`LABEL_IN_NAME` is
    always on): its serious and critical violations, in words, with the elements at
    fault.

    The table is live (bots play, clocks tick, the client patches the DOM) and axe takes
    a second or more under load, so it can meet an element halfway through a change. A
    violation counts when it is there again in a second run after the page has settled:
    a real one always is."""
    page.add_script_tag(content=axe_script())

    def run() -> dict[str, str]:
        options: dict[str, Any] = {"rules": {LABEL_IN_NAME: {"enabled": True}}}
        if only is not None:
            options = {"runOnly": {"type": "rule", "values": only}}
        result = page.evaluate(
            "async (options) => (await axe.run(document, options)).violations", options
        )
        return {
            v["id"]: f"{v['id']}: {v['help']} ({len(v['nodes'])}: "
            + "; ".join(str(n.get("target")) for n in v["nodes"][:5])
            + ")"
            for v in result
            if v.get("impact") in ("serious", "critical")
        }

    first = run()
    if not first:
        return []
    settled(page)
    again = run()
    return [again[key] for key in first if key in again]


def shoot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as ``artifacts/screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    with contextlib.suppress(Exception):
        page.screenshot(path=str(path), full_page=True)
    return path


def until(page: Any, expression: str, timeout: float = 15_000) -> None:
    """Wait until ``expression`` is truthy in the page, asking it every 50 ms.

    ``page.wait_for_function`` evaluates its predicate with the page's own ``eval``,
    which the room's Content-Security-Policy refuses; ``page.evaluate`` goes through
    the browser's devtools, which the policy does not bind (test_security_policy.py)."""
    import time

    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"not true in {timeout / 1000:.0f} s: {expression}")
        page.wait_for_timeout(50)


def sit(
    page: Any,
    base: str,
    table: str,
    attempts: int = 6,
    amount: int | None = None,
    post_now: bool = True,
) -> None:
    """Open ``table``, take a free seat with the default buy-in (or ``amount``), posting
    the big blind now where there is one (or not: ``post_now``).

    Bots may take the seat chosen between our click and the buy-in: the refusal is
    said in the table's notice and another free seat is tried. Waits are long, the CI
    machine is slow (the page is redrawn several times a second while bots play)."""
    page.goto(f"{base}/#/table/{table}")
    page.locator(".felt").wait_for(timeout=30_000)
    refused: list[str] = []
    for _ in range(attempts):
        # The last free seat: the bots come back to the first ones (conftest's Bots).
        page.get_by_role("button", name=re.compile(r"^Sit here: seat \d+$")).last.click()
        buy = page.get_by_role("button", name="Buy in")
        try:
            buy.wait_for(timeout=10_000)
        except PlaywrightTimeout:  # a redraw took the click (or a bot the seat): again
            refused.append("the buy-in form did not open")
            continue
        if amount is not None:
            page.locator("#buyin-amount").fill(str(amount))
        if not post_now:
            page.locator("#buyin-post").uncheck()
        buy.click()
        # Either the join is done (the form goes) or refused (the notice says why).
        until(
            page,
            "!document.querySelector('form.buyin')"
            " || document.querySelector('#table-notice.error')?.textContent",
            timeout=30_000,
        )
        if page.locator("form.buyin").count() == 0:
            page.locator(".seat.mine").wait_for(timeout=30_000)
            return
        refused.append(page.locator("#table-notice").inner_text())
    raise AssertionError(f"could not sit at {table}: {refused}")


def settled(page: Any) -> None:
    """Two frames: what the page last changed is laid out and drawn."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def play_passively(page: Any, until: Any, seconds: float = 45.0) -> None:
    """Check or call (stand pat on a draw, bring in on stud) whenever it is our turn,
    until ``until()`` is true."""
    import time

    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the table did not get there in time"
        bar = page.locator(".actionbar")
        if bar.count():
            for name in ("Check", "Call", "Bring in", "Stand pat", "Discard"):
                button = bar.get_by_role("button", name=name)
                if button.count():
                    # The bar is redrawn as the table moves on: a vanished button is fine.
                    with contextlib.suppress(Exception):
                        button.first.click(timeout=1000)
                    break
        page.wait_for_timeout(100)
