"""Hands played at room tables under room rules, as ``/api/hands`` gives them out in
PHH, read back by PokerKit (the independent oracle) and by our own replay: both
must reach the stacks the room left after the hand (RULEBOOK §10).

PokerKit reads the standard's codes only; a hand of one of our extensions
(``docs/phh_extensions.md``) is checked by our replay alone.
"""

from __future__ import annotations

from tests.server.room_phh import RoomHand, pokerkit_stacks, room_hands

from cardroom.games import POST_BOTH_BLINDS, Stakes, TableConfig, get_variant
from cardroom.games.phh import loads
from cardroom.games.phh_replay import replay
from cardroom.ledger import Currency
from cardroom.room.settings import TableSettings


def _holdem(table_id: str, currency: Currency, seats: int = 6) -> TableSettings:
    config = TableConfig(get_variant("holdem"), Stakes.blinds(2, 4), max_seats=seats)
    return TableSettings(table_id, (config,), currency=currency, sit_out_minutes=60, seed=table_id)


def _raked(hand: RoomHand) -> bool:
    finished = hand.finished
    return finished is not None and finished.rake > 0


def test_a_raked_hand_has_a_phh_whose_finishing_stacks_are_after_the_rake() -> None:
    """PHH has no rake field, but the standard says how a raked hand is written: its
    ``finishing_stacks`` and ``winnings`` are after the rake (optional.rst). A reader
    replaying the actions gets the stacks before the rake: they differ by the rake,
    taken from the winners only. (Such hands had no PHH at all: ``phh`` null.)"""
    hands = [h for h in room_hands(_holdem("r", Currency.REAL), 5, 30) if _raked(h)]
    assert len(hands) >= 3
    for hand in hands:
        finished = hand.finished
        assert finished is not None
        record = hand.record(hand.dealt.dealt[0])
        assert record.phh is not None, record.phh_note
        (history,) = loads(record.phh)
        room = hand.stacks()
        assert list(history.finishing_stacks or ()) == room
        assert history.fields["_rake"] == finished.rake
        for before_rake in (list(replay(history).finishing_stacks), pokerkit_stacks(record.phh)):
            assert before_rake is not None
            assert sum(before_rake) - sum(room) == finished.rake
            assert all(b >= r for b, r in zip(before_rake, room, strict=True))
        assert sum(history.winnings or ()) == finished.pot - finished.rake


def _posts_dead_small_blind(hand: RoomHand) -> bool:
    return any(post == POST_BOTH_BLINDS for _, post in hand.dealt.posts)


def _replays_to_room_stacks(hand: RoomHand, seat: int) -> None:
    """``seat``'s PHH of ``hand`` replays, in PokerKit and in ours, to the room's stacks."""
    record = hand.record(seat)
    assert record.phh is not None, record.phh_note
    room = hand.stacks()
    assert list(replay(loads(record.phh)[0]).finishing_stacks) == room, record.phh
    assert pokerkit_stacks(record.phh) in (room, None), record.phh


def test_a_player_back_from_missing_both_blinds_is_written_posting_the_small_one_dead() -> None:
    """§10.4: back from missing both blinds, a player posts the big blind live and the
    small one dead. PHH has no dead blind; it is dead money put in before the cards,
    as an ante is (the standard's ``antes`` may differ by player; PokerKit plays them
    as dead money for the main pot, as the engine does a dead small blind): the
    poster's ante entry holds it, and the live big blind is the negative entry of
    ``blinds_or_straddles``. (Such hands had no PHH: 'blinds posted out of the usual
    seats'.) Heads-up, or after a lone big blind, a live post still has no PHH form."""
    exported = 0
    for seed in range(6):
        for hand in room_hands(_holdem(f"d{seed}", Currency.PLAY, seats=9), seed, 40):
            if not (_posts_dead_small_blind(hand) and hand.finished):
                continue
            for seat in hand.dealt.dealt:
                record = hand.record(seat)
                if record.phh is None:
                    assert "heads-up or after a lone big blind" in record.phh_note
                    continue
                (history,) = loads(record.phh)
                assert not history.ante_trimming_status  # dead money, the main pot's
                _replays_to_room_stacks(hand, seat)
                exported += 1
    assert exported >= 10
