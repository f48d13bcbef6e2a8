"""PHH export at its edges: what a room's hands hold beyond a plain hand (a disconnect
all-in, a cancel), a muck reshuffle in the middle of a draw, fixed-limit stakes that
carry blinds. Each file either replays, in our reader and in PokerKit, to the engine's
stacks, or is refused with the reason that applies."""

from __future__ import annotations

import dataclasses
import re
import warnings

import pokerkit
import pytest

from cardroom.games import DISCONNECT_ALL_IN, Action, Hand, RoomAction, Seat, Stakes, TableConfig
from cardroom.games import events as ev
from cardroom.games.config import POST_BIG_BLIND, POST_BOTH_BLINDS
from cardroom.games.phh import PhhError, dumps, loads
from cardroom.games.phh_export import export
from cardroom.games.phh_replay import replay


def _play_out(hand: Hand, *, draw_all: bool = False) -> Hand:
    while hand.actor is not None:
        s = hand.actor
        legal = hand.legal_actions(s)
        if legal.draw is not None:
            hand.apply(Action.draw(s, hand.hole_cards(s) if draw_all else ()))
        elif legal.bring_in is not None:
            hand.apply(Action.bring_in(s))
        else:
            hand.apply(Action.check(s) if legal.check else Action.call(s))
    return hand


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns at each muck reshuffle
        return list(list(pokerkit.HandHistory.loads(text))[-1].stacks)


def test_a_draw_s_discards_all_come_before_its_deals_across_a_muck_reshuffle() -> None:
    # Everyone draws five every round at six seats: the stub runs out mid-draw. PHH
    # (and PokerKit) read a round as its discards, then its deals: a reshuffle inside a
    # round must not write some deals before the later discards.
    config = TableConfig.of("triple_draw_27", Stakes.limit(4, 8), structure="fixed_limit")
    hand = _play_out(Hand(config, [200] * 6, button=5, seed=3), draw_all=True)
    assert any(isinstance(e, ev.StubReshuffled) for e in hand.events)
    text = dumps(export(hand))
    lines = re.findall(r'"((?:d dh|p\d+ sd)[^"]*)"', text)
    rounds = "".join("s" if " sd" in line else "d" for line in lines[6:])  # after the deal
    assert re.fullmatch(r"(s+d+)+", rounds), rounds  # never a deal before a discard
    stacks = [hand.stacks[s] for s in hand.order]
    assert list(replay(loads(text)[0]).finishing_stacks or ()) == stacks
    assert _pokerkit_stacks(text) == stacks


def test_a_disconnect_all_in_is_refused_not_dropped() -> None:
    # PHH has no notation for the room's disconnect all-in: writing the hand without it
    # gave the next action to the wrong player.
    config = TableConfig.of("holdem", Stakes.limit(2, 4), structure="fixed_limit")
    hand = Hand(config, [100, 100, 100], button=0, seed=7)
    hand.apply(Action.raise_to(0, 4))
    hand.apply_room(RoomAction(1, DISCONNECT_ALL_IN))
    _play_out(hand)
    with pytest.raises(PhhError, match="disconnect all-in"):
        export(hand)


def test_a_cancelled_hand_is_refused() -> None:
    # Its actions stop part way: no finishing stacks could be reached from them.
    hand = Hand(TableConfig.of("holdem", Stakes.blinds(1, 2)), [100, 100, 100], button=0, seed=1)
    hand.apply(Action.raise_to(0, 10))
    hand.apply(Action.call(1))
    hand.cancel()
    with pytest.raises(PhhError, match="cancelled"):
        export(hand)


def test_fixed_limit_stud_with_blinds_in_its_stakes_exports() -> None:
    # At fixed limit the min bet is never asked: stakes that carry blinds (as the room's
    # stud tables' do) play as without them, and are written the same.
    options = {"max_raises": 3, "fourth_street_pair": "small"}
    stakes = Stakes.limit(4, 8, ante=1)
    bare = dataclasses.replace(stakes, small_blind=0, big_blind=0)
    with_blinds = _play_out(Hand(TableConfig.of("stud", stakes, **options), [100] * 4, 0, seed=9))
    without = _play_out(Hand(TableConfig.of("stud", bare, **options), [100] * 4, 0, seed=9))
    assert dumps(export(with_blinds)) == dumps(export(without))


def test_a_refusal_names_the_reason_that_applies() -> None:
    # A lone big blind and a live post: refused for that, not for what the importer
    # would have made of the file.
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    seats = [100, 100, 100, Seat(100, post=POST_BIG_BLIND)]
    hand = Hand(config, seats, button=0, seed=1, blind_seats=(None, 1))
    with pytest.raises(PhhError, match="live post"):
        export(hand)


