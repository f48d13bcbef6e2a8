"""``cardroom play``: play hands in the terminal against simple bots.

You sit in seat 0 and see what a player at a real table sees, from your seat's
view of the hand: every seat's stack and status, the pot and side pots, a
marker for each street, every face-up card, and at showdown the cards shown
and the hand each made. The bots act at random among their legal actions.

Type the words the prompt lists, in any case, or their short keys:
``fold`` (f), ``check`` (k), ``call`` (c), ``raise 40`` or ``bet 40`` (r 40:
to 40 in this round), ``complete``, ``bring_in`` (b), ``draw 7h 2c`` (d 7h 2c;
``draw`` alone stands pat), ``quit`` (q). Play goes on until you quit, you
or every bot is out of chips, or ``--hands`` hands have been played.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

from cardroom.cli.errors import UsageError, positive_int, seed
from cardroom.cli.names import game_name
from cardroom.cli.play_view import (
    Namer,
    View,
    legal_text,
    showdown_lines,
    stacks_text,
    street_line,
    table_lines,
)
from cardroom.games.checks import MAX_CHIPS
from cardroom.games.variants import VARIANTS

if TYPE_CHECKING:
    from cardroom.games import Action, Hand, LegalActions, TableConfig

Chooser = Callable[["Hand", "LegalActions"], "Action | None"]

GAMES: tuple[str, ...] = tuple(VARIANTS)
"""The engine's games: a game added to ``variants.py`` is playable here with no edit (this
module is imported only to run ``play``, so ``cardroom --help`` still loads no engine)."""


def players_count(text: str) -> int:
    """An argparse type: 2 to 6 seats."""
    count = positive_int(text)
    if not 2 <= count <= 6:
        raise argparse.ArgumentTypeError(f"a table here has 2 to 6 players, not {count}")
    return count


def blinds(text: str) -> tuple[int, int]:
    """An argparse type: ``SMALL/BIG``, two whole numbers with 0 < small <= big."""
    small, sep, big = text.partition("/")
    if not sep or not small.strip().isdigit() or not big.strip().isdigit():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not SMALL/BIG: write both amounts, e.g. --blinds 1/2"
        )
    low, high = int(small), int(big)
    if not 0 < low <= high:
        raise argparse.ArgumentTypeError(f"{text!r}: the small must be above 0 and at most the big")
    return low, high


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    p = subparsers.add_parser(
        "play",
        help="play hands in the terminal against bots",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--game", default="holdem", type=game_name(GAMES), metavar="GAME",
        help=f"game to play: {', '.join(GAMES)} (default holdem)",
    )  # fmt: skip
    p.add_argument("--players", type=players_count, default=3, help="seats at the table (2..6)")
    p.add_argument("--stack", type=positive_int, default=200, help="starting stack in chips")
    p.add_argument(
        "--blinds", type=blinds, default=(1, 2), metavar="SMALL/BIG",
        help="small/big blind, or small/big bet in fixed-limit games (default 1/2)",
    )  # fmt: skip
    p.add_argument(
        "--hands", type=positive_int, help="stop after this many hands (default: until you quit)"
    )
    p.add_argument("--seed", type=seed, help="reproduce the decks and the bots' choices")
    p.add_argument("--watch", action="store_true", help="seat 0 is a bot too: watch a game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play until the player quits, a side runs out of chips, or ``--hands`` are played."""
    from cardroom.games import ConfigError, Hand

    if args.stack * args.players > MAX_CHIPS:  # every chip may end in one stack
        raise UsageError(
            f"--stack {args.stack}: {args.players} players hold at most 2**53 - 1 chips "
            f"in all, {MAX_CHIPS // args.players} each"
        )
    try:
        config = _config(args.game, *args.blinds)
    except ConfigError as exc:  # the table is the command line's: a usage error
        small, big = args.blinds
        raise UsageError(f"--blinds {small}/{big}: {exc}") from None
    rng = random.Random(args.seed)
    # Watching, every seat is a bot and every action is printed.
    choosers: dict[int, Chooser] = {} if args.watch else {0: _human(sys.stdin, sys.stdout)}
    stacks: list[int | None] = [args.stack] * args.players
    button, number = args.players - 1, 0
    while args.hands is None or number < args.hands:
        if sum(1 for s in stacks if s) < 2 or (not args.watch and not stacks[0]):
            print(f"\ngame over: {stacks_text(stacks)}")
            break
        button = _next_seated(stacks, button)
        seed_ = None if args.seed is None else args.seed * 1000 + number
        hand = Hand(config, stacks, button=button, seed=seed_)
        number += 1
        print(f"\n=== hand {number}: {config.variant.title}, button seat {button}")
        final = _play_hand(hand, choosers, bot=_bot(rng), me=None if args.watch else 0)
        if final is None:
            return 0
        stacks = [s or None for s in final["result"]["stacks"]]
    return 0


def _next_seated(stacks: list[int | None], after: int) -> int:
    """The next seat clockwise after ``after`` that still has chips."""
    n = len(stacks)
    return next(s % n for s in range(after + 1, after + n + 1) if stacks[s % n])


