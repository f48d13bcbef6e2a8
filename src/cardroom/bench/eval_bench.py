"""``cardroom bench eval``: hand-evaluation speed, cardroom beside its peers in the same run.

Every implementation evaluates the same random hands, each in its own card
representation, converted before the clock starts: treys its card integers,
eval7 its Card objects, PokerKit card strings, and cardroom its card keys
(``fast.CARD_KEYS[card]``, reported as ``cardroom``) and plain card indexes
(``cardroom_card_ints``). Repetitions interleave the
implementations, and each rate is the median over the repetitions. Peers
(treys, eval7, PokerKit) are measured when installed and skipped otherwise.

Workloads, with rates in evaluations per second unless the name says ``_ms``:
``7card_single``, ``5card_single`` (one call per hand), ``7card_batch``,
``5card_batch``, ``omaha_batch`` (PLO4 high, 2 + 3), ``omaha_low8_batch``,
``equity_headsup_exact_ms`` (all 1,712,304 boards, milliseconds, tables warm;
median and slowest of four matchups),
``equity_headsup_setup_ms`` (the one-off board table), ``equity_omaha_mc``
(random boards a second, Omaha hi-lo heads-up). The JSON names each
workload's unit under ``"units"``. On a terminal, progress goes to stderr.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from cardroom.cli.errors import positive_int

if TYPE_CHECKING:  # imported where used: `cardroom bench --help` builds no table
    import numpy as np

Hand = tuple[int, ...]
Timer = Callable[[], float]  # runs a workload once, returns elapsed seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cardroom bench eval`` (``--json`` is added by the bench command)."""
    parser.add_argument("--quick", action="store_true", help="a short run (fewer hands, repeats)")
    parser.add_argument(
        "--hands", type=positive_int, default=200_000, help="hands for single-call runs"
    )
    parser.add_argument(
        "--batch-hands", type=positive_int, default=2_000_000, help="hands for batch runs"
    )
    parser.add_argument(
        "--repeat", type=positive_int, default=7, help="repetitions (median reported)"
    )
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random hands")


