"""The table list (``cardroom serve --tables FILE``): TOML, one ``[[table]]`` per table.

```toml
[[table]]
id = "holdem-1"              # unique, letters, digits, '-' and '_'
game = "holdem"              # an engine variant (cardroom.games.VARIANTS)
structure = "no_limit"       # optional: the game's usual one
stakes = { small_blind = 1, big_blind = 2 }   # cardroom.games.Stakes fields
seats = 6                    # optional: the game's maximum
money = "play"               # "play" (default) or "real"
bots = 2                     # bots `cardroom serve` seats here (default 0)
action_seconds = 15          # any other key: a cardroom.room TableSettings option
rules = { burn_cards = false }   # optional: the game's rule options (TableConfig's)

[[table]]                    # Chinese poker (RULEBOOK §8): no stakes, chips per point
id = "ofc-1"
game = "ofc"                 # classic, ofc, pineapple, turbo, progressive, pineapple27
point_value = 2              # chips a point (the buy-in defaults to 30..300 points)
min_points = 1               # optional: points' worth of chips to be dealt in
set_seconds = 90             # optional: time to set a whole hand (classic, Fantasyland)
seats = 3
bots = 2
```

A mixed table (RULEBOOK §9) names its rotation with ``mixed`` instead of ``game``:

```toml
[[table]]
id = "horse-1"
mixed = "HORSE"              # "HORSE", "8-Game" or "CUSTOM_MIXED"
stakes = { small_bet = 4 }   # ONE stake: the limit small bet (see below)
hands_per_game = 8           # optional (8): hands of each game before the next
seats = 6                    # optional: the rotation's (its most restrictive game's)
rules = { burn_cards = false }   # optional: rule options for each game (not hi_lo)

[[table]]
id = "mixed-1"
games = ["holdem", "stud"]   # CUSTOM_MIXED (``mixed`` may be left out): the games in
stakes = { small_bet = 4 }   # order, each with its usual structure; at least two, from
hands_per_game = 2           # Hold'em, Omaha, PLO5, Omaha Hi-Lo, Short Deck, Stud, Stud Hi-Lo
```

HORSE and 8-Game play their official games (every HORSE game fixed limit; 8-Game
adds 2-7 Triple Draw, NL Hold'em and PLO) and freeze the button during the stud
rounds; CUSTOM_MIXED keeps it moving (seed 004). Without ``games`` a CUSTOM_MIXED
table plays the rulebook's default order. A mixed table has one stake, its limit
``small_bet``: each game's blinds, antes, bring-in and bet sizes are derived from it
by :mod:`cardroom.room.rotation` (a 4/8 table: blinds 2/4 in every blind game, bets
4/8 in the limit games, ante 1 and bring-in 1 in stud), so the big blind is the
same in every blind game and the buy-in range (the largest over the games) fits
each hand. A wrong entry is refused with the table and the key named.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Final, Literal

from cardroom.chinese import VARIANTS as CHINESE_VARIANTS
from cardroom.chinese import ChineseError
from cardroom.games import Stakes, TableConfig
from cardroom.games.checks import MAX_CHIPS
from cardroom.games.config import RULE_OPTIONS
from cardroom.games.errors import ConfigError
from cardroom.ledger import Currency
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.errors import TableError
from cardroom.room.rotation import (
    CUSTOM_MIXED,
    CUSTOM_MIXED_DEFAULT,
    DEFAULT_HANDS_PER_GAME,
    EIGHT_GAME,
    HORSE,
    KINDS,
    Rotation,
    custom_mixed,
    eight_game,
    horse,
)
from cardroom.room.settings import LANGUAGE_TAG, TableSettings, forced_need

_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")  # fullmatch: "$" also matches before a last "\n"
_OWN_KEYS = {"id", "game", "structure", "stakes", "seats", "money", "bots", "rules"}
_MIXED_KEYS = {"mixed", "games", "hands_per_game"}
_CHINESE_KEYS = {"id", "game", "point_value", "min_points", "set_seconds", "seats", "money", "bots"}
# Not from a file: the seed (decks would be predictable), the rake rule (a RakeRule, not
# TOML data; the default schedule applies) and what the entry says otherwise.
_SETTINGS_KEYS = {f.name for f in fields(TableSettings)} - {
    "table_id", "games", "currency", "mixed", "seed", "rake", "chinese",
}  # fmt: skip
_STAKES_KEYS: Final = {f.name: None for f in fields(Stakes)}.keys()
"""The ``stakes`` fields, in Stakes' order (an error message lists them)."""
_LISTS: Final = {"straddles": "straddles = [4] or [4, 8]", "spread": "spread = [4, 8]"}
"""The ``stakes`` fields that are lists, and a TOML example of each (the others are chips)."""
_FILE_KEYS: Final = frozenset({"table"})
"""The one key at the top of a file: a misspelt ``[[tabel]]`` is refused, not skipped."""
KEYS: Final = frozenset(_OWN_KEYS | _MIXED_KEYS | _CHINESE_KEYS | _SETTINGS_KEYS)
"""Every key a table of the file may have (docs/tables_file.md lists them)."""
_OPTION_KINDS: Final = {
    f.name: str(f.type) for f in fields(TableSettings) if f.name in _SETTINGS_KEYS
}
"""Each ``TableSettings`` option an entry may set, and its field's type: the settings
check none of them, so an entry is checked here (``action_seconds = "x"`` made every
tick of the table fail once two players sat)."""
_MOST: Final = MAX_CHIPS
_KINDS: Final = {"bool", "bool | None", "int", "int | None", "float", "str"}
assert set(_OPTION_KINDS.values()) <= _KINDS, (
    "a TableSettings option of a kind _check_option does not know"
)


