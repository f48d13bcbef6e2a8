"""Bot decisions: from a ``turn`` message (the legal set) to the fields of an ``act``.

``random_action`` picks any legal action. ``sensible_action`` weighs the hand's
strength (:mod:`cardroom.bots.strength`) against the pot odds: it folds when
calling costs more than its share of the pot is worth, calls when it is
worth it, and bets or raises (about two thirds of the pot, within the legal
bounds) with a strong hand. Both return only what the legal set allows.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardroom.bots import strength
from cardroom.bots.tracker import HandTracker
from cardroom.cards import Card

Strategy = Callable[[dict[str, Any], HandTracker, random.Random], dict[str, Any]]
"""(turn message, what the bot followed of the hand, its random source) -> act fields."""

RAISE_AT = 0.62
"""Strength from which the sensible bot bets or raises (against the field)."""
VALUE_BET_AT = 0.5
"""Strength from which it bets when nobody has (checked to it)."""


def random_action(turn: dict[str, Any], _hand: HandTracker, rng: random.Random) -> dict[str, Any]:
    """A random legal action (checks and calls more often than folds)."""
    legal, cards = turn["legal"], turn.get("cards") or []
    kinds = list(legal.get("actions") or [])
    if not kinds:
        return {"kind": "fold"}
    weights = {"fold": 1, "check": 4, "call": 4, "raise": 2, "bring_in": 3, "draw": 4}
    kind = rng.choices(kinds, [weights.get(k, 1) for k in kinds])[0]
    if kind == "raise":
        sizes = legal.get("raise_sizes") or []
        low, high = legal.get("min_raise_to"), legal.get("max_raise_to")
        amount = rng.choice(sizes) if sizes else rng.randint(low, max(low, min(high, low * 3)))
        return {"kind": "raise", "amount": amount}
    if kind == "draw":
        mine = [c for c in cards if c is not None]
        most = min(int(legal.get("draw") or 0), len(mine))
        count = rng.randint(min(int(legal.get("draw_min") or 0), most), most)
        return {"kind": "draw", "cards": rng.sample(mine, count)}
    return {"kind": kind}


def hand_strength(turn: dict[str, Any], hand: HandTracker, rng: random.Random) -> float:
    """The bot's estimate of its chance to win, 0..1."""
    cards = [Card.parse(c) for c in turn.get("cards") or [] if c]
    board = [Card.parse(c) for c in turn.get("board") or []]
    game = hand.game
    holes = strength.FLOP_GAMES.get(game)
    if holes is not None and len(cards) in (holes, 2):  # 2: Irish after its discard
        samples = 120 if len(cards) == 2 else 40
        opponents = hand.opponents(turn.get("seat"))
        return strength.equity(game, cards, board, opponents, rng, samples, hand.deck)
    return strength.made_hand(game, cards)


def sensible_action(turn: dict[str, Any], hand: HandTracker, rng: random.Random) -> dict[str, Any]:
    """Fold, call or raise by hand strength against pot odds (see the module docstring)."""
    legal = turn["legal"]
    kinds = set(legal.get("actions") or [])
    if "draw" in kinds:
        return _draw(turn, hand)
    if "bring_in" in kinds and "raise" not in kinds:
        return {"kind": "bring_in"}
    win = hand_strength(turn, hand, rng)
    call = int(legal.get("call") or 0)
    pot = max(hand.pot, 1)
    if "raise" in kinds and win >= (RAISE_AT if call else VALUE_BET_AT):
        return {"kind": "raise", "amount": raise_to(legal, pot, call)}
    if "check" in kinds:
        return {"kind": "check"}
    if "call" in kinds and win >= call / (pot + call):  # the pot odds
        return {"kind": "call"}
    if "bring_in" in kinds:
        return {"kind": "bring_in"}
    return {"kind": "fold"} if "fold" in kinds else {"kind": sorted(kinds)[0]}


def raise_to(legal: dict[str, Any], pot: int, call: int) -> int:
    """About two thirds of the pot (after calling) on top, within the legal bounds."""
    sizes = legal.get("raise_sizes") or []
    low, high = int(legal["min_raise_to"]), int(legal["max_raise_to"])
    if sizes:
        return int(min(sizes))
    wanted = low + (2 * (pot + call)) // 3
    return max(low, min(high, wanted))


def _draw(turn: dict[str, Any], hand: HandTracker) -> dict[str, Any]:
    cards = [Card.parse(c) for c in turn.get("cards") or [] if c]
    legal = turn["legal"]
    most = int(legal.get("draw") or 0)
    least = int(legal.get("draw_min") or 0)  # a discard street (Irish) names how many must go
    throw = strength.discards(hand.game, cards, most, least)
    return {"kind": "draw", "cards": [str(c) for c in throw]}
