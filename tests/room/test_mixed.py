"""RULEBOOK §9 through the table: each hand plays its rotation's game with that game's
forced bets; CUSTOM_MIXED keeps the button moving, HORSE freezes it in the stud rounds."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from cardroom.games import events as hev
from cardroom.ledger import Currency
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.rotation import Rotation, custom_mixed, eight_game, horse
from cardroom.room.settings import TableSettings
from cardroom.room.table import Table

from .conftest import Harness


def play(h: Harness, hands: int) -> list[tuple[rv.HandDealt, list[hev.Posted]]]:
    """Deal and fold around ``hands`` hands."""
    out = []
    for _ in range(hands):
        events = h.tick()
        dealt = next(e for e in events if isinstance(e, rv.HandDealt))
        hand = h.table.hand
        assert hand is not None
        while h.table.state.in_hand:
            legal = hand.legal_actions(hand.actor)  # type: ignore[arg-type]
            if legal.bring_in is not None:
                events += h.act("bring_in")
            elif legal.draw is not None:
                events += h.act("draw")
            else:
                events += h.act("check" if legal.check else "fold")
        out.append((dealt, [e for e in events if isinstance(e, hev.Posted)]))
    return out


def mixed_table(rotation: Rotation) -> Harness:
    h = Harness(TableSettings.with_rotation("m", rotation, seed="mixed"))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    return h


def test_9_horse_button_frozen_during_the_stud_rounds() -> None:
    h = mixed_table(horse(4, hands_per_game=2))
    hands = play(h, 11)
    games = [h.settings.games[d.game].variant.name for d, _ in hands]
    assert games[:6] == ["holdem", "holdem", "omaha_hi_lo", "omaha_hi_lo", "razz", "razz"]
    buttons = [d.button for d, _ in hands]
    assert len(set(buttons[:4])) == 4  # moving in the flop games
    assert buttons[4:10] == [buttons[3]] * 6  # razz, stud, stud hi-lo: frozen
    assert buttons[10] == (buttons[3] + 1) % 4  # then on from where it stopped


def test_9_custom_mixed_button_keeps_moving_during_stud_hands() -> None:
    h = mixed_table(custom_mixed(4, ("holdem", "stud"), hands_per_game=2))
    hands = play(h, 6)
    games = [h.settings.games[d.game].variant.name for d, _ in hands]
    assert games == ["holdem", "holdem", "stud", "stud", "holdem", "holdem"]
    buttons = [d.button for d, _ in hands]
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(buttons))


def test_9_each_hand_uses_its_games_forced_bets() -> None:
    h = mixed_table(horse(4, hands_per_game=1))
    hands = play(h, 3)  # hold'em, omaha hi-lo, razz
    kinds = [sorted({p.what for p in posts}) for _, posts in hands]
    assert kinds[0] == ["big_blind", "small_blind"]
    assert kinds[1] == ["big_blind", "small_blind"]
    assert kinds[2] == ["ante"]  # razz: antes, then a bring-in (an action)
    assert {p.amount for p in hands[2][1]} == {h.settings.games[2].stakes.ante}


def test_9_mixed_table_seats_its_most_restrictive_game() -> None:
    settings = TableSettings.with_rotation("m", horse(4))
    assert settings.seat_count == 8


def test_10_6_a_mixed_table_offers_disconnect_all_ins_in_its_limit_hands() -> None:
    rotation = eight_game(4, hands_per_game=1)
    settings = TableSettings.with_rotation(
        "m", rotation, seed="mixed", currency=Currency.REAL, time_bank_start=0,
        disconnect_allins_per_day=10,
    )  # fmt: skip
    assert not settings.protection  # not in every hand...
    h = Harness(settings)
    h.seat({0: 80, 1: 80, 2: 80})
    given: dict[str, bool] = {}
    for _ in range(len(rotation.games)):
        events = h.tick()
        dealt = next(e for e in events if isinstance(e, rv.HandDealt))
        hand = h.table.hand
        assert hand is not None
        legal = hand.legal_actions(hand.actor)  # type: ignore[arg-type]
        if legal.bring_in is not None:
            h.act("bring_in")
        else:
            h.act("raise", legal.min_raise_to or 0)
        away = h.actor  # facing a bet with chips in (a blind or an ante)
        h.do(cmd.Disconnect(away))
        events = h.tick(60)
        game = h.settings.games[dealt.game]
        given[f"{game.betting} {game.variant.name}"] = any(
            isinstance(e, rv.DisconnectAllInUsed) for e in events
        )
        h.do(cmd.Reconnect(away))
        while h.table.state.in_hand:
            legal = hand.legal_actions(hand.actor)  # type: ignore[arg-type]
            kind = "draw" if legal.draw is not None else "check" if legal.check else "fold"
            h.act("bring_in" if legal.bring_in is not None else kind)
        h.do(cmd.SitIn(away))
    assert given == {  # ...but in each hand of a limit game (§10.6, per hand)
        "fixed_limit triple_draw_27": True, "fixed_limit holdem": True,
        "fixed_limit omaha_hi_lo": True, "fixed_limit razz": True, "fixed_limit stud": True,
        "fixed_limit stud_hi_lo": True, "no_limit holdem": False, "pot_limit omaha": False,
    }  # fmt: skip


def test_10_10_a_cancelled_hand_does_not_use_up_its_games_hands() -> None:
    # §9: hands_per_game hands of each game; §10.10: a cancelled hand is as if never
    # dealt, so its game deals it again (the table and its view say so too).
    h = Harness(TableSettings.with_rotation("m", horse(4, hands_per_game=2), seed="mixed"))
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    ((first, _),) = play(h, 1)
    told = h.table.view(None)["hands_left"], h.table.view(None)["game"]
    h.tick()
    h.table.cancel_hand()
    h.check()
    assert (h.table.view(None)["hands_left"], h.table.view(None)["game"]) == told
    games = [h.settings.games[d.game].variant.name for d, _ in [(first, ()), *play(h, 3)]]
    assert games == ["holdem", "holdem", "omaha_hi_lo", "omaha_hi_lo"]
    copy = Table.restore(h.settings, *h.table.record(), h.ledger, h.clock)
    assert copy.state.rotation_hand(copy.state.hand_no) == 4  # five dealt, one cancelled


def _horse_five() -> Harness:
    h = Harness(TableSettings.with_rotation("m", horse(4, hands_per_game=2), seed="mixed"))
    h.seat({s: 40 for s in range(5)})
    return h


def test_10_4_horse_a_big_blind_missed_before_the_stud_rounds_is_owed_after_them() -> None:
    """The stud rounds freeze the button, and the flop games resume as if they had not
    been played (§9): a player who missed the big blind on the last Omaha hand must
    still post it (or wait for it) at the first Hold'em hand, not slip in free."""
    h = _horse_five()
    play(h, 3)
    dealt, _ = play(h, 1)[0]  # hand 4, the last Omaha Hi-Lo hand: where is the big blind?
    bb = dealt.bb
    h = _horse_five()  # again, with that player away for hand 4 only
    player = f"p{bb}"
    play(h, 3)
    h.do(cmd.SitOut(player))
    ((dealt, _),) = play(h, 1)
    assert bb not in dealt.dealt and dict(dealt.owes).get(bb) == "big_blind"
    h.do(cmd.SitIn(player))
    stud = play(h, 6)  # razz, stud, stud hi-lo: dealt in (antes), the debt stands
    assert all(bb in d.dealt and d.debts_kept for d, _ in stud)
    assert h.table.seat(bb).owes is not None
    ((holdem, posts),) = play(h, 1)
    assert h.settings.games[holdem.game].variant.name == "holdem"
    posted = {p.seat for p in posts}
    # Not dealt in for free: either waiting (and owing both now), or posting.
    assert bb not in holdem.dealt or bb in posted, (holdem, posts)
    if bb not in holdem.dealt:
        assert h.table.seat(bb).owes == "big_and_dead_small"


