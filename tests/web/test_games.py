"""Games beyond the usual layouts: Irish's discard street (exactly two thrown, no
standing pat) and each game's rules link, named as RULEBOOK §12 names it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, play_passively, register, shoot, sit

pytestmark = pytest.mark.browser


def test_irish_throws_exactly_two_and_never_stands_pat(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "irish")
    bar = page.locator(".actionbar")
    hint = bar.get_by_text("Choose exactly 2 cards to throw away by clicking them.")
    play_passively(page, lambda: hint.count() > 0, seconds=90)
    assert bar.get_by_role("button", name="Stand pat").count() == 0
    discard = bar.get_by_role("button", name="Discard 2 cards")
    expect(discard).to_be_disabled()
    picks = page.locator(".seat.mine .card-pick")
    expect(picks).to_have_count(4)
    picks.nth(0).click()
    expect(discard).to_be_disabled()  # one is not enough
    picks.nth(1).click()
    expect(discard).to_be_enabled()
    picks.nth(2).click()  # a third is not taken
    expect(picks.nth(2)).to_have_attribute("aria-pressed", "false")
    thrown = [picks.nth(i).locator(".card").get_attribute("data-card") for i in (0, 1)]
    shoot(page, "irish-discard")
    discard.click()
    expect(page.locator(".log")).to_contain_text(f"{alias} discards {thrown[0]} {thrown[1]}.")
    # The seat says "Discarded" and holds 2 cards at once, seen in one look: looked at
    # one after the other, the next hand (4 new cards) was sometimes dealt in between.
    held = page.wait_for_function(
        """() => {
          const mine = document.querySelector(".seat.mine");
          const tag = mine && mine.querySelector(".tag.drew");
          const faces = mine ? [...mine.querySelectorAll(".card.face")] : [];
          const ok = tag && tag.textContent === "Discarded" && faces.length === 2;
          return ok ? faces.map((c) => c.dataset.card) : null;
        }"""
    ).json_value()
    assert len(held) == 2 and not set(thrown) & set(held)


@pytest.mark.parametrize(
    ("table", "name", "page_name", "heading"),
    [
        ("holdem", "View hand rankings", "high", "Hand rankings (high)"),
        ("plo", "View Omaha rules", "omaha", "Omaha rules"),
        ("hilo", "View Hi-Lo rules", "hi-lo", "Hi-Lo rules (8 or better)"),
        ("bigo", "View Hi-Lo rules", "hi-lo", "Hi-Lo rules (8 or better)"),
        ("stud", "View Stud rules", "stud", "Stud rules"),
        ("draw", "View hand rankings", "low-27", "Deuce-to-seven low (2-7 Triple Draw, 2-7 Sin"),
    ],
)  # fmt: skip
def test_rules_link_is_named_for_the_game(
    page: Any, server: str, table: str, name: str, page_name: str, heading: str
) -> None:
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/{table}")
    link = page.get_by_role("link", name=name, exact=True)
    expect(link).to_have_attribute("href", f"#/rules/{page_name}")
    link.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
    if table == "bigo":
        expect(page.locator("article.rules")).to_contain_text("Big O: Omaha Hi-Lo with five")


FAMILY_LINKS = {"stud": "View Stud rules", "draw": "View draw rules"}


@pytest.mark.parametrize(
    ("table", "first", "first_page", "family", "said"),
    [
        ("razz-rules", "View hand rankings", "low-a5", "stud", "Razz: the highest"),
        ("stud8-rules", "View Hi-Lo rules", "hi-lo", "stud", "Razz: the highest"),
        # 2-7 Triple Draw's page is its low rankings: how the draws go, and what a
        # timeout on a draw costs (§6.7), is on "View draw rules".
        ("draw", "View hand rankings", "low-27", "draw", "stands pat and may not bet"),
    ],
)
def test_12_razz_stud_hi_lo_and_the_draw_lows_link_their_family_s_rules_too(
    page: Any, server: str, table: str, first: str, first_page: str, family: str, said: str
) -> None:
    """§12: a game's rules are at its table. Razz's page is its low rankings and Stud
    Hi-Lo's the split: how a stud hand is dealt and who brings in is on "View Stud rules";
    so for the draw games whose page is their rankings (2-7 and A-5 draws, Badugi)."""
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/{table}")
    expect(page.get_by_role("link", name=first, exact=True)).to_have_attribute(
        "href", f"#/rules/{first_page}"
    )
    link = page.get_by_role("link", name=FAMILY_LINKS[family], exact=True)
    expect(link).to_have_attribute("href", f"#/rules/{family}")
    link.click()
    expect(page.locator("article.rules")).to_contain_text(said)


@pytest.mark.parametrize(
    ("page_name", "said"),
    [
        # §6.5: Soko deals one down and one up, then three up, and its highest card brings in.
        ("stud", "Soko (five-card stud): one card down and one up"),
        ("stud", "the highest card brings in (ties: spades, hearts, diamonds, clubs)"),
        # §6.7: a player who times out on a draw stands pat and may not bet or raise next.
        ("draw", "stands pat and may not bet or raise in the next betting round"),
        # The draw's controls as the action bar names them (there is no "Draw" button).
        ("draw", 'then "Discard N and draw" (key D); with none chosen it is "Stand pat"'),
    ],
)
def test_12_rules_pages_say_each_game_s_own_rules(
    page: Any, server: str, page_name: str, said: str
) -> None:
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/rules/{page_name}")
    expect(page.locator("article.rules")).to_contain_text(said)


def test_12_a_courchevel_hi_lo_table_is_named_and_linked_as_hi_lo(page: Any, server: str) -> None:
    # §6.3: Courchevel's option hi_lo = true is Courchevel Hi-Lo. The title read "PL
    # Courchevel" and the header linked the Omaha rules only: the split was said only in
    # the "Table rules" line. Now the title says Hi-Lo and the Hi-Lo rules are linked.
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/courchevel-hilo")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "courchevel-hilo · PL Courchevel Hi-Lo"
    )
    omaha = page.get_by_role("link", name="View Omaha rules", exact=True)
    expect(omaha).to_have_attribute("href", "#/rules/omaha")
    hi_lo = page.get_by_role("link", name="View Hi-Lo rules", exact=True)
    expect(hi_lo).to_have_attribute("href", "#/rules/hi-lo")