def _capped_flop_after_a_short_all_in(short_stack: int) -> Hand:
    # Fixed limit 10/20, four players. On the flop: bet 10, raise to 20, seat 3 all-in
    # to short_stack - 10 (short of a full raise): two full raises close the round at our cap.
    config = TableConfig.of("holdem", Stakes.limit(10, 20), structure="fixed_limit")
    hand = Hand(config, [500, 500, 500, short_stack], button=0, seed=3)
    for action in (Action.call(3), Action.call(0), Action.call(1), Action.check(2)):
        hand.apply(action)
    all_in_to = short_stack - 10
    hand.apply(Action.raise_to(1, 10))
    hand.apply(Action.raise_to(2, 20))
    hand.apply(Action.raise_to(3, all_in_to))
    hand.apply(Action.raise_to(0, all_in_to + 10))
    hand.apply(Action.raise_to(1, all_in_to + 20))
    return _play_out(hand)


def test_4_a_short_all_in_raise_our_cap_skipped_is_refused_since_phh_counts_it() -> None:
    # RULEBOOK §4: an all-in raise of less than half a bet is no raise for the cap, so a
    # round may hold a bet, three raises and the short all-in. PHH's reader (PokerKit)
    # counts every bet and raise: it refused the file at the fourth full raise.
    hand = _capped_flop_after_a_short_all_in(short_stack=34)  # all-in to 24: short by 6
    with pytest.raises(PhhError, match="short all-in") as refused:
        export(hand)
    assert refused.value.code == "short_raise"


def test_4_a_short_all_in_raise_within_phh_s_count_is_exported() -> None:
    # The same round stopped one raise short of our cap: bet, raise, the short all-in and
    # one full raise are four raises by PHH's count too; written, it replays alike.
    config = TableConfig.of("holdem", Stakes.limit(10, 20), structure="fixed_limit")
    hand = Hand(config, [500, 500, 500, 34], button=0, seed=3)
    for action in (Action.call(3), Action.call(0), Action.call(1), Action.check(2)):
        hand.apply(action)
    hand.apply(Action.raise_to(1, 10))
    hand.apply(Action.raise_to(2, 20))
    hand.apply(Action.raise_to(3, 24))  # all-in, short of a full raise
    hand.apply(Action.raise_to(0, 34))
    _play_out(hand)
    text = dumps(export(hand))
    stacks = [hand.stacks[s] for s in hand.order]
    assert list(replay(loads(text)[0]).finishing_stacks or ()) == stacks
    assert _pokerkit_stacks(text) == stacks


def _short_big_blind(big_blind_stack: int) -> Hand:
    # Fixed limit 2/4 (blinds 1/2), four players: the big blind (seat 2) has
    # ``big_blind_stack`` chips; seat 3 raises to 4, everyone calls what he can.
    config = TableConfig.of("holdem", Stakes.limit(2, 4), structure="fixed_limit")
    hand = Hand(config, [60, 60, big_blind_stack, 60], button=0, seed=5)
    hand.apply(Action.raise_to(3, 4))
    return _play_out(hand)


def test_4_a_big_blind_posted_all_in_for_less_is_refused_since_phh_calls_what_was_posted() -> None:
    # RULEBOOK §4: a forced bet posted all-in for less is still called in full (2 here)
    # and raised from it; PHH's reader (PokerKit) calls the 1 posted and refused the raise.
    with pytest.raises(PhhError, match="all-in for less") as refused:
        export(_short_big_blind(1))
    assert refused.value.code == "short_forced_bet"


def test_4_a_small_blind_posted_all_in_for_less_is_exported() -> None:
    # Short of the small blind only: the bet to call is the big blind, read alike.
    config = TableConfig.of("holdem", Stakes.limit(2, 4), structure="fixed_limit")
    hand = Hand(config, [60, 1, 60, 60], button=0, seed=5)
    hand.apply(Action.raise_to(3, 4))
    _play_out(hand)
    text = dumps(export(hand))
    stacks = [hand.stacks[s] for s in hand.order]
    assert list(replay(loads(text)[0]).finishing_stacks or ()) == stacks
    assert _pokerkit_stacks(text) == stacks


def _pokerkit_reads_as_written(text: str) -> list[int]:
    """PokerKit's stacks, every action taken as written: only the steps PHH leaves out
    (burns, collecting bets) done between them; no move repaired or skipped."""
    history = pokerkit.HandHistory.loads(text)
    state = history.create_state()
    for action in history.actions:
        while True:
            try:
                pokerkit.notation.parse_action(state, action, history.parse_value)
                break
            except ValueError:
                if state.can_burn_card():
                    state.burn_card("??")
                elif state.can_collect_bets():
                    state.collect_bets()
                else:
                    raise
    return [int(s) for s in state.stacks]