def test_10_3_horse_a_newcomer_in_the_stud_rounds_waits_for_the_big_blind_after_them() -> None:
    h = _horse_five()
    play(h, 5)  # hand 5: razz
    h.do(cmd.Sit("p5", 5, h.settings.buy_in_range[1]))
    assert h.table.seat(5).owes == "big_blind"
    stud = play(h, 5)  # the rest of the stud rounds: the newcomer plays them (antes)
    assert all(5 in d.dealt for d, _ in stud) and h.table.seat(5).owes == "big_blind"
    ((holdem, posts),) = play(h, 1)
    assert h.settings.games[holdem.game].variant.name == "holdem"
    # Seat 5 is dealt in only as the big blind (or posting it): never for free.
    assert 5 not in holdem.dealt or holdem.bb == 5 or 5 in {p.seat for p in posts}


def test_9_custom_mixed_stud_hands_settle_what_was_owed() -> None:
    """The reading kept for CUSTOM_MIXED (its button moves through the stud hands, so the
    blind games do not resume where they stopped): a player dealt into a stud hand owes
    no blind after it."""
    h = mixed_table(custom_mixed(4, ("holdem", "stud"), hands_per_game=2))
    h.do(cmd.Sit("p4", 4, h.settings.buy_in_range[1]))  # waits for the big blind
    hands = play(h, 3)
    (third, _) = hands[2]
    assert h.settings.games[third.game].variant.name == "stud"
    assert 4 in third.dealt and not third.debts_kept and h.table.seat(4).owes is None


