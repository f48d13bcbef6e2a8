"""The lobby model (RULEBOOK §12): the table list, its figures and its filters.

Tables are registered with their configuration (one game, or a mixed
:class:`~cardroom.room.rotation.Rotation`) and then push a small
:class:`TableSummary`: after each hand (with the hand's pot) and whenever the
seats or the waiting list change (without a pot). An update costs O(1)
amortised: each table keeps the hands of the last ``window_seconds`` (default
one hour) in a queue with a running pot total, so a query reads ``average pot``
(over those hands) and ``hands per hour`` without going back over history. A
query is one pass over the tables.

``hands per hour`` is a rate: the hands of the window over the time the lobby has
actually observed the table within it, scaled to an hour (an integer, rounded
down). The observation starts when the table is listed (``opened_at``), or, listed
without a time, at the oldest news it gets (a summary, or a hand older than
that); a server that restarts starts afresh. A table seen for less than
:data:`MIN_OBSERVED_SECONDS` (five minutes) is measured over five minutes, so its
first hand reads 12 an hour, not 3,600: five minutes is a few hands at an online
table's pace (about one a minute), and a new table reads its true rate soon.
Before, the raw count of the window was shown, so a table opened ten minutes ago
read a sixth of its rate.

The badge is :func:`badge`: a rotation's kind (``CUSTOM_MIXED``, ``HORSE``,
``8-Game``), a Chinese poker game's name (``OFC``, ``Pineapple OFC``, ...), else the
structure and the game (``NL Hold'em``, ``PL Omaha``, ``FL Stud``), in the
vocabulary of :mod:`cardroom.room.rotation`.

The stake level a filter compares is one number per table, in chips: the big
blind of a blind game, the small bet of a fixed-limit or stud game (and of a
mixed table), the button blind of Short Deck, the chips a point of Chinese poker.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final

from cardroom.chinese import VARIANTS as CHINESE_VARIANTS
from cardroom.games import STRUCTURES, VARIANTS, Stakes, TableConfig
from cardroom.games.betting import STRUCTURE_RULES
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.rotation import (
    KINDS,
    STRUCTURE_ABBREVIATIONS,
    Rotation,
    config_label,
    game_label,
)

HOUR: Final = 3600.0

MIN_OBSERVED_SECONDS: Final = 300.0
"""The least time ``hands per hour`` is measured over (module docstring)."""

Source = TableConfig | Rotation | ChineseTableConfig
"""What a table plays: one game, a rotation, or a Chinese poker game."""

CHINESE_BADGES: Final = {
    "classic": "Chinese Poker",
    "ofc": "OFC",
    "pineapple": "Pineapple OFC",
    "turbo": "OFC Turbo",
    "progressive": "Progressive Pineapple",
    "pineapple27": "Pineapple 2-7",
}
"""The lobby badge of each Chinese poker game (RULEBOOK §8 names)."""


def badge(source: Source) -> str:
    """The lobby badge of a table's configuration or rotation."""
    if isinstance(source, Rotation):
        return source.badge
    if isinstance(source, ChineseTableConfig):
        return CHINESE_BADGES[source.variant]
    return config_label(source)


def _twins(config: TableConfig) -> tuple[str, ...]:
    """The engine's other games a configuration plays as, by its ``hi_lo`` option (the
    game filter's match): Courchevel with ``hi_lo=True`` is Courchevel Hi-Lo (§6.3)."""
    if config.hi_lo is None:
        return ()
    label = config_label(config)
    return tuple(n for n in VARIANTS if game_label(n, config.betting) == label)


def stake_level(source: Source) -> int:
    """The one number a stakes filter compares (module docstring)."""
    if isinstance(source, Rotation):
        return source.small_bet
    if isinstance(source, ChineseTableConfig):
        return source.point_value
    stakes = source.stakes
    if STRUCTURE_RULES[source.betting].fixed or source.variant.stud is not None:
        return stakes.effective_small_bet
    return stakes.big_blind or stakes.effective_button_blind


