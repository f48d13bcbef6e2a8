"""``cardroom deal``: shuffle a deck and show it (seeded decks are reproducible)."""

from __future__ import annotations

import argparse
from typing import Any

from cardroom.cli.errors import UsageError, positive_int, seed


def register(subparsers: Any) -> None:
    """Add the ``deal`` subcommand."""
    parser = subparsers.add_parser("deal", help="shuffle a deck and print it")
    parser.add_argument("--seed", type=seed, help="reproduce a deck from this whole number")
    parser.add_argument("--short", action="store_true", help="36-card Short Deck")
    parser.add_argument("-n", type=positive_int, help="how many cards to show (default: all)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the first ``n`` cards of a shuffled deck."""
    from cardroom.cards import Deck, format_cards

    deck = Deck.short(args.seed) if args.short else Deck.standard(args.seed)
    size = deck.remaining
    count = size if args.n is None else args.n
    if count > size:
        name = "the Short Deck has" if args.short else "the deck has"
        raise UsageError(f"-n {count}: {name} {size} cards")
    print(format_cards(deck.deal(count)))
    return 0
