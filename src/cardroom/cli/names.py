"""Game names at the command line: the engine's one vocabulary, plus aliases accepted here only.

The engine, the evaluators and every JSON output spell a game one way
(``omaha_hi_lo``, ``short_deck``: the keys of ``cardroom.games.VARIANTS``).
A person typing a command may write ``Omaha-HiLo`` or ``shortdeck``; this
module turns what they type into the engine's name, and nothing past the
command line ever sees an alias.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

ALIASES: dict[str, str] = {
    "hold_em": "holdem",
    "texas_holdem": "holdem",
    "shortdeck": "short_deck",
    "shortdeck_trips": "short_deck_trips",
    "omaha_hilo": "omaha_hi_lo",
    "omaha8": "omaha_hi_lo",
    "plo": "omaha",
    "stud_hilo": "stud_hi_lo",
    "stud8": "stud_hi_lo",
    "courchevel_hilo": "courchevel_hi_lo",
    "27": "triple_draw_27",
    "a5": "triple_draw_a5",
    "draw": "five_card_draw",
}
"""Accepted spelling (after :func:`normalise`) -> the engine's name."""


def normalise(text: str) -> str:
    """Lower case, ``-`` and spaces as ``_``: the form aliases are looked up in."""
    return "_".join(text.strip().lower().replace("-", " ").split())


def game_name(known: tuple[str, ...]) -> Callable[[str], str]:
    """An argparse ``type``: the engine's name for what was typed, if it is one of ``known``."""

    def parse(text: str) -> str:
        name = normalise(text)
        name = ALIASES.get(name, name)
        if name not in known:
            raise argparse.ArgumentTypeError(
                f"no game called {text!r}; choose from {', '.join(known)}"
            )
        return name

    parse.__name__ = "game"  # argparse names the type in its messages
    return parse
