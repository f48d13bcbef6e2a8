"""PHH through the engine: replay of the reference files, unknown cards, export round trips."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest
from tests.games.phh_read_otherwise import export_unless_read_otherwise

from cardroom.bench.engine_driver import EngineDriver
from cardroom.bench.pokerkit_peer import choose
from cardroom.cards import Card
from cardroom.cli import main
from cardroom.games.config import Stakes, TableConfig
from cardroom.games.errors import IllegalAction
from cardroom.games.events import StubReshuffled
from cardroom.games.hand import Hand
from cardroom.games.phh import HandHistory, PhhError, dumps, load_path, loads
from cardroom.games.phh_deck import build_deck
from cardroom.games.phh_replay import export, replay
from cardroom.games.phh_variants import PHH_GAMES, table_config
from cardroom.games.rake import RakeRule
from cardroom.games.variants import FIXED_LIMIT, NO_LIMIT, POT_LIMIT

EXAMPLES = sorted(Path("/work/shared/references/phh-examples").glob("*.phh*"))
if not EXAMPLES:
    EXAMPLES = sorted((Path(__file__).parents[3] / "shared/references/phh-examples").glob("*.phh*"))


def pokerkit_finishing_stacks(path: Path) -> list[object]:
    """The oracle: PokerKit's own PHH reader and state machine."""
    import pokerkit

    with path.open("rb") as fp:
        history = pokerkit.HandHistory.load(fp)
    return _pokerkit_final(history)


def _pokerkit_final(history: object) -> list[object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about cash-game folds and such
        states = list(history)  # type: ignore[call-overload]
    return list(states[-1].stacks)


REPLAYABLE = [p for p in EXAMPLES if load_path(p)[0].variant in PHH_GAMES]


@pytest.mark.parametrize("path", REPLAYABLE, ids=lambda p: p.name)
def test_reference_hands_finish_as_pokerkit_finishes_them(path: Path) -> None:
    (hh,) = load_path(path)
    ours = replay(hh)
    assert ours.hand.is_over
    expected = pokerkit_finishing_stacks(path)
    assert [s / hh.scale for s in ours.finishing_stacks if s is not None] == [
        float(s) for s in expected
    ]
    if hh.finishing_stacks is not None:  # the file's own record, as a second oracle
        assert ours.finishing_stacks == hh.finishing_stacks


def test_every_flop_game_example_is_replayable() -> None:
    assert {load_path(p)[0].variant for p in REPLAYABLE} >= {"NT", "NS", "PO"}


DWAN_IVEY = """variant = "NT"
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  "d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h",
  "p3 cbr 7000", "p1 cbr 23000", "p2 f", "p3 cc",
  "d db Jc3d5c", "p1 cbr 35000", "p3 cc",
  "d db 4h", "p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100", "p3 cc",
  "p1 sm Ac2d", "p3 sm 7h6h", "d db Jh",
]
"""


def test_replay_json_prints_one_object_per_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = tmp_path / "one.phh"
    one.write_text(DWAN_IVEY)
    many = tmp_path / "many.phhs"
    hh = loads(DWAN_IVEY)[0]
    many.write_text("[1]\n" + DWAN_IVEY + "\n[2]\n" + DWAN_IVEY.replace('"p2 f"', '"p2 cc"'))
    assert main(["replay", str(one), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line) == {
        "file": str(one),
        "index": 1,
        "variant": "NT",
        "finishing_stacks": [572100, 1997500, 1109500],
    }
    assert hh.finishing_stacks is None  # the engine computed them: the file has none
    assert main(["replay", str(many), "--json"]) == 1
    first, second = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert first["index"] == 1 and first["finishing_stacks"] == [572100, 1997500, 1109500]
    assert second["index"] == 2 and second["finishing_stacks"] is None
    assert "p3 cbr 232600" not in second["error"] and "turn" in second["error"]


def test_a_file_claiming_stacks_is_not_believed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lie.phh"
    path.write_text(DWAN_IVEY + "finishing_stacks = [1, 2, 3]\n")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finishing_stacks"] == [572100, 1997500, 1109500]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (('"p3 cbr 7000"', '"p3 cbr 2500"'), "between"),  # below the minimum raise
        (('"p3 cbr 7000"', '"p2 cbr 7000"'), "p2 acts but it is p3's turn"),
        (('"d db 4h"', '"d db 4h", "d db 9s"'), "before the engine deals them"),
        (('"d dh p1 Ac2d"', '"d dh p1 AcAc"'), "deals Ac twice"),
        (('"p2 f"', '"p2 pb"'), "bring_in"),
        (('"p1 cbr 35000"', '"p1 sd"'), "draw"),
        (("[1000, 2000, 0]", "[1000, 2000, 1500]"), "each straddle"),  # smaller than the blind
        (("[1000, 2000, 0]", "[1000, 2000, 4000]"), "p3 acts but it is p1's turn"),  # straddled
        (("antes = [500, 500, 500]", "antes = [0, 0, 500]"), "not uniform"),  # not the big blind
        (
            ("antes = [500, 500, 500]", "antes = [0, 500, 0]\nante_trimming_status = true"),
            "only dead big-blind antes",
        ),
    ],
)
def test_a_hand_the_engine_rejects_says_where(change: tuple[str, str], reason: str) -> None:
    text = DWAN_IVEY.replace(*change)
    with pytest.raises((PhhError, IllegalAction), match=reason):
        replay(loads(text)[0])


