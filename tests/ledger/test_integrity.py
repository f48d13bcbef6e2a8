"""Integrity flags: shared IP/device and one-way chip flow (chip dumping)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.ledger import (
    ChipDumpFlag,
    ChipDumpPolicy,
    Flow,
    SharedAccessFlag,
    Sighting,
    chip_dump_flags,
    shared_access_flags,
)


def test_accounts_sharing_an_ip_or_device_are_flagged() -> None:
    seen = [
        Sighting("ann", "1.1.1.1", "dev-a"),
        Sighting("bob", "1.1.1.1", "dev-b"),
        Sighting("ann", "2.2.2.2", "dev-a"),
        Sighting("cat", "3.3.3.3", "dev-a"),
        Sighting("dan", "4.4.4.4", ""),
        Sighting("dan", "4.4.4.4", ""),
    ]
    assert shared_access_flags(seen) == [
        SharedAccessFlag("device", "dev-a", ("ann", "cat")),
        SharedAccessFlag("ip", "1.1.1.1", ("ann", "bob")),
    ]


def test_repeated_one_way_flow_is_flagged_and_balanced_flow_is_not() -> None:
    flows = [Flow("ann", "bob", 100, i) for i in (1, 2, 3)] + [
        Flow("cat", "dan", 50, 4),
        Flow("dan", "cat", 50, 5),
        Flow("cat", "dan", 50, 6),
        Flow("cat", "dan", 50, 7),
    ]
    assert chip_dump_flags(flows) == [ChipDumpFlag("ann", "bob", 3, 300, 0, (1, 2, 3))]
    # cat -> dan sent 150, got 50 back: 75% one-way, under the 90% default...
    loose = ChipDumpPolicy(min_transfers=3, one_way_percent=75)
    assert [f.sender for f in chip_dump_flags(flows, loose)] == ["ann", "cat"]
    # ...and two transfers are not yet "repeated".
    assert chip_dump_flags(flows[:2]) == []
    assert chip_dump_flags(flows, ChipDumpPolicy(min_amount=301)) == []


@settings(deadline=None)  # a loaded machine may pause one example past 200 ms
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc"), st.integers(1, 9))))
def test_chip_dump_flags_match_a_brute_force_reference(raw: list[tuple[str, str, int]]) -> None:
    flows = [Flow(s, r, n, i) for i, (s, r, n) in enumerate(raw)]
    policy = ChipDumpPolicy(min_transfers=2, min_amount=5, one_way_percent=80)
    expected = set()
    for a in "abc":
        for b in "abc":
            if a == b:
                continue
            out = [f for f in flows if (f.sender, f.receiver) == (a, b)]
            sent = sum(f.amount for f in out)
            back = sum(f.amount for f in flows if (f.sender, f.receiver) == (b, a))
            if len(out) >= 2 and sent >= 5 and Fraction(sent, sent + back) >= Fraction(4, 5):
                expected.add((a, b))
    assert {(f.sender, f.receiver) for f in chip_dump_flags(flows, policy)} == expected