Origin = Literal["tables_file", "operator"]
"""Where an open table came from (:attr:`TableSpec.origin`)."""


class TablesFileError(ValueError):
    """The table list is wrong; the message names the table and the key."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table to open, and how many bots to seat there."""

    settings: TableSettings
    bots: int = 0
    origin: Origin = "tables_file"
    """Where the table came from: ``tables_file`` (the list read at start, or the default
    tables without one) or ``operator`` (``POST /api/operator/tables``)."""


DEFAULT_TABLES: tuple[dict[str, Any], ...] = (
    {"id": "holdem-nl-1", "game": "holdem", "stakes": {"small_blind": 1, "big_blind": 2},
     "seats": 6, "bots": 3},
    {"id": "omaha-pl-1", "game": "omaha", "stakes": {"small_blind": 1, "big_blind": 2},
     "seats": 6, "bots": 3},
    {"id": "stud-fl-1", "game": "stud", "stakes": {"small_bet": 4, "big_bet": 8, "ante": 1},
     "seats": 8, "bots": 3},
    {"id": "razz-fl-1", "game": "razz", "stakes": {"small_bet": 4, "big_bet": 8, "ante": 1},
     "seats": 8, "bots": 2},
    {"id": "triple-27-1", "game": "triple_draw_27",
     "stakes": {"small_blind": 2, "big_blind": 4, "small_bet": 4, "big_bet": 8},
     "seats": 6, "bots": 2},
    {"id": "short-deck-1", "game": "short_deck", "stakes": {"ante": 2}, "seats": 6, "bots": 2},
    {"id": "horse-1", "mixed": "HORSE", "stakes": {"small_bet": 4}, "seats": 6, "bots": 3},
    {"id": "ofc-1", "game": "ofc", "point_value": 1, "seats": 3, "bots": 2,
     "action_seconds": 20},
)  # fmt: skip
"""Several games with bots playing: what a fresh ``cardroom serve`` opens."""
for _entry in DEFAULT_TABLES:
    # Time to see how a hand ended (the rows and points of a Chinese hand take longer).
    _entry.setdefault("hand_pause_seconds", 6.0 if "point_value" in _entry else 3.0)


def spec_from_dict(raw: dict[str, Any]) -> TableSpec:
    """One table entry; TablesFileError says what is wrong."""
    name = raw.get("id", "?")
    try:
        return _spec(raw)
    except (ConfigError, ChineseError, TableError, TypeError, ValueError) as exc:
        raise TablesFileError(f"table {name!r}: {exc}") from None


def _spec(raw: dict[str, Any]) -> TableSpec:
    chinese = raw.get("game") in CHINESE_VARIANTS
    own = _CHINESE_KEYS if chinese else _OWN_KEYS | _MIXED_KEYS
    unknown = set(raw) - own - _SETTINGS_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    table_id = raw.get("id")
    if not isinstance(table_id, str) or not _ID.fullmatch(table_id):
        raise ValueError("id: 1 to 40 letters, digits, '-' or '_'")
    money = raw.get("money", "play")
    if money not in ("play", "real"):
        raise ValueError("money: 'play' or 'real'")
    extra = {k: v for k, v in raw.items() if k in _SETTINGS_KEYS}
    for key, value in extra.items():
        _check_option(key, value)
    extra["currency"] = Currency(money)
    _check_seats(raw)
    stakes = raw.get("stakes")
    if isinstance(stakes, dict) and not chinese:
        _check_stakes(stakes)
    if chinese:
        settings = TableSettings.chinese_table(table_id, _chinese(raw), **extra)
    elif not isinstance(stakes, dict):
        raise ValueError(
            "stakes: a table of Stakes fields, e.g. { small_blind = 1, big_blind = 2 }"
        )
    elif "mixed" in raw or "games" in raw:
        rotation = _rotation(raw, stakes)
        settings = TableSettings.with_rotation(table_id, rotation, _rules(raw), **extra)
    elif "hands_per_game" in raw:
        raise ValueError("hands_per_game: only at a mixed table (one with 'mixed' or 'games')")
    else:
        settings = TableSettings.single(table_id, _config(raw, stakes), **extra)
    _check_money(settings)
    bots = raw.get("bots", 0)
    if type(bots) is not int or not 0 <= bots <= settings.seat_count:
        raise ValueError(f"bots: 0 to {settings.seat_count}")
    if bots and settings.currency is Currency.REAL:
        raise ValueError("bots: house bots play only play money (this table is real money)")
    return TableSpec(settings, bots)


