"""Real hand histories in bulk: every hand of a PHH dataset, replayed by us and by PokerKit.

Off by default, since the data is not ours to ship: set ``CARDROOM_PHH_DATASET`` to a
folder of ``.phh``/``.phhs`` files. Two sources (docs/rule_audit.md has the figures):

- the PHH dataset, ``github.com/uoftcprg/phh-dataset`` (HandHQ's 21 million online
  hands, Pluribus's 10,000, televised WSOP hands);
- the ``data/`` folder of PokerKit's own history: ``git archive 14f7714 data`` in a
  clone of ``github.com/uoftcprg/pokerkit`` gives 10,000 Pluribus hands, 83 hands of the
  2023 WSOP $50,000 Players Championship and five famous hands.

PokerKit is the oracle. Each hand must end one of these ways:

- both replay it, to the same finishing stacks (or, for a file that stops before the
  hand ends, to the same stacks behind the line, both saying the hand is unfinished);
- both refuse it (a malformed file: a fixed-limit raise of the wrong size, say);
- PokerKit replays it and we refuse it, and the file's own ``finishing_stacks`` disagree
  with PokerKit's: the file is ambiguous (a big-blind ante written with
  ``ante_trimming_status = true`` but counted as dead money), and a refusal is the honest
  answer.

Anything else fails the test, with every such hand listed.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import pokerkit  # a dev dependency: a test that needs it fails without it
import pytest

from cardroom.games.phh import HandHistory, PhhError, read_path
from cardroom.games.phh_replay import replay

DATASET = os.environ.get("CARDROOM_PHH_DATASET", "")

pytestmark = pytest.mark.skipif(not DATASET, reason="set CARDROOM_PHH_DATASET to a folder")


def pokerkit_hands(path: Path) -> list[Any]:
    """PokerKit's reading of every hand of ``path``: its final state, or the error."""
    out: list[Any] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown optional fields, cash-game folds
        with path.open("rb") as f:
            if path.suffix == ".phhs":
                histories = list(pokerkit.HandHistory.load_all(f))
            else:
                histories = [pokerkit.HandHistory.load(f)]
        for hh in histories:
            try:
                *_, state = hh  # every state of the replay; the last is the end
                out.append((state, getattr(hh, "finishing_stacks", None)))
            except Exception as exc:  # the oracle refuses this hand
                out.append(exc)
    return out


def ours(hh: HandHistory | PhhError) -> tuple[list[int | None], bool] | PhhError:
    """Our stacks at the end of a hand's replay, in the file's smallest unit (None: an
    unknown, ``inf``, stack), and whether the hand finished; or our refusal."""
    if isinstance(hh, PhhError):
        return hh
    try:
        done = replay(hh)
    except PhhError as exc:
        return exc
    return list(done.finishing_stacks), done.finished


def in_units(values: Any, scale: int) -> list[int | None]:
    """PokerKit's numbers (ints or Decimals in the file's units) in the smallest unit; an
    unknown (infinite) stack is None, as ours are."""
    numbers = [Decimal(str(v)) for v in values]
    return [int(n * scale) if n.is_finite() else None for n in numbers]


def judge(mine: Any, theirs: Any, scale: int) -> str:
    """How one hand ended: ``agree`` (or ``unfinished``: the file stops before the hand
    ends, and both engines stand at the same stacks), ``both_refuse``, ``ambiguous``, or a
    failure."""
    if isinstance(theirs, Exception):
        if isinstance(mine, PhhError):
            return "both_refuse"
        return f"FAIL only PokerKit refuses: {theirs}"
    state, finishing = theirs
    expected = in_units(state.stacks, scale)
    if isinstance(mine, PhhError):
        if finishing is not None and in_units(finishing, scale) != expected:
            return "ambiguous"
        return f"FAIL we refuse: {mine}"
    stacks, finished = mine
    if stacks != expected:
        return f"FAIL stacks {stacks} != PokerKit's {expected}"
    if finished != (not state.status):
        return f"FAIL finished: ours {finished}, PokerKit's {not state.status}"
    return "agree" if finished else "unfinished"


def test_every_hand_of_the_dataset_replays_as_pokerkit_replays_it() -> None:
    files = sorted(
        p for p in Path(DATASET).rglob("*") if p.suffix in (".phh", ".phhs") and p.is_file()
    )
    assert files, f"no .phh or .phhs file under {DATASET}"
    counts: Counter[str] = Counter()
    failures: list[str] = []
    for path in files:
        hands = read_path(str(path))
        theirs = pokerkit_hands(path)
        assert len(hands) == len(theirs), f"{path}: {len(hands)} hands, PokerKit {len(theirs)}"
        for index, (hh, their) in enumerate(zip(hands, theirs, strict=True), start=1):
            scale = 1 if isinstance(hh, PhhError) else hh.scale
            verdict = judge(ours(hh), their, scale)
            counts[verdict.split(":")[0]] += 1
            if verdict.startswith("FAIL"):
                failures.append(f"{path}#{index}: {verdict}")
    print(f"\n{len(files)} files: {dict(counts)}")
    assert not failures, "\n".join(failures[:50])
    assert counts["agree"] > 0
