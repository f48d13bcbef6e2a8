"""Soko through the engine, checked against a brute-force Soko ranking written here.

RULEBOOK §2 and §6.5: five-card stud (1 down + 1 up, then three up cards, four
betting rounds), ante, the highest up card brings in (spades > hearts > diamonds
> clubs), standard order with a 4-flush above a 4-straight, both between one
pair and two pair. The reference below classifies five cards by counting, with
no lookup tables; ties inside the two extra hands follow the evaluator's
documented reading (the four cards from the top, then the odd card).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardroom.cards import Card, parse_cards
from cardroom.games import Action, Hand, Stakes, TableConfig, arrange_deck
from cardroom.games import events as ev

CONFIG = TableConfig.of("soko", Stakes(ante=1, small_bet=4, big_bet=8, bring_in=2))
# Standard categories, lowest first, with Soko's two extra hands in place.
ORDER = (
    "high",
    "pair",
    "4-straight",
    "4-flush",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
)


def _straight_top(ranks: set[int], length: int) -> int | None:
    """Top rank of the best run of ``length`` consecutive ranks (ace high or low)."""
    extended = ranks | ({-1} if 12 in ranks else set())
    for top in range(12, length - 3, -1):
        if all(r in extended for r in range(top - length + 1, top + 1)):
            return top
    return None


def reference(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """Brute-force Soko value: (category index, tie-break ranks)."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    by_count = tuple(sorted(ranks, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    suits = Counter(c.suit for c in cards)
    flush = len(suits) == 1
    top = _straight_top(set(ranks), 5)
    if flush and top is not None:
        return ORDER.index("straight flush"), (top,)
    if shape[0] == 4:
        return ORDER.index("quads"), by_count
    if shape[:2] == [3, 2]:
        return ORDER.index("full house"), by_count
    if flush:
        return ORDER.index("flush"), tuple(ranks)
    if top is not None:
        return ORDER.index("straight"), (top,)
    if shape[0] == 3:
        return ORDER.index("trips"), by_count
    if shape[:2] == [2, 2]:
        return ORDER.index("two pair"), by_count
    suit, n = suits.most_common(1)[0]
    if n == 4:
        four = sorted((c.rank for c in cards if c.suit == suit), reverse=True)
        odd = [c.rank for c in cards if c.suit != suit]
        return ORDER.index("4-flush"), (*four, *odd)
    top4 = _straight_top(set(ranks), 4)
    if top4 is not None:
        run = {r % 13 for r in range(top4 - 3, top4 + 1)}
        odd = sorted(ranks, reverse=True)
        for r in run:
            odd.remove(r)
        return ORDER.index("4-straight"), (top4, *odd)
    if shape[0] == 2:
        return ORDER.index("pair"), by_count
    return ORDER.index("high"), tuple(ranks)


def play_to_showdown(hand: Hand) -> None:
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        if legal.bring_in is not None:
            hand.apply(Action.bring_in(seat))
        else:
            hand.apply(Action.check(seat) if legal.check else Action.call(seat))


def test_showdowns_agree_with_the_brute_force_ranking() -> None:
    rng = random.Random("soko")
    checked = 0
    for i in range(400):
        players = rng.randint(2, 8)
        hand = Hand(CONFIG, [100] * players, button=players - 1, seed=i)
        play_to_showdown(hand)
        assert hand.result is not None
        values = {s: reference(hand.hole_cards(s)) for s in range(players)}
        best = max(values.values())
        winners = {a.seat for a in hand.result.pots[0].awards}
        assert winners == {s for s, v in values.items() if v == best}, hand.events
        checked += 1
    assert checked == 400


def test_the_reference_and_the_soko_order() -> None:
    def cat(text: str) -> str:
        return ORDER[reference(parse_cards(text))[0]]

    assert cat("2h 5h 9h Kh 3c") == "4-flush"
    assert cat("5c 6d 7h 8s Kc") == "4-straight"
    assert cat("Ac 2d 3h 4s 9c") == "4-straight"
    assert cat("Qc Kd Ah 2s 7c") == "high"  # no wrap-around run
    assert reference(parse_cards("2h 5h 9h Kh 3c")) > reference(parse_cards("5c 6d 7h 8s Kc"))
    assert reference(parse_cards("5c 6d 7h 8s Kc")) > reference(parse_cards("Ac Ad 9h 6s 2c"))
    assert reference(parse_cards("2c 2d 3h 3s 4c")) > reference(parse_cards("2h 5h 9h Kh 3c"))


def test_four_betting_rounds_and_the_highest_card_brings_in() -> None:
    holes = {0: parse_cards("2c Ah 3c 4c 5c"), 1: parse_cards("2d As 3d 4d 5d")}
    holes[2] = parse_cards("2h Kc 3h 4h 5h")
    deck = arrange_deck(CONFIG, [0, 1, 2], holes)
    hand = Hand(CONFIG, [100] * 3, button=2, deck=deck, seed=1)
    assert hand.actor == 1  # As beats Ah: spades > hearts
    assert hand.legal_actions(1).bring_in == 2
    play_to_showdown(hand)
    closed = [e for e in hand.events if isinstance(e, ev.BettingClosed)]
    assert len(closed) == 4
    assert all(len(hand.hole_cards(s)) == 5 for s in range(3))
