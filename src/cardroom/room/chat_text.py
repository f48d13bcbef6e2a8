"""Chat text (RULEBOOK §10.7): what is sent, and the plain reading the filters judge.

:func:`clean` makes the line that is broadcast: format characters (zero-width
spaces, the soft hyphen, right-to-left overrides, and joiners but between two
characters, :data:`_JOINERS`) and the Hangul fillers (letters that show nothing) are
dropped, so they can neither flip the line for its readers nor hide a word's break; other
control characters and line breaks become spaces; stacks of combining marks are
cut to :data:`MAX_MARKS` (no "zalgo" line running over the chat box).

:func:`fold` is the reading the filters match against, with where each of its
characters came from (to mask the words found in the line as sent): NFKD
(full-width, mathematical and circled letters, ligatures, "．" and "․" are plain
letters and dots), combining marks dropped ("fúck" is "fuck"), Cyrillic and
Greek look-alikes, small capitals ("ꜰᴜᴄᴋ") and the letters NFKD leaves in their
boxes or flags (negative circled and squared letters, regional indicators) read as
the Latin letters they imitate, case folded on demand.

:func:`foul_spans` finds offensive words (the alias list, ``ledger``) in that
reading, in a word or spelled out in letters ("f.u.c.k", "f u c k", "f - u - c - k",
"fu ck", "fuc k"; "|" and "¢" inside a word read as i or l and as c),
or with letters hidden behind masks ("sh*t", "f**k", ``ledger.masked_match``),
minus the innocent words that hold one ("Scunthorpe", "shiitake") and the innocent
phrases, read as blanks ("tit for tat", "cum laude").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import groupby, repeat
from typing import Final

from cardroom.ledger import MASKS, masked_match, offensive_match
from cardroom.ledger.aliases import default_words

MAX_MARKS: Final = 3
"""Combining marks kept on one letter (real scripts need two at most)."""

_LOOKALIKES: Final = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "н": "h", "і": "i",
        "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s",
        "т": "t", "у": "y", "ү": "y", "ԝ": "w", "х": "x", "ь": "b",
        "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K",
        "М": "M", "О": "O", "Р": "P", "Ѕ": "S", "Т": "T", "У": "Y", "Х": "X",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "h", "ι": "i", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ζ": "z", "ω": "w", "μ": "u",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "ϲ": "c", "ς": "c", "Ϲ": "C", "ғ": "f", "Ғ": "F",
        # Latin letters NFKD leaves whole, small capitals, and dots
        "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t", "ƒ": "f", "ʂ": "s",
        "ɑ": "a", "ɡ": "g", "ɩ": "i",
        "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h",
        "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
        "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
        "\u3002": ".", "\ufe52": ".", "\u00b7": ".", "\u2022": ".", "\u2219": ".",
        "\u22c5": ".", "\u2027": ".",
        # Letters in boxes and flags that NFKD leaves whole: negative circled, negative
        # squared, regional indicators (two make a flag, and read as its two letters)
        **{chr(first + i): chr(ord("a") + i) for first in (0x1F150, 0x1F170, 0x1F1E6)
           for i in range(26)},
    }
)  # fmt: skip

_INVISIBLE: Final = frozenset("\u115f\u1160\u3164\uffa0")
"""Hangul fillers: letters to Unicode, so they join a word, but they show nothing."""

_DROPPED: Final = frozenset({"Mn", "Me", "Mc", "Cf"})
_JOINERS: Final = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters a line keeps between two
characters (an emoji sequence, "👩🏽‍🚀"; Persian writes the non-joiner inside words),
never anywhere else; the filters read past them (:func:`fold` drops them)."""


def clean(text: str, max_length: int) -> str:
    """``text`` as it may be broadcast (module doc), spaces collapsed, cut to ``max_length``."""
    kept: list[str] = []
    marks = 0
    for i, c in enumerate(text):
        category = unicodedata.category(c)
        if c in _JOINERS and _joins(kept, text[i + 1 : i + 2]):
            kept.append(c)
            continue
        if category == "Cf" or c in _INVISIBLE:
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(" " if category.startswith("C") else c)
    # The cut may leave a joiner last, joining nothing.
    return " ".join("".join(kept).split())[:max_length].rstrip("".join(_JOINERS))


def _joins(kept: list[str], after: str) -> bool:
    """Whether a joiner sits between two characters that show (the last kept, and the
    one after it): where an emoji sequence or a Persian word needs it."""
    return bool(kept and after) and all(
        c not in _JOINERS and not c.isspace() and unicodedata.category(c)[0] not in "CZ"
        for c in (kept[-1], after)
    )


def fold(text: str, *, lower: bool = True) -> tuple[str, list[int]]:
    """The plain reading of ``text`` (module doc) and, for each of its characters,
    the index in ``text`` of the character it comes from."""
    chars: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(text):
        plain = _plain(c, lower)
        chars.append(plain)
        origin += repeat(i, len(plain))
    return "".join(chars), origin


