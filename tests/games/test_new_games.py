"""Big O, six-card Omaha and Irish: three games added as data (issue 12 §5, docs/games.md).

Every example is worked by hand in its docstring: the cards, each player's best
hand under the game's rule, and who wins what. The hands are dealt from arranged
decks and checked down (or discarded) to the showdown.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardroom.cards import parse_cards
from cardroom.cli import main
from cardroom.games import (
    VARIANTS,
    Action,
    ConfigError,
    Hand,
    IllegalAction,
    RoomAction,
    Stakes,
    Street,
    TableConfig,
    arrange_deck,
    config_from_dict,
    config_to_dict,
    dealing_order,
    event_view,
    get_variant,
)
from cardroom.games import events as ev
from cardroom.games.phh import dumps, loads
from cardroom.games.phh_codes import EXTENSIONS
from cardroom.games.phh_replay import export, replay
from cardroom.games.phh_variants import phh_code_of
from cardroom.games.variants import variant_from_dict, variant_to_dict

NEW_GAMES = ("big_o", "plo6", "irish")


def dealt(game: str, holes: dict[int, str], board: str, stacks: list[int] | None = None) -> Hand:
    """A hand of ``game`` at blinds 1/2, the button on the last seat (seat 0 is the small
    blind), dealing ``holes`` and ``board``; burns are cards nobody holds."""
    config = TableConfig.of(game, Stakes.blinds(1, 2))
    seats = stacks or [100] * len(holes)
    order = dealing_order([True] * len(seats), len(seats) - 1)
    deck = arrange_deck(
        config, order, {s: parse_cards(h) for s, h in holes.items()}, parse_cards(board)
    )
    return Hand(config, seats, len(seats) - 1, deck)


def check_down(hand: Hand, discards: dict[int, str] | None = None) -> None:
    """Everybody calls or checks to the showdown, discarding ``discards`` when asked."""
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        if legal.draw is not None:
            hand.apply(Action.draw(seat, parse_cards((discards or {})[seat])))
        else:
            hand.apply(Action.check(seat) if legal.check else Action.call(seat))


def awards(hand: Hand) -> list[tuple[int, int, str, set[str]]]:
    """(seat, chips, share, the winning cards) of every award, main pot first."""
    assert hand.result is not None
    return [
        (a.seat, a.amount, a.share, {str(c) for c in a.cards})
        for pot in hand.result.pots
        for a in pot.awards
    ]


# ------------------------------------------------------------------ Big O


def test_big_o_splits_high_and_low_each_from_two_hole_and_three_board_cards() -> None:
    """Board 2c 5d 8h Kc Ks (lows on board: 2, 5, 8).

    - seat 0, Ah 3s Qd Jd Td: high Ah Qd + Kc Ks 8h, a pair of kings; low Ah 3s +
      2c 5d 8h = 8-5-3-2-A.
    - seat 1, Kd 9c 9s 4h 6c: high Kd 9x + Kc Ks 8h, three kings (no full house: the
      nines need a third nine on the board); low 4h 6c + 2c 5d 8h = 8-6-5-4-2.
    - seat 2, Qc Qh 7s 7d 3c: high Qc Qh + Kc Ks 8h, kings and queens; low 7s 3c +
      2c 5d 8h = 8-7-5-3-2.

    High: seat 1's trips. Low: 8-5-3-2-A beats 8-6 and 8-7. The pot of 6 (three calls
    of the big blind) splits 3 / 3.
    """
    hand = dealt(
        "big_o",
        {0: "Ah 3s Qd Jd Td", 1: "Kd 9c 9s 4h 6c", 2: "Qc Qh 7s 7d 3c"},
        "2c 5d 8h Kc Ks",
    )
    check_down(hand)
    (high, low) = awards(hand)
    assert high[:3] == (1, 3, "high") and {"Kd", "Kc", "Ks", "8h"} < high[3]
    assert low == (0, 3, "low", {"Ah", "3s", "2c", "5d", "8h"})
    assert hand.stacks == (101, 101, 98)


def test_big_o_with_no_qualifying_low_the_high_takes_the_whole_pot() -> None:
    """Board Kc Ks 9h 8h 2c holds only two cards of 8 or lower (8h, 2c): no hand can make
    an 8-or-better low with three board cards. Seat 1's Kd Qd + Kc Ks 9h (three kings)
    beats seat 0's Ah 2d + Kc Ks 2c (kings up, two pair) and takes all 4."""
    hand = dealt("big_o", {0: "Ah 2d 3d 4d 5s", 1: "Kd Qd 7c 6c 3h"}, "Kc Ks 9h 8h 2c")
    check_down(hand)
    assert [a[:3] for a in awards(hand)] == [(1, 4, "all")]


