"""The client under the room's Content-Security-Policy (docs/api.md, "Security
headers"): it logs in, lists the tables, sits, plays a hand and replays it with not
one violation of the policy, which is enforced (an injected inline script does not
run); and another site cannot frame it (clickjacking of "All in" or "Buy in")."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.browser import fresh_alias, play_passively, register, shoot, sit, until

pytestmark = pytest.mark.browser

WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
}, true);
"""
"""Kept from the page's first script on: every violation of the policy, in words."""


def _violations(page: Any) -> list[str]:
    return list(page.evaluate("window.__cspViolations"))


def test_the_client_plays_under_the_policy_without_a_violation(
    strict_page: Any, server: str, console: Any
) -> None:
    page = strict_page
    csp_lines: list[str] = []
    page.on(
        "console",
        lambda m: csp_lines.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(WATCH_VIOLATIONS)
    answer = page.goto(server + "/")
    assert answer is not None
    policy = answer.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
    register(page, server, fresh_alias())
    page.locator("table.lobby tbody tr[data-table]").first.wait_for()
    sit(page, server, "csp")
    page.locator(".seat.mine .card.face").first.wait_for(timeout=30_000)  # a hand is dealt
    until(page, "window.cardroom && window.cardroom.conn.state === 'open'")
    shoot(page, "csp-table")  # the seats placed round the felt (through the CSSOM)
    # Acting (the action bar), to the hand's end, then its replay (the felt again).
    played = page.get_by_role("region", name="Your last hands here").get_by_role("link")
    play_passively(page, lambda: played.count() > 0, seconds=90)
    played.first.click()
    page.get_by_role("button", name="End").click()
    page.get_by_role("link", name="Download PHH").wait_for()
    for route in ("#/history", "#/rules", "#/account", "#/lobby"):
        page.goto(f"{server}/{route}")
        page.locator("#app > *").first.wait_for()
    assert _violations(page) == [] and csp_lines == [], (_violations(page), csp_lines)
    console.allow("inline script")  # the refusal below, in the browser's words
    # The policy is enforced, and the watch sees what it refuses: an injected script
    # (as markup smuggled into the page would be) does not run.
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__injected = true'; document.body.append(s); }"
    )
    until(page, "window.__cspViolations.length > 0")
    assert page.evaluate("window.__injected") is None
    assert any(v.startswith("script-src") for v in _violations(page)), _violations(page)


@contextlib.contextmanager
def lure(framed: str) -> Iterator[str]:
    """Another site's page (another port of this machine: a real loopback address, which
    Chromium lets frame a loopback page) that frames ``framed``: its URL."""
    body = f'<!doctype html><title>Win big</title><iframe src="{framed}"></iframe>'.encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_another_site_cannot_frame_the_lobby(strict_page: Any, server: str, console: Any) -> None:
    page = strict_page
    # Logged in: the session cookie (SameSite=Strict) goes with the frame's requests, for
    # another port of this host is the same site.
    register(page, server, fresh_alias())
    console.allow("frame-ancestors")  # Chromium says why it refused, as an error
    with lure(f"{server}/#/lobby") as attacker:
        page.goto(attacker)
        page.wait_for_timeout(1500)  # the frame's load (or its refusal) has happened
        framed = [f for f in page.frames if f is not page.main_frame]
        assert len(framed) == 1
        drawn = framed[0].evaluate("() => document.querySelector('#app') !== null")
        assert drawn is False, "the lobby was drawn inside another site's page"
        shoot(page, "csp-framed")