def test_an_all_in_showdown_is_written_before_the_board_still_to_come() -> None:
    # The standard (required.rst): the showdown action is performed "after all players
    # go all-in", then the board is dealt; the export wrote the flop, turn and river
    # first, and PokerKit refused the board ("No board dealing is pending") and repaired.
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    hand = Hand(config, [100, 100, 100], button=0, seed=11)
    hand.apply(Action.raise_to(0, 100))  # all-in
    hand.apply(Action.call(1))  # all-in too: both hands shown
    hand.apply(Action.fold(2))
    assert hand.is_over
    text = dumps(export(hand))
    lines = re.findall(r'"(p\d sm [^"]*|d db [^"]*)"', text)
    assert [line.split()[1] for line in lines] == ["sm", "sm", "db", "db", "db"], lines
    stacks = [hand.stacks[s] for s in hand.order]
    assert list(replay(loads(text)[0]).finishing_stacks or ()) == stacks
    assert _pokerkit_reads_as_written(text) == stacks


def test_a_covering_player_s_muck_after_an_all_in_is_written_at_the_end() -> None:
    # §7 lets the covering player muck a beaten hand after the runout (only the called
    # all-in hand must show); the standard would have him show before it, so such a
    # showdown stays where it was played, and the file replays to the same stacks.
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    for seed in range(40):
        hand = Hand(config, [100, 30, 100], button=0, seed=seed)
        hand.apply(Action.raise_to(0, 30))
        hand.apply(Action.call(1))  # all-in for 30
        hand.apply(Action.fold(2))
        if any(isinstance(e, ev.Mucked) for e in hand.events):
            break
    else:
        raise AssertionError("no seed where the covering raiser mucks")
    text = dumps(export(hand))
    lines = re.findall(r'"(p\d sm[^"]*|d db [^"]*)"', text)
    assert [line.split()[1] for line in lines] == ["db", "db", "db", "sm", "sm"], lines
    stacks = [hand.stacks[s] for s in hand.order]
    assert list(replay(loads(text)[0]).finishing_stacks or ()) == stacks
    assert _pokerkit_stacks(text) == stacks


# ---------------------------------------------------------------- mutation audit (phh)


def test_a_big_blind_ante_after_a_lone_big_blind_is_written_in_p1_s_entry() -> None:
    """The small blind's seat is dead, so p1 posts the lone big blind and its ante: the
    ante is in p1's entry, where the importer (and PokerKit) charge it, and the file
    replays to the hand's stacks (phh E3: written in p2's, the file did not read)."""
    config = TableConfig.of("holdem", Stakes(1, 2, big_blind_ante=2))
    hand = _play_out(Hand(config, [100] * 4, button=3, seed=1, blind_seats=(None, 0)))
    history = export(hand)
    assert history.antes == (2, 0, 0, 0)
    assert history.blinds_or_straddles == (2, 0, 0, 0)
    text = dumps(history)
    assert replay(loads(text)[0]).finishing_stacks == hand.stacks
    assert _pokerkit_stacks(text) == list(hand.stacks)


def test_a_dead_small_blind_beside_equal_antes_is_refused_as_dead_blind() -> None:
    """PHH writes a dead small blind in the poster's ante entry (dead money); beside equal
    antes, which count in the side pots, that entry could not say both (phh E10)."""
    config = TableConfig.of("holdem", Stakes(1, 2, 1))
    hand = Hand(config, [100, 100, 100, Seat(100, post=POST_BOTH_BLINDS)], button=0, seed=1)
    with pytest.raises(PhhError, match="dead small blind beside antes") as refused:
        export(hand)
    assert refused.value.code == "dead_blind"


def test_a_heads_up_hand_with_only_a_big_blind_is_refused_as_blind_seats() -> None:
    """A lone big blind is a rule of three players or more (phh E2): heads-up, a hand whose
    room named only a big blind is refused for its blind seats, the stable code clients
    switch on (docs/api.md), not as a table PHH cannot describe."""
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    hand = Hand(config, [100, 100], button=1, seed=1, blind_seats=(None, 0))
    with pytest.raises(PhhError, match="usual seats") as refused:
        export(hand)
    assert refused.value.code == "blind_seats"


def test_a_straddle_after_a_lone_big_blind_is_refused_as_straddles() -> None:
    """After a lone big blind the next player straddles. PHH writes a lone big blind as
    p1's entry alone (``[2, 0, 0, 0]``), which leaves the straddle no entry: the hand is
    refused with its own documented code (phh E15), not written as another hand."""
    config = TableConfig.of("holdem", Stakes(1, 2, straddles=(4,)))
    hand = Hand(config, [100] * 4, button=3, seed=1, blind_seats=(None, 0))
    with pytest.raises(PhhError, match="straddles after a lone big blind") as refused:
        export(hand)
    assert refused.value.code == "straddles"


def test_a_table_dealt_without_burn_cards_is_refused_as_table() -> None:
    """PHH hands are dealt with burn cards, unrecorded (PokerKit deals them): a file of a
    table without burns would be replayed with them, which in a stud or draw hand moves
    where the deck runs out. Refused with the table code (phh E17)."""
    config = TableConfig.of("holdem", Stakes.blinds(1, 2), burn_cards=False)
    hand = Hand(config, [100, 100, 100], button=2, seed=1)
    with pytest.raises(PhhError, match="burn_cards") as refused:
        export(hand)
    assert refused.value.code == "table"
