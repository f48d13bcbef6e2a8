"""RULEBOOK §9 through the table: each hand plays its rotation's game with that game's
forced bets; CUSTOM_MIXED keeps the button moving, HORSE freezes it in the stud rounds."""

from __future__ import annotations

import itertools

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