def test_big_o_a_royal_flush_in_the_hand_plays_no_part_and_a_wheel_scoops() -> None:
    """Board 2h 3h 4s 9c 9d. Seat 0 holds Ah Kh Qh Jh Th: with exactly two hole cards
    and three board cards it has no flush (two hearts on board) and no straight, only
    Ah Kh + 9c 9d 4s, a pair of nines; and no low (one hole card of 8 or lower).
    Seat 1, 5c 6h 7d 8c 9s: 5c 6h + 2h 3h 4s is a six-high straight for high and
    6-5-4-3-2 for low: it scoops both halves of the pot of 4."""
    hand = dealt("big_o", {0: "Ah Kh Qh Jh Th", 1: "5c 6h 7d 8c 9s"}, "2h 3h 4s 9c 9d")
    check_down(hand)
    assert hand.result is not None
    assert hand.result.pots[0].scoop == 1
    assert awards(hand) == [
        (1, 2, "high", {"5c", "6h", "2h", "3h", "4s"}),
        (1, 2, "low", {"5c", "6h", "2h", "3h", "4s"}),
    ]


# ------------------------------------------------------------------ six-card Omaha


def test_plo6_a_flush_needs_two_hole_cards_of_the_suit() -> None:
    """Board Ks 9s 4s 2s 7h (four spades).

    - seat 0, As Qh Qd Jc Tc 3h: one spade, so no flush (Hold'em's rule would give it
      the nut flush); best Qh Qd + Ks 9s 7h, a pair of queens.
    - seat 1, 6s 5s 8c 8d 2c Jh: 6s 5s + Ks 9s 4s, a king-high flush.
    - seat 2, Kh Kc 9c 9d 4h 4d: Kh Kc + Ks 9s 7h, three kings (no full house: the
      board is unpaired).

    Seat 1's flush wins the pot of 6.
    """
    hand = dealt(
        "plo6",
        {0: "As Qh Qd Jc Tc 3h", 1: "6s 5s 8c 8d 2c Jh", 2: "Kh Kc 9c 9d 4h 4d"},
        "Ks 9s 4s 2s 7h",
    )
    check_down(hand)
    assert awards(hand) == [(1, 6, "all", {"6s", "5s", "Ks", "9s", "4s"})]
    assert hand.result is not None and hand.result.pots[0].awards[0].hand.startswith("Flush")


def test_3_seat_limits_leave_every_flop_game_enough_cards() -> None:
    """RULEBOOK §3: a full table of a flop game is dealt every hole card, five board cards
    and three burns from one deck. Six-card Omaha: 7 x 6 + 8 = 50 of 52 (8 players would
    need 56), Big O 8 x 5 + 8 = 48 (9 would need 53), Irish 10 x 4 + 8 = 48."""
    assert (VARIANTS["plo6"].max_seats, VARIANTS["big_o"].max_seats) == (7, 8)
    assert VARIANTS["irish"].max_seats == 10
    for game in VARIANTS.values():
        if not game.board_cards:
            continue  # stud deals a community card, draws reshuffle the muck
        dealt_most = game.max_seats * sum(s.hole_down + s.hole_up for s in game.streets)
        burns = sum(1 for s in game.streets if s.burn and s.board)
        deck = len(game.cards)
        assert dealt_most + game.board_cards + burns <= deck, game.name
        one_more = dealt_most + sum(s.hole_down for s in game.streets)
        if game.name in ("plo6", "big_o"):
            assert one_more + game.board_cards + burns > deck, game.name
    with pytest.raises(ConfigError, match="2 to 7"):
        TableConfig.of("plo6", Stakes.blinds(1, 2), max_seats=8)


