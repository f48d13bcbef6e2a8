"""``cardroom bench room``: hands per second through a cash table beside the bare engine.

The same random players (mostly check and call, some raises and folds, draws of
random cards) play the same games both ways: straight on :class:`Hand` objects,
and through a :class:`~cardroom.room.table.Table` (commands, events, clocks, each
hand's one ledger transaction, the dead-button planner, the snapshot). The table's
money goes through the port a served table uses
(:class:`~cardroom.server.table_ledger.StepLedger`): each hand's transaction is
built and collected, then taken as the actor's commit takes it; posting it is the
database's work, which ``cardroom bench server`` measures with the rest of the
store (``--memory-ledger`` posts into the in-memory reference ledger instead). Stacks are
deep on both sides so hands play alike. The goal: the room adds less than 30 %
per hand. The two sides alternate hand by hand (both meet the same load on a
shared machine), in five rounds. ``overhead`` is what the room adds to a hand's CPU
time, as a share of the bare engine's:
``(room µs/hand - engine µs/hand) / engine µs/hand``, which is
``engine rate / room rate - 1`` (not ``1 - room rate / engine rate``, the room's
share of its own time, which reads smaller: 0.30 added is 0.23 of the room's time).

The room is the table and the room's integrity review (one monitor with the
shipped rules, :mod:`cardroom.room.review`), which a served room runs once a step
is stored: the two are timed apart (``table_overhead``, ``review_overhead``) and
``overhead`` is both.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from cardroom.cli.errors import positive_seconds
from cardroom.games import Action, Hand, LegalActions, TableConfig
from cardroom.ledger import AccountRef, Currency, MemoryLedger, Reason, Transfer
from cardroom.room.clock import system_clock
from cardroom.room.commands import Act, Sit
from cardroom.room.integrity import IntegrityMonitor
from cardroom.room.integrity_rules import default_rules
from cardroom.room.review import review_table
from cardroom.room.settings import TableSettings
from cardroom.room.sim_tables import config_for
from cardroom.room.table import Table
from cardroom.server.table_ledger import StepLedger

GAMES = ("holdem", "omaha", "stud", "razz", "five_card_draw", "triple_draw_27", "short_deck")
STACK = 100_000
PLAYERS = 6
_ROUNDS = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cardroom bench room`` (``--json`` is added by the caller)."""
    parser.add_argument(
        "--seconds", type=positive_seconds, default=2.0, help="time per measurement"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random players")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game")
    parser.add_argument(
        "--memory-ledger",
        action="store_true",
        help="post into the in-memory reference ledger instead of a served table's port",
    )


def choose(
    legal: LegalActions, cards: tuple[object, ...], rng: random.Random
) -> tuple[str, int, tuple[object, ...]]:
    """A random player's decision: (kind, amount to, discards)."""
    if legal.draw is not None:
        k = rng.randint(legal.draw_min, min(legal.draw, len(cards)))
        return "draw", 0, tuple(rng.sample(cards, k))
    if legal.bring_in is not None:
        return "bring_in", 0, ()
    roll = rng.random()
    if legal.call is not None and roll < 0.1:
        return "fold", 0, ()
    if legal.min_raise_to is not None and roll < 0.25:
        return "raise", legal.min_raise_to, ()
    return ("check" if legal.check else "call"), 0, ()


def _config(game: str) -> TableConfig:
    """The game at six seats, the same configuration for both sides."""
    config = config_for(game)
    return TableConfig(config.variant, config.stakes, max_seats=PLAYERS)


def engine_player(game: str, seed: int) -> Callable[[], Hand]:
    """Plays one bare-engine hand per call (and returns it): hand ``n`` is the table's
    hand ``n`` (same deck, button, stacks and decisions)."""
    config = _config(game)
    rng = random.Random(seed)
    count = [0]
    stacks: list[int] = [STACK] * PLAYERS

    def play() -> Hand:
        count[0] += 1
        # The table's first hand puts the button on seat 0; it moves one seat a hand.
        button = (count[0] - 1) % PLAYERS
        hand = Hand(config, stacks, button, seed=f"{seed}:{count[0]}")
        while hand.actor is not None:
            seat = hand.actor
            kind, amount, cards = choose(hand.legal_actions(seat), hand.hole_cards(seat), rng)
            hand.apply(Action(seat, kind, amount, cards))  # type: ignore[arg-type]
        stacks[:] = hand.stacks  # chips carry over to the next hand, as at the table
        return hand

    return play


RoomParts = tuple[Callable[[], Hand], Callable[[], object]]
"""A room's two parts of a hand: the table's step, and the room's review after it."""


