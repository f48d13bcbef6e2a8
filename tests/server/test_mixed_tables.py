"""Mixed tables (RULEBOOK §9) from the table list: the entry's format and its refusals,
and a served CUSTOM_MIXED table changing game every two hands, as its players and the
lobby (§12: the badge and the current game) see it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import OPEN_SIGNUPS, running_server
from tests.server.secrecy import check_no_hidden_cards
from tests.server.sessions import bot_session, player, until

from cardroom.room.rotation import CUSTOM_MIXED_DEFAULT, EIGHT_GAME, HORSE
from cardroom.server.settings import ServerSettings
from cardroom.server.tables_file import TablesFileError, load_tables, spec_from_dict
from cardroom.store import make_engine
from cardroom.store.tables import TableRecords

MIXED_TOML = """
[[table]]
id = "mixed"
games = ["holdem", "stud"]
stakes = { small_bet = 4 }
hands_per_game = 2
seats = 6
action_seconds = 5

[[table]]
id = "horse"
mixed = "HORSE"
stakes = { small_bet = 10 }
"""


def _entry(**keys: Any) -> dict[str, Any]:
    return {"id": "m", "stakes": {"small_bet": 4}, **keys}


def test_9_a_mixed_entry_opens_its_rotation_with_stakes_from_the_small_bet() -> None:
    horse = spec_from_dict(_entry(mixed="HORSE", hands_per_game=3, seats=6, bots=2))
    rotation = horse.settings.mixed
    assert rotation is not None and rotation.kind == HORSE and rotation.hands_per_game == 3
    assert [c.variant.name for c in horse.settings.games] == [
        "holdem", "omaha_hi_lo", "razz", "stud", "stud_hi_lo",
    ]  # fmt: skip
    assert {c.betting for c in horse.settings.games} == {"fixed_limit"}
    holdem, stud = horse.settings.games[0].stakes, horse.settings.games[3].stakes
    assert (holdem.small_blind, holdem.big_blind, holdem.small_bet, holdem.big_bet) == (2, 4, 4, 8)
    assert (stud.ante, stud.effective_bring_in, stud.small_bet) == (1, 2, 4)  # half (§4)
    assert horse.settings.seat_count == 6 and horse.bots == 2
    custom = spec_from_dict(_entry(games=["holdem", "stud"], action_seconds=5))
    assert custom.settings.mixed is not None and custom.settings.mixed.kind == "CUSTOM_MIXED"
    assert [(c.variant.name, c.betting) for c in custom.settings.games] == [
        ("holdem", "no_limit"), ("stud", "fixed_limit"),
    ]  # fmt: skip
    assert custom.settings.mixed.hands_per_game == 8 and custom.settings.action_seconds == 5
    default = spec_from_dict(_entry(mixed="CUSTOM_MIXED"))
    assert tuple(c.variant.name for c in default.settings.games) == CUSTOM_MIXED_DEFAULT
    eight = spec_from_dict(_entry(mixed=EIGHT_GAME, money="real"))
    assert len(eight.settings.games) == 8 and eight.settings.seat_count == 6  # 2-7 TD seats 6


@pytest.mark.parametrize(
    ("keys", "words"),
    [
        ({"mixed": "Horse"}, "mixed: one of 'CUSTOM_MIXED', 'HORSE', '8-Game'"),
        ({"mixed": "HORSE", "games": ["holdem", "razz"]}, "HORSE plays its official games"),
        ({"games": ["holdem", "razz"]}, r"CUSTOM_MIXED games come from .*'razz'"),
        ({"games": ["holdem"]}, "at least two games"),
        ({"games": ["holdem", "holdem"]}, "once"),
        ({"games": "holdem, stud"}, "games: a list of game names"),
        ({"mixed": "HORSE", "game": "holdem"}, "game: a mixed table names its games"),
        ({"mixed": "HORSE", "structure": "no_limit"}, "structure: a mixed table"),
        ({"mixed": "HORSE", "stakes": {"small_blind": 1, "big_blind": 2}}, "one stake"),
        ({"mixed": "HORSE", "stakes": {"small_bet": 1}}, "at least 2"),
        ({"mixed": "HORSE", "stakes": {"small_bet": "4"}}, "stakes.small_bet: a whole number"),
        ({"mixed": "HORSE", "hands_per_game": 0}, "hands_per_game: a whole number from 1"),
        ({"mixed": "HORSE", "hands_per_game": True}, "hands_per_game"),
        ({"mixed": "HORSE", "seats": 9}, "seats 2 to 8 players"),
        ({"mixed": "HORSE", "seats": 4, "bots": 5}, "bots: 0 to 4"),
        ({"game": "holdem", "stakes": {"big_blind": 2}, "hands_per_game": 2}, "only at a mixed"),
        ({"stakes": {"big_blind": 2}}, "game: an engine game"),
    ],
)
def test_9_a_wrong_mixed_entry_is_refused_with_the_table_and_key_named(
    keys: dict[str, Any], words: str
) -> None:
    with pytest.raises(TablesFileError, match=words) as caught:
        spec_from_dict(_entry(**keys))
    assert str(caught.value).startswith("table 'm': ")


def test_the_default_tables_include_a_horse_table_with_bots(tmp_path: Path) -> None:
    horse = [s for s in load_tables(None) if s.settings.mixed is not None]
    assert [(s.settings.mixed.kind, s.bots > 0) for s in horse if s.settings.mixed] == [
        (HORSE, True)
    ]
    path = tmp_path / "t.toml"
    path.write_text(MIXED_TOML)
    assert [s.settings.table_id for s in load_tables(path)] == ["mixed", "horse"]


def _lobby(base: str, **query: str) -> dict[str, dict[str, Any]]:
    rows = httpx.get(base + "/api/tables", params=query).json()["tables"]
    return {r["table_id"]: r for r in rows}


async def _shown_game(base: str) -> str:
    """The current game of table ``mixed`` as a spectator's snapshot says it."""
    client, _ = await player(base, "railbird")
    await client.send("watch", table="mixed")
    snapshot = await until(client, "snapshot", table="mixed")
    await client.close()
    return str(snapshot["view"]["game"]["label"])


