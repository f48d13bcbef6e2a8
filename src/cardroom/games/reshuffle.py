"""Where a new stub's order comes from when the muck is shuffled during a hand.

A draw game (and, rarely, stud's community card) may have to shuffle the muck
into a new stub. Real play uses the operating system's CSPRNG; a seeded hand
uses a generator derived from its seed, so tests are reproducible; a replay
feeds back the orders recorded in its
:class:`~cardroom.games.events.StubReshuffled` events. A recorded order may
be only the top of a new stub (the rest of the muck follows in order), or a
stream longer than the muck that serves this reshuffle and the next ones.
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Sequence

from cardroom.cards import Card
from cardroom.games.dealing import random_order
from cardroom.games.draw import recorded_shuffle


class Reshuffler:
    """A shuffle for the muck: recorded orders first (replays), then the hand's generator."""

    __slots__ = ("_made", "_recorded", "_seed")

    def __init__(
        self, seed: int | str | bytes | None, recorded: Sequence[Sequence[Card | None]] = ()
    ) -> None:
        # The generator is made on first use: most hands never reshuffle, and seeding
        # from a string costs more than the rest of a hand's setup.
        self._seed = seed
        self._made: random.Random | None = None
        self._recorded = deque(tuple(order) for order in recorded)

    @property
    def _rng(self) -> random.Random:
        if self._made is None:
            seed = self._seed
            self._made = secrets.SystemRandom() if seed is None else random.Random(f"{seed!r}/muck")
        return self._made

    def __eq__(self, other: object) -> bool:
        # Equal state (so a hand's state compares equal to a copy of itself).
        if not isinstance(other, Reshuffler) or self._recorded != other._recorded:
            return False
        if isinstance(self._rng, secrets.SystemRandom):
            return isinstance(other._rng, secrets.SystemRandom)
        return self._rng.getstate() == other._rng.getstate()

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
        rng = self._rng  # every order equally likely, as the deck's own shuffle
        return random_order(cards, None if isinstance(rng, secrets.SystemRandom) else rng)
