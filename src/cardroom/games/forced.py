"""Forced bets as data (RULEBOOK §4, §10.3–§10.4): who posts what before the deal.

:func:`forced_posts` lists the posts in order (antes or the big-blind ante,
small blind, big blind, straddles, the room's extra posts, or the Short Deck
button blind); the hand then takes each post from the stack, all-in for less
when the stack is short, skipping a seat that has nothing left. Either way the
others still call the full forced bet and a raise is measured from it
(:func:`bet_to_call`; RULEBOOK §4, the TDA and Robert's Rules); the short player
plays only for what was matched, the rest going to side pots as usual.

**Big-blind ante** (``Stakes.big_blind_ante``): the big blind's seat posts it
first, so when short the ante takes precedence over the blind (TDA), all-in for
less allowed. It is dead money: no part of any bet, it does not count toward a
call, and it goes to the main pot, which every live player can win whatever they
put in (:func:`cardroom.games.pots.build_pots` ``dead``; PokerKit's rule with
``ante_trimming_status = false``). Heads-up the big blind posts it too. So is a
dead small blind (:data:`DEAD_MONEY`).

**Straddles** (``Stakes.straddles``): live blinds posted, in order, by the seats
left of the big blind (none heads-up, never more than the players dealt in less
two). They count toward the first round; pre-flop action starts left of the last
straddler, who has the option to check or raise when nobody raised. A raise
over a straddle must add at least the straddle (``straddle_raise="straddle"``,
the default: the straddle is the last full bet, as card rooms play; see
:func:`opening_raise`), or only the minimum bet (``"big_blind"``: PokerKit's
sizing, whose minimum raise is the largest of the round's raises and
``min_bet``, blinds and straddles not being raises; the PHH importer sets it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from cardroom.games.checks import is_whole, shown
from cardroom.games.config import POST_BOTH_BLINDS, Seat, TableConfig
from cardroom.games.errors import ConfigError
from cardroom.games.variants import BLINDS, BUTTON_BLIND

BIG_BLIND_ANTE: Final = "big_blind_ante"
"""``Posted.what`` of the big-blind ante (dead money for the main pot)."""
DEAD_SMALL_BLIND: Final = "dead_small_blind"
"""``Posted.what`` of a small blind posted dead by a player back from missing both
blinds (§10.4: straight to the pot, not part of the bet)."""
DEAD_MONEY: Final = frozenset({BIG_BLIND_ANTE, DEAD_SMALL_BLIND})
"""Posts that are dead money: in the main pot, no part of any seat's level for the side
pots (:func:`cardroom.games.pots.build_pots` ``dead``). Equal antes are not: they count
in the side pots like any chip."""
STRADDLE: Final = "straddle"
"""``Posted.what`` of a live straddle."""


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
        if not isinstance(given, tuple | list) or len(given) != 2:
            raise ConfigError(f"blind seats are (small, big), not {shown(given)}")
        for s in given:
            if s is not None and not is_whole(s):
                raise ConfigError(f"a blind seat is a seat number or None, not {shown(s)}")
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
    """The posts of a hand in order, and the seat pre-flop action starts left of: the last
    straddler, else the big blind (None without blinds)."""
    stakes, forced = config.stakes, config.variant.forced_bets
    posts = [Post(s, "ante", stakes.ante, False) for s in order] if stakes.ante else []
    big: int | None = None
    if forced == BLINDS:
        sb, big = blind_seats(seats, order, button, given)
        if big is not None and stakes.big_blind_ante:
            posts.append(Post(big, BIG_BLIND_ANTE, stakes.big_blind_ante, False))
        if sb is not None and stakes.small_blind:
            posts.append(Post(sb, "small_blind", stakes.small_blind, True))
        if big is not None:
            posts.append(Post(big, "big_blind", stakes.big_blind, True))
        straddlers = straddle_seats(order, sb, big, len(stakes.straddles))
        for s, amount in zip(straddlers, stakes.straddles, strict=False):
            posts.append(Post(s, STRADDLE, amount, True))
        for s in order:
            post = seats[s].post  # type: ignore[union-attr]
            if post is None:
                continue
            if s in (sb, big):
                raise ConfigError(f"seat {s} already posts a blind this hand")
            if s not in straddlers:  # a straddle (more than a big blind) covers a live post
                posts.append(Post(s, "big_blind", stakes.big_blind, True))
            if post == POST_BOTH_BLINDS:
                posts.append(Post(s, DEAD_SMALL_BLIND, stakes.small_blind, False))
        if straddlers:
            return posts, straddlers[-1]  # pre-flop action starts left of the last straddler
    elif forced == BUTTON_BLIND:
        poster = button if seats[button] is not None else order[-1]
        posts.append(Post(poster, "button_blind", stakes.effective_button_blind, True))
    return posts, big


def straddle_seats(order: Sequence[int], sb: int | None, big: int | None, count: int) -> list[int]:
    """The seats that straddle: the next ``count`` seats left of the big blind, never the
    blinds, at most the players dealt in less two (so none heads-up)."""
    if big is None or not count:
        return []
    i = order.index(big)
    after = [s for s in (*order[i + 1 :], *order[:i]) if s != sb]
    return after[: min(count, len(order) - 2)]


def bet_to_call(posts: Sequence[Post]) -> int:
    """The bet to call when the first round opens (RULEBOOK §4): the full amount of the
    largest live forced bet, even when its poster could not cover it (all-in for less, or
    nothing left after the ante); that player plays only for what the others match.

    >>> bet_to_call([Post(0, "small_blind", 1, True), Post(1, "big_blind", 2, True)])
    2
    >>> bet_to_call([Post(0, "ante", 5, False)])
    0
    """
    return max((post.amount for post in posts if post.live), default=0)


def opening_raise(config: TableConfig, posts: Sequence[Post]) -> int:
    """The size of a full raise the pre-flop round opens with (0: the minimum bet decides).

    Under ``straddle_raise="straddle"`` it is the last straddle, so at 1/2 with a 4
    straddle the minimum raise is to 8, even when the straddler posted all-in for
    less (RULEBOOK §4: a raise is measured from the full forced bet).

    >>> from dataclasses import replace
    >>> from cardroom.games.config import Stakes
    >>> config = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4,)))
    >>> opening_raise(config, [Post(2, STRADDLE, 4, True)])
    4
    >>> opening_raise(replace(config, straddle_raise="big_blind"), [Post(2, STRADDLE, 4, True)])
    0
    """
    if config.straddle_raise != "straddle":
        return 0
    for post in reversed(posts):
        if post.what == STRADDLE:
            return post.amount
    return 0
