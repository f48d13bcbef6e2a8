"""Table chat (RULEBOOK §10.7): disguised links, and honest text that is no link."""

from __future__ import annotations

import pytest

from cardroom.room.chat import ADVERTISING, OK, ChatRules, TableChat


def _chat() -> TableChat:
    return TableChat(ChatRules(burst=10_000))


@pytest.mark.parametrize(
    "text",
    [
        "pokerroom\uff0ecom",  # full-width full stop
        "pokerroom\u2024com",  # one dot leader
        "pokerroom\u3002com",  # ideographic full stop
        "pokerroom.c\u200bom",  # zero-width space in the ending
        "pokerroom.\u0441\u043em",  # Cyrillic "co"
        "\uff30\uff4f\uff4b\uff45\uff52\uff33\uff54\uff41\uff52\uff53 tonight",  # full-width
        "cheapchips . com",
        "cheapchips .net",
        "cheapchips. com",  # a full stop, then spaces: an ending no sentence starts with
        "cheapchips d0t c0m",  # digits for letters in words
        "p0kerstars tonight",
        "pok3r5tars tonight",
        "join t.me/cheapchips",
        "free chips at 203.0.113.7.",
        "free chips at 203.0.113.7:8080/join",
    ],
)
def test_10_7_disguised_links_are_advertising(text: str) -> None:
    verdict = _chat().say("spam", text, now=0.0)
    assert (verdict.code, verdict.offence) == (ADVERTISING, True), text


@pytest.mark.parametrize(
    "text",
    [
        "i went all in.to be fair",
        "you called.me neither",
        "nh.gg",
        "I fold. com'on",
        "I fold. Net loss today",
        "good game. bet more next time",
        "gg 4 u",
        "won 10.10 tonight",
        "3.5x pot",
        "e.g. this",
        "vs. you",
        "version 1.2.3 of the client",
        "2.5 big blinds",
    ],
)
def test_10_7_honest_text_is_not_advertising(text: str) -> None:
    assert _chat().say("ann", text, now=0.0).code == OK, text


def test_10_7_a_link_after_a_name_that_is_no_ending_is_seen() -> None:
    assert _chat().say("spam", "www . cheapchips . com", now=0.0).code == ADVERTISING
    assert _chat().say("spam", "go.cheapchips.com", now=0.0).code == ADVERTISING
    assert _chat().say("spam", "write to me@cheapchips.to", now=0.0).code == ADVERTISING