def test_cli_reports_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = ")
    assert main(["replay", str(bad), str(tmp_path / "missing.phh"), "--json"]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["error"].split(":")[0] for x in lines] == [
        "not valid TOML",
        f"cannot read {tmp_path}/missing.phh",
    ]


def test_unknown_cards_are_filled_with_cards_the_file_never_shows() -> None:
    hh = loads(DWAN_IVEY)[0]
    config = table_config(hh)
    deck = build_deck(hh, config)
    assert len(deck) == 52 == len(set(deck))
    # Round by round from p1: p1's first card, p2's, p3's, then the second cards.
    assert deck[0] == Card.parse("Ac") and deck[2] == Card.parse("7h")
    assert deck[3] == Card.parse("2d") and deck[5] == Card.parse("6h")
    named = {Card.parse(x) for x in ("Ac", "2d", "7h", "6h", "Jc", "3d", "5c", "4h", "Jh")}
    assert deck[1] not in named and deck[4] not in named
    # A burn (unknown: PHH does not record it) before the flop, the turn and the river.
    flop, turn = [Card.parse(x) for x in ("Jc", "3d", "5c")], Card.parse("4h")
    assert deck[7:10] == flop and deck[11] == turn and deck[13] == Card.parse("Jh")
    assert deck[6] not in named and deck[10] not in named and deck[12] not in named


def test_a_hand_shown_only_at_showdown_is_dealt_to_its_owner() -> None:
    text = DWAN_IVEY.replace('"d dh p3 7h6h"', '"d dh p3 ????"')
    ours = replay(loads(text)[0])
    assert ours.hand.hole_cards(2) == (Card.parse("7h"), Card.parse("6h"))
    assert ours.finishing_stacks == (572100, 1997500, 1109500)


def test_a_mucked_unknown_hand_never_wins_with_filler_cards() -> None:
    text = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7c2d", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc",
  "d db 9s8s3h", "p1 cc", "p2 cc", "p3 cc", "d db Kd", "p1 cc", "p2 cc", "p3 cc",
  "d db 4c", "p1 cc", "p2 cc", "p3 cc", "p1 sm 7c2d", "p2 sm", "p3 sm"]
