"""The storage's group commit: items queued together are written in one call, and an
item that cannot be written fails alone."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from cardroom.server.storage import Storage


def test_items_queued_together_are_written_in_one_call_and_a_bad_one_fails_alone() -> None:
    storage = Storage("sqlite://", threads=1, queue=0)
    calls: list[list[str]] = []
    stored: list[str] = []

    def write_all(items: Sequence[str]) -> None:  # all or nothing, like a transaction
        calls.append(list(items))
        if "bad" in items:
            raise ValueError("refused")
        stored.extend(items)

    async def go() -> list[BaseException | None]:
        names = ["a", "b", "bad", "c"]
        outcomes = await asyncio.gather(
            *(storage.write(write_all, n) for n in names), return_exceptions=True
        )
        return list(outcomes)

    try:
        outcomes = asyncio.run(go())
    finally:
        storage.close()
    assert outcomes[0] is None and outcomes[1] is None and outcomes[3] is None
    assert isinstance(outcomes[2], ValueError)
    assert calls[0] == ["a", "b", "bad", "c"]  # one group, refused as a whole...
    assert sorted(stored) == ["a", "b", "c"]  # ...then each item alone: only "bad" fails
    assert ["bad"] in calls


def test_a_single_item_is_written_at_once_and_its_error_raised() -> None:
    storage = Storage("sqlite://", threads=1, queue=0)

    def refuse(_items: Sequence[int]) -> None:
        raise RuntimeError("disk on fire")

    try:
        with pytest.raises(RuntimeError, match="disk on fire"):
            asyncio.run(storage.write(refuse, 1))
    finally:
        storage.close()
