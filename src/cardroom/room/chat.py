"""Table chat (RULEBOOK §10.7): flood limit, filters, escalating bans and reports.

A :class:`TableChat` judges each message a player sends to one table and keeps
the table's recent lines. It is pure: time is passed in (``now``, seconds) and
nothing is stored; the table broadcasts what the verdict says, and the server
records sanctions with the account (``store`` sanctions) and reports for review.

The checks, in order (the first that applies decides the :class:`ChatVerdict`):

1. ``banned``: the player is muted (:meth:`TableChat.mute`, from a chat ban).
2. ``rate_limited``: a token bucket per player, ``burst`` messages at once and
   one more every ``refill_seconds``; every other message takes a token, an empty
   one too (a flood of blank lines is a flood: each would be a stored ``ChatBlocked``).
3. ``empty``: nothing left after cleaning (:func:`~cardroom.room.chat_text.clean`:
   format characters such as zero-width spaces and right-to-left overrides dropped,
   other control characters and line breaks made spaces, stacked combining marks cut,
   spaces collapsed; a message is cut to ``ChatRules.max_length`` characters).
4. ``advertising`` (an offence, not sent): a link (``http://``, also ``hxxp://``
   or ``https//``; ``www.``, or ``www name com``; an IP address, its dots spaced or
   not; a ``name.com``, ``name . com``, ``name dot com``, ``name[.]com`` or
   ``name(dot)com`` domain with an ending listed in ``chat_words.txt``; a one-letter
   name only with a path, "t.me/x", so "e.g." is none; an ending that is also a chat
   word, ``[word_tlds]``, only with a path or after an ``@``, so "all in.to be fair"
   and "nh.gg" are none; after a full stop and a space, ``name. com``, only an ending
   no sentence starts with, ``[spaced_tlds]``, so "I fold. Net loss" is none; after a
   full stop alone or with spaces around it, not a sentence run on: a lower-case
   name, the ending capitalised and more words after it, "I fold.Net loss") or
   another poker room's name from that file, read through Unicode disguises
   (full-width letters and dots, "․", "。", "·", "•", look-alikes, zero-width
   characters), through digits standing for letters in a word ("d0t c0m",
   "p0kerstars"; a number such as "10.10" stays a number) and through letters typed
   apart ("p o k e r s t a r s", "c h i p s . c o m").
5. ``foul_language`` (an offence): a word of the alias list
   (``ledger/offensive_words.txt``, matched through the usual disguises) in any
   word that has a letter (plain numbers such as "455" are not read as words,
   nor card notation such as "A5s", "As5s" or "As", whose suits would read as a
   disguise), read through Unicode disguises (NFKD, marks dropped, Cyrillic and
   Greek look-alikes, ``$``/``!`` inside a word), or spelled out in pieces of one
   or two letters ("f.u.c.k", "f u c k", "sh it": the pieces must make the word,
   all of it), or in such pieces running into a longer word that finishes a foul
   word of four letters or more, with nothing after it but an ending such as "ing"
   ("fu cking", "pi ssed"; "ugly as sin" and "is hit" are honest); a word of
   the alias list marked ``+`` ("scunthorpe", "kshitij") is not read as
   the foul word it holds, nor a phrase of ``[innocent]`` in ``chat_words.txt``
   ("tit for tat", "cum laude", "moby dick"; "tit" or "dick" alone is foul: the
   name "Dick" is not told from the insult). A word the writer masked himself ("f*ck") is let by.
   The message is sent with those words masked as ``****``, unless it is also
   card talk, when it is not sent.
6. ``card_talk`` (not sent, not an offence: the heuristic can be wrong): only
   for a player dealt into the hand in progress, folded or not (a folded hand's
   cards are still hidden from those playing on: "I folded AK" tells them what is
   left in the deck); a seat not dealt in holds no card of the hand. Whole words
   and phrases from ``chat_words.txt`` ("aces", "suited", "pocket", "I hold", "my hand"...;
   not "I have" alone, so "I have to go" passes), and
   card notation written in card case: two ranks ``2-9 T J Q K A`` with optional
   lower-case suits and an ``s``/``o`` suffix ("AK", "AKs", "T9o", "AhKd",
   "Ah Kd", "A-K", "Q/J"), at least one of them a letter (so "75" stays a
   number, "5-10" a range, "2/4" a stake; "5K", a digit and a king alone, is five
   thousand), and a rank with a suit symbol ("A♠", "K ♥"). A two-letter rank pair
   such as "AT" is not read as cards in a message shouted in capitals (one word of
   three capitals or more: "LOOK AT THIS" is not ace-ten), but "AK" or "OK AK"
   alone is, and a pair ("AA", "KK") always. Read through Unicode disguises
   (full-width "ＡＫ", look-alike capitals).

Offences escalate (:func:`chat_ban`): 24 h, 48 h, 72 h, 1 week, 1 month
(30 days), then permanent: ``cardroom.chat_bans``, the one ladder the store keeps too.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from importlib import resources
from typing import Final

from cardroom.chat_bans import chat_ban_duration
from cardroom.ledger import digits_as_letters
from cardroom.room.chat_text import clean, fold, foul_spans
from cardroom.room.errors import RATE_LIMITED as RATE_LIMITED  # a verdict code, and a refusal

OK: Final = "ok"
EMPTY: Final = "empty"
BANNED: Final = "banned"
ADVERTISING: Final = "advertising"
FOUL_LANGUAGE: Final = "foul_language"
CARD_TALK: Final = "card_talk"
CODES: Final = (OK, EMPTY, BANNED, RATE_LIMITED, ADVERTISING, FOUL_LANGUAGE, CARD_TALK)
"""Every verdict code; stable, for clients and logs."""


REPORT_REASONS: Final = ("coffee_housing", "collusion", "chat_abuse", "other")
"""What a player may report another player for."""
MAX_NOTE: Final = 500
"""A report's note is cut to this many characters (the protocol's bound)."""


@dataclass(frozen=True, slots=True)
class ChatRules:
    """A table's chat limits: flood control, message length, lines kept."""

    burst: int = 5
    refill_seconds: float = 2.0
    max_length: int = 200
    history: int = 50
    report_every_seconds: float = 600.0
    """One report of the same player by the same reporter at a table per this long
    (each is stored for review: a resend with a new id must not flood the log)."""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The data of ``chat_words.txt``: card words and phrases, other rooms, domain endings."""

    card_words: frozenset[str]
    card_phrases: tuple[str, ...]
    rooms: tuple[str, ...]
    tlds: frozenset[str]
    innocent: tuple[str, ...] = ()
    word_tlds: frozenset[str] = frozenset()
    spaced_tlds: frozenset[str] = frozenset()
    """Endings read as a link even after a full stop and a space ("cheapchips. com"):
    no sentence starts with them."""

    @classmethod
    def parse(cls, lines: Iterable[str]) -> Vocabulary:
        """Read the ``[section]`` word-list format of ``chat_words.txt``."""
        sections: dict[str, list[str]] = {}
        current: list[str] | None = None
        for raw in lines:
            line = raw.split("#", 1)[0].strip().lower()
            if not line:
                continue
            if line.startswith("[") and line.endswith("]"):
                current = sections.setdefault(line[1:-1], [])
            elif current is None:
                raise ValueError(f"chat words: {line!r} comes before any [section]")
            else:
                current.append(" ".join(line.split()))
        return cls(
            frozenset(sections.get("card_words", ())),
            tuple(sections.get("card_phrases", ())),
            tuple(sections.get("rooms", ())),
            frozenset(sections.get("tlds", ())),
            tuple(sections.get("innocent", ())),
            frozenset(sections.get("word_tlds", ())),
            frozenset(sections.get("spaced_tlds", ())),
        )


@cache
def default_vocabulary() -> Vocabulary:
    """The shipped ``chat_words.txt``."""
    text = resources.files("cardroom.room").joinpath("chat_words.txt").read_text("utf-8")
    return Vocabulary.parse(text.splitlines())


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A message as broadcast to the table."""

    player: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class ChatVerdict:
    """What happens to a message: ``code`` (one of :data:`CODES`), the text to
    broadcast (None: nothing is sent), whether it is an offence that earns a chat
    ban, and what was found (the word, link or room), for the log."""

    code: str
    text: str | None
    offence: bool = False
    found: str = ""


