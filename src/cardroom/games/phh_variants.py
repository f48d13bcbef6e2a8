"""PHH variant codes as table configurations (data).

Each code (the standard's and our extensions, :mod:`cardroom.games.phh_codes`)
maps to one of our games, a betting structure and the table options that make
our rules match the standard's (PHH follows the WSOP rules and PokerKit's
reading of them):

- burn cards as in a live game (our default, and PokerKit's): PHH does not
  record them, so a replayed deck has unknown burns (they decide when a stud
  deck runs short);
- forced bets as the file gives them: ``blinds_or_straddles`` are the small
  and big blind (heads-up, ``p1`` is the big blind) then any straddles, a Short
  Deck file may give a button blind instead (last entry) or ordinary blinds;
- ``antes`` equal for everyone, or a big-blind ante: only the big blind's entry
  set (``[0, X, 0, ...]``; heads-up PokerKit charges ``p1``, the big blind, the
  other player's entry, so it is ``[0, X]`` too). The big-blind ante is dead
  money for the main pot, as PokerKit plays it with ``ante_trimming_status =
  false``; with ``true`` PokerKit counts it in the side pots and we refuse it.
  A player short of equal antes who wins chips is refused under ``false`` (the
  default), which lets him win every ante in full: the engine plays ``true`` (what
  he matched; phh_replay.py);
- a negative ``blinds_or_straddles`` entry: a live post of the big blind by a
  player joining out of position (the engine's ``Seat(post="big_blind")``); when
  the poster's ante entry exceeds everyone else's by the small blind, the post is
  of both blinds, the small one dead (``post="big_and_dead_small"``, §10.4);
- the file's ``min_bet`` / ``small_bet`` / ``big_bet`` / ``bring_in`` rather
  than sizes derived from the blinds (stud at pot or no limit completes to ``min_bet``);
- stud: no big bet for an open pair on 4th street (``fourth_street_pair="small"``)
  and a cap of a completion and three raises (``max_raises=3``). A table with other
  stud options (the room's) exports a hand that plays the same under these
  (:func:`cardroom.games.phh_export.export`).

Seating: PHH player ``pN`` sits in our seat ``N - 1`` and the button is the
last seat, so ``p1`` is the first seat dealt (left of the button).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardroom.games.config import POST_BIG_BLIND, POST_BOTH_BLINDS, Seat, Stakes, TableConfig
from cardroom.games.errors import ConfigError
from cardroom.games.phh import HandHistory, PhhError
from cardroom.games.phh_codes import PHH_CODES, PhhCode
from cardroom.games.variants import (
    BLINDS,
    BRING_IN,
    BUTTON_BLIND,
    LEFT_OF_BIG_BLIND,
    Variant,
    get_variant,
)

__all__ = [
    "PHH_GAMES",
    "big_blind_ante_index",
    "blind_seats",
    "button_seat",
    "dead_small_blinds",
    "phh_code_of",
    "posters",
    "seats_of",
    "table_config",
]


#: Every PHH code this build replays: the standard's and this project's extensions.
PHH_GAMES: dict[str, PhhCode] = PHH_CODES

# The PHH standard's rules where our defaults differ: PokerKit, its reference, lets a
# raise over a straddle add only the big blind.
_PHH_OPTIONS: dict[str, Any] = {"straddle_raise": "big_blind"}


def button_seat(player_count: int) -> int:
    """Our seat of the button in a replayed PHH hand: the last player."""
    return player_count - 1


def phh_code_of(config: TableConfig) -> str:
    """The PHH variant code of a table (the standard's, else this project's extension), or
    :class:`PhhError` when there is none for it (spread limit)."""
    name = config.variant.name.removesuffix("_blinds")
    games = [g for g in PHH_GAMES.values() if g.game == name and g.structure == config.betting]
    # The code whose options the table has (Short Deck's rank order); the table's other
    # options are checked on export against what the code replays.
    games.sort(key=lambda g: -len(g.options))
    for game in games:
        if all(getattr(config, k) == v for k, v in game.options.items()):
            return game.code
    if games:
        return games[-1].code
    raise PhhError(
        f"PHH has no variant code for {config.betting} {config.variant.title}; "
        f"codes: {', '.join(PHH_GAMES)}"
    )


def table_config(hh: HandHistory) -> TableConfig:
    """The table configuration that replays ``hh`` under the PHH standard's rules."""
    game = PHH_GAMES.get(hh.variant)
    if game is None:
        raise PhhError(
            f"variant {hh.variant} cannot be replayed in this build; "
            f"replayable: {', '.join(PHH_GAMES)}"
        )
    variant = get_variant(game.game)
    try:  # the file's amounts may pass what the engine holds (2**53 - 1)
        variant, stakes = _stakes(hh, variant)
    except ConfigError as exc:
        raise PhhError(f"this table cannot be played: {exc}") from None
    options = {**_PHH_OPTIONS, **game.options}
    try:
        return TableConfig(
            variant,
            stakes,
            structure=game.structure,
            max_seats=max(hh.player_count, 2),
            **options,
        )
    except ConfigError as exc:
        raise PhhError(f"this table cannot be played: {exc}") from None


