"""Integrity flags (RULEBOOK §10.1, §10.9) as pure functions over recorded data.

Flags are for an operator to review, never automatic punishment: accounts
seen from the same IP address or device, and repeated one-way chip flow
between the same two accounts (chip dumping).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sighting:
    """A player seen at an IP address and/or device (a login or a registration)."""

    player: str
    ip: str = ""
    device: str = ""


@dataclass(frozen=True, slots=True)
class SharedAccessFlag:
    """Several accounts seen from one IP address or one device."""

    via: str  # "ip" or "device"
    value: str
    players: tuple[str, ...]


def shared_access_flags(sightings: Iterable[Sighting]) -> list[SharedAccessFlag]:
    """A flag for every IP address or device used by more than one account."""
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for s in sightings:
        if s.ip:
            seen["ip", s.ip].add(s.player)
        if s.device:
            seen["device", s.device].add(s.player)
    return [
        SharedAccessFlag(via, value, tuple(sorted(players)))
        for (via, value), players in sorted(seen.items())
        if len(players) > 1
    ]


@dataclass(frozen=True, slots=True)
class Flow:
    """Chips that went from one player to another (a transfer, or a pot won)."""

    sender: str
    receiver: str
    amount: int
    entry_id: int = 0


@dataclass(frozen=True, slots=True)
class ChipDumpPolicy:
    """When one-way flow between two accounts is worth a look.

    ``one_way_percent`` is the share of all chips moving between the pair
    (either way) that went from sender to receiver; integers, no floats.
    """

    min_transfers: int = 3
    min_amount: int = 1
    one_way_percent: int = 90


@dataclass(frozen=True, slots=True)
class ChipDumpFlag:
    """Repeated, mostly one-way chip flow from ``sender`` to ``receiver``."""

    sender: str
    receiver: str
    transfers: int
    sent: int
    returned: int
    entry_ids: tuple[int, ...]


def chip_dump_flags(
    flows: Iterable[Flow], policy: ChipDumpPolicy | None = None
) -> list[ChipDumpFlag]:
    """A flag for every sender → receiver pair whose flow meets the policy."""
    policy = policy or ChipDumpPolicy()
    sent: dict[tuple[str, str], int] = defaultdict(int)
    ids: dict[tuple[str, str], list[int]] = defaultdict(list)
    for f in flows:
        if f.sender == f.receiver:
            continue
        sent[f.sender, f.receiver] += f.amount
        ids[f.sender, f.receiver].append(f.entry_id)
    flags = []
    for (a, b), amount in sorted(sent.items()):
        back = sent.get((b, a), 0)
        count = len(ids[a, b])
        one_way = amount * 100 >= policy.one_way_percent * (amount + back)
        if count >= policy.min_transfers and amount >= policy.min_amount and one_way:
            flags.append(ChipDumpFlag(a, b, count, amount, back, tuple(ids[a, b])))
    return flags