@dataclass(frozen=True, slots=True)
class ChatBan:
    """A chat ban to record with the account: the ``offence``-th (from 1), from
    ``starts_at`` to ``ends_at`` (seconds; None: permanent)."""

    player: str
    offence: int
    reason: str
    starts_at: float
    ends_at: float | None

    @property
    def duration(self) -> timedelta | None:
        """The ban's length, as ``store`` sanctions take it (None: permanent)."""
        return None if self.ends_at is None else timedelta(seconds=self.ends_at - self.starts_at)


def chat_ban(player: str, past_offences: int, now: float, reason: str) -> ChatBan:
    """The ban a new offence earns, given the player's earlier chat offences."""
    duration = chat_ban_duration(past_offences)
    ends = None if duration is None else now + duration.total_seconds()
    return ChatBan(player, past_offences + 1, reason, now, ends)


@dataclass(frozen=True, slots=True)
class ChatReport:
    """A complaint against a player, for review: with the accused's recent lines."""

    reporter: str
    accused: str
    reason: str
    note: str
    at: float
    lines: tuple[ChatLine, ...]


_SWEEP_FLOOR: Final = 64


@dataclass(frozen=True, slots=True)
class _Bucket:
    tokens: float
    at: float


class TableChat:
    """One table's chat: judges messages (:meth:`say`) and keeps the recent lines."""

    def __init__(self, rules: ChatRules | None = None, vocabulary: Vocabulary | None = None):
        self.rules = rules or ChatRules()
        self.vocabulary = vocabulary or default_vocabulary()
        self._buckets: dict[str, _Bucket] = {}
        self._sweep_at = _SWEEP_FLOOR  # forget idle buckets when this many are kept
        self._muted: dict[str, float | None] = {}
        self._lines: deque[ChatLine] = deque(maxlen=self.rules.history)
        self._reported: dict[tuple[str, str], float] = {}  # (reporter, accused) -> when

    @property
    def lines(self) -> tuple[ChatLine, ...]:
        """The recent broadcast lines, oldest first."""
        return tuple(self._lines)

    def mute(self, player: str, until: float | None) -> None:
        """Refuse ``player``'s messages until ``until`` (None: for good), e.g. a chat ban."""
        self._muted[player] = until

    def say(self, player: str, text: str, now: float, *, in_hand: bool = False) -> ChatVerdict:
        """Judge ``text`` from ``player``; ``in_hand``: the player is dealt into the hand
        in progress (its card talk is blocked)."""
        verdict = self._judge(player, clean(text, self.rules.max_length), now, in_hand)
        if verdict.text is not None:
            self._lines.append(ChatLine(player, verdict.text, now))
        return verdict

    def report(
        self,
        reporter: str,
        accused: str,
        reason: str,
        now: float,
        note: str = "",
        *,
        stored: float | None = None,
    ) -> ChatReport:
        """A complaint by ``reporter`` against ``accused`` (one of :data:`REPORT_REASONS`);
        ValueError for a report of oneself, an unknown reason, or a second report of the
        same player within ``report_every_seconds``: of the last one this chat took, or
        ``stored``, the caller's stored last one (the server reads its stored reports,
        ``store/reports.py``: this chat's memory ends with the process)."""
        if reporter == accused:
            raise ValueError("a player cannot report themselves")
        if reason not in REPORT_REASONS:
            raise ValueError(f"a report's reason is one of {REPORT_REASONS}, not {reason!r}")
        every = self.rules.report_every_seconds
        known = (self._reported.get((reporter, accused)), stored)
        last = max((at for at in known if at is not None), default=None)
        if last is not None and now - last < every:
            raise ValueError(f"you reported this player here lately: once per {every:.0f} s")
        if len(self._reported) >= _SWEEP_FLOOR:  # forget the reports whose wait is over
            self._reported = {k: at for k, at in self._reported.items() if now - at < every}
        self._reported[reporter, accused] = now
        said = tuple(line for line in self._lines if line.player == accused)
        # A stranger's text an operator reads: cleaned as a line is (no terminal escape,
        # no right-to-left override, no NUL), not judged.
        return ChatReport(reporter, accused, reason, clean(note, MAX_NOTE), now, said)

    def _judge(self, player: str, text: str, now: float, in_hand: bool) -> ChatVerdict:
        if player in self._muted:
            until = self._muted[player]
            if until is None or now < until:
                return ChatVerdict(BANNED, None)
            del self._muted[player]
        if not self._take_token(player, now):
            return ChatVerdict(RATE_LIMITED, None)
        if not text:
            return ChatVerdict(EMPTY, None)
        if found := advertising(text, self.vocabulary):
            return ChatVerdict(ADVERTISING, None, offence=True, found=found)
        talk = card_talk(text, self.vocabulary) if in_hand else None
        masked, foul = mask_foul(text, self.vocabulary.innocent)
        if foul:
            return ChatVerdict(FOUL_LANGUAGE, None if talk else masked, True, foul)
        if talk:
            return ChatVerdict(CARD_TALK, None, found=talk)
        return ChatVerdict(OK, text)

    def _take_token(self, player: str, now: float) -> bool:
        rules = self.rules
        bucket = self._buckets.get(player)
        tokens = float(rules.burst)
        if bucket is not None:
            elapsed = max(0.0, now - bucket.at)
            tokens = min(float(rules.burst), bucket.tokens + elapsed / rules.refill_seconds)
        if tokens < 1.0:
            self._buckets[player] = _Bucket(tokens, now)
            return False
        self._buckets[player] = _Bucket(tokens - 1.0, now)
        if len(self._buckets) >= self._sweep_at:
            self._forget_idle(now)
        return True

    def _forget_idle(self, now: float) -> None:
        # A table open for months meets thousands of chatters. A bucket that has
        # refilled to ``burst`` is the same as none, and a lapsed mute as no mute:
        # both are dropped, in sweeps spaced by the number kept, so each message
        # pays O(1) on average.
        full = self.rules.burst * self.rules.refill_seconds
        self._buckets = {p: b for p, b in self._buckets.items() if now - b.at < full}
        self._muted = {p: u for p, u in self._muted.items() if u is None or now < u}
        self._sweep_at = max(_SWEEP_FLOOR, 2 * len(self._buckets))

    @property
    def tracked(self) -> int:
        """How many chatters' rate buckets are kept (idle ones are forgotten)."""
        return len(self._buckets)


