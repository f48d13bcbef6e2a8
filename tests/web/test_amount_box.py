"""The raise amount as a player types it, heads-up against a puppet that checks or
calls: the button says what it will send while the amount is typed; an amount outside
the bounds (too much, too little, nothing) is refused in words and never sent, by
Enter or by a click (clamped, it had gone all-in unasked); a short stack's only raise
says it is the all-in."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit
from tests.web.driven import Puppet

pytestmark = pytest.mark.browser


def _until(page: Any, seen: Any, puppet: Puppet, raise_to: int | None = None) -> None:
    """Let the puppet check or call (raise to ``raise_to`` whenever it may: a raise the
    page missed, on a loaded machine, comes again) until ``seen()``."""
    deadline = time.monotonic() + 60
    while not seen():
        assert time.monotonic() < deadline, "the table did not get there in time"
        turn = puppet.turn()
        if turn is not None and raise_to and "raise" in turn["legal"]["actions"]:
            puppet.move("raise", max(raise_to, int(turn["legal"]["min_raise_to"])))
        elif turn is not None:
            puppet.move("check" if "check" in turn["legal"]["actions"] else "call")
        page.wait_for_timeout(50)


def _stay_short(bar: Any, call_text: str) -> None:
    """Check, complete a blind, or fold anything bigger, so that our short stack never
    grows: calling a raise the page saw late let us win a pot, and a stack that grew
    has an amount box and no "call all-in" (such tests failed so, now and then)."""
    check = bar.locator(".act.check")
    small = re.fullmatch(r"Call [12]", call_text)
    passive = check if check.count() else bar.locator(".act.call" if small else ".act.fold")
    if passive.count():
        with contextlib.suppress(Exception):
            passive.first.click(timeout=1000)


def test_a_typed_amount_is_sent_as_shown_and_a_wrong_one_is_refused_in_words(
    page: Any, server: str, driven: Any
) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    puppet = driven.puppet("amount", fresh_alias("pup"))
    sit(page, server, "amount")
    amount = page.locator(".actionbar #raise-amount")
    _until(page, lambda: amount.count() > 0, puppet)
    button = page.locator(".actionbar .act.raise")
    low, high = int(amount.get_attribute("min") or 0), int(amount.get_attribute("max") or 0)
    assert 0 < low < 12 < high
    word = button.inner_text().rsplit(" ", 1)[0]  # "Raise to" or "Bet"
    # The keys said are this bar's own (no "D draw" at Hold'em, no "check" with a call).
    keys = page.locator(".actionbar .keys")
    passive = "check" if page.locator(".actionbar .act.check").count() else "call"
    expect(keys).to_have_text(
        f"Keys: F fold · C {passive} · R {word.lower()} · 1 ½ pot · 2 pot · 3 all-in"
    )
    amount.fill("12")  # typed: the button says what a click sends
    expect(button).to_have_text(f"{word} 12")
    problem = page.locator(".actionbar .raise-problem")
    said = f"Type a whole number of chips from {low:,} to {high:,}."
    log = page.locator(".log")
    for typed in (str(high + 1), str(low - 1), "", "7.5"):
        amount.fill(typed)
        amount.press("Enter")  # nothing sent: said in words, the box as typed
        expect(problem).to_have_text(said)
        expect(button).to_be_disabled()
        expect(button).to_have_text(word)  # no amount: none would be sent
        amount.blur()  # leaving the box does not move the amount either
        assert amount.input_value() == typed
        expect(problem).to_have_text(said)
    shoot(page, "amount-refused")
    page.wait_for_timeout(500)
    assert f"{alias} raises" not in log.inner_text() and f"{alias} bets" not in log.inner_text()
    assert page.locator(".actionbar").count() == 1, "the turn went on"
    amount.fill("12")
    expect(problem).to_have_text("")
    amount.press("Enter")
    expect(log).to_contain_text(f"{alias} {'bets' if word == 'Bet' else 'raises to'} 12.")


def test_a_short_stacks_only_raise_says_all_in(page: Any, server: str, driven: Any) -> None:
    register(page, server, fresh_alias())
    puppet = driven.puppet("short", fresh_alias("pup"))
    sit(page, server, "short", amount=20)
    bar = page.locator(".actionbar")
    call = bar.locator(".act.call")
    facing_a_raise = re.compile(r"^Call (1[0-9])$")

    def raised() -> bool:
        """The puppet raised to 12: the least raise over it (22) is more than our 20.
        Until then we stay short (:func:`_stay_short`)."""
        text = call.inner_text() if call.count() else ""
        if facing_a_raise.match(text):
            return True
        _stay_short(bar, text)
        return False

    _until(page, raised, puppet, raise_to=12)
    expect(bar.locator("#raise-amount")).to_have_count(0)  # one amount only
    # All our chips (20, fewer if a blind went while the page was slow): not "Raise to".
    expect(bar.locator(".act.raise")).to_have_text(re.compile(r"^All-in (20|1[0-9])$"))
    shoot(page, "amount-short-all-in")


def test_why_we_may_not_raise_is_said_in_a_sentence(page: Any, server: str, driven: Any) -> None:
    """Facing a bet bigger than our stack the bar says why there is no raise button in
    the room's words, as a sentence like every other line of the table (it showed the
    bare words: "not enough chips to raise: call all-in instead")."""
    register(page, server, fresh_alias())
    puppet = driven.puppet("short-call", fresh_alias("pup"))
    sit(page, server, "short-call", amount=20)
    bar = page.locator(".actionbar")
    call = bar.locator(".act.call")

    def shoved() -> bool:
        """The puppet raised to 100: calling takes all our chips (fewer than 20). Until
        then we stay short (:func:`_stay_short`)."""
        text = call.inner_text() if call.count() else ""
        if re.match(r"^Call 1[0-9]$", text):
            return True
        _stay_short(bar, text)
        return False

    _until(page, shoved, puppet, raise_to=100)
    expect(bar.locator(".hint")).to_have_text("Not enough chips to raise: call all-in instead.")
    shoot(page, "amount-no-raise-said")