def stakes_text(source: Source) -> str:
    """The stakes as the lobby shows them: ``1/2``, ``10/20 ante 1``, ``ante 1, button 2``,
    ``1/2 BB ante 2``, ``1/2 straddle 4``, ``2 a point`` (Chinese poker)."""
    if isinstance(source, Rotation):
        return f"{source.small_bet}/{2 * source.small_bet}"
    if isinstance(source, ChineseTableConfig):
        return f"{source.point_value} a point"
    stakes = source.stakes
    if source.variant.stud is not None:
        sizes = f"{stakes.effective_small_bet}/{stakes.effective_big_bet}"
        return f"{sizes} ante {stakes.ante}" if stakes.ante else sizes
    if not stakes.big_blind:
        return f"ante {stakes.ante}, button {stakes.effective_button_blind}"
    if STRUCTURE_RULES[source.betting].fixed:
        sizes = f"{stakes.effective_small_bet}/{stakes.effective_big_bet}"
    else:
        sizes = f"{stakes.small_blind}/{stakes.big_blind}"
    return sizes + _blind_extras(stakes)


def _blind_extras(stakes: Stakes) -> str:
    # Every forced bet posted each hand is part of the stakes (games/forced.py): a
    # straddled 1/2 table plays bigger than "1/2".
    text = f" ante {stakes.ante}" if stakes.ante else ""
    if stakes.big_blind_ante:
        text += f" BB ante {stakes.big_blind_ante}"
    if len(stakes.straddles) == 1:
        text += f" straddle {stakes.straddles[0]}"
    elif stakes.straddles:
        text += " straddles " + ", ".join(map(str, stakes.straddles))
    return text


@dataclass(frozen=True, slots=True)
class FilterOptions:
    """Every choice of the lobby's filters as ``(value, label)`` pairs: all games of
    the engine (PLO5 included) and the mixed formats; all betting structures."""

    games: tuple[tuple[str, str], ...]
    structures: tuple[tuple[str, str], ...]


def filter_options() -> FilterOptions:
    """The lobby's filter choices, whether or not a table of each is open."""
    games = tuple((name, v.title) for name, v in VARIANTS.items())
    mixed = tuple((kind, kind) for kind in KINDS)
    chinese = tuple((key, v.name) for key, v in CHINESE_VARIANTS.items())
    structures = tuple((s, STRUCTURE_ABBREVIATIONS[s]) for s in STRUCTURES)
    return FilterOptions(games + mixed + chinese, structures)


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What a table pushes: after a hand (``pot``: its total, rake included) or when
    its seats change (``pot`` None); ``current_game`` for a mixed table."""

    table_id: str
    at: float
    seats_taken: int
    waiting: int
    pot: int | None = None
    current_game: str = ""


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """One line of the lobby's table list."""

    table_id: str
    name: str
    badge: str
    game: str
    structures: tuple[str, ...]
    stakes: str
    stake_level: int
    real_money: bool
    seats_taken: int
    max_seats: int
    waiting: int
    average_pot: int
    hands_per_hour: int
    current_game: str


@dataclass
class _Listing:
    """A registered table: fixed facts, the last summary, the last hour's hands."""

    name: str
    badge: str
    game: str
    structures: tuple[str, ...]
    stakes: str
    stake_level: int
    real_money: bool
    max_seats: int
    seats_taken: int = 0
    waiting: int = 0
    current_game: str = ""
    hands: deque[tuple[float, int]] = field(default_factory=deque)
    pot_total: int = 0
    since: float | None = None
    """When the lobby began observing the table (None: no news yet)."""
    deals: frozenset[str] = frozenset()
    """What the game filter matches: the games of ``dealt_at`` (the game, or a rotation's
    format and its games)."""
    dealt_at: frozenset[tuple[str, str]] = frozenset()
    """What the game and limit filters together match: (game, structure) of each game
    dealt, and a rotation's (format, structure) for each structure it deals; a Chinese
    poker table's structure is "" (it has no betting)."""

    def observe(self, at: float) -> None:
        """News of the table at ``at``: the observation began no later."""
        if self.since is None or at < self.since:
            self.since = at

    def expire(self, now: float, window: float) -> None:
        while self.hands and self.hands[0][0] <= now - window:
            self.pot_total -= self.hands.popleft()[1]