_WORDS = re.compile(r"[a-z0-9']+")
_LINK = re.compile(r"h(?:tt|xx)ps?(?::/{1,2}|//)|(?<![a-z0-9])www\.")
"""A scheme, also written so that no client makes it a link ("hxxp://") or cut short
("https//"), or "www." before a name (a word of its own: "awww..." is a sigh)."""
_BOXED_DOT = r"\s*[\[({<]\s*(?:\.|dot)\s*[\])}>]\s*"
_DOMAIN = re.compile(
    r"(?<![\w-])([a-z0-9][a-z0-9-]*)"
    rf"(\.|\s+\.\s*|{_BOXED_DOT}|\s+dot\s+|\.\s+)([a-z]{{2,7}})\b([/:]?)"
)
_WWW = re.compile(r"(?<![\w-])www[\s.]+([a-z0-9][a-z0-9-]*)[\s.]+([a-z]{2,7})\b")
"""A link whose dots are spaces: "www example com"."""
_RUN_ON: Final = re.compile(r"\s+[a-z]")
_SPELLED: Final = re.compile(r"(?<!\w)\w(?: \w(?!\w)){2,}")
"""Letters typed apart: "p o k e r s t a r s", "c h i p s . c o m"."""
_IN_WORDS = re.compile(r"(?<![a-z0-9])[a-z0-9]*[a-z][a-z0-9]*")
"""A word with a letter: its digits may stand for letters ("c0m"); "203" is a number.
Tried from a word's start only (from each digit of a long number it cost n² steps)."""
_OCTET = r"(?:25[0-5]|2[0-4]\d|1?\d?\d)"
_IP = re.compile(rf"(?<![\w.]){_OCTET}(?:(?:\.|\s+\.\s+|{_BOXED_DOT}){_OCTET}){{3}}(?!\w|\.\d)")
_RANK = r"(?:[2-9TJQKA]|10)"
_CARDS = re.compile(rf"(?<![\w]){_RANK}[shdc]?{_RANK}[shdc]?[so]?(?!\w)")
_SPACED_CARDS = re.compile(rf"(?<![\w]){_RANK}[shdc]\s+{_RANK}[shdc](?!\w)")
_LINKED_CARDS = re.compile(rf"(?<![\w-]){_RANK}[shdc]?[-/]{_RANK}[shdc]?(?![\w-])")
_SUIT_SYMBOL = re.compile(rf"{_RANK}\s?[\u2660-\u2667]")
_SHOUTED = re.compile(r"[A-Z]{3,}")
_THOUSANDS = re.compile(r"(?:[2-9]|10)K")
"""An amount such as "5K" (five thousand), not cards: a king with a five is "K5"."""
_CARD_RUN = re.compile(rf"(?:{_RANK}[shdc]?){{2,}}[so]?|{_RANK}[shdc]")
"""A word made only of cards in card case ("A5s", "As5s", "AhKhQh", "As"): never foul
language, nor a piece of a word spelled out ("As 5s" is no "a s s")."""


