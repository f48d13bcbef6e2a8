"""Alias rules (RULEBOOK §10.1): 3–16 of ``a-z A-Z 0-9 - _``, unique over a
canonical form, never changed, nothing offensive and no name of the house.

The canonical form (:func:`canonical_alias`) folds case, drops ``-`` and ``_``
and folds the classic confusables ``0``→``o`` and ``1``/``l``/``i``→``l``, so
``PlayerI``, ``Playerl`` and ``Player1`` are one alias. :func:`alias_key` (case
folded only) is what a player types to be found.

The offensive-word list and the reserved house names are data
(``offensive_words.txt`` and ``reserved_names.txt`` beside this module).
Offensive matching sees through the usual disguises: case, ``-``/``_``
separators, digits standing for letters and stretched letters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from cardroom.ledger.errors import AliasError

MIN_LENGTH = 3
MAX_LENGTH = 16
_ALIAS = re.compile(r"[A-Za-z0-9_-]+")
_SEPARATORS = re.compile(r"[-_]+")
_SEPARATORS_AND_DIGITS = re.compile(r"[-_0-9]+")
# Where a camelCase alias starts a new word: "TheHouse" -> "The", "House".
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_CANONICAL = str.maketrans({"0": "o", "1": "l", "i": "l", "-": None, "_": None})

# Digits read as the letters they imitate; "1" reads as both i and l.
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})
_ONE_AS = ("i", "l")
# A capital I looks like an l: a reading keeps it as "|", which a word's i or l matches
# (each I on its own: "HItIer" is "hitler"). Only the capital: a lower-case l read as i
# would make "tilt" the whole word "tit".
_CAPITAL_I = "|"
_I_OR_L = {"i": "[i|]", "l": "[l|]"}


@dataclass(frozen=True, slots=True)
class WordList:
    """Offensive words: ``anywhere`` are refused as substrings, ``whole`` as parts;
    ``innocent`` words hold one but are not offensive ("kshitij", "scunthorpe")."""

    anywhere: frozenset[str]
    whole: frozenset[str]
    innocent: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, lines: Iterable[str]) -> WordList:
        """Read the word-list format (``#`` comments, ``=word`` for whole-part words,
        ``+word`` for innocent ones)."""
        groups: dict[str, set[str]] = {"=": set(), "+": set(), "": set()}
        for raw in lines:
            line = raw.strip().lower()
            if not line or line.startswith("#"):
                continue
            mark = line[0] if line[0] in "=+" else ""
            groups[mark].add(line[len(mark) :])
        return cls(frozenset(groups[""]), frozenset(groups["="]), frozenset(groups["+"]))

    @property
    def patterns(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """One regex for each group, every letter allowed to repeat ("fuuuck")."""
        return _compile(self.anywhere), _compile(self.whole)

    @property
    def masked_patterns(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """As :attr:`patterns`, each letter but the first and the last of a word also
        hidden behind one :data:`MASKS` character ("sh*t", "f**k")."""
        return _compile(self.anywhere, masked=True), _compile(self.whole, masked=True)


MASKS = "*#"
"""Characters a writer hides a letter behind ("sh*t", "c#nt"): one letter each."""


@cache
def _compile(words: frozenset[str], *, masked: bool = False) -> re.Pattern[str]:
    def letter(c: str, inner: bool) -> str:
        shown = _I_OR_L.get(c, re.escape(c)) + "+"
        return f"(?:{shown}|[{re.escape(MASKS)}])" if masked and inner else shown

    last = {w: len(w) - 1 for w in words}
    stretched = (
        "".join(letter(c, 0 < i < last[w]) for i, c in enumerate(w)) for w in sorted(words)
    )
    return re.compile("|".join(stretched) or "(?!)")


@cache
def default_words() -> WordList:
    """The shipped offensive-word list."""
    text = resources.files("cardroom.ledger").joinpath("offensive_words.txt").read_text("utf-8")
    return WordList.parse(text.splitlines())


@cache
def reserved_names() -> frozenset[str]:
    """The shipped house names, in canonical form."""
    text = resources.files("cardroom.ledger").joinpath("reserved_names.txt").read_text("utf-8")
    lines = (line.strip() for line in text.splitlines())
    return frozenset(canonical_alias(w) for w in lines if w and not w.startswith("#"))


def alias_key(alias: str) -> str:
    """The form an alias is looked up in (case ignored): ``AceHigh`` is found as ``acehigh``."""
    return alias.casefold()


def canonical_alias(alias: str) -> str:
    """The form aliases are unique in (RULEBOOK §10.1).

    Case folded, ``-`` and ``_`` dropped, ``0`` read as ``o`` and ``1``, ``l``
    and ``i`` all read as ``l``: ``B0B`` is ``bob``, ``Ace-High`` is ``acehlgh``.
    """
    return alias.casefold().translate(_CANONICAL)


def _name_parts(alias: str) -> set[str]:
    """The alias, its pieces between separators and camelCase words, every run of these
    joined, and each of these without some or all of its leading and trailing digits
    (a digit there may be a letter: ``0perator7`` is ``0perator``, not ``perator``)."""
    pieces = {alias, *_SEPARATORS.split(alias)}
    pieces |= {word for piece in pieces for word in _CAMEL.split(piece)}
    # A name cut in two by a separator or a capital, beside other words: "Joe_Deal_er".
    words = [w for piece in _SEPARATORS.split(alias) for w in _CAMEL.split(piece) if w]
    pieces |= {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 2, len(words) + 1)}
    pieces |= {trimmed for piece in pieces for trimmed in _digits_trimmed(piece)}
    return pieces - {""}


def _digits_trimmed(piece: str) -> set[str]:
    """``piece`` with every number of its leading and of its trailing digits dropped."""
    lead = len(piece) - len(piece.lstrip("0123456789"))
    trail = len(piece) - len(piece.rstrip("0123456789"))
    if lead == len(piece):
        return set()
    return {piece[i : len(piece) - j] for i in range(lead + 1) for j in range(trail + 1)}


@cache
def _house_pattern(name: str) -> re.Pattern[str]:
    # A name of four letters or more may have its letters stretched ("Addmin"); every
    # name may be plural ("Admins", "Mods"). "mod" is not stretched: "Mood" is a word.
    more = "+" if len(name) >= 4 else ""
    return re.compile("".join(re.escape(c) + more for c in name) + "s?")


def _house_readings(part: str) -> set[str]:
    """The canonical forms ``part`` reads as: as written, and with its digits read as
    the letters they imitate (``H0u5e`` is ``house``, ``D3aler`` is ``dealer``)."""
    return {canonical_alias(part), canonical_alias(digits_as_letters(part))}


def reserved_match(alias: str, names: Iterable[str] | None = None) -> str | None:
    """The canonical house name ``alias`` poses as (see ``reserved_names.txt``), or ``None``.

    A part reads as a name as written or with its digits read as letters; a shipped
    name also stretched or plural (``Addmin``, ``Mods``). A list given (the house
    bots' names) is matched exactly: its thousands of names make no quick pattern."""
    reserved = reserved_names() if names is None else {canonical_alias(n) for n in names}
    readings = {r for part in _name_parts(alias) for r in _house_readings(part)}
    for reading in sorted(readings):
        if reading in reserved:
            return reading
    if names is not None:
        return None
    return next(
        (n for n in sorted(reserved) if any(_house_pattern(n).fullmatch(r) for r in readings)),
        None,
    )


def digits_as_letters(text: str, one: str = "i") -> str:
    """``text`` in lower case with digits and ``@`` read as the letters they imitate
    (``0`` is ``o``, ``3`` is ``e``, ...), ``1`` as ``one``: "p0k3r" is "poker"."""
    return text.lower().replace("@", "a").translate(_LEET).replace("1", one)


def _readings(text: str, innocent: frozenset[str] = frozenset()) -> set[str]:
    """Every plain-letter reading of ``text``, digits read as the letters they imitate,
    a capital ``I`` as either ``i`` or ``l`` (§10.1 folds them: ``SIut``, ``HitIer``),
    each ``innocent`` word in it made a space ("kshitij" holds no "shit"; not a bar, which
    reads as an ``I``)."""
    readings = {digits_as_letters(text.replace("I", _CAPITAL_I), one) for one in _ONE_AS}
    if not innocent:
        return readings
    pattern = _innocent_pattern(innocent)
    return {pattern.sub(" ", reading) for reading in readings}


@cache
def _innocent_pattern(words: frozenset[str]) -> re.Pattern[str]:
    """The innocent ``words``, longest first, each ``i`` or ``l`` also a capital I ("Ishita")."""
    longest = sorted(words, key=lambda w: (-len(w), w))
    return re.compile("|".join("".join(_I_OR_L.get(c, re.escape(c)) for c in w) for w in longest))


def offensive_match(alias: str, words: WordList | None = None) -> str | None:
    """The offensive text ``alias`` contains (see module doc), or ``None``."""
    words = words or default_words()
    anywhere, whole = words.patterns
    joined = re.sub(r"[-_]", "", alias)
    for reading in _readings(joined, words.innocent):
        if found := anywhere.search(reading):
            return found.group()
    parts = {alias, joined, *_SEPARATORS.split(alias), *_SEPARATORS_AND_DIGITS.split(alias)}
    parts |= {word for part in parts for word in _CAMEL.split(part)}  # "BigCock": "Cock"
    for part in parts - {""}:
        for reading in _readings(part, words.innocent):
            if whole.fullmatch(reading):
                return reading
    return None


def masked_match(text: str, words: WordList | None = None) -> str | None:
    """The offensive word ``text`` spells with letters hidden behind :data:`MASKS`, one
    letter each, its first and last letters shown ("sh*t", "f**k", "bullsh*t", a whole
    word "a*s" for "=ass"), read as :func:`offensive_match` reads (digits as letters,
    stretched letters); ``None`` when none fits. "f***" shows too little to say which
    word it hides, and is none."""
    words = words or default_words()
    anywhere, whole = words.masked_patterns
    for reading in _readings(text, words.innocent):
        if found := anywhere.search(reading) or whole.fullmatch(reading):
            return found.group()
    return None


def alias_shaped(alias: str) -> bool:
    """Whether ``alias`` has the length and characters of an alias (so it may exist)."""
    return (
        MIN_LENGTH <= len(alias) <= MAX_LENGTH and alias.isascii() and bool(_ALIAS.fullmatch(alias))
    )


def validate_alias(alias: str, words: WordList | None = None) -> str:
    """Return ``alias`` if it obeys the rules; raise :class:`AliasError` saying why if not."""
    if not MIN_LENGTH <= len(alias) <= MAX_LENGTH:
        raise AliasError(f"alias must be {MIN_LENGTH} to {MAX_LENGTH} characters, not {len(alias)}")
    if not _ALIAS.fullmatch(alias) or not alias.isascii():
        raise AliasError("alias may use only letters a-z A-Z, digits 0-9, '-' and '_'")
    if not any(c.isalpha() for c in alias):  # the records name players by number
        raise AliasError("alias needs a letter: a number alone reads as a player's id")
    if offensive_match(alias, words) is not None:
        raise AliasError(f"alias {alias!r} is not allowed (offensive)")
    if reserved_match(alias) is not None:
        raise AliasError(f"alias {alias!r} is reserved: it reads as a name of the house")
    return alias