"""
    for _ in range(3):
        ours = replay(loads(text)[0])
        assert ours.finishing_stacks == (104, 98, 98)  # seven high takes it: others mucked


# ----------------------------------------------------------------- export


def _random_hand(
    config: TableConfig, players: int, rng: random.Random, *, deep: bool = False
) -> Hand:
    stacks = [rng.randint(5000, 9000) if deep else rng.randint(1, 400) for _ in range(players)]
    driver = EngineDriver(config, stacks, deck_seed=rng.random())
    while not driver.over:
        driver.apply(choose(driver.options(), rng))
    return driver.hand


STUD = {"fourth_street_pair": "small", "max_raises": 3}  # PHH stud (see phh_variants)
CONFIGS = {
    "NT": TableConfig.of("holdem", Stakes.blinds(1, 2, ante=1), structure=NO_LIMIT),
    "FT": TableConfig.of("holdem", Stakes.limit(4), structure=FIXED_LIMIT),
    "NS": TableConfig.of("short_deck", Stakes.short_deck(2)),
    "PO": TableConfig.of("omaha", Stakes.blinds(2, 5), structure=POT_LIMIT),
    "FO/8": TableConfig.of("omaha_hi_lo", Stakes.limit(10, ante=1), structure=FIXED_LIMIT),
    "F7S": TableConfig.of("stud", Stakes(ante=1, small_bet=4, big_bet=8, bring_in=2), **STUD),
    "F7S/8": TableConfig.of("stud_hi_lo", Stakes(ante=1, small_bet=4, big_bet=8), **STUD),
    "FR": TableConfig.of("razz", Stakes(ante=2, small_bet=6, big_bet=12, bring_in=3), **STUD),
    "N2L1D": TableConfig.of("single_draw_27", Stakes.blinds(1, 2)),
    "F2L3D": TableConfig.of("triple_draw_27", Stakes.limit(4)),
    "FB": TableConfig.of("badugi", Stakes.limit(4, ante=1)),
}
MAX_PLAYERS = {"NS": 6, "N2L1D": 4, "F2L3D": 4, "FB": 4}


@pytest.mark.parametrize("code", sorted(CONFIGS))
def test_any_finished_hand_exports_to_phh_that_replays_to_the_same_result(code: str) -> None:
    rng = random.Random(code)
    replayed = 0
    for _ in range(40):
        hand = _random_hand(CONFIGS[code], rng.randint(2, MAX_PLAYERS.get(code, 8)), rng)
        if any(isinstance(e, StubReshuffled) for e in hand.events):
            continue  # PHH cannot say in which order a muck was reshuffled
        hh = export_unless_read_otherwise(hand)
        if hh is None:
            continue
        replayed += 1
        assert hh.variant == code
        again = replay(loads(dumps(hh))[0])
        assert again.hand.is_over
        assert (
            again.finishing_stacks
            == hh.finishing_stacks
            == tuple(hand.stacks[s] for s in hand.order)
        )
        assert again.hand.board == hand.board
    assert replayed >= 25


def test_export_refuses_what_phh_cannot_describe() -> None:
    rng = random.Random(5)
    spread = TableConfig.of(
        "holdem", Stakes.spread_limit((2, 4, 6), 1, 2), structure="spread_limit"
    )
    with pytest.raises(PhhError, match="no variant code"):  # PHH has no field for its maxima
        export(_random_hand(spread, 3, rng))
    half = TableConfig.of("holdem", Stakes.blinds(1, 2), incomplete_raise_rule="half")
    with pytest.raises(PhhError, match="limit rule half"):
        export(_random_hand(half, 3, rng))
    # Rake has no PHH field but is no reason to refuse: the standard writes the stacks
    # after it in finishing_stacks (tests/server/test_api_history_room.py).
    raked = TableConfig.of("holdem", Stakes.blinds(1, 2), rake=RakeRule(5, 100, ((10, 400),)))
    assert "_rake" in export(_random_hand(raked, 3, rng)).fields
    plo_hi_lo = TableConfig.of("omaha_hi_lo", Stakes.blinds(1, 2))  # PHH's FO/8 is fixed limit
    assert export(_random_hand(plo_hi_lo, 3, rng)).variant == "PO/8"  # our extension


@pytest.mark.parametrize("code", sorted(CONFIGS))
def test_exported_text_is_standard_phh_pokerkit_replays_alike(code: str) -> None:
    """PokerKit replays our exported hands to our stacks (deep stacks: no all-in, so none of
    the all-in rules where PokerKit differs, see test_pokerkit_diff, come into play)."""
    import pokerkit

    rng = random.Random(11)
    for _ in range(8):
        hand = _random_hand(CONFIGS[code], rng.randint(2, MAX_PLAYERS.get(code, 6)), rng, deep=True)
        if any(isinstance(e, StubReshuffled) for e in hand.events):
            continue
        text = dumps(export(hand))
        theirs = pokerkit.HandHistory.loads(text)
        assert _pokerkit_final(theirs) == [hand.stacks[s] for s in hand.order]


def test_history_records_are_plain_data() -> None:
    hh = HandHistory("NT", (0, 0), (5, 5), (), blinds_or_straddles=(1, 2), min_bet=2)
    assert table_config(hh).stakes.big_blind == 2


def test_an_unknown_stack_plays_deep_and_prints_as_unknown() -> None:
    text = DWAN_IVEY.replace("[1125600, 2000000, 553500]", "[1125600, inf, 553500]")
    assert replay(loads(text)[0]).finishing_stacks == (572100, None, 1109500)


def _header(code: str, blinds: str, extra: str, n: int = 3) -> HandHistory:
    stacks = ", ".join(["100"] * n)
    antes = ", ".join(["1"] * n)
    text = f'variant = "{code}"\nantes = [{antes}]\n{blinds}\n{extra}\n'
    return loads(text + f"starting_stacks = [{stacks}]\nactions = []\n")[0]


def test_phh_rules_become_table_options() -> None:
    stud = table_config(_header("F7S", "", "bring_in = 1\nsmall_bet = 2\nbig_bet = 4"))
    assert stud.variant.name == "stud" and stud.betting == FIXED_LIMIT
    assert stud.fourth_street_pair == "small" and stud.raise_cap == 3 and stud.burn_cards
    assert stud.stakes.bring_in == 1 and stud.stakes.ante == 1
    button = table_config(_header("NS", "blinds_or_straddles = [0, 0, 3]", "min_bet = 3"))
    assert button.variant.name == "short_deck" and button.stakes.effective_button_blind == 3
    blinds = table_config(_header("NS", "blinds_or_straddles = [1, 2, 0]", "min_bet = 2"))
    assert blinds.variant.forced_bets == "blinds" and blinds.stakes.big_blind == 2
    heads_up = table_config(_header("NS", "blinds_or_straddles = [3, 0]", "min_bet = 3", n=2))
    assert heads_up.stakes.effective_button_blind == 3  # PHH reverses heads-up forced bets
    limit = table_config(
        _header("FO/8", "blinds_or_straddles = [1, 2, 0]", "small_bet = 2\nbig_bet = 4")
    )
    assert limit.variant.name == "omaha_hi_lo" and limit.betting == FIXED_LIMIT
    assert limit.stakes.effective_big_bet == 4


def test_hole_cards_may_be_dealt_card_by_card() -> None:
    one_by_one = DWAN_IVEY.replace(
        '"d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h"',
        '"d dh p1 Ac", "d dh p2 ??", "d dh p3 7h", "d dh p1 2d", "d dh p2 ??", "d dh p3 6h"',
    )
    ours = replay(loads(one_by_one)[0])
    assert ours.hand.hole_cards(0) == (Card.parse("Ac"), Card.parse("2d"))
    assert ours.finishing_stacks == (572100, 1997500, 1109500)


def test_a_lone_big_blind_from_the_first_player_replays_and_exports() -> None:
    text = DWAN_IVEY.replace("[1000, 2000, 0]", "[2000, 0, 0]").replace(
        '"p3 cbr 7000", "p1 cbr 23000", "p2 f", "p3 cc"', '"p2 f", "p3 cc", "p1 cc"'
    )
    hh = loads(text)[0]
    ours = replay(hh)
    posted = [e for e in ours.hand.events if type(e).__name__ == "Posted" and e.live]
    assert [(e.seat, e.amount) for e in posted] == [(0, 2000)]
    again = export(ours.hand)
    assert again.blinds_or_straddles == (2000, 0, 0)
    assert replay(loads(dumps(again))[0]).finishing_stacks == ours.finishing_stacks


# ---------------------------------------------------------------- mutation audit (phh)


def test_a_lone_big_blind_needs_three_players_heads_up_one_blind_is_refused() -> None:
    """A lone big blind (``[X, 0, 0...]``: the small blind's seat dead) is a rule of three
    players or more; heads-up the two players post both blinds (RULEBOOK §4), so a
    heads-up ``[2, 0]`` has no big blind and is refused, not played as a lone blind (phh V12)."""
    text = (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [2, 0]\nmin_bet = 2\n'
        'starting_stacks = [100, 100]\nactions = ["d dh p1 ????", "d dh p2 ????", "p2 f"]\n'
    )
    with pytest.raises(PhhError, match="big blind must be positive"):
        replay(loads(text)[0])


def test_a_short_deck_file_dealing_a_deuce_is_refused_naming_the_deal() -> None:
    """Short Deck plays 36 cards, the 2s to 5s removed (RULEBOOK §1): a file that deals 2s
    has a card the deck does not hold, refused at that deal, not played from a 37-card
    deck (phh D10)."""
    text = (
        'variant = "NS"\nantes = [1, 1, 1]\nblinds_or_straddles = [0, 0, 2]\nmin_bet = 2\n'
        "starting_stacks = [100, 100, 100]\n"
        'actions = ["d dh p1 2s7h", "d dh p2 ????", "d dh p3 ????"]\n'
    )
    with pytest.raises(PhhError, match="deals 2s but the Short Deck") as refused:
        replay(loads(text)[0])
    assert refused.value.action == 1


def test_a_street_s_deals_listed_out_of_order_replay_as_pokerkit_replays_them() -> None:
    """PHH orders the players as they are dealt to (p1 first), but a file may list a
    street's deals in any order, and PokerKit reads ``d dh p2`` before ``d dh p1``. The
    deck was laid out in the file's order, so p1's named aces went to p2 and the file was
    refused ("the engine did not deal AcAd to p1"), a legal file lost. Now it replays as
    the same hand listed in order, and as PokerKit plays it (phh R8, on review)."""
    shown = ' "p1 sm AcAd", "p2 sm KhKs"]\n'
    text = (
        'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        "starting_stacks = [100, 100, 100]\n"
        'actions = ["d dh p2 KhKs", "d dh p1 AcAd", "d dh p3 ????", "p3 f", "p1 cc", "p2 cc",'
        ' "d db 2c7d9h", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "d db 4s", "p1 cc",'
        ' "p2 cc",' + shown
    )
    in_order = text.replace('"d dh p2 KhKs", "d dh p1 AcAd"', '"d dh p1 AcAd", "d dh p2 KhKs"')
    ours = replay(loads(text)[0])
    assert ours.finishing_stacks == replay(loads(in_order)[0]).finishing_stacks == (102, 98, 100)
    import pokerkit

    assert _pokerkit_final(pokerkit.HandHistory.loads(text)) == [102, 98, 100]


def test_equal_blinds_are_read_as_pokerkit_reads_them() -> None:
    """In NL/PL the table sets both blinds (RULEBOOK §4): a small blind as large as the big
    one (``[2, 2, 0]``, as some recorded games post) is a hand, not an error; only a
    small blind above the big one is refused (phh V23)."""
    text = (
        'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [2, 2, 0]\nmin_bet = 2\n'
        "starting_stacks = [100, 100, 100]\n"
        'actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 6", "p1 f", "p2 f"]\n'
    )
    assert replay(loads(text)[0]).finishing_stacks == (98, 98, 104)
    bigger = text.replace("[2, 2, 0]", "[3, 2, 0]")
    with pytest.raises(PhhError, match="the small blind exceeds the big"):
        replay(loads(bigger)[0])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (("min_bet = 2000", "min_bet = 10000000000000000000"), "min_bet must be"),
        (("[1000, 2000, 0]", "[1000, 20000000000000000000, 0]"), "big_blind must be"),
        (("[500, 500, 500]", "[9007199254740992, 9007199254740992, 9007199254740992]"), "ante"),
        (("starting_stacks = [1125600,", "starting_stacks = [12345678901234567890,"), "p1: a seat"),
    ],
)
def test_an_amount_past_the_engines_largest_is_refused_as_the_files_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], reason: str
) -> None:
    """The reader takes amounts up to 10**30, the engine up to 2**53 - 1: a forced bet or bet
    size between the two printed "internal error: ConfigError(...)", a stack named "seat 0"."""
    path = tmp_path / "big.phh"
    path.write_text(DWAN_IVEY.replace(*change))
    with pytest.raises(PhhError, match=reason):
        replay(load_path(path)[0])
    assert main(["replay", str(path), "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert "internal error" not in error and "seat 0" not in error and "2**53 - 1" in error