def test_9_a_served_mixed_table_changes_game_and_the_lobby_shows_it(
    database_url: str, tmp_path: Path
) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text(MIXED_TOML)
    settings = ServerSettings(
        database_url=database_url,
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        limits=OPEN_SIGNUPS,
    )
    with running_server(settings) as base:
        logs = asyncio.run(bot_session(base, ["mixed"], 3, hands=5))
        before = asyncio.run(_shown_game(base))
        rows = _lobby(base)
        after = asyncio.run(_shown_game(base))
        mixed, horse = rows["mixed"], rows["horse"]
        assert (mixed["badge"], mixed["game"], mixed["stakes"]) == ("CUSTOM_MIXED",) * 2 + ("4/8",)
        assert mixed["structures"] == ["fixed_limit", "no_limit"] and mixed["max_seats"] == 6
        assert mixed["current_game"] in {before, after} and before in {"NL Hold'em", "FL Stud"}
        assert (horse["badge"], horse["current_game"], horse["stakes"]) == (
            "HORSE", "FL Hold'em", "10/20",
        )  # fmt: skip
        assert set(_lobby(base, game="HORSE")) == {"horse"}
        assert set(_lobby(base, structure="no_limit")) == {"mixed"}
    engine = make_engine(database_url)
    entries = [e for _, e in TableRecords(engine).entries("mixed", 0, 1_000_000)]
    engine.dispose()
    dealt = [(e["hand_no"], e["game"]) for e in entries if e["type"] == "HandDealt"]
    assert len(dealt) >= 5
    # Two hands of Hold'em, two of Stud, and again; the game changes only between hands.
    assert all(game == (n - 1) // 2 % 2 for n, game in dealt), dealt
    starts = [e["config"]["game"] for e in entries if e["type"] == "HandStarted"]
    assert starts[:5] == ["holdem", "holdem", "stud", "stud", "holdem"]
    views = [m["view"] for msgs in logs.values() for m in msgs if m["type"] == "snapshot"]
    assert views and all(v["mixed"] == "CUSTOM_MIXED" for v in views)
    pairs = {(v["game"]["label"], v["next_game"]["label"], v["hands_left"]) for v in views}
    assert pairs <= {("NL Hold'em", "FL Stud", n) for n in (1, 2)} | {
        ("FL Stud", "NL Hold'em", n) for n in (1, 2)
    }
    assert check_no_hidden_cards(database_url, logs)  # §12 at a table changing game
