"""Table chat (RULEBOOK §10.7): flooding, foul language, advertising, card talk, bans, reports."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.chat_bans import chat_ban_duration
from cardroom.room.chat import (
    ADVERTISING,
    BANNED,
    CARD_TALK,
    CODES,
    EMPTY,
    FOUL_LANGUAGE,
    OK,
    RATE_LIMITED,
    ChatRules,
    TableChat,
    Vocabulary,
    chat_ban,
    default_vocabulary,
)

HOUR = 3600.0


def test_10_7_plain_message_is_broadcast_and_kept() -> None:
    chat = TableChat()
    verdict = chat.say("ann", "  nice   hand,\tsir ", now=0.0)
    assert (verdict.code, verdict.text, verdict.offence) == (OK, "nice hand, sir", False)
    assert [(line.player, line.text) for line in chat.lines] == [("ann", "nice hand, sir")]
    assert chat.say("ann", " \x00\n ", now=1.0).code == EMPTY
    long = chat.say("bob", "x" * 1000, now=0.0)
    assert long.text == "x" * ChatRules().max_length


def test_10_7_a_joiner_between_two_characters_is_kept() -> None:
    """Every format character was dropped, joiners too: an emoji sequence was broken
    into its pieces for everyone (an astronaut showed as a woman, a skin tone and a
    rocket; the rainbow flag as a white flag and a rainbow), and Persian, which writes
    a zero-width non-joiner inside words, was shown misjoined. A joiner between two
    characters is kept; one at an end, beside a space or repeated is not."""
    chat = TableChat(ChatRules(burst=100))
    for typed in ("\U0001f469\U0001f3fd\u200d\U0001f680 gg", "\U0001f3f3\ufe0f\u200d\U0001f308",
                  "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"):  # fmt: skip
        assert chat.say("ann", typed, now=0.0).text == typed
    verdict = chat.say("ann", "\u200da\u200d\u200d\u200db \u200dc\u200d", now=0.0)
    assert verdict.text == "a\u200db c"
    assert chat.say("ann", "\u200d\u200c", now=0.0).code == EMPTY
    assert chat.say("ann", "fuc\u200dk you", now=0.0).code == FOUL_LANGUAGE  # read without
    cut = chat.say("ann", "x" * 198 + "\U0001f469\u200d\U0001f680", now=0.0).text
    assert cut == "x" * 198 + "\U0001f469"  # the cut leaves no joiner at the end


def test_10_7_an_empty_line_takes_a_token_like_any_line() -> None:
    # Judged empty before the limit was looked at, blank lines were never limited:
    # each was a stored ChatBlocked event, as many as the client cared to send.
    chat = TableChat(ChatRules(burst=3, refill_seconds=2.0))
    codes = [chat.say("ann", " \u200b ", now=0.0).code for _ in range(5)]
    assert codes == [EMPTY, EMPTY, EMPTY, RATE_LIMITED, RATE_LIMITED]
    assert chat.say("ann", "hi", now=0.0).code == RATE_LIMITED


def test_10_7_rate_limited_by_a_token_bucket_per_player() -> None:
    chat = TableChat(ChatRules(burst=3, refill_seconds=2.0))
    codes = [chat.say("ann", f"m{i}", now=0.0).code for i in range(5)]
    assert codes == [OK, OK, OK, RATE_LIMITED, RATE_LIMITED]
    assert chat.say("bob", "hi", now=0.0).code == OK  # the limit is per player
    assert chat.say("ann", "again", now=1.9).code == RATE_LIMITED
    assert chat.say("ann", "again", now=2.0).code == OK  # one token back after 2 s
    assert chat.say("ann", "again", now=2.1).code == RATE_LIMITED
    assert [chat.say("ann", "x", now=100.0).code for _ in range(4)] == [OK, OK, OK, RATE_LIMITED]
    assert sum(line.player == "ann" for line in chat.lines) == 3 + 1 + 3


def test_10_7_idle_chatters_are_forgotten_and_active_ones_kept() -> None:
    # A table open for months: each of 5,000 chatters says one line, a second apart.
    chat = TableChat(ChatRules(burst=3, refill_seconds=2.0))  # a bucket refills in 6 s
    chat.mute("perma", None)
    chat.mute("brief", 10.0)
    for i in range(5000):
        assert chat.say(f"p{i}", "hi", now=float(i)).code == OK
    assert chat.tracked <= 128  # those of the last 6 s, and at most one sweep's growth
    # A flooder is never forgotten while the limit still binds, sweeps or not.
    now = 6000.0
    assert [chat.say("flood", "x", now=now).code for _ in range(4)][-1] == RATE_LIMITED
    for i in range(500):
        chat.say(f"q{i}", "hi", now=now + i / 1000)  # sweeps run within the flooder's 6 s
    assert chat.say("flood", "x", now=now + 1.0).code == RATE_LIMITED
    assert chat.say("flood", "x", now=now + 2.0).code == OK
    assert chat.say("perma", "hello", now=now).code == BANNED  # a permanent ban stays
    assert chat.say("brief", "hello", now=now).code == OK


def test_10_7_foul_language_masked_and_an_offence() -> None:
    chat = TableChat()
    verdict = chat.say("ann", "what a Sh1t river", now=0.0)
    assert verdict.code == FOUL_LANGUAGE and verdict.offence
    assert verdict.text == "what a **** river"
    assert verdict.found == "Sh1t"
    assert chat.lines[-1].text == "what a **** river"
    # Whole-word entries only as whole words; plain numbers are not words.
    for innocent in ("a classic cooler", "I lost 455 chips", "cumulative luck", "analysis"):
        assert chat.say("bob", innocent, now=100.0 * len(innocent)).code == OK, innocent


def test_10_7_card_notation_after_the_hand_is_not_foul_language() -> None:
    # "A5s" reads as a disguised word through its suit letters; it is cards, and no offence.
    chat = TableChat(ChatRules(burst=100))
    for line in ("gg, I had A5s", "45s was good", "As5s on that board", "4s5s", "AhKhQhJhTh"):
        verdict = chat.say("bob", line, now=0.0, in_hand=False)
        assert verdict.code == OK and not verdict.offence, line
    # The same words are still card talk for a player in the hand.
    assert chat.say("bob", "I had A5s", now=0.0, in_hand=True).code == CARD_TALK
    # A foul word spelled in lower case is not cards.
    assert chat.say("bob", "what an a55", now=0.0).code == FOUL_LANGUAGE


def test_10_7_advertising_links_and_other_rooms_blocked() -> None:
    chat = TableChat(ChatRules(burst=100))
    for ad in (
        "free chips at https://example.org/x",
        "visit www.somewhere",
        "best rakeback: cheapchips.net",
        "cheapchips dot com has bonuses",
        "come play on PokerStars tonight",
        "party poker is softer",
    ):
        verdict = chat.say("spam", ad, now=0.0)
        assert (verdict.code, verdict.text, verdict.offence) == (ADVERTISING, None, True), ad
    for fine in ("gg poker is fun", "I fold. Sorry", "2.5 big blinds", "e.g. a flush"):
        assert chat.say("ann", fine, now=0.0).code == OK, fine
    assert all(line.player != "spam" for line in chat.lines)


def test_10_7_card_talk_blocked_only_for_a_player_in_the_hand() -> None:
    chat = TableChat(ChatRules(burst=100))
    talk = (
        "I have aces",
        "folding AKs here",
        "pocket nines again",
        "had Ah Kd",
        "two pair lol",
        "T9o is a hand",
        "my hand is good",
        "suited connectors",
    )
    for text in talk:
        verdict = chat.say("ann", text, now=0.0, in_hand=True)
        assert (verdict.code, verdict.text, verdict.offence) == (CARD_TALK, None, False), text
        assert chat.say("bob", text, now=0.0, in_hand=False).code == OK, text
    for fine in ("raise to 75 please", "LOOK AT THIS", "As I said, gl", "ok ok", "good luck"):
        assert chat.say("ann", fine, now=0.0, in_hand=True).code == OK, fine


def test_10_7_everyday_lines_in_a_hand_are_not_card_talk() -> None:
    # "I have" and "holding" alone used to block a player's every such line in a hand.
    chat = TableChat(ChatRules(burst=100))
    for fine in ("I have to go after this", "I have a question", "I've got to run", "holding on"):
        assert chat.say("ann", fine, now=0.0, in_hand=True).code == OK, fine
    for talk in ("I have aces", "I hold two pair", "I'm holding a flush draw"):
        assert chat.say("ann", talk, now=0.0, in_hand=True).code == CARD_TALK, talk


def test_10_7_foul_card_talk_is_not_sent_at_all() -> None:
    chat = TableChat()
    verdict = chat.say("ann", "shit, I have kings", now=0.0, in_hand=True)
    assert (verdict.code, verdict.text, verdict.offence) == (FOUL_LANGUAGE, None, True)
    assert chat.lines == ()


def test_10_7_muted_player_is_banned_until_the_ban_ends() -> None:
    chat = TableChat()
    ban = chat_ban("ann", past_offences=0, now=0.0, reason=FOUL_LANGUAGE)
    chat.mute("ann", ban.ends_at)
    assert chat.say("ann", "hello", now=23 * HOUR).code == BANNED
    assert chat.say("ann", "hello", now=24 * HOUR).code == OK
    chat.mute("bob", None)
    assert chat.say("bob", "hello", now=1e9).code == BANNED


def test_10_7_chat_bans_escalate_24h_48h_72h_week_month_permanent() -> None:
    expected = [
        timedelta(hours=24),
        timedelta(hours=48),
        timedelta(hours=72),
        timedelta(days=7),
        timedelta(days=30),
        None,
        None,
    ]
    assert [chat_ban_duration(n) for n in range(7)] == expected
    bans = [chat_ban("ann", n, now=1000.0, reason=ADVERTISING) for n in range(6)]
    assert [b.offence for b in bans] == [1, 2, 3, 4, 5, 6]
    assert [b.duration for b in bans] == expected[:6]
    assert bans[0].ends_at == 1000.0 + 24 * HOUR
    assert bans[5].ends_at is None
    with pytest.raises(ValueError):
        chat_ban_duration(-1)


def test_10_7_report_records_a_complaint_with_the_accused_lines() -> None:
    chat = TableChat()
    chat.say("bob", "nice call", now=1.0)
    chat.say("ann", "hi", now=2.0)
    chat.say("bob", "you should fold more", now=3.0)
    report = chat.report("ann", "bob", "coffee_housing", now=10.0, note="needling")
    assert (report.reporter, report.accused, report.reason, report.at) == (
        "ann",
        "bob",
        "coffee_housing",
        10.0,
    )
    assert [line.text for line in report.lines] == ["nice call", "you should fold more"]
    with pytest.raises(ValueError):
        chat.report("ann", "ann", "other", now=11.0)
    with pytest.raises(ValueError):
        chat.report("ann", "bob", "being lucky", now=11.0)


def test_10_7_a_report_s_note_is_cleaned_as_a_chat_line_is() -> None:
    """A note is a stranger's text an operator reads (the chat log's ``notes``): it was
    kept as sent, with terminal escapes (ESC [2J cleared an operator's screen read with
    ``jq -r``), a right-to-left override flipping what follows, NUL and line breaks.
    It is cleaned as a chat line is (``chat_text.clean``)."""
    chat = TableChat()
    chat.say("bob", "hi", now=1.0)
    note = "he said \x1b[2Jcall\u202e me\x00 now\nplease\u200b" + "\u0301" * 9
    report = chat.report("ann", "bob", "chat_abuse", now=2.0, note=note)
    assert report.note == "he said [2Jcall me now please\u0301\u0301\u0301", repr(report.note)
    long = chat.report("ann", "cid", "other", now=3.0, note="x" * 500)
    assert long.note == "x" * 500


def test_10_7_a_player_reports_the_same_player_once_per_wait() -> None:
    chat = TableChat(ChatRules(report_every_seconds=600.0))
    chat.report("ann", "bob", "collusion", now=0.0)
    with pytest.raises(ValueError, match="lately"):
        chat.report("ann", "bob", "chat_abuse", now=599.0)
    chat.report("cat", "bob", "collusion", now=599.0)  # another reporter may
    chat.report("ann", "dan", "other", now=599.0)  # and ann another player
    assert chat.report("ann", "bob", "other", now=600.0).at == 600.0
    for n in range(100):  # many pairs: the old ones are forgotten, the recent kept
        chat.report(f"p{n}", "bob", "other", now=2000.0 + n)
    with pytest.raises(ValueError, match="lately"):
        chat.report("p99", "bob", "other", now=2100.0)
    chat.report("ann", "bob", "other", now=2100.0)


def test_10_7_the_wait_counts_from_the_stored_last_report_too() -> None:
    """A table's chat restarted with its server remembers nothing: the caller's stored
    last report decides (before, the same complaint could be filed again at once)."""
    chat = TableChat(ChatRules(report_every_seconds=600.0))
    with pytest.raises(ValueError, match="lately"):
        chat.report("ann", "bob", "collusion", now=1000.0, stored=500.0)
    assert chat.report("ann", "bob", "collusion", now=1100.0, stored=500.0).at == 1100.0
    with pytest.raises(ValueError, match="lately"):  # its own memory still counts
        chat.report("ann", "bob", "other", now=1200.0, stored=None)


def test_10_7_vocabulary_is_data() -> None:
    vocabulary = default_vocabulary()
    assert "suited" in vocabulary.card_words
    assert "my hand" in vocabulary.card_phrases
    assert "pokerstars" in vocabulary.rooms
    assert "com" in vocabulary.tlds
    custom = Vocabulary.parse(["[card_words]", "bullets  # a comment", "[rooms]", "Home Game"])
    assert custom.card_words == frozenset({"bullets"})
    assert custom.rooms == ("home game",)
    chat = TableChat(vocabulary=custom)
    assert chat.say("ann", "bullets!", now=0.0, in_hand=True).code == CARD_TALK
    assert chat.say("bob", "try home game", now=0.0).code == ADVERTISING
    with pytest.raises(ValueError):
        Vocabulary.parse(["orphan"])
    assert len(set(CODES)) == len(CODES)
