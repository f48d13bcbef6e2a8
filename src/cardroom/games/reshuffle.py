"""Where a new stub's order comes from when the muck is shuffled during a hand.

A draw game (and, rarely, stud's community card) may have to shuffle the muck
into a new stub. Real play uses the operating system's CSPRNG; a seeded hand
uses orders derived from its seed (:func:`~cardroom.cards.seeded_bytes`, the
shuffle of :mod:`cardroom.cards`), so tests are reproducible; a replay feeds back
the orders recorded in its :class:`~cardroom.games.events.StubReshuffled` events.
A recorded order may be only the top of a new stub (the rest of the muck follows in order), or a
stream longer than the muck that serves this reshuffle and the next ones.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from cardroom.cards import Card, Seed, random_order, seeded_bytes
from cardroom.games.draw import recorded_shuffle


class Reshuffler:
    """A shuffle for the muck: recorded orders first (replays), then random orders
    (the hand's seed, stream ``muck/0``, ``muck/1``... or the CSPRNG)."""

    __slots__ = ("_made", "_recorded", "_seed")

    def __init__(self, seed: Seed | None, recorded: Sequence[Sequence[Card | None]] = ()) -> None:
        self._seed = seed
        self._made = 0  # random orders made so far: the next one's stream number
        self._recorded = deque(map(tuple, recorded))

    def __eq__(self, other: object) -> bool:
        # Equal state (so a hand's state compares equal to a copy of itself).
        return isinstance(other, Reshuffler) and (self._seed, self._made, self._recorded) == (
            other._seed,
            other._made,
            other._recorded,
        )

    __hash__ = None  # type: ignore[assignment]

    def __call__(self, cards: Sequence[Card]) -> list[Card]:
        if self._recorded:
            order = self._recorded.popleft()
            if len(order) > len(cards):
                # A hand history's stream of cards dealt after the deck ran out: this
                # new stub's top is its first cards, the next reshuffle gets the rest.
                self._recorded.appendleft(order[len(cards) :])
                order = order[: len(cards)]
            return recorded_shuffle(order)(cards)
        stream, self._made = f"muck/{self._made}", self._made + 1
        seed = self._seed  # every order equally likely, as the deck's own shuffle
        return random_order(cards, None if seed is None else seeded_bytes(seed, stream, len(cards)))
