"""Random hands of every game and structure, for the record and authority properties.

Not a test module: the property tests import it. One configuration per game and
structure the engine accepts, with generic stakes; a seeded random player that
also takes the room's decisions (timeouts, disconnect all-ins) now and then.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from cardroom.games import (
    DISCONNECT_ALL_IN,
    STRUCTURES,
    TIMEOUT,
    VARIANTS,
    Action,
    ConfigError,
    Hand,
    RoomAction,
    Seat,
    Stakes,
    TableConfig,
    events,
    seed_003_rule,
)


def configs() -> Iterator[tuple[str, str, TableConfig]]:
    """Every (game, structure) the engine plays, with generic stakes and, half the time, rake."""
    for game in VARIANTS:
        for structure in STRUCTURES:
            if game == "short_deck":
                stakes = Stakes(ante=1, button_blind=2, small_bet=2, big_bet=4, spread=(2, 4, 6))
            else:
                stakes = Stakes(
                    small_blind=1,
                    big_blind=2,
                    ante=1,
                    small_bet=2,
                    big_bet=4,
                    bring_in=1,
                    spread=(2, 4, 6),
                )
            rake = seed_003_rule(structure, 2) if len(game) % 2 else None
            try:
                config = TableConfig.of(game, stakes, structure=structure, rake=rake)
            except ConfigError:
                continue  # a structure this game is not played at
            yield game, structure, config


CONFIGS = list(configs())


def new_hand(config: TableConfig, rng: random.Random) -> Hand:
    """A hand with 2 to the seat limit of players (some seats empty, some short)."""
    n = rng.randint(2, min(config.seat_limit, 7))
    seats: list[Seat | int | None] = []
    for _ in range(n):
        roll = rng.random()
        seats.append(None if roll < 0.15 else Seat(rng.randint(1, 150), rng.random() < 0.5))
    if sum(s is not None for s in seats) < 2:
        seats[:2] = [100, 100]
    return Hand(config, seats, rng.randrange(n), seed=rng.getrandbits(64))


def random_move(hand: Hand, rng: random.Random) -> Action | RoomAction:
    """A legal move of the seat to act: mostly a player's action, sometimes the room's."""
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    roll = rng.random()
    if roll < 0.05:
        return RoomAction(seat, TIMEOUT)
    if roll < 0.1 and legal.call is not None and hand.committed[seat]:
        return RoomAction(seat, DISCONNECT_ALL_IN)
    kind = rng.choice(legal.kinds)
    if kind == "draw":
        held = list(legal.held)
        return Action.draw(seat, rng.sample(held, rng.randint(legal.draw_min, legal.draw)))
    if kind == "raise":
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        sizes = legal.raise_sizes or (legal.min_raise_to, legal.max_raise_to)
        if not legal.raise_sizes and rng.random() < 0.3:
            return Action.raise_to(seat, rng.randint(legal.min_raise_to, legal.max_raise_to))
        return Action.raise_to(seat, rng.choice(sizes))
    if kind == "fold" and legal.check and rng.random() < 0.8:
        kind = "check"  # free folds happen, but rarely, so hands reach showdowns
    return Action(seat, kind)


def play(hand: Hand, move: Action | RoomAction) -> list[events.Event]:
    """A player's action through ``apply``, the room's through ``apply_room``."""
    return hand.apply_room(move) if isinstance(move, RoomAction) else hand.apply(move)


def played(config: TableConfig, rng: random.Random) -> Hand:
    """A whole random hand (cancelled now and then, as a room may)."""
    hand = new_hand(config, rng)
    while hand.actor is not None:
        if rng.random() < 0.01:
            hand.cancel()
            break
        play(hand, random_move(hand, rng))
    return hand
