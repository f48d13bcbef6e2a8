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

[[table]]                    # Chinese poker (RULEBOOK §8): no stakes, chips per point
id = "ofc-1"
game = "ofc"                 # classic, ofc, pineapple, turbo, progressive, pineapple27
point_value = 2              # chips a point (the buy-in defaults to 30..300 points)
min_points = 1               # optional: points' worth of chips to be dealt in
set_seconds = 90             # optional: time to set a whole hand (classic, Fantasyland)
seats = 3
bots = 2
```
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from cardroom.chinese import VARIANTS as CHINESE_VARIANTS
from cardroom.chinese import ChineseError
from cardroom.games import Stakes, TableConfig
from cardroom.games.errors import ConfigError
from cardroom.ledger import Currency
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.errors import TableError
from cardroom.room.settings import TableSettings

_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_OWN_KEYS = {"id", "game", "structure", "stakes", "seats", "money", "bots"}
_CHINESE_KEYS = {"id", "game", "point_value", "min_points", "set_seconds", "seats", "money", "bots"}
# Not from a file: the seed (decks would be predictable), the rake rule (a RakeRule, not
# TOML data; the default schedule applies) and what the entry says otherwise.
_SETTINGS_KEYS = {f.name for f in fields(TableSettings)} - {
    "table_id", "games", "currency", "mixed", "seed", "rake", "chinese",
}  # fmt: skip


class TablesFileError(ValueError):
    """The table list is wrong; the message names the table and the key."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table to open, and how many bots to seat there."""

    settings: TableSettings
    bots: int = 0


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
    unknown = set(raw) - (_CHINESE_KEYS if chinese else _OWN_KEYS) - _SETTINGS_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    table_id = raw.get("id")
    if not isinstance(table_id, str) or not _ID.match(table_id):
        raise ValueError("id: 1 to 40 letters, digits, '-' or '_'")
    if chinese:
        return _chinese_spec(table_id, raw)
    stakes = raw.get("stakes")
    if not isinstance(stakes, dict):
        raise ValueError(
            "stakes: a table of Stakes fields, e.g. { small_blind = 1, big_blind = 2 }"
        )
    options: dict[str, Any] = {}
    if "structure" in raw:
        options["structure"] = raw["structure"]
    if "seats" in raw:
        options["max_seats"] = raw["seats"]
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in stakes.items()}
    config = TableConfig.of(str(raw.get("game")), Stakes(**values), **options)
    extra = {k: v for k, v in raw.items() if k in _SETTINGS_KEYS}
    settings = TableSettings.single(table_id, config, currency=_currency(raw), **extra)
    return TableSpec(settings, _bots(raw, config.seat_limit))


def _chinese_spec(table_id: str, raw: dict[str, Any]) -> TableSpec:
    """A Chinese poker table: the game, ``point_value`` (required), seats, options."""
    if "point_value" not in raw:
        raise ValueError("point_value: the chips a point is worth (a Chinese poker table)")
    config = ChineseTableConfig(
        raw["game"],
        raw["point_value"],
        max_seats=raw.get("seats"),
        min_points=raw.get("min_points", 1),
        set_seconds=raw.get("set_seconds"),
    )
    extra = {k: v for k, v in raw.items() if k in _SETTINGS_KEYS}
    settings = TableSettings.chinese_table(table_id, config, currency=_currency(raw), **extra)
    return TableSpec(settings, _bots(raw, config.seat_count))


def _currency(raw: dict[str, Any]) -> Currency:
    money = raw.get("money", "play")
    if money not in ("play", "real"):
        raise ValueError("money: 'play' or 'real'")
    return Currency(money)


def _bots(raw: dict[str, Any], seats: int) -> int:
    bots = raw.get("bots", 0)
    if type(bots) is not int or not 0 <= bots <= seats:
        raise ValueError(f"bots: 0 to {seats}")
    return bots


def load_tables(path: Path | None) -> list[TableSpec]:
    """The tables of ``path`` (None: :data:`DEFAULT_TABLES`); ids must be unique."""
    if path is None:
        entries: list[Any] = list(DEFAULT_TABLES)
    else:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise TablesFileError(f"{path}: {exc}") from None
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