def _padded_words(text: str) -> str:
    return " " + " ".join(_WORDS.findall(text.lower())) + " "


def advertising(text: str, vocabulary: Vocabulary) -> str:
    """The link or other room ``text`` advertises, or ``""`` (read through Unicode
    disguises: full-width letters and dots, look-alikes, zero-width characters; digits
    standing for letters inside words: "d0t c0m", "p0kerstars"; and letters typed
    apart: "p o k e r s t a r s")."""
    plain, origin = fold(text)
    if link := _LINK.search(plain) or _IP.search(plain):
        return link.group()
    cased = "".join(text[i] for i in origin)  # each letter of ``plain`` as typed
    for reading in (plain, *_digit_readings(plain)):
        if found := _domain(reading, vocabulary, cased) or _room(reading, vocabulary):
            return found
    if _SPELLED.search(plain):
        joined = _SPELLED.sub(lambda letters: letters.group().replace(" ", ""), plain)
        return _domain(joined, vocabulary) or _room(joined, vocabulary)
    return ""


def _digit_readings(plain: str) -> list[str]:
    """``plain`` with the digits of its words read as letters, "1" as "i" and as "l"
    ("c0m" is "com"); numbers (words without a letter) stay as they are."""
    if not any(c.isdigit() for c in plain):
        return []
    return [
        _IN_WORDS.sub(lambda word: digits_as_letters(word.group(), one), plain)  # noqa: B023
        for one in "il"
    ]


