"""Forced bets as data (RULEBOOK §4, §10.3–§10.4): who posts what before the deal.

:func:`forced_posts` lists the posts in order (antes, small blind, big blind, the
room's extra posts, or the Short Deck button blind); the hand then takes each
post from the stack, all-in for less when the stack is short, skipping a seat
that has nothing left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cardroom.games.config import POST_BOTH_BLINDS, Seat, TableConfig
from cardroom.games.errors import ConfigError
from cardroom.games.variants import BLINDS, BUTTON_BLIND


class Post(NamedTuple):
    """One forced bet: ``live`` posts count toward the first betting round."""

    seat: int
    what: str
    amount: int
    live: bool


def blind_seats(
    seats: Sequence[Seat | None],
    order: Sequence[int],
    button: int,
    given: tuple[int | None, int | None] | None,
) -> tuple[int | None, int | None]:
    """The small- and big-blind seats: left of the button, or the button posts the small
    blind heads-up; ``given`` (from the room, e.g. a dead small blind) wins when set."""
    if given is not None:
        for s in given:
            if s is not None and (not 0 <= s < len(seats) or seats[s] is None):
                raise ConfigError(f"blind seat {s} is not dealt in")
        if given[0] is not None and given[0] == given[1]:
            raise ConfigError("one seat cannot post both blinds")
        return given
    if len(order) == 2 and seats[button] is not None:
        return button, order[0]  # heads-up: the button posts the small blind
    return order[0], order[1]


def forced_posts(
    config: TableConfig,
    seats: Sequence[Seat | None],
    order: Sequence[int],
    button: int,
    given: tuple[int | None, int | None] | None,
) -> tuple[list[Post], int | None]:
    """The posts of a hand in order, and the big blind's seat (None without blinds)."""
    stakes, forced = config.stakes, config.variant.forced_bets
    posts = [Post(s, "ante", stakes.ante, False) for s in order] if stakes.ante else []
    big: int | None = None
    if forced == BLINDS:
        sb, big = blind_seats(seats, order, button, given)
        if sb is not None and stakes.small_blind:
            posts.append(Post(sb, "small_blind", stakes.small_blind, True))
        if big is not None:
            posts.append(Post(big, "big_blind", stakes.big_blind, True))
        for s in order:
            post = seats[s].post  # type: ignore[union-attr]
            if post is None:
                continue
            if s in (sb, big):
                raise ConfigError(f"seat {s} already posts a blind this hand")
            posts.append(Post(s, "big_blind", stakes.big_blind, True))
            if post == POST_BOTH_BLINDS:
                posts.append(Post(s, "dead_small_blind", stakes.small_blind, False))
    elif forced == BUTTON_BLIND:
        poster = button if seats[button] is not None else order[-1]
        posts.append(Post(poster, "button_blind", stakes.effective_button_blind, True))
    return posts, big
