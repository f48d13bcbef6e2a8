"""A new release deployed under an open page (docs/web.md, "A new release"): a reload
runs the new client whole, never a module the browser kept from the old one beside
the new ones. A server of its own, serving a copy of the client the test replaces."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import _table, fresh_alias, register
from tests.web.conftest import own_server

from cardroom.server.settings import WEB_DIR

pytestmark = pytest.mark.browser

DAY = 86_400


def _release(web: Path, released: float, changed: dict[str, float]) -> None:
    """Date the client's files as a release installed ``released`` (Unix time), but
    those in ``changed`` (paths under ``web``), changed at the time given."""
    for path in web.rglob("*"):
        if path.is_file():
            when = changed.get(path.relative_to(web).as_posix(), released)
            os.utime(path, (when, when))


def _move_chips_out_of_dom(web: Path) -> None:
    """The next release: ``chips`` moves from dom.js to a new module, money.js, and each
    module that used it imports it from there (the old dom.js's importers, run beside
    the new dom.js, find no ``chips`` in it: the page stops dead)."""
    js = web / "js"
    dom = (js / "dom.js").read_text()
    line = next(x for x in dom.splitlines(keepends=True) if x.startswith("export const chips"))
    (js / "money.js").write_text(line)
    (js / "dom.js").write_text(dom.replace(line, ""))

    def moved(found: re.Match[str]) -> str:
        names = [name.strip() for name in found.group(1).split(",")]
        rest = ", ".join(name for name in names if name != "chips")
        kept = f'import {{ {rest} }} from "./dom.js";\n' if rest else ""
        return kept + 'import { chips } from "./money.js";'

    for module in js.glob("*.js"):
        text = module.read_text()
        changed = re.sub(r'import \{([^}]*\bchips\b[^}]*)\} from "\./dom\.js";', moved, text)
        if changed != text:
            module.write_text(changed)


def test_a_reload_after_a_deploy_runs_the_new_client_whole(tmp_path: Path, page: Any) -> None:
    web = tmp_path / "web"
    assert WEB_DIR is not None
    shutil.copytree(WEB_DIR, web)
    # Installed ten days ago; dom.js changed by a fix a few seconds before the start.
    # Without Cache-Control a browser keeps each file a tenth of its age (RFC 9111
    # 4.2.2) without asking: here a day for most, a second for dom.js.
    now = time.time()
    _release(web, now - 10 * DAY, {"js/dom.js": now - 10})
    table = _table("deploy", "holdem", "small_blind = 1, big_blind = 2")
    with own_server(tmp_path, table, web_dir=web) as (base, _url):
        page.goto(base + "/#/rules")
        page.get_by_role("heading", name="Rules", exact=True).wait_for()
        _move_chips_out_of_dom(web)  # the operator installs the next release
        page.wait_for_timeout(1_500)  # dom.js's second is over
        page.reload()
        page.get_by_role("heading", name="Rules", exact=True).wait_for()
        loaded = page.evaluate(
            "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
        )
        assert "/js/money.js" in loaded, "the page ran the old client after the deploy"
    # The page fixture fails the test on the import error of a mixed client.


def test_a_page_open_across_a_deploy_asks_its_player_to_reload(
    tmp_path: Path, page: Any, console: Any
) -> None:
    console.allow("ERR_CONNECTION_REFUSED")  # the page tries to reconnect, as it should
    web = tmp_path / "web"
    assert WEB_DIR is not None
    shutil.copytree(WEB_DIR, web)
    table = _table("deploy", "holdem", "small_blind = 1, big_blind = 2")
    with own_server(tmp_path, table, web_dir=web) as (base, _url):
        register(page, base, fresh_alias("dep"))
        page.goto(base + "/#/table/deploy")
        page.locator(".felt").wait_for()
    banner = page.locator("#banner")
    expect(banner).to_contain_text("reconnecting")
    _move_chips_out_of_dom(web)  # the next release, on the same port and database
    port = int(base.rsplit(":", 1)[1])
    with own_server(tmp_path, table, port=port, web_dir=web):
        # Back on the new server, the page runs the old client: it says so, once open.
        expect(banner).to_contain_text("cardroom has been updated.", timeout=20_000)
        page.locator(".felt").wait_for()  # the table is back meanwhile
        banner.get_by_role("button", name="Reload the page").click()
        page.locator(".felt").wait_for()
        expect(banner).to_be_hidden()
        loaded = page.evaluate(
            "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
        )
        assert "/js/money.js" in loaded
        assert page.evaluate("window.cardroom.conn.outdated") is False