# ------------------------------------------------------------------ Irish

IRISH_HOLES = {0: "Ah Ad Kc 7s", 1: "9h 8h 2c 2d", 2: "Qs Qc Js Tc"}
IRISH_BOARD = "7h 6h Qd 3c 5c"


def test_irish_the_two_cards_kept_play_with_the_board() -> None:
    """Board 7h 6h Qd (flop) 3c 5c. Seat 0 keeps Ah Ad (pair of aces), seat 1 keeps
    9h 8h (9-8-7-6-5, a straight), seat 2 keeps Qs Qc (three queens with Qd). Any five
    of the two kept cards and the five board cards: seat 1's straight takes the 6."""
    hand = dealt("irish", IRISH_HOLES, IRISH_BOARD)
    check_down(hand, {0: "Kc 7s", 1: "2c 2d", 2: "Js Tc"})
    assert awards(hand) == [(1, 6, "all", {"9h", "8h", "7h", "6h", "5c"})]
    assert [len(hand.hole_cards(s)) for s in range(3)] == [2, 2, 2]


def test_irish_discarded_cards_are_dead() -> None:
    """The same deal, but seat 1 throws 9h 8h and keeps 2c 2d: its straight is gone
    (2c 2d + 7 6 5 3 is a pair of twos; 4 is missing), and seat 0 threw 7s, which
    would have paired the board's 7h. Seat 2's three queens win."""
    hand = dealt("irish", IRISH_HOLES, IRISH_BOARD)
    check_down(hand, {0: "Kc 7s", 1: "9h 8h", 2: "Js Tc"})
    assert awards(hand) == [(2, 6, "all", {"Qs", "Qc", "Qd", "7h", "6h"})]


def at_discard(hand: Hand) -> None:
    """Check and call until the discard street asks the first seat to discard."""
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is None:
        legal = hand.legal_actions(hand.actor)
        hand.apply(Action.check(hand.actor) if legal.check else Action.call(hand.actor))


def test_irish_a_discard_is_exactly_two_of_the_cards_held_and_nothing_else() -> None:
    hand = dealt("irish", IRISH_HOLES, IRISH_BOARD)
    at_discard(hand)
    assert hand.street.name == "discard" and tuple(hand.board) == tuple(parse_cards("7h 6h Qd"))
    seat = hand.actor
    assert seat == 0
    legal = hand.legal_actions(seat)
    assert legal.kinds == ("draw",) and (legal.draw, legal.draw_min) == (2, 2)
    refused = {
        "too_few_cards": Action.draw(seat, parse_cards("Kc")),
        "too_many_cards": Action.draw(seat, parse_cards("Kc 7s Ad")),
        "cards_not_held": Action.draw(seat, parse_cards("Kc 9h")),
        "draw_due": Action.raise_to(seat, 4),
    }
    for code, action in refused.items():
        with pytest.raises(IllegalAction) as why:
            hand.apply(action)
        assert why.value.code == code
    with pytest.raises(IllegalAction):
        hand.apply(Action.draw(seat))  # standing pat is a draw's, not a discard's
    assert hand.hole_cards(seat) == tuple(parse_cards("Ah Ad Kc 7s"))  # nothing changed