def test_9_custom_mixed_short_deck_and_stud_hands_post_their_own_forced_bets() -> None:
    """§4 and §9 at the table: Short Deck hands ante all round and the button posts the
    button blind (no small or big blind), stud hands ante and bring in, the blind game
    posts its blinds; heads-up the button posts the small blind or the button blind."""
    h = Harness(
        TableSettings.with_rotation(
            "m", custom_mixed(4, ("holdem", "short_deck", "stud"), hands_per_game=1), seed="cm"
        )
    )
    h.seat({0: 40, 1: 40, 2: 40})
    for seats in (3, 2):
        if seats == 2:
            h.do(cmd.Leave("p2"))
        for dealt, posts in play(h, 3):
            game = h.settings.games[dealt.game]
            stakes, name = game.stakes, game.variant.name
            got = sorted((p.seat, p.what, p.amount) for p in posts)
            if name == "holdem":
                sb = dealt.button if seats == 2 else dealt.sb
                assert got == sorted([(sb, "small_blind", 2), (dealt.bb, "big_blind", 4)])
            elif name == "short_deck":
                antes = [(s, "ante", stakes.ante) for s in dealt.dealt]
                assert got == sorted([*antes, (dealt.button, "button_blind", 4)])
            else:
                assert got == sorted((s, "ante", stakes.ante) for s in dealt.dealt)


def test_10_4_horse_a_big_blind_gone_in_the_stud_rounds_leaves_a_dead_small_blind() -> None:
    """The last Omaha Hi-Lo big blind leaves during the stud rounds: the first Hold'em hand
    goes on from that Omaha hand (§9) under the dead-button rule (§10.4): the big blind to
    the next player, no small blind (its seat's player is gone), the button to the seat
    that had the small blind."""
    h = _horse_five()
    last_omaha, _ = play(h, 4)[-1]
    gone = last_omaha.bb
    h.do(cmd.Leave(f"p{gone}"))
    stud = play(h, 6)
    assert all((d.button, d.sb, d.bb) == (last_omaha.button, last_omaha.sb, gone) for d, _ in stud)
    ((holdem, posts),) = play(h, 1)
    assert h.settings.games[holdem.game].variant.name == "holdem"
    assert (holdem.button, holdem.sb, holdem.bb) == (last_omaha.sb, gone, (gone + 1) % 5)
    assert [(p.seat, p.what) for p in posts] == [((gone + 1) % 5, "big_blind")]


