"""``cardroom play``: play hands in the terminal against simple bots.

You sit in seat 0 and see only what your seat's view shows; the bots act at
random among their legal actions. Type ``f`` (fold), ``k`` (check), ``c``
(call), ``r 40`` (bet or raise to 40 in this round), ``b`` (bring-in),
``d 7h 2c`` (discard and draw; ``d`` alone stands pat), ``q`` to quit.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from cardroom.cards import CardError, parse_cards
from cardroom.games import (
    VARIANTS,
    Action,
    ConfigError,
    Hand,
    IllegalAction,
    LegalActions,
    Stakes,
    TableConfig,
)

Chooser = Callable[[Hand, LegalActions], Action | None]


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    p = subparsers.add_parser("play", help="play hands in the terminal against bots")
    p.add_argument("--game", default="holdem", choices=sorted(VARIANTS), help="game to play")
    p.add_argument("--players", type=int, default=3, help="seats at the table (2..6)")
    p.add_argument("--stack", type=int, default=200, help="starting stack in chips")
    p.add_argument("--blinds", default="1/2", help="small/big blind (or small/big bet)")
    p.add_argument("--hands", type=int, default=3, help="how many hands to play")
    p.add_argument("--seed", type=int, help="reproduce the decks and the bots' choices")
    p.add_argument("--watch", action="store_true", help="seat 0 is a bot too: watch a game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play ``args.hands`` hands; returns 0, or 2 for bad settings."""
    try:
        small, big = (int(x) for x in args.blinds.split("/"))
        if not 2 <= args.players <= 6 or args.stack <= 0:
            raise ValueError("players must be 2..6 and the stack positive")
        config = _config(args.game, small, big)
    except (ValueError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    bot = _bot(rng)
    # Watching, every seat is a bot and every action is printed.
    choosers: dict[int, Chooser] = {} if args.watch else {0: _human(sys.stdin, sys.stdout)}
    stacks: list[int | None] = [args.stack] * args.players
    for number in range(args.hands):
        if sum(1 for s in stacks if s) < 2:
            break
        button = number % args.players
        seed = None if args.seed is None else args.seed * 1000 + number
        hand = Hand(config, [s or None for s in stacks], button=button, seed=seed)
        print(f"\n=== hand {number + 1}: {config.variant.title}, button seat {button}")
        if not _play_hand(hand, choosers, bot):
            return 0
        stacks = [s or None for s in hand.result.stacks] if hand.result else stacks
    return 0


def _config(game: str, small: int, big: int) -> TableConfig:
    variant = VARIANTS[game]
    if variant.name == "short_deck":
        return TableConfig.of(game, Stakes(ante=small, button_blind=big))
    if variant.stud:
        return TableConfig.of(game, Stakes.limit(big, 2 * big, ante=max(1, small // 2)))
    return TableConfig.of(game, Stakes.blinds(small, big))


def _play_hand(hand: Hand, choosers: Mapping[int, Chooser], bot: Chooser) -> bool:
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        action = choosers.get(seat, bot)(hand, legal)
        if action is None:
            return False
        try:
            hand.apply(action)
        except IllegalAction as exc:
            print(f"  not allowed: {exc}")
            continue
        if seat not in choosers:
            print(f"  seat {seat}: {_describe(action)}")
    _show_result(hand)
    return True


def _describe(action: Action) -> str:
    if action.kind == "raise":
        return f"raise to {action.amount}"
    if action.kind == "draw":
        return f"draws {len(action.cards)}"
    return action.kind


def _show_result(hand: Hand) -> None:
    view: dict[str, Any] = hand.view(None)
    print(f"  board: {' '.join(view.get('board') or []) or '-'}")
    result = hand.result
    if result is None:
        return
    for pot in result.pots:
        for award in pot.awards:
            named = f" with {award.hand}" if award.hand else ""
            print(f"  seat {award.seat} wins {award.amount}{named}")
    print(f"  stacks: {list(result.stacks)}")


def _bot(rng: random.Random) -> Chooser:
    def choose(hand: Hand, legal: LegalActions) -> Action:
        seat = legal.seat
        if legal.bring_in is not None:  # the only choices: bring in, or complete
            if legal.min_raise_to is not None and rng.random() >= 0.7:
                return Action.raise_to(seat, legal.min_raise_to)
            return Action.bring_in(seat)
        if legal.draw is not None:
            seen: dict[str, Any] = hand.view(seat)
            own = [c for c in seen["seats"][seat]["cards"] if c]
            return Action.draw(seat, parse_cards(rng.sample(own, rng.randint(0, legal.draw))))
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
    def choose(hand: Hand, legal: LegalActions) -> Action | None:
        view: dict[str, Any] = hand.view(legal.seat)
        me = view["seats"][legal.seat]
        board = " ".join(view.get("board") or []) or "-"
        cards = " ".join(c or "??" for c in me["cards"])
        print(f"  you: {cards}  board: {board}  stack {me['stack']}", file=stdout)
        print(f"  legal: {_legal_text(legal)}", file=stdout)
        while True:
            stdout.write("  > ")
            stdout.flush()
            line = stdin.readline()
            if not line or line.strip() == "q":
                return None
            try:
                return _parse(legal.seat, line)
            except (ValueError, CardError) as exc:
                print(f"  {exc}", file=stdout)

    return choose


def _legal_text(legal: LegalActions) -> str:
    parts = []
    for kind in legal.kinds:
        if kind == "call":
            parts.append(f"c (call {legal.call})")
        elif kind == "raise":
            parts.append(f"r N ({legal.min_raise_to}..{legal.max_raise_to})")
        elif kind == "draw":
            parts.append(f"d CARDS (up to {legal.draw})")
        else:
            parts.append(kind)
    return ", ".join(parts)


_KINDS = {"f": "fold", "k": "check", "c": "call", "b": "bring_in"}


def _parse(seat: int, line: str) -> Action:
    word, _, rest = line.strip().partition(" ")
    if word in _KINDS:
        return Action(seat, _KINDS[word])
    if word == "r":
        if not rest.strip().isdigit():
            raise ValueError("write the total to raise to, e.g. 'r 40'")
        return Action.raise_to(seat, int(rest))
    if word == "d":
        return Action.draw(seat, parse_cards(rest))
    raise ValueError("type f, k, c, r N, b, d CARDS or q")
