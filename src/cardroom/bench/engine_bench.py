"""``cardroom bench engine``: whole hands per second, our engine beside PokerKit.

Each workload plays fresh hands with random legal actions (seeded, the same
policy for every implementation: :func:`cardroom.bench.pokerkit_peer.choose`),
driven one decision at a time as the server would: ask for the legal actions
of the player to act, pick one, apply it. A hand includes creating it from the
configuration, shuffling and dealing, forced bets, showdown and the payouts.

A workload is one line of :data:`WORKLOADS`; it is described by a PHH variant
code (which picks the PokerKit class and our table configuration through
:mod:`cardroom.games.phh_variants`) plus stakes, seats and stacks.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace

from cardroom.bench.engine_driver import to_action
from cardroom.bench.pokerkit_peer import (
    PokerKitGame,
    choose,
    play_random_pokerkit_hand,
    pokerkit_available,
)
from cardroom.cli.errors import positive_seconds
from cardroom.games.hand import Hand
from cardroom.games.options import Structure
from cardroom.games.phh import HandHistory
from cardroom.games.phh_variants import PHH_GAMES, table_config
from cardroom.games.variants import POT_LIMIT

__all__ = ["WORKLOADS", "Workload", "add_arguments", "measure", "run"]


@dataclass(frozen=True, slots=True)
class Workload:
    """One benchmark: a PHH variant code, seats, stakes and starting stacks.

    ``amounts`` holds the PHH amount fields the code needs (``min_bet`` or
    ``small_bet``/``big_bet``, ``bring_in``); ``blinds`` is the PHH
    ``blinds_or_straddles`` prefix (zeros fill the rest); ``structure``
    overrides our betting structure where PokerKit's class plays another one.
    """

    name: str
    code: str
    players: int
    blinds: tuple[int, ...]
    amounts: dict[str, int]
    structure: Structure | None = None
    antes: int = 0
    stack: int = 200
    button_blind: int = 0

    def history(self) -> HandHistory:
        """The hand's starting point as a PHH record (no actions)."""
        n = self.players
        blinds = list(self.blinds) + [0] * (n - len(self.blinds))
        if self.button_blind:
            blinds[-1] = self.button_blind
        return HandHistory(
            variant=self.code,
            antes=(self.antes,) * n,
            starting_stacks=(self.stack,) * n,
            actions=(),
            blinds_or_straddles=tuple(blinds) if blinds else None,
            ante_trimming_status=True,
            **self.amounts,  # type: ignore[arg-type]
        )


#: The workloads, one line each. ``FO/8``: PokerKit's class plays pot limit.
WORKLOADS: tuple[Workload, ...] = (
    Workload("nlhe_6max", "NT", 6, (1, 2), {"min_bet": 2}),
    Workload(
        "omaha_hi_lo_6max", "FO/8", 6, (1, 2), {"small_bet": 2, "big_bet": 2}, structure=POT_LIMIT
    ),
    Workload("short_deck_6max", "NS", 6, (), {"min_bet": 2}, antes=1, button_blind=2),
    Workload("stud_8max", "F7S", 8, (), {"bring_in": 1, "small_bet": 2, "big_bet": 4}, antes=1),
    Workload("triple_draw_6max", "F2L3D", 6, (1, 2), {"small_bet": 2, "big_bet": 4}),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cardroom bench engine`` (``--json`` is added by the caller)."""
    parser.add_argument("--quick", action="store_true", help="short runs (about 1 s each)")
    parser.add_argument(
        "--seconds", type=positive_seconds, default=None, help="time per measurement"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random players")
    parser.add_argument(
        "--workload",
        action="append",
        choices=[w.name for w in WORKLOADS],
        help="measure only this workload (repeatable)",
    )


def run(args: argparse.Namespace) -> int:
    """Measure every workload; print one JSON object ``{workload: {impl: hands/s}}``."""
    seconds = args.seconds if args.seconds is not None else (1.0 if args.quick else 5.0)
    chosen = [w for w in WORKLOADS if not args.workload or w.name in args.workload]
    results: dict[str, dict[str, float]] = {}
    for workload in chosen:
        if workload.code not in PHH_GAMES:
            continue  # the game is not in this build yet
        rates = results[workload.name] = measure(workload, seconds, args.seed)
        if not args.json:
            print(workload.name, rates, flush=True)
    if args.json:
        print(json.dumps(results))
    return 0


_ROUNDS = 5
"""Each implementation is timed in this many alternating slices, so a busy machine
slows both alike instead of whichever happened to run during the busy spell."""


def measure(workload: Workload, seconds: float, seed: int) -> dict[str, float]:
    """Hands per second of each implementation on ``workload``, same seed, same time."""
    players = {"cardroom": _cardroom_player(workload, seed)}
    if pokerkit_available():
        players["pokerkit"] = _pokerkit_player(workload, seed)
    totals = {name: [0, 0.0] for name in players}
    for play_one in players.values():
        play_one()  # warm up lookup tables and caches outside the timing
    for _ in range(_ROUNDS):
        for name, play_one in players.items():
            hands, spent = _slice(play_one, seconds / _ROUNDS)
            totals[name][0] += hands
            totals[name][1] += spent
    return {name: round(hands / spent, 1) for name, (hands, spent) in totals.items()}


def _slice(play_one: Callable[[], object], seconds: float) -> tuple[int, float]:
    """Whole hands played for about ``seconds``: (hands, seconds actually spent)."""
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        play_one()
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands, now - start


def _cardroom_player(workload: Workload, seed: int) -> Callable[[], object]:
    config = table_config(workload.history())
    if workload.structure is not None:
        config = replace(config, structure=workload.structure)
    stacks = [workload.stack] * workload.players
    button = workload.players - 1
    rng = random.Random(seed)
    counter = iter(range(1 << 62))

    def play_one() -> object:
        # As the server drives a table: legal actions of the seat to act, then apply.
        hand = Hand(config, stacks, button, seed=seed << 32 | next(counter))
        while (seat := hand.actor) is not None:
            decision = choose(hand.legal_actions(seat), rng)
            hand.apply(to_action(hand, seat, decision))
        return hand.stacks

    return play_one


def _pokerkit_player(workload: Workload, seed: int) -> Callable[[], object]:
    history = workload.history()
    amounts = {k: v for k, v in workload.amounts.items() if v is not None}
    rng = random.Random(seed)
    # Built once, as our side builds its table configuration once.
    game = PokerKitGame(
        workload.code,
        antes=history.antes,
        blinds=history.blinds_or_straddles,
        amounts=amounts,
        deal=True,
    )
    stacks: tuple[int, ...] = history.starting_stacks  # type: ignore[assignment]

    def play_one() -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PokerKit warns when it reshuffles the muck
            return play_random_pokerkit_hand(game.hand(stacks), rng)

    return play_one