def _domain(plain: str, vocabulary: Vocabulary, cased: str = "") -> str:
    """The first domain ``plain`` names (see the module doc), or ``""``; ``cased``:
    each letter of ``plain`` as typed, to tell a sentence run on after a full stop."""
    www = _WWW.search(plain)
    if www and www.group(2) in vocabulary.tlds | vocabulary.word_tlds:
        return www.group()
    at = 0
    while domain := _DOMAIN.search(plain, at):
        at = domain.start(3)  # the ending may name the next domain: "www . room . com"
        name, dot, ending, path = domain.groups()
        if (
            dot.startswith(".")
            and dot != "."
            and (ending not in vocabulary.spaced_tlds or plain[domain.end(3) :].startswith("'"))
        ):
            continue  # "I fold. Net loss", "I fold. com'on"
        if dot.strip() == "." and not path and _run_on(domain, cased):
            continue  # "I fold.Net loss", "I fold . Net loss"
        if ending in vocabulary.word_tlds:  # "in.to", "nh.gg": a link only with a path
            if path or plain[: domain.start()].endswith("@"):
                return domain.group()
        elif ending in vocabulary.tlds and (len(name) > 1 or path):  # "e.g." is no link
            return domain.group()
    return ""


def _run_on(domain: re.Match[str], cased: str) -> bool:
    """Whether the ``domain`` found is a sentence begun after a full stop ("x.Y", "x . Y"):
    a name typed in lower case, an ending with only its first letter a capital, and more
    words after it ("I fold.Net loss"; "cheapchips.Com" and "cheapchips.com now" are
    links)."""
    if not cased:
        return False
    name, ending = cased[domain.start(1) : domain.end(1)], cased[domain.start(3) : domain.end(3)]
    return (
        not any(c.isupper() for c in name)
        and ending[0].isupper()
        and ending[1:].islower()
        and _RUN_ON.match(domain.string, domain.end(3)) is not None
    )


