"""Table chat (RULEBOOK §10.7): card talk the heuristic must see, and talk that is not card talk."""

from __future__ import annotations

import pytest

from cardroom.room.chat import CARD_TALK, OK, ChatRules, TableChat


def _chat() -> TableChat:
    return TableChat(ChatRules(burst=10_000))


CAUGHT = ("AA", "KK", "AK", "A\u2660 K\u2665", "A\u2660K\u2665", "\uff21\uff2b", "A-K", "Q/J")


@pytest.mark.parametrize("text", [*CAUGHT, "a set of 8s", "I flopped a set", "one pair"])
def test_10_7_obvious_card_talk_is_caught(text: str) -> None:
    chat = _chat()
    verdict = chat.say("ann", text, now=0.0, in_hand=True)
    assert (verdict.code, verdict.offence) == (CARD_TALK, False), text
    assert chat.say("ann", text, now=0.0, in_hand=False).code == OK, text


@pytest.mark.parametrize("text", ["LOOK AT THIS", "GG WP", "OK", "\u2660 good luck \u2665"])
def test_10_7_shouting_and_symbols_are_not_card_talk(text: str) -> None:
    assert _chat().say("ann", text, now=0.0, in_hand=True).code == OK, text


@pytest.mark.parametrize("text", ["I'm down 5K", "up 2K today", "a 10K pot", "5K", "9K chips"])
def test_10_7_an_amount_in_thousands_is_not_card_talk(text: str) -> None:
    """A digit and a king alone ("5K") is five thousand (a king with a five is "K5")."""
    assert _chat().say("ann", text, now=0.0, in_hand=True).code == OK, text


@pytest.mark.parametrize("text", ["K5", "K5s", "Kh5d", "5h Kd"])
def test_10_7_a_king_beside_a_low_card_is_still_card_talk(text: str) -> None:
    assert _chat().say("ann", text, now=0.0, in_hand=True).code == CARD_TALK, text


@pytest.mark.parametrize(
    "text", ["back in 5-10 min", "the 2/4 game is better", "2-3 more hands", "blinds 5/10 now"]
)
def test_10_7_a_range_of_numbers_is_not_card_talk(text: str) -> None:
    """Two digits joined by "-" or "/" are a range or a stake, as "75" is a number."""
    assert _chat().say("ann", text, now=0.0, in_hand=True).code == OK, text


@pytest.mark.parametrize("text", ["K-9", "T/9", "7h-2d", "A-5"])
def test_10_7_linked_cards_with_a_letter_are_still_card_talk(text: str) -> None:
    assert _chat().say("ann", text, now=0.0, in_hand=True).code == CARD_TALK, text
