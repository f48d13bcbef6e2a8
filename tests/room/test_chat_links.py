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


@pytest.mark.parametrize(
    "text",
    [
        "www example com",  # "www" says the rest is a link, dots or none
        "www cheapchips net/join",
        "hxxp://cheapchips",  # the scheme written so that no client makes it a link
        "hxxps://cheapchips",
        "https//cheapchips",
        "http:/cheapchips",
        "cheapchips[.]com",
        "cheapchips [.] com",
        "cheapchips(.)com",
        "cheapchips{dot}com",
        "cheapchips<dot>net",
        "cheapchips\u00b7com",  # a middle dot
        "cheapchips\u2022com",  # a bullet
        "192 . 168 . 0 . 1",  # an address with spaced dots
        "p o k e r s t a r s",  # a room or a link spelled out in letters
        "c h e a p c h i p s . c o m",
        "w w w . c h e a p c h i p s . n e t",
    ],
)
def test_10_7_links_in_other_disguises_are_advertising(text: str) -> None:
    verdict = _chat().say("spam", text, now=0.0)
    assert (verdict.code, verdict.offence) == (ADVERTISING, True), text


@pytest.mark.parametrize(
    "text",
    [
        "I fold.Net loss today",  # a sentence begun without a space after the full stop
        "I fold . Net loss today",
        "good game.Club night tomorrow",
        "I folded.Top pair was no good",
        "ok.Bet more next time",
        "it is a bad run.Poker is hard",
        "I raised.Then he called",
        "so it goes.Online it is worse",
        "a b c d e f g",
        "\u2022 fold \u2022 call",
    ],
)
def test_10_7_a_sentence_run_on_after_a_full_stop_is_no_link(text: str) -> None:
    assert _chat().say("ann", text, now=0.0).code == OK, text


def test_10_7_a_link_after_a_name_that_is_no_ending_is_seen() -> None:
    assert _chat().say("spam", "www . cheapchips . com", now=0.0).code == ADVERTISING
    assert _chat().say("spam", "go.cheapchips.com", now=0.0).code == ADVERTISING
    assert _chat().say("spam", "write to me@cheapchips.to", now=0.0).code == ADVERTISING


@pytest.mark.parametrize("text", ["awww...", "awww. unlucky", "Awww. nh", "owww.", "awww.gg"])
def test_10_7_a_word_ending_in_www_is_no_link(text: str) -> None:
    """A sigh ("awww...") is not "www." (an offence: a chat ban of a day)."""
    assert _chat().say("ann", text, now=0.0).code == OK, text


@pytest.mark.parametrize("text", ["www.x", "go to www.cheapchips", "awww.cheapchips.com"])
def test_10_7_www_after_a_space_or_with_a_domain_is_still_a_link(text: str) -> None:
    assert _chat().say("ann", text, now=0.0).code == ADVERTISING, text