def room_parts(
    game: str, seed: int, *, review: bool = True, memory_ledger: bool = False
) -> RoomParts:
    """A table and the room's integrity review (one monitor, the shipped rules), as a
    served room runs them: the first plays one hand through the table per call (and
    returns it); the second reviews what the table set aside (as an actor does once the
    step is stored; ``review`` False: drops it unseen). ``memory_ledger``: money is
    posted into a :class:`MemoryLedger` rather than collected by a served table's port
    and taken after each hand."""
    config = _config(game)
    clock = system_clock  # as a server's table (hands start at once: no pause between)
    settings = TableSettings.single(
        "bench", config, currency=Currency.PLAY, max_buy_in=STACK, seed=str(seed),
        draw_button=False,  # the first button on seat 0, as the engine side's
    )  # fmt: skip
    monitor = IntegrityMonitor(default_rules())
    names = [f"b{i}" for i in range(PLAYERS)]
    memory, port = MemoryLedger(), StepLedger()
    for name in names:
        account = AccountRef.player(name, Currency.PLAY)
        cashier = AccountRef.cashier(Currency.PLAY)
        memory.post(Transfer(f"d{name}", Reason.DEPOSIT, cashier, account, 10 * STACK))
        port.know(account, 10 * STACK)
    table = Table(settings, memory if memory_ledger else port, clock)
    for s, name in enumerate(names):
        table.handle(Sit(name, s, STACK))
    port.take()
    rng = random.Random(seed)

    def play() -> Hand:
        table.tick()
        hand = table.hand
        assert hand is not None
        while table.state.in_hand:
            seat = hand.actor
            assert seat is not None
            kind, amount, cards = choose(hand.legal_actions(seat), hand.hole_cards(seat), rng)
            table.handle(Act(names[seat], kind, amount, cards))  # type: ignore[arg-type]
        port.take()  # the hand's transaction, as the actor's commit takes it
        return hand

    def reviewed() -> object:
        return review_table(monitor, table) if review else table.take_reviews()

    return play, reviewed


def room_player(
    game: str, seed: int, *, review: bool = True, memory_ledger: bool = False
) -> Callable[[], Hand]:
    """Plays one hand through the room per call (and returns it): the table's step, then
    (``review``) the room's integrity review of it; see :func:`room_parts`."""
    play, reviewed = room_parts(game, seed, review=review, memory_ledger=memory_ledger)

    def hand() -> Hand:
        played = play()
        reviewed()
        return played

    return hand


_WARM_UP = 20


def _round(players: tuple[Callable[[], object], ...], seconds: float) -> tuple[int, list[float]]:
    """Hands played by each player in turn, hand by hand, for ``seconds`` of CPU time:
    (hands each, CPU seconds each). Alternating every hand, not every slice, puts both
    sides under the same load on a shared machine (a slice of one side can meet a busy
    second that the other's misses)."""
    hands, took = 0, [0.0] * len(players)
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        for i, play in enumerate(players):
            t0 = clock()
            play()
            took[i] += clock() - t0
        hands += 1
    return hands, took


def measure(game: str, seconds: float, seed: int, *, memory_ledger: bool = False) -> dict[str, Any]:
    """The bare engine and the room on the same hands, alternating hand by hand, in
    rounds: the rates over all rounds, and the overhead of each round (its spread shows
    how steady the machine was). The room's two parts are timed apart: the table's step
    (``table_*``) and the integrity review after it (``review_*``); ``room_*`` is both."""
    table, review = room_parts(game, seed, memory_ledger=memory_ledger)
    players = (engine_player(game, seed), table, review)
    for _ in range(_WARM_UP):  # imports, caches
        for play in players:
            play()
    hands, rounds = 0, []
    took = [0.0, 0.0, 0.0]
    for _ in range(_ROUNDS):
        n, (e, t, r) = _round(players, seconds / _ROUNDS)
        hands, took = hands + n, [a + b for a, b in zip(took, (e, t, r), strict=True)]
        rounds.append(round((t + r) / e - 1, 3))
    engine_us, table_us, review_us = (1e6 * x / hands for x in took)
    room_us = table_us + review_us
    return {
        "engine_hands_per_s": round(1e6 / engine_us, 1),
        "room_hands_per_s": round(1e6 / room_us, 1),
        "engine_us_per_hand": round(engine_us, 1),
        "room_us_per_hand": round(room_us, 1),
        "table_us_per_hand": round(table_us, 1),
        "review_us_per_hand": round(review_us, 1),
        "added_us_per_hand": round(room_us - engine_us, 1),
        "overhead": round((room_us - engine_us) / engine_us, 3),
        "table_overhead": round((table_us - engine_us) / engine_us, 3),
        "review_overhead": round(review_us / engine_us, 3),
        "overhead_by_round": rounds,
    }


OVERHEAD_DEFINITION = (
    "(room_us_per_hand - engine_us_per_hand) / engine_us_per_hand"
    " = engine_hands_per_s / room_hands_per_s - 1, the room being the table's step and"
    " the integrity review after it (table_overhead + review_overhead); goal < 0.30"
)


def run(args: argparse.Namespace) -> int:
    """Measure each game; print ``{game: {rates, µs per hand, overhead}}``, the mean
    overhead and its definition (JSON with --json)."""
    games: dict[str, dict[str, Any]] = {}
    for game in args.game or GAMES:
        games[game] = measure(
            game,
            args.seconds,
            args.seed,
            memory_ledger=args.memory_ledger,
        )
        if not args.json:
            print(game, games[game], flush=True)
    overheads = [rates["overhead"] for rates in games.values()]
    results: dict[str, object] = {
        **games,
        "mean_overhead": round(sum(overheads) / len(overheads), 3),
        "overhead_definition": OVERHEAD_DEFINITION,
        "ledger": "memory" if args.memory_ledger else "served_port",
    }
    if args.json:
        print(json.dumps(results))
    else:
        print("mean_overhead", results["mean_overhead"], "=", OVERHEAD_DEFINITION)
    return 0