def _room(plain: str, vocabulary: Vocabulary) -> str:
    """The other poker room ``plain`` names, or ``""``."""
    words = _padded_words(plain)
    return next((room for room in vocabulary.rooms if f" {room} " in words), "")


def mask_foul(text: str, innocent: Iterable[str] = ()) -> tuple[str, str]:
    """``text`` with offensive words masked, and the first one found (``""``: none);
    ``innocent``: words that hold a foul one but are not ("scunthorpe"), and phrases
    in which one is not ("tit for tat")."""
    spans = foul_spans(text, innocent, exempt=_CARD_RUN)
    pieces: list[str] = []
    end = 0
    for start, stop in spans:
        pieces += [text[end:start], "*" * (stop - start)]
        end = stop
    first = text[spans[0][0] : spans[0][1]] if spans else ""
    return "".join(pieces) + text[end:], first


def card_talk(text: str, vocabulary: Vocabulary) -> str:
    """What in ``text`` looks like talk about one's cards (module docstring), or ``""``."""
    text, _ = fold(text, lower=False)  # "ＡＫ" is "AK"
    words = _padded_words(text)
    for word in words.split():
        if word in vocabulary.card_words:
            return word
    for phrase in vocabulary.card_phrases:
        if f" {phrase} " in words:
            return phrase
    for pattern in (_SUIT_SYMBOL, _SPACED_CARDS):
        if symbol := pattern.search(text):
            return symbol.group()
    linked = (cards.group() for cards in _LINKED_CARDS.finditer(text))
    if joined := next((cards for cards in linked if not _a_number(cards)), ""):
        return joined
    shouting = text.upper() == text and bool(_SHOUTED.search(text))
    for cards in _CARDS.finditer(text):
        notation = cards.group()
        if _a_number(notation):
            continue
        if shouting and notation.isalpha() and len(notation) == 2 and notation[0] != notation[1]:
            continue  # "LOOK AT THIS" (but "AA" is aces, shouted or not)
        return notation
    return ""


def _a_number(notation: str) -> bool:
    """Whether card notation is a number: digits only ("75", a range "5-10", a stake
    "2/4") or thousands ("5K")."""
    return not any(c in "TJQKAshdco" for c in notation) or bool(_THOUSANDS.fullmatch(notation))