def random_hands(count: int, size: int, seed: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """``count`` random hands of ``size`` distinct cards each, as a (count, size) uint8 array."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.uint8)


def _loop(function: Callable[..., object], hands: Sequence[Sequence[Any]]) -> Timer:
    def timed() -> float:
        collecting = gc.isenabled()
        gc.disable()  # as timeit does: no collector pauses inside any implementation's run
        try:
            start = time.perf_counter()
            for hand in hands:
                function(*hand)
            return time.perf_counter() - start
        finally:
            if collecting:
                gc.enable()

    return timed


def _single_timers(hands: list[Hand]) -> dict[str, tuple[Timer, int]]:
    """One-call evaluators, each as (timer, hands per run) on the same hands.

    The slow peers take a prefix of the hands (treys 1/20, PokerKit 1/400), so
    every implementation's run lasts about as long and the interleaved runs see
    the same machine load.
    """
    from cardroom.cards import CARDS
    from cardroom.evaluation import fast
    from cardroom.evaluation.tables import CARD_KEYS

    size = len(hands[0])
    by_keys = fast.high7_keys if size == 7 else fast.high5_keys
    by_ints = fast.high7 if size == 7 else fast.high5
    keyed = [tuple(CARD_KEYS[c] for c in hand) for hand in hands]
    timers: dict[str, tuple[Timer, int]] = {
        "cardroom": (_loop(by_keys, keyed), len(keyed)),
        "cardroom_card_ints": (_loop(by_ints, hands), len(hands)),
    }
    text = [[str(CARDS[c]) for c in hand] for hand in hands]
    if importlib.util.find_spec("treys"):
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        as_treys = [[TreysCard.new(c) for c in hand] for hand in text[: max(1, len(text) // 20)]]
        split = [(hand[:2], hand[2:]) for hand in as_treys]
        timers["treys"] = (_loop(evaluator.evaluate, split), len(split))
    if importlib.util.find_spec("eval7"):
        import eval7

        as_eval7 = [([eval7.Card(c) for c in hand],) for hand in text]
        timers["eval7"] = (_loop(eval7.evaluate, as_eval7), len(as_eval7))
    if importlib.util.find_spec("pokerkit"):
        from pokerkit import StandardHighHand

        few = [("".join(h[:2]), "".join(h[2:])) for h in text[: max(1, len(hands) // 400)]]
        timers["pokerkit"] = (_loop(StandardHighHand.from_game, few), len(few))
    return timers


def _batch_timer(function: Callable[[], object]) -> Timer:
    def timed() -> float:
        start = time.perf_counter()
        function()
        return time.perf_counter() - start

    return timed


def _measure(timers: dict[str, tuple[Timer, int]], repeat: int) -> dict[str, float]:
    """Median rate of each timer, the implementations interleaved within each repetition."""
    seconds: dict[str, list[float]] = {name: [] for name in timers}
    for _ in range(repeat):
        for name, (timer, _count) in timers.items():
            seconds[name].append(timer())
    return {name: timers[name][1] / statistics.median(runs) for name, runs in seconds.items()}


HEADS_UP = (
    ((51, 49), (44, 45)),  # As Ad v Kc Kd
    ((50, 46), (42, 38)),  # Ah Kh v Qh Jh: flush over flush
    ((0, 4), (1, 5)),  # 2c 3c v 2d 3d: suited in two suits, the most flush boards
    ((20, 1), (21, 0)),  # 7c 2d v 7d 2c
)


def _equity_ms(repeat: int) -> tuple[float, float, float]:
    """Heads-up preflop exact equity in ms: (first call with the board table, median, slowest).

    Median and slowest are over the matchups of ``HEADS_UP``, each the median of
    ``repeat`` calls.
    """
    from cardroom.evaluation import equity

    start = time.perf_counter()
    equity.equity(HEADS_UP[0])
    setup = time.perf_counter() - start
    per_matchup = []
    for hands in HEADS_UP:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            equity.equity(hands)
            runs.append(time.perf_counter() - start)
        per_matchup.append(statistics.median(runs) * 1000)
    return setup * 1000, statistics.median(per_matchup), max(per_matchup)


UNITS: dict[str, str] = {
    "7card_single": "evaluations/s",
    "5card_single": "evaluations/s",
    "7card_batch": "evaluations/s",
    "5card_batch": "evaluations/s",
    "omaha_batch": "evaluations/s",
    "omaha_low8_batch": "evaluations/s",
    "equity_headsup_setup_ms": "ms",
    "equity_headsup_exact_ms": "ms",
    "equity_omaha_mc": "boards/s",
}
"""The unit of every workload's figures (the ``"units"`` object of the JSON output)."""

Progress = Callable[[str], None]  # told the name of each workload as it starts


STEPS = 8
"""Progress steps of a run: one per workload, the two heads-up equity figures measured together."""


def terminal_progress() -> Progress:
    """A progress line on stderr when it is a terminal; silent otherwise (logs, pipes, CI)."""
    if not sys.stderr.isatty():
        return lambda _workload: None
    done = [0]

    def show(workload: str) -> None:
        if workload == "done":
            print("\r\x1b[Kbench eval: done", file=sys.stderr, flush=True)
            return
        done[0] += 1
        line = f"\r\x1b[Kbench eval: {done[0]}/{STEPS} {workload} ..."
        print(line, end="", file=sys.stderr, flush=True)

    return show


def measure_all(
    args: argparse.Namespace, progress: Progress | None = None
) -> dict[str, dict[str, float]]:
    """Every workload's rates, keyed by workload then implementation."""
    from cardroom.evaluation import batch, equity

    quick = bool(args.quick)
    single = min(20_000, args.hands) if quick else args.hands
    many = min(200_000, args.batch_hands) if quick else args.batch_hands
    repeat = min(3, args.repeat) if quick else args.repeat
    step = progress or (lambda _workload: None)
    results: dict[str, dict[str, float]] = {}
    for size in (7, 5):
        step(f"{size}card_single")
        hands = [tuple(int(c) for c in h) for h in random_hands(single, size, args.seed + size)]
        results[f"{size}card_single"] = _measure(_single_timers(hands), repeat)
    for size in (7, 5):
        step(f"{size}card_batch")
        arrays = random_hands(many, size, args.seed + 10 + size)
        batch.high_batch(arrays[:1000])  # build the table outside the clock
        timers = {
            "cardroom": (_batch_timer(partial(batch.high_batch, arrays)), many),
            "cardroom_1thread": (_batch_timer(partial(batch.high_batch, arrays, threads=1)), many),
            "cardroom_2threads": (_batch_timer(partial(batch.high_batch, arrays, threads=2)), many),
        }
        results[f"{size}card_batch"] = _measure(timers, repeat)
    omaha = random_hands(many // 10, 9, args.seed + 20)
    hole, board = omaha[:, :4], omaha[:, 4:]
    step("omaha_batch")
    results["omaha_batch"] = _measure(
        {"cardroom": (_batch_timer(lambda: batch.omaha_high_batch(hole, board)), len(omaha))},
        repeat,
    )
    step("omaha_low8_batch")
    results["omaha_low8_batch"] = _measure(
        {"cardroom": (_batch_timer(lambda: batch.omaha_low8_batch(hole, board)), len(omaha))},
        repeat,
    )
    step("equity_headsup_setup_ms, equity_headsup_exact_ms")
    setup_ms, median_ms, slowest_ms = _equity_ms(repeat)
    results["equity_headsup_setup_ms"] = {"cardroom": setup_ms}
    results["equity_headsup_exact_ms"] = {"cardroom": median_ms, "cardroom_slowest": slowest_ms}
    samples = max(1_000, many // 20)
    plo = [(51, 49, 47, 42), (44, 45, 23, 18)]  # As Ad Qs Jh v Kc Kd 7s 6h

    def omaha_mc() -> object:
        return equity.equity(plo, game="omaha_hi_lo", exact=False, samples=samples, seed=1)

    step("equity_omaha_mc")
    results["equity_omaha_mc"] = _measure({"cardroom": (_batch_timer(omaha_mc), samples)}, repeat)
    return results


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; print one JSON object (``--json``) or a table."""
    progress = terminal_progress()
    results = measure_all(args, progress)
    progress("done")
    if args.json:
        print(json.dumps({**results, "units": {name: UNITS[name] for name in results}}))
        return 0
    for workload, rates in results.items():
        unit = "ms" if UNITS[workload] == "ms" else "/s"
        cells = "  ".join(f"{name} {_human(rate)}{unit}" for name, rate in rates.items())
        print(f"{workload:26s} {cells}")
    return 0


def _human(value: float) -> str:
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.2f} {suffix}"
    return f"{value:.1f} "