def _stakes(hh: HandHistory, variant: Variant) -> tuple[Variant, Stakes]:
    """The forced bets and bet sizes of ``hh`` (Short Deck may trade its button blind for
    blinds); :class:`ConfigError` for an amount the engine does not hold."""
    ante, big_blind_ante = _antes(hh, variant)
    if variant.forced_bets == BUTTON_BLIND:
        variant, stakes = _short_deck_stakes(hh, variant, ante)
    elif variant.forced_bets == BRING_IN:
        if posters(hh):
            raise PhhError("a live post (negative entry) needs a game with blinds")
        stakes = Stakes(ante=ante)
    else:
        small, big, straddles = _blinds(hh)
        stakes = Stakes(small, big, ante, straddles=straddles)
    small_bet = hh.small_bet
    if small_bet is None and variant.forced_bets == BRING_IN:
        small_bet = hh.min_bet  # big-bet stud completes to the minimum bet
    stakes = replace(
        stakes,
        big_blind_ante=big_blind_ante,
        min_bet=hh.min_bet,
        small_bet=small_bet,
        big_bet=hh.big_bet,
        bring_in=hh.bring_in,
    )
    return variant, stakes


def big_blind_ante_index(player_count: int, lone_blind: bool) -> int:
    """Where PHH's ``antes`` holds a big-blind ante: the big blind's entry (``p2``, or ``p1``
    when ``p1`` posts a lone big blind); heads-up PokerKit charges each player the other
    one's entry, so the big blind (``p1``) pays the entry of ``p2``."""
    big = 0 if lone_blind or player_count == 2 else 1
    return 1 - big if player_count == 2 else big


def _antes(hh: HandHistory, variant: Variant) -> tuple[int, int]:
    """(the ante for everyone, the big-blind ante): one of them is 0. A live poster's
    entry may exceed the others' by a dead small blind (:func:`dead_small_blinds`)."""
    joined = set(_live_posts(hh))
    antes = {a for i, a in enumerate(hh.antes) if i not in joined}
    if len(antes) <= 1 and joined:
        return (antes.pop() if antes else 0), 0
    antes = set(hh.antes)
    if len(antes) <= 1:
        return (antes.pop() if antes else 0), 0
    at = big_blind_ante_index(hh.player_count, _lone_blind(hh))
    others = [a for i, a in enumerate(hh.antes) if i != at]
    if variant.forced_bets == BLINDS and not any(others) and _blind_game(hh):
        if hh.ante_trimming_status:
            raise PhhError(
                f"antes {list(hh.antes)} with ante_trimming_status = true: trimming gives a "
                "lone big-blind ante back to its poster (PokerKit's reading), which a file "
                "with such an ante seldom means; only dead big-blind antes (false) are supported"
            )
        return 0, hh.antes[at]
    raise PhhError(
        f"antes {list(hh.antes)} are not uniform; only equal antes for every player "
        "or a big-blind ante are supported"
    )


def _blind_game(hh: HandHistory) -> bool:
    """The file posts blinds (not a Short Deck button blind)."""
    return any(b > 0 for b in _forced(hh))


def _forced(hh: HandHistory) -> tuple[int, ...]:
    """The blinds and straddles, without the live posts (negative entries) of joining players."""
    return tuple(max(b, 0) for b in hh.blinds_or_straddles or ())


def _lone_blind(hh: HandHistory) -> bool:
    """Only ``p1`` posts, a big blind (the small blind's seat is dead): ``[X, 0, 0, ...]``."""
    blinds = _forced(hh)
    return len(blinds) >= 3 and blinds[0] > 0 and not any(blinds[1:])


def posters(hh: HandHistory) -> list[int]:
    """Players (0-based) who post a live big blind to join out of position: PHH writes the
    post as a negative entry (HandHQ's conversions do). It does not move the first actor."""
    return [i for i, b in enumerate(hh.blinds_or_straddles or ()) if b < 0]


def _live_posts(hh: HandHistory) -> list[int]:
    """Players (0-based) whose live post may come with a dead small blind: the live
    posters, and the straddlers (a straddle covers a returning player's live post)."""
    blinds = hh.blinds_or_straddles or ()
    both = len(blinds) >= 3 and blinds[0] > 0 and blinds[1] > 0  # not a button blind
    straddlers = [i for i, b in enumerate(blinds) if both and i >= 2 and b > 0]
    return sorted({*posters(hh), *straddlers})


