"""The room's disconnect all-in book at a server: the database's, changes stored with steps.

The room asks its book (``cardroom.room.allowances.Allowances``) in memory,
while a step runs; the truth is in the database (``cardroom.store.allowances``).
:class:`KnownAllowances` is this process's copy of the stored counts, loaded at
start-up and kept current by the tables of this process; each table has its
own :class:`StepAllowances`, which answers from that copy and collects the
changes its step made, for the actor to write in the step's own transaction
(like ``StepLedger`` for money). A step whose commit fails is rebuilt from its
record and the counts of its players are read again
(:meth:`KnownAllowances.refresh`): that is also how a use granted here, but
already spent by another process, is undone.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.store.allowances import AllowanceBook, AllowanceChange


class KnownAllowances:
    """(used, resets) per (player, day): what the database holds plus the changes of
    this process's steps not yet stored."""

    def __init__(self, book: AllowanceBook) -> None:
        self.book = book
        self.counts: dict[tuple[str, int], tuple[int, int]] = {}

    def get(self, player: str, day: int) -> tuple[int, int]:
        """(used, resets) of ``player`` on ``day`` as known here."""
        return self.counts.get((player, day), (0, 0))

    def set(self, player: str, day: int, used: int, resets: int) -> None:
        """Record new counts (one assignment: readers never see half of it)."""
        self.counts[player, day] = (used, resets)

    def load(self, day: int) -> None:
        """Read ``day``'s counts from the database (blocking: at start-up, in the pool)."""
        self.counts.update({(p, day): v for p, v in self.book.day(day).items()})

    def forget_before(self, day: int) -> None:
        """Drop the counts of days before ``day`` (no table asks about them again)."""
        self.counts = {k: v for k, v in self.counts.items() if k[1] >= day}

    def refresh(self, players: Iterable[str], day: int) -> None:
        """Read ``players``' counts on ``day`` again (blocking: in the pool)."""
        wanted = list(players)
        stored = self.book.day(day, wanted)
        for p in wanted:
            self.counts[p, day] = stored.get(p, (0, 0))


class StepAllowances:
    """One table's :class:`cardroom.room.allowances.Allowances`: answers from the known
    counts and collects its step's changes (``per_day`` uses, ``resets_per_day`` resets:
    the limits the table grants them under)."""

    def __init__(self, known: KnownAllowances, per_day: int, resets_per_day: int) -> None:
        self.known = known
        self.per_day = per_day
        self.resets_per_day = resets_per_day
        self.pending: list[AllowanceChange] = []

    def used(self, player: str, day: int) -> int:
        """Disconnect all-ins ``player`` used on ``day``."""
        return self.known.get(player, day)[0]

    def use(self, player: str, day: int) -> int:
        """Count one more use (stored with the step); returns the uses that day."""
        used, resets = self.known.get(player, day)
        self.known.set(player, day, used + 1, resets)
        self.pending.append(AllowanceChange(player, day, False, self.per_day))
        return used + 1

    def resets(self, player: str, day: int) -> int:
        """Resets granted to ``player`` on ``day``."""
        return self.known.get(player, day)[1]

    def reset(self, player: str, day: int) -> None:
        """Clear the day's uses and count the reset (stored with the step)."""
        self.known.set(player, day, 0, self.resets(player, day) + 1)
        self.pending.append(AllowanceChange(player, day, True, self.resets_per_day))

    def take(self) -> list[AllowanceChange]:
        """The collected changes, handed to the commit (and forgotten here)."""
        out, self.pending = self.pending, []
        return out
