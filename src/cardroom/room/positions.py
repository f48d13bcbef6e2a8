"""Between hands: who is dealt in, who posts which blind, where the button goes.

The dead-button rule (RULEBOOK §10.4, Robert's Rules): the big blind moves to the
next seat clockwise whose player can be dealt in, so nobody posts it twice or
skips it; the small blind goes to the seat that had the big blind (dead when
that player is gone or out); the button goes to the seat that had the small
blind (dead when nobody sits there). Heads-up (two dealt in) the button posts the
small blind, the other player the big blind, the big blind still alternating.

Joining (§10.3, §10.4): a player who owes a big blind (new, or missed it) waits
for the big blind to reach the seat, or posts now; one who missed both blinds
posts the big blind live and the small blind dead. Posting is refused on the
button and in the seats the button and blinds are about to pass (between the
button and the big blind): those wait for the button to go by. The button lands
on a seat just filled after a dead small blind, or coming out of heads-up; the
newcomer there is not dealt in (a dead button on his seat) and posts next hand.
When nobody but waiting players could play with the big blind, they are dealt in
without posting (a game that would not start otherwise), the big blind keeping
its order.

The plan is a pure function of the seats and the last hand's positions, so a
test can state each rule seat by seat.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from cardroom.games import POST_BIG_BLIND, POST_BOTH_BLINDS
from cardroom.games.options import SeatPost

OWES_BIG: Final = POST_BIG_BLIND
OWES_BOTH: Final = POST_BOTH_BLINDS


def dealing_need(need: int, small_blind: int, owes: str | None, post_now: bool) -> int:
    """Chips a seat needs to be dealt in: the game's forced bets (``need``, §10.2), and a
    dead small blind more (``small_blind``) when it owes both blinds and posts them now
    (§10.4); one who waits for the big blind posts only that."""
    return need + small_blind if owes == OWES_BOTH and post_now else need


def as_post(owes: str | None) -> SeatPost | None:
    """A stored "owes" value as the engine's post (checked: records are plain text)."""
    if owes == POST_BIG_BLIND:
        return POST_BIG_BLIND
    if owes == POST_BOTH_BLINDS:
        return POST_BOTH_BLINDS
    if owes is None:
        return None
    raise ValueError(f"unknown blind owed: {owes!r}")


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the planner needs of an occupied seat."""

    eligible: bool
    """In, connected, with the chips for the forced bets."""
    owes: SeatPost | None = None
    post_now: bool = False
    missed_bb_hand: int | None = None


READY: Final = SeatFacts(True)
"""The usual seat: can be dealt in, owes nothing (one shared value: facts are immutable)."""
NOT_READY: Final = SeatFacts(False)
"""A seat that cannot be dealt in and owes nothing."""


@dataclass(frozen=True, slots=True)
class Positions:
    """Seat positions of a hand (a position may be a seat nobody was dealt in from)."""

    button: int
    sb: int
    bb: int


@dataclass(frozen=True, slots=True)
class Plan:
    """The next hand: seats dealt in, the blinds the engine is told, extra posts, and
    what the seats left out now owe."""

    positions: Positions
    dealt: tuple[int, ...]
    small_blind: int | None
    big_blind: int | None
    posts: dict[int, SeatPost] = field(default_factory=dict)
    owes: dict[int, SeatPost] = field(default_factory=dict)
    """New debts of seats not dealt in (a big blind went past them, or both blinds)."""
    missed_at: tuple[int, ...] = ()
    """Seats the big blind went past this hand."""
    fresh: bool = False
    """A new game: everyone eligible dealt in (owing no blind after it, even in HORSE's
    stud rounds: there is no blind game to resume), the blinds placed from the button."""


def between(a: int, s: int, b: int, n: int) -> bool:
    """True when seat ``s`` lies strictly between ``a`` and ``b`` going clockwise."""
    return 0 < (s - a) % n < (b - a) % n


def _next(start: int, among: set[int], n: int) -> int | None:
    """The first seat of ``among`` clockwise after ``start`` (``start`` itself last)."""
    for k in range(1, n + 1):
        s = (start + k) % n
        if s in among:
            return s
    return None


def plan_hand(
    facts: Sequence[SeatFacts | None],
    prev: Positions | None,
    hand_no: int,
    *,
    blinds: bool = True,
    frozen: bool = False,
    drawn: int | None = None,
) -> Plan | None:
    """The plan of hand ``hand_no`` (None: fewer than two players can be dealt in).

    ``blinds`` False (stud, Short Deck): everyone eligible is dealt in and the button
    moves to the next of them; ``frozen`` keeps the positions where they were (HORSE's
    stud). ``drawn``: at a new table (``prev`` None), the seat that won the draw for
    the button (RULEBOOK §3; None: the first eligible seat). A plan is read, never
    changed (its dicts included): the same plan may be returned again."""
    if all(f is None or f is READY or f is NOT_READY for f in facts):
        return _plan_owing_nothing(tuple(facts), prev, blinds, frozen, drawn)
    return _plan(facts, prev, hand_no, blinds, frozen, drawn)


@functools.lru_cache(maxsize=256)
def _plan_owing_nothing(
    facts: tuple[SeatFacts | None, ...],
    prev: Positions | None,
    blinds: bool,
    frozen: bool,
    drawn: int | None,
) -> Plan | None:
    """The plan when no seat owes a blind (most hands): it does not depend on the hand's
    number, so a table going round with the same players reuses the plans made for
    the first round (the planner is pure)."""
    return _plan(facts, prev, 0, blinds, frozen, drawn)


def eligible_seats(facts: Sequence[SeatFacts | None]) -> list[int]:
    """The seats that can be dealt in."""
    return [s for s, f in enumerate(facts) if f is not None and f.eligible]


def _plan(
    facts: Sequence[SeatFacts | None],
    prev: Positions | None,
    hand_no: int,
    blinds: bool,
    frozen: bool,
    drawn: int | None = None,
) -> Plan | None:
    n = len(facts)
    eligible = set(eligible_seats(facts))
    if len(eligible) < 2:
        return None
    if prev is None:  # a new table: the button goes to the draw's winner
        after = None if drawn is None else (drawn - 1) % n
        first = _fresh(eligible, after, n)
        return first if blinds else Plan(first.positions, first.dealt, None, None, fresh=True)
    if not blinds:
        return _plan_open(eligible, prev, n, frozen)
    plan = _plan_blinds(facts, eligible, prev, hand_no)
    return plan if plan is not None else _fresh(eligible, prev.button, n)


def _fresh(dealt: set[int], after: int | None, n: int) -> Plan:
    """A new game: everyone eligible is dealt in, the button moves to the next of them."""
    button = _next(-1 if after is None else after, dealt, n)
    assert button is not None
    sb: int | None = button
    if len(dealt) > 2:
        sb = _next(button, dealt, n)
    assert sb is not None
    bb = _next(sb, dealt, n)
    assert bb is not None
    return Plan(Positions(button, sb, bb), tuple(sorted(dealt)), sb, bb, fresh=True)


def _plan_open(eligible: set[int], prev: Positions, n: int, frozen: bool) -> Plan:
    """A game without blinds: all eligible seats play; the button moves one player on
    (no dead button: nobody owes a blind, so the Short Deck button blind never falls
    on the same player twice), or stays frozen. The blind positions recorded are the
    two players after the button, where a blind game that follows continues from."""
    if frozen:
        return Plan(prev, tuple(sorted(eligible)), None, None)
    plan = _fresh(eligible, prev.button, n)
    return Plan(plan.positions, plan.dealt, None, None)


def _owed(
    facts: Sequence[SeatFacts | None], dealt: set[int], missed: tuple[int, ...], hand_no: int
) -> dict[int, SeatPost]:
    """What each seat left out of the hand owes after it: the big blind when it passed
    the seat; both blinds when the small blind passes a seat that missed the big (the
    hand after it), whether the player sits out or sat in but waits to come in."""
    owes: dict[int, SeatPost] = {}
    for s, f in enumerate(facts):
        if f is None or s in dealt:
            continue
        if s in missed:
            owes[s] = OWES_BOTH if f.owes == OWES_BOTH else OWES_BIG
        elif f.owes == OWES_BIG and f.missed_bb_hand is not None and f.missed_bb_hand < hand_no:
            owes[s] = OWES_BOTH  # the small blind would have come the hand after the big
    return owes


def _plan_blinds(
    facts: Sequence[SeatFacts | None], eligible: set[int], prev: Positions, hand_no: int
) -> Plan | None:
    n = len(facts)
    bb = _next(prev.bb, eligible, n)
    if bb is None or bb == prev.bb:
        return None
    missed = tuple(s for s in range(n) if facts[s] is not None and between(prev.bb, s, bb, n))
    sb_pos, button = prev.bb, prev.sb
    if button == bb:  # out of a heads-up hand: the button goes just before the small blind
        button = (sb_pos - 1) % n
    dealt = {s for s in eligible if facts[s].owes is None} | {bb}  # type: ignore[union-attr]
    posts: dict[int, SeatPost] = {}
    for s in sorted(eligible - dealt):
        f = facts[s]
        assert f is not None and f.owes is not None
        if f.post_now and s not in (sb_pos, button) and not between(button, s, bb, n):
            posts[s] = f.owes
            dealt.add(s)
    if len(dealt) < 2:  # only players waiting to come in: no game unless they are dealt in
        dealt, posts = set(eligible), {}
    owes = _owed(facts, dealt, missed, hand_no)
    if len(dealt) == 2:  # heads-up: the other player has the button and the small blind
        (other,) = dealt - {bb}
        return Plan(Positions(other, other, bb), tuple(sorted(dealt)), other, bb, {}, owes, missed)
    if button in (sb_pos, bb):
        return None
    sb = sb_pos if sb_pos in dealt else None
    return Plan(Positions(button, sb_pos, bb), tuple(sorted(dealt)), sb, bb, posts, owes, missed)
