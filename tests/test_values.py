"""``@value``: plain and fast at run time, frozen to the type checker, hashable.

The type checker is the guard: a value is never assigned after it is built, and
``mypy --strict`` (CI, on the package) refuses any assignment, as it does for a
frozen dataclass. The test runs mypy on a snippet to prove the guard is there.
"""

from __future__ import annotations

import dataclasses
import inspect
import textwrap
from pathlib import Path

import pytest
from mypy import api as mypy_api

from cardroom.games import actions, events
from cardroom.games.config import Seat
from cardroom.ledger import transfers
from cardroom.room import commands
from cardroom.room import events as room_events
from cardroom.values import value


@value
class _Dealt:
    seat: int
    cards: tuple[str, ...] = ()


def test_a_value_compares_and_hashes_by_its_fields() -> None:
    a, b = _Dealt(1, ("Ah",)), _Dealt(1, ("Ah",))
    assert a == b and hash(a) == hash(b)
    assert a != _Dealt(2, ("Ah",))
    assert {a, b} == {a}
    assert not hasattr(a, "__dict__")  # slotted: no stray attribute can be added
    with pytest.raises(AttributeError):
        a.colour = "red"  # type: ignore[attr-defined]


def test_mypy_refuses_assigning_a_field(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(
        textwrap.dedent(
            """
            from cardroom.values import value

            @value
            class Chips:
                amount: int

            c = Chips(5)
            c.amount = 6
            """
        )
    )
    out, _, status = mypy_api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "c"), str(snippet)]
    )
    assert status == 1
    assert 'Property "amount" defined in "Chips" is read-only' in out


def _value_classes(module: object) -> list[type]:
    return [
        c
        for _, c in inspect.getmembers(module, inspect.isclass)
        if c.__module__ == getattr(module, "__name__", None) and dataclasses.is_dataclass(c)
    ]


@pytest.mark.parametrize("module", [events, room_events, commands])
def test_every_event_and_command_is_a_value(module: object) -> None:
    classes = _value_classes(module)
    assert classes
    for c in classes:
        params = getattr(c, "__dataclass_params__")  # noqa: B009 (not in the stubs)
        assert params.unsafe_hash and not params.frozen and "__slots__" in vars(c), c


def test_actions_seats_and_transfers_are_values() -> None:
    for c in (actions.Action, actions.RoomAction, Seat, transfers.Transfer, transfers.Entry):
        assert getattr(c, "__dataclass_params__").unsafe_hash, c  # noqa: B009