def test_irish_discards_go_left_of_the_button_all_in_too_folded_not_nothing_dealt() -> None:
    """Four players, the button on seat 3: seat 0 (small blind) is all-in pre-flop for
    5, seat 2 folds. After the flop's betting the discards go seat 0, seat 1, seat 3 (the
    all-in player discards too, the folded one does not); nothing is dealt and nothing
    burned for them; the turn's burn and card follow with no betting between."""
    holes = {0: "Ah Ad Kc 7s", 1: "9h 8h 2c 2d", 2: "Qs Qc Js Tc", 3: "Kh Kd 4c 4d"}
    hand = dealt("irish", holes, IRISH_BOARD, stacks=[5, 100, 100, 100])
    hand.apply(Action.fold(2))
    hand.apply(Action.call(3))
    hand.apply(Action.raise_to(0, 5))  # all-in
    hand.apply(Action.call(1))
    hand.apply(Action.call(3))
    at_discard(hand)
    start = len(hand.events)
    for seat, cards in ((0, "Kc 7s"), (1, "2c 2d"), (3, "4c 4d")):
        assert hand.actor == seat
        hand.apply(Action.draw(seat, parse_cards(cards)))
    after = hand.events[start:]
    drew = [e for e in after if isinstance(e, ev.Drew)]
    assert [(e.seat, e.dealt) for e in drew] == [(0, ()), (1, ()), (3, ())]
    rest = after[len(drew) :]
    assert [type(e) for e in rest[:3]] == [ev.StreetStarted, ev.Burned, ev.BoardDealt]
    assert hand.street.name == "turn" and hand.board[-1] == parse_cards("3c")[0]
    assert len(hand.hole_cards(2)) == 4  # the folded hand keeps its four, out of play
    check_down(hand)
    # Seat 3 keeps Kh Kd: two pair is not enough against seat 1's straight.
    assert {a[0] for a in awards(hand)} == {1}


def test_10_5_irish_a_timed_out_discard_throws_the_last_two_cards_and_may_still_raise() -> None:
    """The room cannot stand a player pat on a discard street: it throws the last two
    cards dealt (Kc 7s for seat 0). The draw's no-raise penalty (seed 003) is for
    standing pat; seat 0 may bet on the turn."""
    hand = dealt("irish", IRISH_HOLES, IRISH_BOARD)
    at_discard(hand)
    (drew,) = hand.apply_room(RoomAction(0, "timeout"))
    assert drew == ev.Drew(0, tuple(parse_cards("Kc 7s")), (), True)
    hand.apply(Action.draw(1, parse_cards("2c 2d")))
    hand.apply(Action.draw(2, parse_cards("Js Tc")))
    assert hand.street.name == "turn" and hand.actor == 0
    assert hand.legal_actions(0).min_raise_to == 2


def test_irish_views_show_two_hidden_cards_and_hide_what_others_threw() -> None:
    hand = dealt("irish", IRISH_HOLES, IRISH_BOARD)
    at_discard(hand)
    events = hand.apply(Action.draw(0, parse_cards("Kc 7s")))
    assert event_view(events[0], 1) == {"type": "Drew", "seat": 0, "count": 0, "timed_out": False}
    assert event_view(events[0], 0)["discarded"] == ["Kc", "7s"]
    assert hand.view(1)["seats"][0]["cards"] == [None, None]
    assert hand.view(0)["seats"][0]["cards"] == ["Ah", "Ad"]
    assert hand.view(1)["legal"]["draw_min"] == 2


# ------------------------------------------------------------------ data, PHH and CLI


def test_the_new_games_are_data_with_the_right_cards_and_rules() -> None:
    big_o, plo6, irish = (get_variant(g) for g in NEW_GAMES)
    assert (big_o.hole_cards, big_o.high, big_o.low, big_o.structure) == (
        5,
        "omaha_high",
        "omaha_low8",
        "pot_limit",
    )
    assert (plo6.hole_cards, plo6.high, plo6.low, plo6.structure) == (
        6,
        "omaha_high",
        None,
        "pot_limit",
    )
    # Irish: four dealt, two thrown; Hold'em's evaluator and betting.
    assert (irish.hole_cards, irish.high, irish.low) == (2, "high", None)
    assert irish.structure == VARIANTS["holdem"].structure
    assert [s.discard for s in irish.streets] == [0, 0, 2, 0, 0]
    assert not irish.streets[2].betting and not irish.streets[2].burn


