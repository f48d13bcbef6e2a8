"""Failed-login throttling: a sliding window with an explicit clock (no sleeping)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.ledger import retry_after

T0 = datetime(2026, 1, 1, tzinfo=UTC)
WINDOW = timedelta(minutes=15)


def test_fifth_failure_blocks_until_the_first_ages_out() -> None:
    fails = [T0 + timedelta(minutes=m) for m in range(5)]
    assert retry_after(fails[:4], T0 + timedelta(minutes=4), 5, WINDOW) is None
    now = T0 + timedelta(minutes=5)
    assert retry_after(fails, now, 5, WINDOW) == timedelta(minutes=10)
    assert retry_after(fails, T0 + WINDOW - timedelta(seconds=1), 5, WINDOW) is not None
    assert retry_after(fails, T0 + WINDOW, 5, WINDOW) is None


@settings(deadline=None)  # a loaded machine may pause one example past 200 ms
@given(st.lists(st.integers(0, 1800), max_size=12), st.integers(0, 1800), st.integers(1, 6))
def test_wait_is_exactly_until_fewer_than_limit_remain(
    offsets: list[int], now_s: int, limit: int
) -> None:
    fails = [T0 + timedelta(seconds=s) for s in offsets]
    now = T0 + timedelta(seconds=now_s)

    def count(at: datetime) -> int:
        return sum(1 for f in fails if at - WINDOW < f <= now)

    wait = retry_after(fails, now, limit, WINDOW)
    if count(now) < limit:
        assert wait is None
    else:
        assert wait is not None and wait > timedelta(0)
        assert count(now + wait) < limit <= count(now + wait - timedelta(microseconds=1))