def _check_option(key: str, value: Any) -> None:
    """A ``TableSettings`` option of its field's kind: a flag ``true`` or ``false``; a
    count a whole number, a duration any finite number; none below 0, the decision
    clock above it. ValueError naming the key else."""
    kind = _OPTION_KINDS[key]
    if value is None and kind.endswith("| None"):
        return
    if kind == "str":  # the one text option: the chat language (§10.7)
        if type(value) is not str or not LANGUAGE_TAG.fullmatch(value):
            raise ValueError(f'{key}: a language tag such as "en" or "el", not {value!r}')
        return
    if kind.startswith("bool"):
        if type(value) is not bool:
            raise ValueError(f"{key}: true or false, not {value!r}")
        return
    whole = kind.startswith("int")
    if type(value) is not int and (whole or type(value) is not float):
        raise ValueError(f"{key}: a {'whole ' if whole else ''}number, not {value!r}")
    least = 0 if key != "action_seconds" else math.ulp(0)
    if not (math.isfinite(value) and least <= value <= _MOST):
        raise ValueError(f"{key}: a finite number {'from' if least == 0 else 'above'} 0")


def _check_money(settings: TableSettings) -> None:
    """A buy-in range a table can hold: two buy-ins of the minimum, and one of the
    maximum, within 2**53 - 1 chips in all (what a table holds: ``check_table_room``).
    Larger stakes opened before, seated nobody (a join brings 2**53 - 1 at most) or
    dealt until a stack passed what the engine deals. A Chinese poker table's largest
    buy-in must cover ``min_points`` (else every player was sat out at once), and a poker
    table's the chips a seat needs to be dealt in (:func:`forced_need`: the same)."""
    low, high = settings.buy_in_range
    if 2 * low > MAX_CHIPS or (high is not None and high > MAX_CHIPS):
        raise ValueError(
            f"the buy-in range {low} to {high} does not fit a table: two buy-ins of the "
            "minimum, and one of the maximum, must fit in 2**53 - 1 chips "
            "(lower the stakes, or set min_buy_in and max_buy_in)"
        )
    chinese = settings.chinese
    if chinese is not None and high is not None and chinese.chips_needed > high:
        raise ValueError(
            f"min_points: {chinese.min_points} points of {chinese.point_value} chips "
            f"({chinese.chips_needed}) are needed to be dealt in, more than the largest "
            f"buy-in ({high}): nobody could ever play"
        )
    for config in settings.games:  # the same for a poker table's forced bets (§10.2)
        need = forced_need(config)
        if high is not None and need > high:
            raise ValueError(
                f"a seat of {config.variant.title} needs {need} chips to be dealt in (the "
                f"ante and the largest forced bet), more than the largest buy-in ({high}): "
                "nobody could ever play (set min_buy_in and max_buy_in)"
            )


def _whole(value: Any) -> bool:
    """A whole number from 0: not a bool (an int to Python), not 6.0 nor "6"."""
    return type(value) is int and value >= 0


def _check_seats(raw: dict[str, Any]) -> None:
    """``seats`` a whole number, told in the file's words (the game's check names it
    ``max_seats``); how many is the game's (or rotation's) to check."""
    if "seats" in raw and not _whole(raw["seats"]):
        raise ValueError(f"seats: a whole number, e.g. seats = 6, not {raw['seats']!r}")


def _check_stakes(stakes: dict[str, Any]) -> None:
    """Each ``stakes`` value of its kind, told in TOML (Stakes asks for a tuple, ``(4,)``):
    chips a whole number from 0, ``straddles`` and ``spread`` lists of them. The rest of
    their bounds are the game's to check; an unknown key is told after."""
    for key, value in stakes.items():
        if key in _LISTS:
            if not isinstance(value, list) or not all(_whole(v) for v in value):
                raise ValueError(
                    f"stakes.{key}: a list of amounts, e.g. {_LISTS[key]}, not {value!r}"
                )
        elif key in _STAKES_KEYS and not _whole(value):
            raise ValueError(
                f"stakes.{key}: a whole number of chips, e.g. {key} = 1, not {value!r}"
            )