def test_a_discard_street_is_checked_and_kept_as_data() -> None:
    with pytest.raises(ConfigError, match="not both"):
        Street("x", draw=True, discard=1)
    with pytest.raises(ConfigError, match="keep at least one"):
        # Two cards dealt, two thrown: nothing left to play.
        replace(VARIANTS["holdem"], streets=(*VARIANTS["holdem"].streets, Street("x", discard=2)))
    # A game built outside VARIANTS (three cards dealt, one thrown: two kept, so the
    # showdown hand is still 2 + 5) survives the record.
    irish = variant_to_dict(VARIANTS["irish"])
    streets = [dict(street) for street in irish["streets"]]
    streets[0]["hole_down"], streets[2]["discard"] = 3, 1
    one = variant_from_dict({**irish, "name": "irish_one", "streets": streets})
    # Four dealt and one thrown would leave 3 + 5 cards, which the high evaluator cannot
    # rank: such a game is refused when built, not at its first showdown.
    streets[0]["hole_down"] = 4
    with pytest.raises(ConfigError, match="cannot be ranked"):
        variant_from_dict({**irish, "name": "irish_three", "streets": streets})
    config = TableConfig(one, Stakes.blinds(1, 2))
    assert config_from_dict(config_to_dict(config)) == config
    hand = Hand(config, [50, 50], 1, seed=5)
    at_discard(hand)
    assert hand.legal_actions(hand.actor or 0).draw_min == 1


IRISH_PHH = """
variant = "NI"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 AhAdKc7s", "d dh p2 9h8h2c2d", "d dh p3 QsQcJsTc",
  "p3 cc", "p1 cc", "p2 cc",
  "d db 7h6hQd",
  "p1 cc", "p2 cc", "p3 cc",
  "p1 sd Kc7s", "p2 sd 2c2d", "p3 sd JsTc",
  "d db 3c",
  "p1 cbr 4", "p2 cc", "p3 f",
  "d db 5c",
  "p1 cc", "p2 cc",
  "p1 sm AhAd", "p2 sm 9h8h",
]
"""


def test_irish_phh_written_by_hand_replays() -> None:
    """The first Irish example as a PHH file (p1 = seat 0, the button is p3): the
    discards are ``sd`` with no replacement. p1 bets 4 on the turn, p2 calls, p3 folds;
    p2's straight wins 6 + 8 = 14: stacks 94, 108, 98."""
    result = replay(loads(IRISH_PHH)[0])
    assert result.finished
    assert result.finishing_stacks == (94, 108, 98)
    assert [str(c) for c in result.hand.hole_cards(1)] == ["9h", "8h"]


@pytest.mark.parametrize("game", NEW_GAMES)
def test_phh_export_then_import_gives_the_same_hand(game: str) -> None:
    config = TableConfig.of(game, Stakes.blinds(1, 2))
    for seed in range(4):
        hand = Hand(config, [60, 100, 30, 100], 3, seed=seed)
        discards = {s: " ".join(map(str, hand.hole_cards(s)[1:3])) for s in range(4)}
        while hand.actor is not None:
            seat, legal = hand.actor, hand.legal_actions(hand.actor)
            if legal.draw is not None:
                hand.apply(Action.draw(seat, parse_cards(discards[seat])))
            elif legal.min_raise_to is not None and (seat + seed) % 3 == 0:
                hand.apply(Action.raise_to(seat, legal.min_raise_to))
            else:
                hand.apply(Action.check(seat) if legal.check else Action.call(seat))
        text = dumps(export(hand))
        code = phh_code_of(config)
        assert code in EXTENSIONS and EXTENSIONS[code].game == game
        assert f'variant = "{code}"' in text
        again = replay(loads(text)[0])
        assert again.finishing_stacks == hand.stacks
        assert dumps(export(again.hand)) == text


def test_cli_eval_names_hands_of_the_new_games(capsys: pytest.CaptureFixture[str]) -> None:
    """Irish is ranked from the two cards kept; Big O prints its high and low halves."""
    assert main(["eval", "--game", "irish", "--board", "7h 6h Qd 3c 5c", "9h 8h"]) == 0
    assert capsys.readouterr().out.startswith("Straight")
    board = "2c 5d 8h Kc Ks"
    assert main(["eval", "--game", "big_o", "--board", board, "Ah 3s Qd Jd Td"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("high: ") and "low: " in out
    assert main(["eval", "--game", "plo6", "--board", board, "Ah 3s Qd Jd Td"]) == 2


@pytest.mark.parametrize("game", NEW_GAMES)
def test_cli_play_watches_the_new_games(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", game, "--watch", "--seed", "2", "--hands", "2"]) == 0
    assert get_variant(game).title in capsys.readouterr().out
