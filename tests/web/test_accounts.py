"""Register and log in through the browser: the alias rules, the 18+ confirmation
and a clear message for every refusal."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import PASSWORD, fresh_alias, register

pytestmark = pytest.mark.browser


def test_register_lands_in_the_lobby_signed_in(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    assert page.locator("#who").inner_text().startswith(f"Signed in as {alias}")


def test_refusals_are_said_in_words(page: Any, server: str, console: Any) -> None:
    console.allow("status of 400")
    console.allow("status of 401")
    console.allow("status of 409")  # the alias is taken
    page.goto(server + "/#/login/register")
    message = page.locator("#auth-message")
    page.get_by_label("Alias").fill("ab")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("I am 18 or older").check()
    page.get_by_role("button", name="Create account").click()
    assert "3 to 16 characters" in message.inner_text()
    page.get_by_label("Alias").fill("bad alias!")
    page.get_by_role("button", name="Create account").click()
    assert "only letters" in message.inner_text()
    page.get_by_label("Alias").fill(fresh_alias())
    page.get_by_label("I am 18 or older").uncheck()
    page.get_by_role("button", name="Create account").click()
    assert "18 or older" in message.inner_text()
    # The server's own refusals: a reserved name, a look-alike of a taken alias.
    page.get_by_label("I am 18 or older").check()
    page.get_by_label("Alias").fill("Admin")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_function(
        "document.querySelector('#auth-message').textContent.includes('reserved')"
    )
    taken = fresh_alias("Tak")
    page.get_by_label("Alias").fill(taken)
    page.get_by_role("button", name="Create account").click()
    page.get_by_role("heading", name="Lobby").wait_for()
    page.get_by_role("button", name="Log out").click()
    page.get_by_role("heading", name="Log in").wait_for()
    page.goto(server + "/#/login/register")
    page.get_by_label("Alias").fill(taken.replace("a", "A").replace("T", "t"))
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("I am 18 or older").check()
    page.get_by_role("button", name="Create account").click()
    page.wait_for_function("document.querySelector('#auth-message').textContent.includes('taken')")
    # A wrong password at log-in.
    page.goto(server + "/#/login/login")
    page.get_by_label("Alias").fill(taken)
    page.get_by_label("Password").fill("wrong-password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_function("document.querySelector('#auth-message').textContent.length > 0")
    assert page.locator("#auth-message").inner_text() != ""
    assert page.locator("#who").inner_text() == ""


def test_log_in_again_after_log_out(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    page.get_by_role("button", name="Log out").click()
    page.get_by_label("Alias").fill(alias)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Lobby").wait_for()
    assert alias in page.locator("#who").inner_text()


def test_account_page_shows_balances_sanctions_and_allowances(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    page.get_by_role("link", name="Account").click()
    page.get_by_role("heading", name="Balances").wait_for()
    text = page.locator("main").inner_text()
    assert "Play money" in text and "10,000" in text  # the signup play chips
    assert "Real money" in text
    assert "Sanctions" in text and "None." in text
    assert page.locator("#allins").inner_text().startswith("Disconnect all-ins left today: ")


def test_10_6_the_account_page_says_when_the_disconnect_all_ins_come_back(
    browser: Any, server: str
) -> None:
    """They are counted per UTC day (docs/api.md); "left today" alone read as the
    player's own day, while a player in California has them back at 16:00 (in winter)."""
    context = browser.new_context(timezone_id="America/Los_Angeles", bypass_csp=True)
    try:
        page = context.new_page()
        register(page, server, fresh_alias())
        page.get_by_role("link", name="Account").click()
        text = page.locator("#allins").inner_text()
        assert text.startswith("Disconnect all-ins left today: 2 of 2 ")
        assert re.search(r"\(a UTC day: back at 1[67]:00 your time\)$", text), text
    finally:
        context.close()


def test_a_throttled_registration_is_said_once_as_a_sentence(
    page: Any, server: str, console: Any
) -> None:
    """The server's 429 (its words, and the header a throttled answer carries): one
    sentence, not "Too many attempts. too many registrations..."."""
    console.allow("status of 429")
    message = "too many registrations from 127.0.0.1 or in all: try again later"
    page.route(
        "**/api/register",
        lambda route: route.fulfill(
            status=429,
            headers={"retry-after": "60"},
            json={"error": "throttled", "message": message},
        ),
    )
    page.goto(server + "/#/login/register")
    page.get_by_label("Alias").fill(fresh_alias())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("I am 18 or older").check()
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("#auth-message")).to_have_text(
        "Too many registrations from 127.0.0.1 or in all: try again later."
    )


def test_a_player_changes_his_password_and_his_other_browser_is_logged_out(
    page: Any, more_pages: Any, server: str, console: Any
) -> None:
    """The account page changes the password (``POST /api/password``): a wrong current
    one is said in words; the right one logs out every other session (a second
    browser, as a thief's would be, is told its session has ended) while this page goes
    on under its new session: it can still act, and the new password logs in."""
    console.allow("status of 403")  # the wrong current password
    console.allow("status of 409")  # the top-up at the ceiling
    alias = fresh_alias()
    register(page, server, alias)
    other = more_pages()
    other.goto(server + "/#/login/login")
    other.get_by_label("Alias").fill(alias)
    other.get_by_label("Password").fill(PASSWORD)
    other.get_by_role("button", name="Log in").click()
    other.get_by_role("heading", name="Lobby").wait_for()
    page.get_by_role("link", name="Account").click()
    page.get_by_label("Current password").fill("not my password")
    page.get_by_label("New password").fill("a brand new one")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#password-message")).to_have_text("That is not your current password.")
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill("a brand new one")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#password-message")).to_have_text(
        "Your password is changed. Every other session has been logged out."
    )
    expect(other.locator("#banner")).to_contain_text("Your session has ended")
    # A write with the new session's CSRF token: past the check, to the top-up's own rule.
    page.get_by_role("button", name="Top up play money").click()
    expect(page.locator("#topup-message")).to_contain_text("ceiling")
    assert alias in page.locator("#who").inner_text()
    page.get_by_role("button", name="Log out").click()
    page.get_by_label("Alias").fill(alias)
    page.get_by_label("Password").fill("a brand new one")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Lobby").wait_for()