@lru_cache(maxsize=4096)
def _plain(c: str, lower: bool) -> str:
    """The plain reading of one character (:func:`fold`). Kept per character: a line
    of 200 is read three times, and NFKD, categories and look-alikes one decomposed
    character at a time cost about a microsecond each."""
    out: list[str] = []
    for d in unicodedata.normalize("NFKD", c):
        if unicodedata.category(d) in _DROPPED or d in _INVISIBLE:
            continue
        plain = d.translate(_LOOKALIKES)
        if lower:
            plain = plain.casefold().translate(_LOOKALIKES)
        out.append(plain)
    return "".join(out)


_TOKEN: Final = re.compile(r"[\w@-]+")
_SYMBOLS: Final = (
    (re.compile(r"(?<=[a-z$])\$|\$(?=[a-z])"), "s"),  # "$hit", "a$$hole" (not "$5")
    (re.compile(r"(?<=[a-z])!(?=[a-z])"), "i"),  # "sh!t" (not "wow!")
    (re.compile(r"(?<=[a-z])\|(?=[a-z])"), "1"),  # "sh|t", "b|tch": read as i and as l
    (re.compile(r"(?<=[a-z])\u00a2|\u00a2(?=[a-z])"), "c"),  # "\u00a2unt" (not "5\u00a2")
)
_MASKED: Final = re.compile(rf"(?<![\w@])[\w@]+(?:[{re.escape(MASKS)}]{{1,3}}[\w@]+)+")
"""A word with letters masked inside it ("sh*t", "a**hole"); "f***" shows too little.
Tried from a word's start only: from each letter of a long word it cost n² steps."""
_SPELLED_PIECE: Final = 2
"""A word spelled out is read whole when its pieces are this short ("f u c k", "fu ck")."""
_SPELLED_GAP: Final = 3
_ENDINGS: Final = ("", "s", "es", "y", "ed", "er", "ers", "in", "ing", "ings")
"""What may follow a foul word spelled into a longer word: "fu cking", "pi ssed"."""
_INTO_PIECES: Final = 4
"""The most short pieces read into a longer word ("f u c king"; more would read
every word after a long spelled-out line dozens of times over)."""
_JOINED_MIN: Final = 4
"""The shortest foul word read across a break into a longer word: "ugly as sin" is no
"ass" (a word that short hides in too many honest pairs)."""


_STRETCH: Final = re.compile(rf"([^{re.escape(MASKS)}])\1{{3,}}")
"""A character (not a mask: "f****" hides four letters) four times or more."""


@lru_cache(maxsize=4096)
def _foul(
    word: str, innocent: tuple[str, ...], *, whole: bool = False, masked: bool = False
) -> bool:
    """Whether ``word`` holds an offensive word (``whole``: is one, all of it;
    ``masked``: with letters hidden behind masks). Kept per word: a hostile line
    repeats its words."""
    for harmless in innocent:
        word = word.replace(harmless, "|")
    # A letter stretched past three reads as three ("fuuuuck" as "fuuuck": the list's
    # words match stretched, and none has a letter more than three times running, "kkk"),
    # so a run of hundreds does not cost the patterns hundreds of tries at each letter.
    word = _STRETCH.sub(r"\1\1\1", word)
    found = (masked_match if masked else offensive_match)(word)
    return found is not None and (not whole or len(found) == len(word))


def _squeezed(word: str) -> str:
    """``word`` with each run of one letter made one ("fuuck" is "fuck"): the listed
    words match stretched, so a word the list reads whole squeezes to a listed one."""
    return "".join(letter for letter, _ in groupby(word))


@cache
def _listed() -> tuple[frozenset[str], frozenset[str]]:
    """The listed offensive words squeezed, and every ending of them. Pieces that make
    no listed word squeezed are not read (:func:`_foul` costs some 20 microseconds a
    reading, and a hostile line of single letters holds a thousand readings); pieces
    that end no listed word end none with more pieces before them."""
    words = default_words()
    squeezed = frozenset(_squeezed(w) for w in words.anywhere | words.whole)
    return squeezed, frozenset(w[i:] for w in squeezed for i in range(len(w)))


def _whole_foul(joined: str, innocent: tuple[str, ...]) -> bool:
    """Whether ``joined`` (letters only) is an offensive word, all of it."""
    return _squeezed(joined) in _listed()[0] and _foul(joined, innocent, whole=True)


