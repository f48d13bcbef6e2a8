"""``cardroom deal``: shuffle a deck and show it (seeded decks are reproducible)."""

from __future__ import annotations

import argparse
from typing import Any

from cardroom.cards import CardError, Deck, format_cards


def register(subparsers: Any) -> None:
    """Add the ``deal`` subcommand."""
    p = subparsers.add_parser("deal", help="shuffle a deck and print it")
    p.add_argument("--seed", help="reproduce a deck from this seed (default: CSPRNG)")
    p.add_argument("--short", action="store_true", help="36-card Short Deck")
    p.add_argument("-n", type=int, default=52, help="how many cards to show")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the first ``n`` cards of a shuffled deck."""
    deck = Deck.short(args.seed) if args.short else Deck.standard(args.seed)
    try:
        print(format_cards(deck.deal(min(args.n, deck.remaining))))
    except CardError as exc:
        print(f"error: {exc}")
        return 2
    return 0
