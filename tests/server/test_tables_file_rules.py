"""The tables file's ``rules``: a table sets its game's rule options (the ``TableConfig``
options of RULEBOOK §4-§6 and §10: Short Deck's trips over a straight, burn cards, the
stud tie order, the raise cap...; RULEBOOK: "every option below must be settable per
table"), a mixed table for each of its games, each checked when the table is built;
a wrong one is refused with the table and the option named. House bots play only play
money: a real-money table asking for them is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardroom.games.config import RULE_OPTIONS
from cardroom.server.tables_file import TablesFileError, load_tables, spec_from_dict

SHORT_DECK = """
[[table]]
id = "sd-1"
game = "short_deck"
stakes = { ante = 1, button_blind = 2 }
rules = { short_deck_trips_beat_straight = true, burn_cards = false }

[[table]]
id = "stud-1"
game = "stud"
stakes = { small_bet = 4, big_bet = 8, ante = 1, bring_in = 2 }
rules = { stud_order_ties = "suit", max_raises = 3, fourth_street_pair = "option" }
"""


def test_a_single_game_table_sets_its_game_s_rules(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text(SHORT_DECK)
    short_deck, stud = (spec.settings.games[0] for spec in load_tables(path))
    assert short_deck.short_deck_trips_beat_straight is True
    assert short_deck.burn_cards is False
    assert short_deck.high_evaluator == "short_deck_trips"  # the rule the hand plays by
    assert (stud.stud_order_ties, stud.max_raises, stud.fourth_street_pair) == (
        "suit",
        3,
        "option",
    )
    assert "structure" not in RULE_OPTIONS and "rake" not in RULE_OPTIONS  # keys of their own


def _entry(**keys: Any) -> dict[str, Any]:
    return {"id": "t1", "game": "holdem", "stakes": {"big_blind": 2}, **keys}


@pytest.mark.parametrize(
    ("keys", "words"),
    [
        ({"rules": {"burn_card": False}}, r"rules: unknown \['burn_card'\]"),
        ({"rules": {"burn_cards": "no"}}, "burn_cards"),
        ({"rules": {"incomplete_raise_rule": "most"}}, "incomplete_raise_rule"),
        ({"rules": {"rake": 5}}, r"rules: unknown \['rake'\]"),
        ({"rules": ["burn_cards"]}, "rules: a table of game options"),
        ({"rules": {"hi_lo": True}, "mixed": "HORSE"}, "hi_lo: a mixed table's games name"),
        ({"rules": {"burn_card": False}, "mixed": "HORSE"}, r"rules: unknown \['burn_card'\]"),
    ],
)
def test_a_wrong_rule_is_refused_naming_the_table_and_the_option(
    keys: dict[str, Any], words: str
) -> None:
    entry = _entry(**keys)
    if "mixed" in keys:
        entry.pop("game")
        entry["stakes"] = {"small_bet": 4}
    with pytest.raises(TablesFileError, match=words) as caught:
        spec_from_dict(entry)
    assert "table 't1'" in str(caught.value)


def test_a_mixed_table_sets_the_rules_of_each_of_its_games() -> None:
    # RULEBOOK: every option is settable per table, a mixed table's too; each game of the
    # rotation plays by the options that concern it (the raise cap: stud's 4 too).
    entry = _entry(rules={"burn_cards": False, "max_raises": 5, "stud_order_ties": "suit"})
    entry.pop("game")
    entry.update(mixed="HORSE", stakes={"small_bet": 4})
    games = spec_from_dict(entry).settings.games
    assert [c.variant.name for c in games] == [
        "holdem",
        "omaha_hi_lo",
        "razz",
        "stud",
        "stud_hi_lo",
    ]
    assert all(c.burn_cards is False and c.raise_cap == 5 for c in games)
    assert all(c.stud_order_ties == "suit" for c in games)
    entry.pop("rules")
    usual = spec_from_dict(entry).settings.games
    assert [c.raise_cap for c in usual] == [3, 3, 4, 4, 4] and usual[0].burn_cards


def test_house_bots_sit_only_at_play_money_tables() -> None:
    # The house's bots hold no real money: a real-money table with bots would move
    # the house's chips into a real pot, or wait for bots that never sit.
    assert spec_from_dict(_entry(bots=2)).bots == 2  # play money (the default)
    with pytest.raises(TablesFileError, match="house bots play only play money") as caught:
        spec_from_dict(_entry(bots=2, money="real"))
    assert "table 't1'" in str(caught.value)
