"""RULEBOOK §10.3–§10.4 and §3: joining a blind game, missed blinds, sitting out,
the dead button (heads-up included), too few chips for the forced bets."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from cardroom.cards import CARDS, RANKS
from cardroom.games import Stakes, TableConfig, shuffle_deck
from cardroom.games import events as hev
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.errors import TableError
from cardroom.room.positions import OWES_BIG, OWES_BOTH, Positions, SeatFacts, between, plan_hand
from cardroom.room.settings import TableSettings
from cardroom.room.simulation import Session

from .conftest import FUNDS, Harness, holdem


def play_hand(h: Harness) -> tuple[rv.HandDealt, list[hev.Posted]]:
    """Deal the next hand and fold it around; its HandDealt and forced bets."""
    events = h.tick()
    dealt = next(e for e in events if isinstance(e, rv.HandDealt))
    posts = [e for e in events if isinstance(e, hev.Posted)]
    hand = h.table.hand
    assert hand is not None
    while h.table.state.in_hand:
        h.act("check" if hand.legal_actions(hand.actor).check else "fold")  # type: ignore[arg-type]
    return dealt, posts


def blinds_by_player(h: Harness, posts: list[hev.Posted]) -> dict[str, str]:
    seats = h.table.state.seats
    return {seats[p.seat].player: p.what for p in posts if seats[p.seat] is not None}  # type: ignore[union-attr]


def test_3_first_hand_button_small_and_big_blind_left_of_it(h: Harness) -> None:
    h.seat({0: 40, 2: 40, 4: 40})
    dealt, posts = play_hand(h)
    assert (dealt.button, dealt.sb, dealt.bb) == (0, 2, 4)
    assert [(p.seat, p.what) for p in posts] == [(2, "small_blind"), (4, "big_blind")]


def _high_card_seat(seats: list[int], seed: str) -> int:
    # The draw worked by hand: one card face up to each seat in order from the top of
    # the table's shuffled deck; the highest rank wins, a tie goes to the higher suit.
    drawn = [str(c) for c in shuffle_deck(CARDS, seed)[: len(seats)]]
    order = {c: (RANKS.index(c[0]), "cdhs".index(c[1])) for c in drawn}  # spades highest
    return max(zip(seats, drawn, strict=True), key=lambda x: order[x[1]])[0]


def test_3_a_new_tables_button_goes_to_the_high_card_of_a_draw() -> None:
    winners = set()
    for i in range(40):
        h = Harness(holdem(f"t{i}", draw_button=True, seed=f"draw{i}"))
        h.seat({1: 40, 3: 40, 4: 40})
        dealt, _ = play_hand(h)
        assert dealt.button == _high_card_seat([1, 3, 4], f"draw{i}:button")
        winners.add(dealt.button)
        later, _ = play_hand(h)  # then it moves on as usual
        assert later.button == {1: 3, 3: 4, 4: 1}[dealt.button]
    assert winners == {1, 3, 4}  # every seat can win the draw
    unseeded = {first_button(holdem(f"u{i}", draw_button=True, seed=None)) for i in range(30)}
    assert unseeded == {1, 3, 4}  # a real table draws from the OS's randomness


def first_button(settings: TableSettings) -> int:
    h = Harness(settings)
    h.seat({1: 40, 3: 40, 4: 40})
    return next(e.button for e in h.tick() if isinstance(e, rv.HandDealt))


def test_3_a_table_whose_players_all_left_starts_anew() -> None:
    """A table every player left is a new table again (§3): its next players are all dealt
    in, the button drawn for, as at a table never played. It used to go on from the last
    game's positions: the button on an empty seat, no small blind, and with one newcomer
    posting now, another left out of the first hand, waiting for a big blind."""
    firsts = []
    for played in (False, True):
        h = Harness(holdem(f"t{played}", draw_button=True, seed="anew"))
        if played:
            h.seat({0: 40, 1: 40, 2: 40})
            play_hand(h)
            play_hand(h)
            for p in ("p0", "p1", "p2"):
                h.do(cmd.Leave(p))
        h.do(cmd.Sit("p3", 3, 40))
        h.do(cmd.Sit("p4", 4, 40))
        h.do(cmd.Sit("p5", 5, 40, post_now=True))
        dealt, posts = play_hand(h)
        firsts.append(((dealt.button, dealt.sb, dealt.bb), dealt.dealt, dealt.posts))
        assert dealt.dealt == (3, 4, 5) and dealt.posts == ()
        assert sorted(p.what for p in posts) == ["big_blind", "small_blind"]
    assert firsts[0] == firsts[1]  # the same draw, the same first hand


def test_3_players_sitting_out_keep_the_game_going_for_newcomers() -> None:
    """A table whose players are all sitting out is not new (§3, §10.4): they are still
    in the game, and come back to its blinds and button. Newcomers dealt meanwhile play
    on from its positions: the big blind moves on from seat 2 (the last hand's) to seat
    3. Read as new (drawn for), the big blind went to seat 4, and a HORSE table's
    veteran who came back found the big blind had skipped him (`cardroom simulate
    --tables 400 --hands 100 --seed 22`, table sim127)."""
    h = Harness(holdem(draw_button=True, seed="anew"))
    h.seat({0: 40, 1: 40, 2: 40})
    play_hand(h)
    last, _ = play_hand(h)
    assert last.bb == 2
    for p in ("p0", "p1", "p2"):
        h.do(cmd.SitOut(p))
    h.do(cmd.Sit("p3", 3, 40))
    h.do(cmd.Sit("p4", 4, 40))
    dealt, _ = play_hand(h)
    assert dealt.dealt == (3, 4)
    assert (dealt.button, dealt.sb, dealt.bb) == (4, 4, 3)  # heads-up: the button's small


def test_3_the_draw_for_the_button_is_on_by_default_at_every_table_kind() -> None:
    assert TableSettings.single("t", holdem().games[0]).draw_button
    stud = TableSettings.single("s", TableConfig.of("stud", Stakes(ante=1, small_bet=4, big_bet=8)))
    buttons = {first_button(dataclasses.replace(stud, table_id=f"s{i}")) for i in range(30)}
    assert buttons == {1, 3, 4}


def test_10_3_new_player_waits_for_the_big_blind(h: Harness) -> None:
    h.seat({0: 40, 2: 40, 4: 40})
    play_hand(h)  # button 0, blinds 2 and 4
    h.do(cmd.Sit("p1", 1, 40))
    second, _ = play_hand(h)
    assert second.bb == 0 and 1 not in second.dealt  # waiting: not dealt in
    third, posts = play_hand(h)
    assert third.bb == 1 and 1 in third.dealt  # the big blind reached p1
    assert [p.what for p in posts if p.seat == 1] == ["big_blind"]


def test_10_3_new_player_may_post_one_big_blind_now_live(h: Harness) -> None:
    h.seat({0: 40, 2: 40, 4: 40})
    play_hand(h)
    h.do(cmd.Sit("p1", 1, 40, post_now=True))
    second, posts = play_hand(h)
    assert 1 in second.dealt and second.posts == ((1, OWES_BIG),)
    post = next(p for p in posts if p.seat == 1)
    assert (post.what, post.amount, post.live) == ("big_blind", 2, True)


def test_10_3_no_posting_between_the_blinds_and_the_button(h: Harness) -> None:
    h.seat({0: 40, 2: 40, 4: 40})
    play_hand(h)  # next hand: button 2, small blind 4, big blind 0
    h.do(cmd.Sit("p3", 3, 40, post_now=True))
    second, _ = play_hand(h)
    assert (second.button, second.bb) == (2, 0)
    assert 3 not in second.dealt  # seat 3 lies between the button and the big blind
    third, _ = play_hand(h)
    assert 3 in third.dealt and dict(third.posts) == {3: OWES_BIG}  # the button went by


def test_10_3_a_newcomer_is_not_dealt_in_on_the_button() -> None:
    h = Harness(holdem(seats=5))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40, 4: 40})
    play_hand(h)  # button 0, blinds 1 and 2
    h.do(cmd.Leave("p2"))
    second, _ = play_hand(h)
    assert (second.button, second.sb, second.bb) == (1, 2, 3)  # a dead small blind on 2
    h.do(cmd.Sit("p7", 2, 40, post_now=True))
    third, _ = play_hand(h)
    assert third.button == 2  # the button moves to the newcomer's seat...
    assert 2 not in third.dealt and third.posts == ()  # ...where he may not post
    fourth, posts = play_hand(h)
    assert fourth.button == 3 and 2 in fourth.dealt  # the button went by: he posts
    assert dict(fourth.posts) == {2: OWES_BIG}
    assert [(p.what, p.live) for p in posts if p.seat == 2] == [("big_blind", True)]


def test_10_3_coming_out_of_heads_up_a_newcomer_waits_for_the_button_to_pass() -> None:
    ready, newcomer = SeatFacts(True), SeatFacts(True, OWES_BIG, True)
    # Heads-up last hand: seat 0 button and small blind, seat 2 big blind; a newcomer
    # posting now sits at seat 1, where the button lands coming out of heads-up.
    plan = plan_hand([ready, newcomer, ready], Positions(0, 0, 2), 5)
    assert plan is not None and 1 not in plan.dealt and not plan.posts
    assert (plan.positions.button, plan.big_blind) == (2, 0)  # heads-up goes on
    after = plan_hand([ready, newcomer, ready], plan.positions, 6)
    assert after is not None and after.big_blind == 1 and 1 in after.dealt  # his big blind
    assert after.positions.button == 2 and after.small_blind == 0


def test_3_short_deck_button_moves_one_player_a_hand_after_a_departure() -> None:
    config = TableConfig.of("short_deck", Stakes.short_deck(2))
    h = Harness(TableSettings.single("sd", config, seed="sd", draw_button=False))
    h.seat({0: 80, 1: 80, 2: 80, 3: 80})
    hands = [play_hand(h) for _ in range(2)]
    h.do(cmd.Leave("p2"))
    hands += [play_hand(h) for _ in range(4)]
    buttons = [d.button for d, _ in hands]
    assert buttons == [0, 1, 3, 0, 1, 3]  # the empty seat 2 is skipped, no dead button
    posters = [[p.seat for p in posts if p.what == "button_blind"] for _, posts in hands]
    assert posters == [[b] for b in buttons]  # a different player posts it every hand


def test_10_4_missed_big_blind_posts_a_live_big_blind() -> None:
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    play_hand(h)  # button 0, blinds 1 and 2
    h.do(cmd.SitOut("p3"))
    second, _ = play_hand(h)
    assert second.missed == (3,) and dict(second.owes) == {3: OWES_BIG}
    assert h.table.state.seats[3].owes == OWES_BIG  # type: ignore[union-attr]
    h.do(cmd.SitIn("p3", post_now=True))
    third, _ = play_hand(h)  # button 2, seat 3 between it and the big blind: must wait
    assert 3 not in third.dealt
    assert dict(third.owes) == {3: OWES_BOTH}  # and the small blind passes it meanwhile
    fourth, posts = play_hand(h)
    assert dict(fourth.posts) == {3: OWES_BOTH}
    paid = [(p.what, p.amount, p.live) for p in posts if p.seat == 3]
    assert paid == [("big_blind", 2, True), ("dead_small_blind", 1, False)]


def test_10_4_sitting_in_early_does_not_forgive_the_missed_small_blind() -> None:
    # Two players miss the same blinds; one clicks "sit in, post now" a hand earlier,
    # while his seat is between the button and the big blind. Both pay the same.
    paid = []
    for early in (True, False):
        h = Harness(holdem(seats=6))
        h.seat({s: 40 for s in range(6)})
        play_hand(h)
        h.do(cmd.SitOut("p3"))
        play_hand(h)  # the big blind passes seat 3
        if early:
            h.do(cmd.SitIn("p3", post_now=True))
        play_hand(h)  # the small blind passes it
        h.do(cmd.SitIn("p3", post_now=True))
        _, posts = play_hand(h)
        paid.append([(p.what, p.amount) for p in posts if p.seat == 3])
    assert paid[0] == paid[1] == [("big_blind", 2), ("dead_small_blind", 1)]


def test_10_4_posting_both_blinds_now_needs_chips_for_both() -> None:
    # §10.2: to be dealt in, chips for the forced bets, here the big blind and the dead
    # small. p3 has one big blind (2 chips) and owes both blinds.
    h = Harness(holdem(seats=4, min_buy_in=1))
    h.seat({0: 40, 1: 40, 2: 40, 3: 2})
    play_hand(h)
    h.do(cmd.SitOut("p3"))
    play_hand(h)
    play_hand(h)
    assert h.table.state.seats[3].owes == OWES_BOTH  # type: ignore[union-attr]
    with pytest.raises(TableError) as short:
        h.do(cmd.SitIn("p3", post_now=True))
    assert short.value.code == "insufficient_funds"
    h.do(cmd.SitIn("p3"))  # waiting for the big blind needs only the big blind
    # Sitting in to post now while owing the big only, then kept out until the small
    # blind passed too: at the deal he is sat out as short (the sit-out clock runs),
    # not left seated in and never dealt.
    h = Harness(holdem(seats=4, min_buy_in=1))
    h.seat({0: 40, 1: 40, 2: 40, 3: 2})
    play_hand(h)
    h.do(cmd.SitOut("p3"))
    play_hand(h)
    h.do(cmd.SitIn("p3", post_now=True))
    third, _ = play_hand(h)
    assert 3 not in third.dealt and dict(third.owes) == {3: OWES_BOTH}
    events = h.tick(h.settings.hand_pause_seconds)
    assert rv.SatOut(3, "short", h.clock.now) in events
    assert h.table.state.seats[3].sitting_out  # type: ignore[union-attr]


def test_10_4_missed_both_blinds_posts_dead_small() -> None:
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    play_hand(h)
    h.do(cmd.SitOut("p3"))
    play_hand(h)  # the big blind passes seat 3
    third, _ = play_hand(h)  # the small blind would have been seat 3's
    assert dict(third.owes) == {3: OWES_BOTH}
    h.do(cmd.SitIn("p3", post_now=True))
    fourth, posts = play_hand(h)
    assert dict(fourth.posts) == {3: OWES_BOTH}
    mine = [(p.what, p.amount, p.live) for p in posts if p.seat == 3]
    assert mine == [("big_blind", 2, True), ("dead_small_blind", 1, False)]


def test_10_4_a_big_blind_passing_again_leaves_both_blinds_owed() -> None:
    """One who missed both blinds owes both until he posts or takes the big blind: the
    big blind going past his seat again (a whole orbit away) does not bring the debt
    down to the big blind alone, not even in what his seat tells the table for the
    hand before the small blind passes again."""
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    play_hand(h)
    h.do(cmd.SitOut("p3"))
    passes = []
    while len(passes) < 2:
        dealt, _ = play_hand(h)
        if 3 in dealt.missed:
            passes.append(dealt)
    assert passes[1].hand_no - passes[0].hand_no == 3  # once an orbit of three players
    assert dict(passes[1].owes) == {3: OWES_BOTH}
    assert h.table.view("p0")["seats"][3]["owes"] == OWES_BOTH


def test_10_4_a_newcomer_sitting_out_as_the_big_blind_passes_then_owes_both() -> None:
    """A newcomer owes a big blind; sitting out, he lets it go past his seat (he owes the
    big blind), and the next hand dealt without him the small blind too (both)."""
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40})
    play_hand(h)  # button 0, blinds 1 and 2
    h.do(cmd.Sit("p3", 3, 40))
    h.do(cmd.SitOut("p3"))
    passed, _ = play_hand(h)  # the big blind goes from seat 2 past seat 3 to seat 0
    assert 3 in passed.missed and dict(passed.owes) == {3: OWES_BIG}
    after, _ = play_hand(h)
    assert dict(after.owes) == {3: OWES_BOTH}


def test_10_4_waiting_for_the_big_blind_clears_what_was_owed() -> None:
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    play_hand(h)
    h.do(cmd.SitOut("p3"))
    play_hand(h)
    play_hand(h)
    h.do(cmd.SitIn("p3"))  # owes both, waits for the big blind
    seen = [play_hand(h) for _ in range(3)]
    bb_hand = next(d for d, _ in seen if d.bb == 3)
    posts = next(p for d, p in seen if d.bb == 3)
    assert [p.what for p in posts if p.seat == 3] == ["big_blind"]
    assert all(3 not in d.dealt for d, _ in seen if d.hand_no < bb_hand.hand_no)
    assert h.table.state.seats[3].owes is None  # type: ignore[union-attr]


def test_10_4_dead_button_nobody_posts_the_big_blind_twice_or_skips_it() -> None:
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    _, posts = play_hand(h)
    assert blinds_by_player(h, posts) == {"p1": "small_blind", "p2": "big_blind"}
    h.do(cmd.Leave("p2"))  # the big blind leaves
    second, posts = play_hand(h)
    # The big blind moves on to seat 3; the small blind is dead (its seat is empty);
    # the button moves to p1, who had the small blind: p1 pays no blind twice.
    assert (second.button, second.sb, second.bb) == (1, 2, 3)
    assert blinds_by_player(h, posts) == {"p3": "big_blind"}
    third, posts = play_hand(h)
    assert (third.button, third.sb, third.bb) == (2, 3, 0)  # a dead button on empty seat 2
    assert blinds_by_player(h, posts) == {"p3": "small_blind", "p0": "big_blind"}


def test_10_4_dead_button_heads_up_big_blind_alternates() -> None:
    h = Harness(holdem(seats=4))
    h.seat({0: 40, 1: 40, 2: 40})
    play_hand(h)  # button 0, p1 small, p2 big
    h.do(cmd.Leave("p0"))
    bbs = []
    for _ in range(4):
        dealt, posts = play_hand(h)
        by = blinds_by_player(h, posts)
        assert sorted(by.values()) == ["big_blind", "small_blind"]
        small = next(p for p, w in by.items() if w == "small_blind")
        assert h.table.state.seats[dealt.button].player == small  # type: ignore[union-attr]
        bbs.append(next(p for p, w in by.items() if w == "big_blind"))
    assert bbs == ["p1", "p2", "p1", "p2"]  # p2 had it before going heads-up


def test_10_4_heads_up_to_three_players_the_big_blind_keeps_its_order() -> None:
    facts = [SeatFacts(True), SeatFacts(True), SeatFacts(True, OWES_BIG, True)]
    # Heads-up last hand: seat 0 had the button and the small blind, seat 1 the big.
    plan = plan_hand(facts, Positions(0, 0, 1), 5)
    assert plan is not None
    assert plan.big_blind == 2 and plan.small_blind == 1  # nobody's big blind twice


def test_10_4_sitting_out_keeps_the_seat_and_deals_no_cards(h: Harness) -> None:
    h.seat({0: 40, 1: 40, 2: 40})
    h.do(cmd.SitOut("p2"))
    dealt, _ = play_hand(h)
    assert 2 not in dealt.dealt
    assert h.table.state.seats[2].player == "p2"  # type: ignore[union-attr]
    view = h.table.view("p1")
    assert view["seats"][2]["sitting_out"] is True


def test_10_4_removed_after_sit_out_minutes_with_chips_back(h: Harness) -> None:
    h.seat({0: 40, 1: 40})
    h.do(cmd.SitOut("p1"))
    h.tick(9 * 60)
    assert h.table.state.seats[1] is not None
    events = h.tick(61)
    assert rv.PlayerLeft(1, "p1", 40, "sat_out_too_long", h.clock.now) in events
    assert h.balance("p1") == FUNDS


def test_10_4_sitting_in_and_out_again_without_a_hand_does_not_restart_the_sit_out_clock(
    h: Harness,
) -> None:
    """A sit-in that deals the player no hand is no return: sitting out again, he has sat
    out since the first time (it restarted the clock, so a player toggling sit in / sit
    out every few minutes held a seat for ever without playing; found by a live server
    session: 32 s away at a 15 s table, four toggles, never removed)."""
    h.seat({0: 40, 1: 40})
    h.do(cmd.SitOut("p1"))
    h.tick(9 * 60)
    h.do(cmd.SitIn("p1"))
    h.do(cmd.SitOut("p1"))  # back for a moment, no hand dealt in between
    events = h.tick(61)
    assert rv.PlayerLeft(1, "p1", 40, "sat_out_too_long", h.clock.now) in events


def test_10_4_a_player_who_sat_in_again_is_not_removed_by_his_old_sit_out(h: Harness) -> None:
    """§10.4 removes a player *sitting out* longer than `sit_out_minutes`. One who sat
    out, came back and plays keeps his seat however long ago that sit-out began: the
    clock's start is kept through a sit-in (toggling must not reset it), but it times
    nobody who is back in the game, between hands included."""
    h.seat({0: 40, 1: 40})
    h.do(cmd.SitOut("p1"))
    h.tick(9 * 60)
    h.do(cmd.SitIn("p1"))
    dealt, _ = play_hand(h)
    assert 1 in dealt.dealt
    assert not h.table.state.in_hand  # between hands: dealt in nowhere
    events = h.tick(2 * 60)
    assert not any(isinstance(e, rv.PlayerLeft) for e in events)
    assert h.table.state.seats[1] is not None


def test_10_4_a_hand_dealt_after_sitting_in_restarts_the_sit_out_clock(h: Harness) -> None:
    """Dealt a hand, the player came back: a later sit-out is timed from its own start."""
    h.seat({0: 40, 1: 40})
    h.do(cmd.SitOut("p1"))
    h.tick(9 * 60)
    h.do(cmd.SitIn("p1"))
    dealt, _ = play_hand(h)
    assert 1 in dealt.dealt
    h.do(cmd.SitOut("p1"))
    events = h.tick(61)
    assert not any(isinstance(e, rv.PlayerLeft) for e in events)
    assert h.table.state.seats[1] is not None


def test_10_2_too_few_chips_for_the_forced_bets_not_dealt_in() -> None:
    h = Harness(holdem(min_buy_in=1))
    h.seat({0: 40, 1: 40, 2: 1})
    events = h.tick()
    dealt = next(e for e in events if isinstance(e, rv.HandDealt))
    assert 2 not in dealt.dealt
    assert rv.SatOut(2, "short", h.clock.now) in events


def test_10_2_too_few_chips_for_the_ante_and_the_big_blind_not_dealt_in() -> None:
    """With antes in a blind game the forced bets of the big blind's seat are the ante
    and the big blind: a player with the big blind but not the ante as well is not
    dealt in (he would post all in for less)."""
    config = TableConfig.of("holdem", Stakes.blinds(1, 2, ante=1), max_seats=6)
    h = Harness(TableSettings.single("an", config, min_buy_in=1, draw_button=False, seed="s"))
    h.seat({0: 40, 1: 40, 2: 2})
    events = h.tick()
    dealt = next(e for e in events if isinstance(e, rv.HandDealt))
    assert 2 not in dealt.dealt
    assert rv.SatOut(2, "short", h.clock.now) in events


def test_10_3_a_newcomer_at_a_stud_table_owes_no_blind() -> None:
    """A stud game has no blinds to wait for (§10.3 speaks of blind games): a newcomer is
    dealt the next hand and his seat never says he owes a big blind."""
    config = TableConfig.of("stud", Stakes(ante=1, small_bet=4, big_bet=8), max_seats=8)
    h = Harness(TableSettings.single("sd", config, draw_button=False, seed="s"))
    h.seat({0: 40, 1: 40})
    seat = h.table.view("p0")["seats"][0]
    assert seat["owes"] is None and h.table.state.seats[0].owes is None  # type: ignore[union-attr]
    dealt = next(e for e in h.tick() if isinstance(e, rv.HandDealt))
    assert dealt.dealt == (0, 1)


def test_10_2_too_few_chips_for_a_straddle_not_dealt_in() -> None:
    """A straddle is a forced bet of its seat (§4): a player who cannot cover it is not
    dealt in (§10.2), as one short of the big blind. It used to be dealt in and post the
    straddle all in for less."""
    config = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4,)), max_seats=6)
    h = Harness(TableSettings.single("st", config, min_buy_in=1, draw_button=False, seed="s"))
    h.seat({0: 40, 1: 40, 2: 40, 3: 3})
    events = h.tick()
    dealt = next(e for e in events if isinstance(e, rv.HandDealt))
    assert 3 not in dealt.dealt
    assert rv.SatOut(3, "short", h.clock.now) in events
    posted = {e.seat: (e.what, e.amount) for e in events if isinstance(e, hev.Posted)}
    assert posted[0] == ("straddle", 4)  # seat 0, left of the big blind, straddles in full


def test_10_4_over_random_sessions_the_big_blind_never_repeats_or_skips_a_player() -> None:
    checked = 0
    for i in range(int(os.environ.get("CARDROOM_ROOM_SESSIONS", "8"))):
        seats = random.Random(i).randint(3, 9)
        config = TableConfig.of("holdem", Stakes.blinds(1, 2), max_seats=seats)
        settings = TableSettings.single(f"b{i}", config, seed=f"b{i}")
        session = Session(settings, seed=i, check_money=False)
        previous: tuple[rv.HandDealt, dict[int, str]] | None = None
        before_it = previous
        for _ in range(3_000):
            for e in session.step():
                if isinstance(e, rv.HandVoided):  # cancelled: as if never dealt (§10.10)
                    previous = before_it
                if isinstance(e, rv.PlayerLeft) and previous is not None:
                    previous[1].pop(e.seat, None)  # back again, he is a newcomer
                if not isinstance(e, rv.HandDealt):
                    continue
                assert e.button not in dict(e.posts), "a newcomer posted on the button"
                players = {s: x.player for s, x in enumerate(session.table.state.seats) if x}
                if previous is not None:
                    last, before = previous
                    stayed = {s for s, p in players.items() if before.get(s) == p}
                    assert not (e.bb == last.bb and e.bb in stayed), "big blind twice"
                    for s in set(e.dealt) & set(last.dealt) & stayed - dict(e.posts).keys():
                        assert not between(last.bb, s, e.bb, seats), f"seat {s} skipped"
                    checked += 1
                before_it, previous = previous, (e, players)
    assert checked > 100


def test_a_table_told_not_to_deal_lets_time_pass_and_deals_no_hand(h: Harness) -> None:
    """A room stopping lets the hands in progress finish and deals no other
    (``tick(deal=False)``): the clocks still run, and the next tick that may deal does."""
    h.seat({0: 40, 2: 40})
    h.clock.advance(3600)
    assert not any(isinstance(e, rv.HandDealt) for e in h.table.tick(deal=False))
    assert not h.table.state.in_hand
    assert any(isinstance(e, rv.HandDealt) for e in h.tick())


def test_10_2_a_busted_player_is_not_dealt_in_at_a_stud_table_with_no_forced_bet() -> None:
    """A stud table whose forced bets come to nothing (no ante, a 1-chip small bet whose
    bring-in rounds down to 0: the tables file takes it) still needs a chip to deal a
    player in. A player who lost his last chip was dealt in with 0: the engine refused
    the seat, and every tick after failed, the table stuck for good."""
    config = TableConfig.of("stud", Stakes(small_bet=1), max_seats=8)
    h = Harness(TableSettings.single("z", config, draw_button=False, seed="z"))
    h.seat({0: 1, 1: 20})
    for _ in range(200):  # p0 has 1 chip in play a hand: a few hands bust him
        if h.table.stacks()["p0"] == 0:
            break
        h.tick()
        hand = h.table.hand
        assert hand is not None
        while h.table.state.in_hand:
            legal = hand.legal_actions(hand.actor)  # type: ignore[arg-type]
            if legal.bring_in is not None:
                h.act("bring_in")
            elif legal.max_raise_to is not None and h.actor == "p1":
                h.act("raise", legal.min_raise_to)  # type: ignore[arg-type]
            else:
                h.act("check" if legal.check else "call")
    assert h.table.stacks()["p0"] == 0
    events = h.tick()
    assert rv.SatOut(0, "short", h.clock.now) in events
    assert not any(isinstance(e, rv.HandDealt) for e in events)  # p1 alone: no hand
    with pytest.raises(TableError) as err:
        h.do(cmd.SitIn("p0"))
    assert err.value.code == "insufficient_funds"