def foul_spans(
    text: str, innocent: Iterable[str] = (), *, exempt: re.Pattern[str] | None = None
) -> list[tuple[int, int]]:
    """Where in ``text`` offensive words are (start, end), in order and apart; words
    with no letter, and words ``exempt`` matches whole in ``text``, are not read."""
    words = tuple(word for word in innocent if " " not in word)
    plain, origin = fold(text)
    for pattern, letter in _SYMBOLS:
        plain = pattern.sub(letter, plain)
    if phrases := _phrases(tuple(innocent)):  # read as blanks: "tit for tat"
        plain = phrases.sub(lambda found: " " * len(found.group()), plain)
    innocent = words
    spans = [
        (origin[m.start()], origin[m.end() - 1] + 1)
        for m in _MASKED.finditer(plain)
        if _foul(m.group(), innocent, masked=True)
    ]
    run: list[tuple[int, int, str]] = []  # a word spelled out: short pieces close together
    before: tuple[int, int, str] | None = None  # the longer word just before the run

    def end_run() -> None:
        if len(run) > 1:
            spans.extend(_spelled(run, innocent))
        run.clear()

    for token in _TOKEN.finditer(plain):
        start, end = origin[token.start()], origin[token.end() - 1] + 1
        word = token.group()
        letters = re.sub(r"[-_]", "", word)
        if not letters:
            continue  # a dash alone is no word, nor a break: "f - u - c - k"
        if not any(c.isalpha() for c in word) or (exempt and exempt.fullmatch(text[start:end])):
            end_run()
            continue
        if _foul(word, innocent):
            spans.append((start, end))
        piece = len(letters) <= _SPELLED_PIECE and letters.isalpha()  # not "m8" in "c u m8"
        if run and start - run[-1][1] > _SPELLED_GAP:
            end_run()
            before = None
        if piece:
            if not run and before is not None and start - before[1] > _SPELLED_GAP:
                before = None
            run.append((start, end, letters))
            if before is not None:
                spans.extend(_spelled_after(before, run, innocent))
            continue
        if run and letters.isalpha():
            spans.extend(_spelled_into(run, end, letters, innocent))
        end_run()
        before = (start, end, letters) if letters.isalpha() else None
    end_run()
    return _merged(spans)


@lru_cache(maxsize=16)
def _phrases(innocent: tuple[str, ...]) -> re.Pattern[str] | None:
    """The innocent phrases (entries of more than one word) as one pattern of whole
    words, spaces or dashes between them ("tit for tat", "tit-for-tat"); None: none."""
    phrases = [r"[\s-]+".join(map(re.escape, p.split())) for p in innocent if " " in p]
    return re.compile(rf"(?<![\w@])(?:{'|'.join(phrases)})(?![\w@])") if phrases else None


_LONGEST: Final = 12
"""The most pieces a word spelled out is read in (the longest word listed is shorter)."""


def _spelled(run: list[tuple[int, int, str]], innocent: tuple[str, ...]) -> list[tuple[int, int]]:
    """The stretches of the pieces ``run`` (start, end, letters) that spell an offensive
    word, all of it: "ok f u c k" masks "f u c k", not the "ok" before it, and "as hi to"
    holds no word spelled out."""
    spans: list[tuple[int, int]] = []
    listed, endings = _listed()
    squeezed = [_squeezed(piece) for _, _, piece in run]
    done = 0  # the pieces before this one are read
    for end in range(2, len(run) + 1):
        joined, tail = run[end - 1][2], squeezed[end - 1]
        for start in range(end - 2, max(done, end - _LONGEST) - 1, -1):
            joined = run[start][2] + joined
            piece = squeezed[start]
            tail = piece + tail[1:] if piece[-1] == tail[0] else piece + tail
            if tail not in endings:
                break  # no listed word ends so, nor with more pieces before
            if tail in listed and _foul(joined, innocent, whole=True):
                spans.append((run[start][0], run[end - 1][1]))
                done = end
                break
    return spans


def _spelled_into(
    run: list[tuple[int, int, str]], end: int, letters: str, innocent: tuple[str, ...]
) -> list[tuple[int, int]]:
    """Where the short pieces ``run`` run into a longer word (``letters``, ending at
    ``end`` in the line) that finishes a foul word ("fu cking", "bi tches"): the foul
    word starts a piece, ends inside the word, and what follows it is an ending such
    as "ing" (:data:`_ENDINGS`); "is hit" starts no piece with "shit"."""
    for first in range(max(0, len(run) - _INTO_PIECES), len(run)):
        head = "".join(piece for _, _, piece in run[first:])
        for ending in _ENDINGS:
            rest = len(letters) - len(ending)
            if rest <= 0 or not letters.endswith(ending):
                continue
            joined = head + letters[:rest]
            if len(joined) >= _JOINED_MIN and _whole_foul(joined, innocent):
                return [(run[first][0], end)]
    return []


_LETTERS_AFTER: Final = 2
"""The most single letters read onto the end of a longer word ("fuc k", "bitc h")."""
_CONSONANTS: Final = frozenset("bcdfghjklmnpqrstvwxz")


def _spelled_after(
    word: tuple[int, int, str], run: list[tuple[int, int, str]], innocent: tuple[str, ...]
) -> list[tuple[int, int]]:
    """Where a longer word (start, end, letters) runs on into the single letters of
    ``run`` to finish a foul word ("fuc k", "shi t"). Consonants only: "a", "I", "u"
    and two-letter pieces are words, and "the pen is" is no "penis"."""
    if len(run) > _LETTERS_AFTER or any(piece not in _CONSONANTS for _, _, piece in run):
        return []
    joined = word[2] + "".join(piece for _, _, piece in run)
    if len(joined) >= _JOINED_MIN and _whole_foul(joined, innocent):
        return [(word[0], run[-1][1])]
    return []


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
