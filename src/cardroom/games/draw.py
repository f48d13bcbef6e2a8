"""Draw-game rules (RULEBOOK §6.6–§6.7): discards, replacements and the muck reshuffle.

A draw goes clockwise from the first player still in left of the button; each
player discards 0 to all of their cards and is dealt as many replacements. A
discard street (Irish) goes the same way, each player throwing exactly the
street's number of cards with nothing dealt in their place. When
the stub runs out, the muck (burns, discards, folded hands) is shuffled into a
new stub, never including the drawing player's own discards of this draw
(seeds 000, 003). A player who times out on a draw stands pat and may not bet
or raise in the next betting round (seed 003);
:data:`cardroom.games.actions.DRAW_TIMEOUT` names that action for the room.

The functions here are pure: the shuffle is passed in, so a seeded hand is
reproducible and a replay can feed back the recorded order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardroom.cards import Card

Shuffle = Callable[[Sequence[Card]], list[Card]]
"""Returns the given cards in a new (random or recorded) order."""


class DrawError(ValueError):
    """A discard that the rules do not allow (cards not held, repeated, too many)."""


def check_discards(hole: Sequence[Card], discards: Sequence[Card]) -> None:
    """Raise :class:`DrawError` unless ``discards`` are distinct cards of ``hole`` (0 to all)."""
    if len(set(discards)) != len(discards):
        raise DrawError("a card may be discarded only once")
    held = set(hole)
    missing = [c for c in discards if c not in held]
    if missing:
        raise DrawError(f"cannot discard {' '.join(map(str, missing))}: not in this hand")


def timed_out_discards(hole: Sequence[Card], count: int) -> tuple[Card, ...]:
    """What a player who times out on a discard street throws: the last ``count`` cards of
    the hand as dealt (the room cannot stand a player pat there, and must not choose for
    them by strength).

    >>> from cardroom.cards import parse_cards
    >>> [str(c) for c in timed_out_discards(parse_cards("As Kd 7h 2c"), 2)]
    ['7h', '2c']
    """
    return tuple(hole[len(hole) - count :])


def draw_order(seats_in_dealing_order: Sequence[int], still_in: Sequence[int]) -> list[int]:
    """Seats that draw, in order: clockwise from the first player still in left of the button.

    ``seats_in_dealing_order`` starts at the seat left of the button.
    """
    live = set(still_in)
    return [seat for seat in seats_in_dealing_order if seat in live]


@dataclass(frozen=True, slots=True)
class Replacement:
    """The result of one player's draw.

    ``dealt`` are the replacement cards. ``stub`` and ``muck`` are the new stub
    (top first) and muck, the player's discards now included in the muck.
    ``reshuffled`` is the order of the new stub made from the muck, or ``None``
    when the old stub sufficed; a hand records it so a replay deals the same.
    """

    dealt: tuple[Card, ...]
    stub: tuple[Card, ...]
    muck: tuple[Card, ...]
    reshuffled: tuple[Card, ...] | None


def replace_cards(
    stub: Sequence[Card],
    muck: Sequence[Card],
    discards: Sequence[Card],
    shuffle: Shuffle,
) -> Replacement:
    """Deal one replacement per discard from ``stub``, reshuffling the muck if it runs out.

    The stub is dealt to its last card first; only then is the muck (without
    ``discards``, the drawing player's own cards) shuffled into a new stub for
    the rest. Raises :class:`DrawError` if even the muck cannot cover the draw.
    """
    need = len(discards)
    if need <= len(stub):
        return Replacement(
            dealt=tuple(stub[:need]),
            stub=tuple(stub[need:]),
            muck=(*muck, *discards),
            reshuffled=None,
        )
    first = tuple(stub)
    rest = need - len(first)
    if rest > len(muck):
        raise DrawError(
            f"cannot deal {need} cards: {len(stub)} left in the stub and {len(muck)} in the muck"
        )
    new_stub = tuple(shuffle(list(muck)))
    # Cards are distinct, so the same count and the same set mean the same cards.
    if len(new_stub) != len(muck) or set(new_stub) != set(muck):
        raise DrawError("the shuffle must return exactly the muck's cards")
    return Replacement(
        dealt=first + new_stub[:rest],
        stub=new_stub[rest:],
        muck=tuple(discards),
        reshuffled=new_stub,
    )


def recorded_shuffle(order: Sequence[Card | None]) -> Shuffle:
    """A shuffle that returns ``order``: replays a recorded reshuffle exactly.

    ``order`` may also be only the top of the new stub (a hand history knows just
    the cards dealt from it), with ``None`` for a card it does not know (a burn):
    those places and the rest of the stub take the muck's other cards in order.
    """

    def shuffle(cards: Sequence[Card]) -> list[Card]:
        named = [c for c in order if c is not None]
        top = set(named)
        if len(top) != len(named) or not top.issubset(cards) or len(order) > len(cards):
            raise DrawError("the recorded reshuffle holds cards that are not in the muck")
        rest = iter([c for c in cards if c not in top])
        return [*(next(rest) if c is None else c for c in order), *rest]

    return shuffle
