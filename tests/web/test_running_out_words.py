"""When the deck runs out, the table says so in a player's words: stud's community card
(RULEBOOK §6.4: eight players, too few cards for every 7th) is named on the felt and in
the log, and a draw's muck shuffled into a new deck (§6.7) is told in the log; the
rules pages say both rules. The log used to say "Board: 8h." at a stud table and
nothing at all of a reshuffle (the outside audit of decks, 2026-12-07)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_the_community_card_and_the_reshuffle_are_told(page: Any, server: str) -> None:
    page.goto(server + "/#/rules")
    said = page.evaluate(
        """async () => {
        const { describe, BetWords } = await import('/js/tablelog.js');
        const { felt } = await import('/js/seats.js');
        const names = (s) => ['Ann', 'Bob'][s];
        const line = (game, e) => {
            const bets = new BetWords();
            bets.see({ type: 'HandStarted', game, table: { stakes: { small_bet: 2 } } });
            // The cards are marked for the log to draw them (cardsLater): read as text here.
            return describe(e, (p) => p, names, false, bets).replace(/[\\x03\\x04]/g, '');
        };
        const board = { type: 'BoardDealt', cards: ['8h'] };
        const hand = { game: 'stud', board: ['8h'], pots: [], seats: [], street: 'seventh street' };
        const centre = felt({ view: { seats: [], hand } }).querySelector('.centre');
        return [line('stud', board), line('razz', board), line('holdem', board),
                line('badugi', { type: 'StubReshuffled', count: 17 }),
                centre.querySelector('small').textContent,
                centre.querySelector('[aria-label]').getAttribute('aria-label')];
    }"""
    )
    assert said == [
        "Community card, every player's 7th card: 8h.",
        "Community card, every player's 7th card: 8h.",
        "Board: 8h.",
        "The deck has run out: 17 cards of the muck are shuffled into a new deck.",
        "Community card",
        "Community card, every player's 7th card",
    ]
    page.goto(server + "/#/rules/stud")
    page.get_by_text("one community card is dealt face up").wait_for(timeout=10_000)
    page.goto(server + "/#/rules/draw")
    page.get_by_text("never your own discards of this draw").wait_for(timeout=10_000)