def _config(game: str, small: int, big: int) -> TableConfig:
    from cardroom.games import VARIANTS, Stakes, TableConfig

    variant = VARIANTS[game]
    if variant.name == "short_deck":
        return TableConfig.of(game, Stakes(ante=small, button_blind=big))
    if variant.stud:
        return TableConfig.of(game, Stakes.limit(big, 2 * big, ante=max(1, small // 2)))
    return TableConfig.of(game, Stakes.blinds(small, big))


def _namer(hand: Hand) -> Namer:
    """Names the hand shown cards make, from the cards alone (the evaluators of this table)."""
    from cardroom.cards import parse_cards
    from cardroom.evaluation import get_evaluator

    high = get_evaluator(hand.config.high_evaluator)
    low_name = hand.config.low_evaluator
    low = get_evaluator(low_name) if low_name else None

    def name(hole: Any, board: Any) -> str | None:
        cards, common = parse_cards(" ".join(hole)), parse_cards(" ".join(board))
        value = high(cards, common)
        text = value.name if value else None
        if low is not None:
            low_value = low(cards, common)
            text = f"{text}; low: {low_value.name if low_value else 'none'}"
        return text

    return name


def _play_hand(
    hand: Hand, choosers: Mapping[int, Chooser], bot: Chooser, me: int | None
) -> dict[str, Any] | None:
    """Play one hand; returns the final view of ``me`` (None: the player quit)."""
    from cardroom.games import IllegalAction

    street: str | None = None
    view = _view(hand, me)
    while hand.actor is not None:
        view = _view(hand, me)
        if view["street"] != street:
            street = view["street"]
            print(street_line(view))
            if me is None:
                print("\n".join(table_lines(view)))
        seat = hand.actor
        action = choosers.get(seat, bot)(hand, hand.legal_actions(seat))
        if action is None:
            return None
        try:
            hand.apply(action)
        except IllegalAction as exc:
            print(f"  not allowed: {exc}")
            continue
        if seat not in choosers:
            print(f"  seat {seat}: {_describe(action, view['current_bet'])}")
    final = _view(hand, me)
    if final["board"] and len(final["board"]) > len(view["board"]):
        print(f"*** {final['street']} ***  board: {' '.join(final['board'])}")
    print("\n".join(showdown_lines(final, _namer(hand))))
    return final


def _view(hand: Hand, seat: int | None) -> View:
    """What ``seat`` sees (None: a spectator): the engine's only projection of a hand."""
    return hand.view(seat)


def _describe(action: Action, facing: int) -> str:
    if action.kind == "raise":
        return f"raise to {action.amount}" if facing else f"bet {action.amount}"
    if action.kind == "draw":
        return f"draws {len(action.cards)}" if action.cards else "stands pat"
    return action.kind


def _bot(rng: random.Random) -> Chooser:
    from cardroom.cards import parse_cards
    from cardroom.games import Action

    def choose(hand: Hand, legal: LegalActions) -> Action:
        seat = legal.seat
        if legal.bring_in is not None:  # the only choices: bring in, or complete
            if legal.min_raise_to is not None and rng.random() >= 0.7:
                return Action.raise_to(seat, legal.min_raise_to)
            return Action.bring_in(seat)
        if legal.draw is not None:
            own = [c for c in _view(hand, seat)["seats"][seat]["cards"] if c]
            k = rng.randint(legal.draw_min, legal.draw)
            return Action.draw(seat, parse_cards(rng.sample(own, k)))
        roll = rng.random()
        if legal.min_raise_to is not None and legal.max_raise_to is not None and roll < 0.15:
            top = min(legal.max_raise_to, legal.min_raise_to * 2)
            return Action.raise_to(seat, rng.randint(legal.min_raise_to, top))
        if legal.check:
            return Action.check(seat)
        if legal.call is not None and roll < 0.85:
            return Action.call(seat)
        return Action.fold(seat) if legal.fold else Action.call(seat)

    return choose


def _human(stdin: TextIO, stdout: TextIO) -> Chooser:
    from cardroom.cards import CardError

    def choose(hand: Hand, legal: LegalActions) -> Action | None:
        view = _view(hand, legal.seat)
        print("\n".join(table_lines(view)), file=stdout)
        print(f"  legal: {legal_text(view['legal'])}", file=stdout)
        while True:
            stdout.write("  > ")
            stdout.flush()
            line = stdin.readline()
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                return None
            try:
                return parse_action(legal.seat, line, view["legal"])
            except (ValueError, CardError) as exc:
                print(f"  {exc}", file=stdout)

    return choose


_WORDS = {
    "f": "fold", "fold": "fold", "k": "check", "check": "check",
    "c": "call", "call": "call", "b": "bring_in", "bring_in": "bring_in", "bring-in": "bring_in",
    "bringin": "bring_in", "r": "raise", "raise": "raise", "bet": "raise", "complete": "raise",
    "d": "draw", "draw": "draw", "pat": "draw", "stand": "draw",
}  # fmt: skip
"""Every word (and short key) ``play`` accepts, lower case -> the action kind."""


def parse_action(seat: int, line: str, legal: dict[str, Any] | None = None) -> Action:
    """The action a typed line asks for: a word or short key, in any case, then its amount or cards.

    ``legal`` (the view's legal actions) lets ``complete`` and ``raise`` without
    an amount mean the only size a fixed-limit raise can have.
    """
    from cardroom.cards import parse_cards
    from cardroom.games import Action

    word, _, rest = line.strip().partition(" ")
    kind = _WORDS.get(word.lower())
    if word.lower() == "bring" and rest.strip().lower() == "in":
        kind, rest = "bring_in", ""
    if kind is None:
        raise ValueError("type fold, check, call, raise N, bring_in, draw CARDS or quit")
    if kind == "raise":
        amount = rest.strip()
        if not amount and legal and legal.get("min_raise_to") == legal.get("max_raise_to"):
            amount = str(legal.get("min_raise_to") or "")
        if not amount.isdigit():
            raise ValueError(f"write the total to {word.lower()} to, e.g. '{word.lower()} 40'")
        return Action.raise_to(seat, int(amount))
    if kind == "draw":
        # Cards in any case too: "7H 2C" is 7h 2c.
        cards = " ".join(c[:-1].upper() + c[-1:].lower() for c in rest.split())
        return Action.draw(seat, () if word.lower() in ("pat", "stand") else parse_cards(cards))
    return Action(seat, kind)
