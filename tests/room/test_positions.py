"""The planner of §3 and §10.3–§10.4 as a pure function, over any seats (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.room.positions import (
    OWES_BIG,
    OWES_BOTH,
    Positions,
    SeatFacts,
    between,
    plan_hand,
)

facts_st = st.one_of(
    st.none(),
    st.builds(
        SeatFacts,
        eligible=st.booleans(),
        owes=st.sampled_from([None, OWES_BIG, OWES_BOTH]),
        post_now=st.booleans(),
        missed_bb_hand=st.one_of(st.none(), st.integers(1, 9)),
    ),
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[SeatFacts | None], Positions | None]:
    n = draw(st.integers(2, 10))
    facts = draw(st.lists(facts_st, min_size=n, max_size=n))
    if draw(st.booleans()):
        return facts, None
    seat = st.integers(0, n - 1)
    return facts, Positions(draw(seat), draw(seat), draw(seat))


@settings(max_examples=400, deadline=None)
@given(tables())
def test_10_4_every_plan_keeps_the_blind_rules(
    table: tuple[list[SeatFacts | None], Positions | None],
) -> None:
    facts, prev = table
    n = len(facts)
    eligible = {s for s, f in enumerate(facts) if f is not None and f.eligible}
    plan = plan_hand(facts, prev, 10)
    if len(eligible) < 2:
        assert plan is None
        return
    assert plan is not None
    dealt = set(plan.dealt)
    assert len(dealt) >= 2 and dealt <= eligible
    bb, sb, button = plan.big_blind, plan.small_blind, plan.positions.button
    assert bb in dealt and bb == plan.positions.bb
    assert sb is None or (sb in dealt and sb != bb)
    if len(dealt) == 2:
        assert sb == button and sb in dealt  # heads-up: the button posts the small blind
    else:
        assert button not in (sb, bb)
    for s, post in plan.posts.items():
        f = facts[s]
        assert f is not None and f.owes == post and f.post_now and s not in (sb, bb)
        assert s != button and not between(button, s, bb, n)  # not from the button to the BB
    for s in dealt - plan.posts.keys() - {bb}:
        f = facts[s]
        # Dealt in without posting: owes nothing, or a new game / a table that could not
        # start otherwise dealt everyone in.
        assert f is not None and (f.owes is None or prev is None or len(plan.posts) == 0)
    for s, owed in plan.owes.items():
        assert s not in plan.dealt
        if s in eligible:  # sat in but kept out: only the small blind it missed is added
            f = facts[s]
            assert f is not None and f.owes == OWES_BIG and f.missed_bb_hand is not None
            assert owed == OWES_BOTH


@settings(max_examples=300, deadline=None)
@given(tables())
def test_10_4_the_big_blind_moves_to_the_next_seat_that_can_play(
    table: tuple[list[SeatFacts | None], Positions | None],
) -> None:
    facts, prev = table
    plan = plan_hand(facts, prev, 10)
    if plan is None or prev is None:
        return
    n = len(facts)
    eligible = {s for s, f in enumerate(facts) if f is not None and f.eligible}
    following = next(s for k in range(1, n + 1) if (s := (prev.bb + k) % n) in eligible)
    if plan.fresh:  # only a fresh start places the blinds otherwise
        assert set(plan.dealt) == eligible and not plan.posts
    else:
        assert plan.positions.bb == following
        skipped = tuple(s for s in range(n) if facts[s] and between(prev.bb, s, following, n))
        assert plan.missed_at == skipped  # every occupied seat it passed missed it