def test_9_eight_game_order_and_the_button_resuming_after_the_stud_rounds() -> None:
    rotation = eight_game(4, hands_per_game=1)
    h = Harness(TableSettings.with_rotation("m", rotation, seed="8g"))
    h.seat({0: 80, 1: 80, 2: 80, 3: 80})
    hands = play(h, 9)
    labels = [rotation.games[d.game].label for d, _ in hands]
    assert labels == [
        "FL 2-7 Triple Draw", "FL Hold'em", "FL Omaha Hi-Lo", "FL Razz", "FL Stud",
        "FL Stud Hi-Lo", "NL Hold'em", "PL Omaha", "FL 2-7 Triple Draw",
    ]  # fmt: skip
    buttons = [d.button for d, _ in hands]
    assert buttons[3:6] == [buttons[2]] * 3  # frozen in Razz, Stud, Stud Hi-Lo
    assert buttons[6] == (buttons[2] + 1) % 4  # NL Hold'em: one on from Omaha Hi-Lo
    assert buttons[8] == (buttons[7] + 1) % 4  # PLO to 2-7 Triple Draw: moving


def test_10_2_a_mixed_table_deals_in_only_players_with_chips_for_that_hands_forced_bets() -> None:
    """Each hand asks for its own game's forced bets (§10.2, §4): 5 chips cover the big
    blind (4) and the stud ante and bring-in (1 + 2), not Short Deck's ante and button
    blind (2 + 4)."""
    rotation = custom_mixed(4, ("holdem", "short_deck", "stud"), hands_per_game=1)
    h = Harness(TableSettings.with_rotation("m", rotation, seed="cm", min_buy_in=2))
    h.seat({0: 40, 1: 40, 2: 40})
    h.do(cmd.Sit("p5", 5, 5))
    ((holdem, _),) = play(h, 1)
    assert 5 in holdem.dealt
    events = h.tick()
    assert rv.SatOut(5, "short", h.clock()) in events
    short_deck = next(e for e in events if isinstance(e, rv.HandDealt))
    assert h.settings.games[short_deck.game].variant.name == "short_deck"
    assert 5 not in short_deck.dealt
    h.do(cmd.SitIn("p5"))  # for the stud hand next: enough chips
    hand = h.table.hand
    assert hand is not None
    while h.table.state.in_hand:
        h.act("check" if hand.legal_actions(hand.actor).check else "fold")  # type: ignore[arg-type]
    ((stud, _),) = play(h, 1)
    assert h.settings.games[stud.game].variant.name == "stud" and 5 in stud.dealt


@pytest.mark.parametrize("make", [horse, eight_game])
def test_3_a_mixed_table_whose_players_all_left_in_the_stud_rounds_starts_anew(
    make: Callable[..., Rotation],
) -> None:
    """A table every player left is new again (§3): everyone present is dealt in and owes
    no blind. In HORSE's and 8-Game's stud rounds the debts of the seats dealt in stand
    (the blind games resume as if the stud hands had not been played, §9), but at a new
    table there is no blind game to resume: the newcomers who started it in Razz owed a
    big blind still at the first Hold'em hand, so with one of them posting now, two were
    left out of a four-player table's first Hold'em hands, waiting for a big blind."""
    rotation = make(4, hands_per_game=2)
    h = Harness(TableSettings.with_rotation("m", rotation, seed="mixed", draw_button=False))
    h.seat({0: 80, 1: 80, 2: 80})
    razz = [g.game for g in rotation.games].index("razz")
    first, _ = play(h, 2 * razz + 1)[-1]  # the first Razz hand
    assert h.settings.games[first.game].variant.name == "razz"
    for p in ("p0", "p1", "p2"):
        h.do(cmd.Leave(p))
    h.do(cmd.Sit("p6", 2, 80, post_now=True))  # on the button (the first seat) in Razz
    for s in (3, 4, 5):
        h.do(cmd.Sit(f"p{s + 4}", s, 80))
    stud = play(h, 5)  # a new table: all four dealt in from the second Razz hand
    assert all(d.dealt == (2, 3, 4, 5) for d, _ in stud)
    assert all(h.table.seat(s).owes is None for s in (2, 3, 4, 5))
    ((holdem, posts),) = play(h, 1)
    assert h.settings.games[holdem.game].variant.name == "holdem"
    assert holdem.dealt == (2, 3, 4, 5) and holdem.posts == ()
    assert sorted(p.what for p in posts) == ["big_blind", "small_blind"]
