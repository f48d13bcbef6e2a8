"""Sanctions as the player reads them (RULEBOOK §10.7, §10.9), in his own time zone
(the page's is Asia/Kolkata, UTC+05:30, the server's UTC): the account screen says
each sanction in words with its end ("Banned from chat until 8 Dec, 12:02 (...)": it
said "chat_ban: ... until 2026-12-08T06:32:47.099746Z"); a ban made while he plays
says so in the banner (it said "Connection lost — reconnecting…", then "Your session has
ended": never why); and his login then says until when and why (it said "Wrong alias or
password, or the account is closed")."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.server.conftest import TABLES_TOML
from tests.web.browser import PASSWORD, fresh_alias, register, shoot, sit
from tests.web.conftest import own_server

from cardroom.store import Players, SanctionKind, make_engine

pytestmark = pytest.mark.browser

KOLKATA = timezone(timedelta(hours=5, minutes=30))


def _local(end: datetime | None) -> str:
    """An end as the page says it in Kolkata ("8 Dec, 12:02")."""
    assert end is not None
    at = end.astimezone(KOLKATA)
    return f"{at.day} {at:%b}, {at:%H:%M}"


def _sanction(url: str, alias: str, kind: SanctionKind, hours: int, reason: str) -> datetime:
    """Impose a sanction as ``cardroom account`` does; its end."""
    engine = make_engine(url)
    try:
        players = Players(engine)
        players.sanction(alias, kind, operator="op", reason=reason, duration=timedelta(hours=hours))
        return max(s.ends_at for s in players.sanctions_in_force(alias) if s.kind is kind)
    finally:
        engine.dispose()


def test_sanctions_are_said_in_words_and_in_the_players_time(browser: Any, tmp_path: Path) -> None:
    context = browser.new_context(bypass_csp=True, timezone_id="Asia/Kolkata")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        with own_server(tmp_path, TABLES_TOML, sanction_check_seconds=0.5) as (base, url):
            alias = fresh_alias("ban")
            register(page, base, alias)
            chat_end = _sanction(url, alias, SanctionKind.CHAT_BAN, 30, "advertising: www.")
            page.goto(base + "/#/account")
            expect(
                page.get_by_role("heading", name="Sanctions").locator("xpath=..")
            ).to_contain_text(f"Banned from chat until {_local(chat_end)} (advertising: www.)")
            sit(page, base, "holdem")
            ban_end = _sanction(url, alias, SanctionKind.BAN, 2, "collusion at holdem")
            banner = page.locator("#banner")
            expect(banner).to_have_text(
                "Your account has been banned, and your seats given up."
                " Log in to see until when and why."
            )
            banner.get_by_role("link", name="Log in").click()
            page.get_by_label("Alias").fill(alias)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_text("Your account is banned")).to_have_text(
                f"Your account is banned until {_local(ban_end)}: collusion at holdem."
            )
            shoot(page, "banned-login")
    finally:
        context.close()