class Lobby:
    """The room's table list: register tables, take their summaries, answer queries."""

    def __init__(self, window_seconds: float = HOUR) -> None:
        self.window_seconds = window_seconds
        self._tables: dict[str, _Listing] = {}

    def open_table(
        self,
        table_id: str,
        source: Source,
        *,
        real_money: bool,
        name: str = "",
        opened_at: float | None = None,
    ) -> None:
        """List a table (its configuration, or its rotation for a mixed table), observed
        from ``opened_at`` (None: from its first news, module docstring)."""
        if table_id in self._tables:
            raise ValueError(f"table {table_id!r} is already listed")
        if isinstance(source, Rotation):
            game = source.kind
            structures = tuple(sorted({g.structure for g in source.games}))
            seats, current = source.seat_limit, source.current_and_next(0)[0]
            dealt_at = {(g.game, g.structure) for g in source.games}
            dealt_at |= {(game, structure) for structure in structures}
        elif isinstance(source, ChineseTableConfig):  # no betting: no limit filter matches
            game, structures, seats, current = source.variant, (), source.seat_count, ""
            dealt_at = {(game, "")}
        else:
            game, structures = source.variant.name, (source.betting,)
            seats, current = source.seat_limit, ""
            dealt_at = {(g, source.betting) for g in (game, *_twins(source))}
        self._tables[table_id] = _Listing(
            name or table_id,
            badge(source),
            game,
            structures,
            stakes_text(source),
            stake_level(source),
            real_money,
            seats,
            current_game=current,
            since=opened_at,
            deals=frozenset(g for g, _ in dealt_at),
            dealt_at=frozenset(dealt_at),
        )

    def close_table(self, table_id: str) -> None:
        """Take a table off the list."""
        del self._tables[table_id]

    def update(self, summary: TableSummary) -> None:
        """Take a table's summary: O(1) amortised."""
        listing = self._tables[summary.table_id]
        listing.observe(summary.at)
        listing.seats_taken, listing.waiting = summary.seats_taken, summary.waiting
        if summary.current_game:
            listing.current_game = summary.current_game
        if summary.pot is not None:
            listing.hands.append((summary.at, summary.pot))
            listing.pot_total += summary.pot
        listing.expire(summary.at, self.window_seconds)

    def tables(
        self,
        now: float,
        *,
        game: str | None = None,
        structure: str | None = None,
        min_stake: int | None = None,
        max_stake: int | None = None,
        real_money: bool | None = None,
    ) -> list[LobbyRow]:
        """The table list at ``now``, filtered (None: any), by badge, stake, then id.

        ``game`` is an engine game name or a mixed format (``HORSE``...); a game
        name, like ``structure``, matches a mixed table that plays it in any of its
        games (an Omaha player is shown the rotations that deal Omaha); both together
        match a table that deals that game at that limit (FL Hold'em: HORSE, not a mix
        of NL Hold'em and FL Stud).
        """
        rows = []
        for table_id, t in self._tables.items():
            if game is not None and game not in t.deals:
                continue
            if structure is not None and structure not in t.structures:
                continue
            if game is not None and structure is not None and (game, structure) not in t.dealt_at:
                continue  # both asked of one game, not each of a different game of the mix
            if min_stake is not None and t.stake_level < min_stake:
                continue
            if max_stake is not None and t.stake_level > max_stake:
                continue
            if real_money is not None and t.real_money != real_money:
                continue
            t.expire(now, self.window_seconds)
            rows.append(self._row(table_id, t, now))
        rows.sort(key=lambda r: (r.badge, r.stake_level, r.table_id))
        return rows

    def _hands_per_hour(self, listing: _Listing, now: float) -> int:
        # The window's hands over the time observed in it, scaled (module docstring).
        count = len(listing.hands)
        if not count:
            return 0
        since = now if listing.since is None else listing.since
        observed = min(self.window_seconds, max(now - since, MIN_OBSERVED_SECONDS))
        return int(count * HOUR / observed)

    def _row(self, table_id: str, t: _Listing, now: float) -> LobbyRow:
        count = len(t.hands)
        return LobbyRow(
            table_id,
            t.name,
            t.badge,
            t.game,
            t.structures,
            t.stakes,
            t.stake_level,
            t.real_money,
            t.seats_taken,
            t.max_seats,
            t.waiting,
            t.pot_total // count if count else 0,
            self._hands_per_hour(t, now),
            t.current_game,
        )