def _rules(raw: dict[str, Any]) -> dict[str, Any]:
    """A table's ``rules``: options of :data:`RULE_OPTIONS` (``structure`` and ``seats``
    are keys of their own; the rake comes from ``default_rake``); TableConfig checks each
    value when the table is built. A mixed table's apply to each of its games."""
    rules = raw.get("rules", {})
    if not isinstance(rules, dict):
        raise ValueError("rules: a table of game options, e.g. { burn_cards = false }")
    unknown = sorted(set(rules) - set(RULE_OPTIONS))
    if unknown:
        raise ValueError(f"rules: unknown {unknown}; the options are {', '.join(RULE_OPTIONS)}")
    return dict(rules)


def _config(raw: dict[str, Any], stakes: dict[str, Any]) -> TableConfig:
    """The configuration of a single-game table."""
    options: dict[str, Any] = _rules(raw)
    if "structure" in raw:
        options["structure"] = raw["structure"]
    if "seats" in raw:
        options["max_seats"] = raw["seats"]
    if "game" not in raw:
        raise ValueError("game: an engine game (or 'mixed' / 'games' for a mixed table)")
    unknown = sorted(set(stakes) - _STAKES_KEYS)
    if unknown:  # Stakes(**values) would say so in Python's words, naming its __init__
        raise ValueError(
            f"stakes: unknown keys {unknown}; the fields are {', '.join(_STAKES_KEYS)}"
        )
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in stakes.items()}
    return TableConfig.of(str(raw["game"]), Stakes(**values), **options)


def _chinese(raw: dict[str, Any]) -> ChineseTableConfig:
    """The game of a Chinese poker table: ``point_value`` (required), seats, options."""
    if "point_value" not in raw:
        raise ValueError("point_value: the chips a point is worth (a Chinese poker table)")
    return ChineseTableConfig(  # it checks its own values (set_seconds among them)
        raw["game"],
        raw["point_value"],
        max_seats=raw.get("seats"),
        min_points=raw.get("min_points", 1),
        set_seconds=raw.get("set_seconds"),
    )


def _rotation(raw: dict[str, Any], stakes: dict[str, Any]) -> Rotation:
    """The rotation of a mixed table (``mixed``, ``games``, ``hands_per_game``)."""
    kind = raw.get("mixed", CUSTOM_MIXED)
    if kind not in KINDS:
        raise ConfigError(f"mixed: one of {', '.join(map(repr, KINDS))}, not {kind!r}")
    for key in ("game", "structure"):
        if key in raw:
            raise ConfigError(
                f"{key}: a mixed table names its games with 'mixed' (and 'games' for "
                f"{CUSTOM_MIXED}), each game with its own structure"
            )
    if set(stakes) != {"small_bet"}:
        raise ConfigError(
            "stakes: a mixed table has one stake, its limit small bet, e.g. "
            "{ small_bet = 4 }; each game's blinds, antes and bets follow from it"
        )
    small_bet = stakes["small_bet"]
    hands = raw.get("hands_per_game", DEFAULT_HANDS_PER_GAME)
    if type(hands) is not int or not 1 <= hands <= _MOST:
        raise ConfigError(f"hands_per_game: a whole number from 1 to {_MOST}, not {hands!r}")
    seats = raw.get("seats")
    if kind == CUSTOM_MIXED:
        games = raw.get("games", list(CUSTOM_MIXED_DEFAULT))
        if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
            raise ConfigError('games: a list of game names, e.g. ["holdem", "stud"]')
        return custom_mixed(small_bet, games, hands, seats)
    if "games" in raw:
        raise ConfigError(
            f"games: {kind} plays its official games; list games only for {CUSTOM_MIXED}"
        )
    official = {HORSE: horse, EIGHT_GAME: eight_game}[kind](small_bet, hands)
    return official if seats is None else replace(official, max_seats=seats)


def load_tables(path: Path | None) -> list[TableSpec]:
    """The tables of ``path`` (None: :data:`DEFAULT_TABLES`); ids must be unique."""
    if path is None:
        entries: list[Any] = list(DEFAULT_TABLES)
    else:
        try:
            # utf-8-sig: past the byte-order mark a Windows editor may save first
            data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise TablesFileError(f"{path}: {exc}") from None
        unknown = sorted(set(data) - _FILE_KEYS)
        if unknown:
            raise TablesFileError(
                f"{path}: unknown keys {unknown}: the file holds [[table]] entries"
            )
        entries = data.get("table", [])
        if not isinstance(entries, list) or not entries:
            raise TablesFileError(f"{path}: no [[table]] entries")
    specs = [spec_from_dict(e) if isinstance(e, dict) else _not_table(e) for e in entries]
    ids = [s.settings.table_id for s in specs]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise TablesFileError(f"table ids used twice: {dupes}")
    return specs


def _not_table(entry: object) -> TableSpec:
    raise TablesFileError(f"not a table entry: {entry!r}")
