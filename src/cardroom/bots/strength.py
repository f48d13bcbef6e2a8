"""How good a bot's hand is, as a number from 0 to 1 (its rough chance to win).

Flop games (hold'em, Short Deck, Omaha): a small Monte Carlo of the hand's
equity against random hands of the opponents still in, with the evaluators of
:mod:`cardroom.evaluation`. Stud and draw games: a made-hand rule over the
bot's own cards (pairs and better for high games, low unpaired cards for
lowball and Badugi), which needs no simulation. Also which cards to discard
on a draw. Only public information and the bot's own cards are used.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from cardroom.cards import CARDS, SHORT_DECK_CARDS, Card
from cardroom.evaluation import omaha_high, short_deck
from cardroom.evaluation.fast import high_strength

FLOP_GAMES = {
    "holdem": 2, "short_deck": 2, "irish": 4, "omaha": 4, "omaha_hi_lo": 4, "plo5": 5,
    "courchevel": 5, "courchevel_hi_lo": 5, "big_o": 5, "plo6": 6,
}  # fmt: skip
"""Flop games and their hole-card counts (a bot sees only game names; a test checks this
list against the engine's games)."""
LOW_GAMES = {"razz", "triple_draw_a5", "triple_draw_27", "single_draw_27", "badugi"}
"""Games won by the lowest hand (ace low in razz and A-5, high in 2-7)."""

Score = Callable[[Sequence[Card], Sequence[Card]], int]


def _score(deck: str, holes: int) -> Score:
    if deck == "short":
        return lambda hole, board: short_deck([*hole, *board]).strength
    if holes > 2:  # Omaha's two plus three (a rough estimate for Irish before its discard)
        return lambda hole, board: omaha_high(hole, board).strength
    return lambda hole, board: high_strength([*hole, *board])


def equity(
    game: str, hole: Sequence[Card], board: Sequence[Card], opponents: int,
    rng: random.Random, samples: int = 120, deck: str = "standard",
) -> float:  # fmt: skip
    """Monte Carlo equity of ``hole`` against ``opponents`` random hands (ties split);
    ``deck`` is what the hand's events say it is dealt from (the engine decides it)."""
    holes = len(hole)  # the opponents hold as many cards as the bot
    score = _score(deck, holes)
    known = set(hole) | set(board)
    left = [c for c in (SHORT_DECK_CARDS if deck == "short" else CARDS) if c not in known]
    need = 5 - len(board)
    opponents = max(1, min(opponents, (len(left) - need) // holes, 5))
    won = 0.0
    for _ in range(samples):
        drawn = rng.sample(left, need + opponents * holes)
        full = [*board, *drawn[:need]]
        mine = score(hole, full)
        best, ties = True, 1
        for k in range(opponents):
            theirs = score(drawn[need + k * holes : need + (k + 1) * holes], full)
            if theirs > mine:
                best = False
                break
            ties += theirs == mine
        if best:
            won += 1.0 / ties
    return won / samples


def _low_rank(card: Card, ace_low: bool) -> int:
    """Rank for lowball, 1 (ace, when low) .. 13."""
    rank = card.rank + 2
    return 1 if ace_low and rank == 14 else rank


def made_hand(game: str, cards: Sequence[Card]) -> float:
    """A rough strength 0..1 of the bot's own cards (stud and draw games)."""
    if not cards:
        return 0.3
    if game in LOW_GAMES:
        good = len(low_keepers(game, cards))
        want = 4 if game == "badugi" else 5
        return min(1.0, 0.1 + 0.9 * (good / want) ** 2)
    counts = sorted(Counter(c.rank for c in cards).values(), reverse=True)
    top = max(c.rank for c in cards)
    if counts[0] >= 3 or (counts[0] == 2 and len(counts) > 1 and counts[1] == 2):
        return 0.85
    if counts[0] == 2:
        return 0.6
    return 0.25 + 0.15 * (top >= 11)


def low_keepers(game: str, cards: Sequence[Card]) -> list[Card]:
    """The cards worth keeping for a low hand: unpaired, eight or lower (Badugi: one of
    each suit too)."""
    ace_low = game not in ("triple_draw_27", "single_draw_27")
    keep: list[Card] = []
    ranks: set[int] = set()
    suits: set[int] = set()
    for c in sorted(cards, key=lambda c: _low_rank(c, ace_low)):
        r = _low_rank(c, ace_low)
        if r > 8 or r in ranks or (game == "badugi" and c.suit in suits):
            continue
        keep.append(c)
        ranks.add(r)
        suits.add(c.suit)
    return keep


def discards(game: str, cards: Sequence[Card], most: int, least: int = 0) -> list[Card]:
    """Which cards to throw on a draw: at most ``most``, and at least ``least`` (the
    weakest of the cards it would keep go first when it must throw more)."""
    if game in LOW_GAMES:
        keep = set(low_keepers(game, cards))
    else:
        counts = Counter(c.rank for c in cards)
        keep = {c for c in cards if counts[c.rank] >= 2}
        if not keep:
            keep = {max(cards, key=lambda c: c.rank)}
    out = [c for c in cards if c not in keep]
    if game in LOW_GAMES:  # the highest go first
        ace_low = game not in ("triple_draw_27", "single_draw_27")
        out.sort(key=lambda c: _low_rank(c, ace_low), reverse=True)
    else:  # the lowest go first
        out.sort(key=lambda c: c.rank)
    kept = sorted((c for c in cards if c not in out), key=lambda c: c.rank)
    if game in LOW_GAMES:
        kept.reverse()
    return [*out, *kept][: max(least, min(most, len(out)))]