def dead_small_blinds(hh: HandHistory) -> dict[int, int]:
    """Players (0-based) posting a dead small blind beside their live big blind (back
    from missing both blinds, RULEBOOK §10.4), and its amount: PHH has no dead blind,
    so the poster's ante entry holds it above the ante everyone else posts."""
    joined = _live_posts(hh)
    others = [a for i, a in enumerate(hh.antes) if i not in joined]
    ante = others[0] if others else 0
    return {i: hh.antes[i] - ante for i in joined if hh.antes[i] != ante}


def seats_of(hh: HandHistory, stacks: list[int]) -> list[int | Seat]:
    """The engine's seats for ``stacks`` (by PHH player): a poster's seat asks for its post
    (a straddler's, with a dead small blind, for both: the straddle covers the live one)."""
    joined, dead = set(posters(hh)), dead_small_blinds(hh)
    return [
        Seat(s, post=POST_BOTH_BLINDS if i in dead else POST_BIG_BLIND)
        if i in joined or i in dead
        else s
        for i, s in enumerate(stacks)
    ]


def _check_posts(hh: HandHistory, small: int, big: int) -> None:
    """A negative entry is a live post of the big blind, by a player who posts no blind
    (after a lone big blind too: it does not move the first actor, left of that blind);
    the poster's ante entry may add a dead small blind, no other amount."""
    for i, dead in dead_small_blinds(hh).items():
        if dead != small or not small:
            raise PhhError(
                f"antes: p{i + 1} posts {dead} more than the others; only a dead small "
                f"blind ({small}) may be added to a live post's ante"
            )
    for i in posters(hh):
        amount = -(hh.blinds_or_straddles or ())[i]
        if hh.player_count == 2 or i < 2:
            raise PhhError(f"blinds_or_straddles: p{i + 1} posts a blind; it cannot post again")
        if amount != big:
            raise PhhError(
                f"blinds_or_straddles: p{i + 1} posts {amount}; a live post is the big "
                f"blind ({big}) here"
            )


def blind_seats(hh: HandHistory) -> tuple[int | None, int | None] | None:
    """The engine's ``blind_seats`` for a hand whose blinds are not the usual two, else None."""
    if hh.variant in PHH_GAMES and _lone_blind(hh):
        variant = get_variant(PHH_GAMES[hh.variant].game)
        if variant.forced_bets == BLINDS:
            return None, 0  # no small blind; p1 (seat 0) posts the big blind
    return None


def _blinds(hh: HandHistory) -> tuple[int, int, tuple[int, ...]]:
    """Small blind, big blind and the straddles (entries from ``p3`` on, in order)."""
    blinds = _forced(hh)
    if _lone_blind(hh):
        _check_posts(hh, 0, blinds[0])
        return 0, blinds[0], ()
    small, big = (blinds[0], blinds[1]) if len(blinds) >= 2 else (0, 0)
    if big <= 0:
        raise PhhError(f"blinds_or_straddles = {list(blinds)}: the big blind must be positive")
    if small > big:
        raise PhhError(f"blinds_or_straddles = {list(blinds)}: the small blind exceeds the big")
    _check_posts(hh, small, big)
    rest = list(blinds[2:])
    while rest and not rest[-1]:
        rest.pop()
    if 0 in rest:  # a button or sleeper straddle: the engine's straddles go in turn
        skipped, later = rest.index(0), len(rest) - 1
        raise PhhError(
            f"blinds_or_straddles = {list(blinds)}: p{later + 3} straddles but p{skipped + 3} "
            "does not; the engine plays straddles posted in turn from p3 only"
        )
    # TableConfig checks that each straddle exceeds the one before it.
    return small, big, tuple(rest)


def _short_deck_stakes(hh: HandHistory, variant: Variant, ante: int) -> tuple[Variant, Stakes]:
    """Short Deck with the button blind (last entry), or with ordinary blinds."""
    blinds = _forced(hh)
    if len(blinds) == 2:
        blinds = blinds[::-1]  # heads-up, PHH reverses forced bets: [X, 0] is the button's
    if blinds and blinds[-1] > 0 and not any(blinds[:-1]):
        if posters(hh):
            raise PhhError("a live post (negative entry) needs blinds, not a button blind")
        return variant, Stakes(ante=ante, button_blind=blinds[-1])
    small, big, straddles = _blinds(hh)
    # The same game with blinds in place of the button blind (variants are data).
    with_blinds = replace(
        variant,
        name=variant.name + "_blinds",
        forced_bets=BLINDS,
        first_to_act=(LEFT_OF_BIG_BLIND, variant.first_to_act[1]),
    )
    return with_blinds, Stakes(small, big, ante, straddles=straddles)
