"""Poker Hand History (PHH) files: reading and writing the text format.

PHH (``../shared/references/phh-std/``) is TOML: a ``.phh`` file holds one
hand, a ``.phhs`` file many hands in tables ``[1]``, ``[2]`` ... This module
turns that text into :class:`HandHistory` records and back; replaying a record
through the engine lives in :mod:`cardroom.games.phh_replay`.

Money is integers: a file written in fractional units (``1259450.25``) is read
with a ``scale`` (here 100) so that every amount becomes a whole number of
chips; writing divides by the same scale. Unknown cards (``??``) are ``None``.

>>> hh = loads('variant = "NT"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n'
...            'min_bet = 2\\nstarting_stacks = [200, 200]\\n'
...            'actions = ["d dh p1 AsKs", "d dh p2 ????", "p2 f"]')[0]
>>> hh.actions[2].kind, hh.actions[2].player
('f', 1)
>>> loads(dumps(hh))[0] == hh
True
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from cardroom.cards import Card, CardError
from cardroom.games.phh_codes import PHH_CODES, required_fields
from cardroom.words import clipped

__all__ = [
    "PHH_VARIANTS",
    "HandHistory",
    "PhhAction",
    "PhhError",
    "dumps",
    "dumps_all",
    "format_action",
    "format_phh_cards",
    "load_path",
    "loads",
    "parse_action",
    "parse_phh_cards",
    "read_hands",
    "read_path",
]


class PhhError(ValueError):
    """A PHH text or record that breaks the standard, or a hand the engine cannot replay;
    the message says what and where. ``action`` is the 1-based number of the action
    at fault in the hand's ``actions`` (None: the hand's header or the whole file).
    ``code``: when export refuses a hand, the stable reason (one of
    :data:`cardroom.games.phh_export.REFUSALS`; empty otherwise)."""

    def __init__(self, message: str, action: int | None = None, *, code: str = "") -> None:
        super().__init__(clipped(message))  # it quotes the file, which may be any size
        self.action = action
        self.code = code


#: Every variant code read here with its required amount fields (required.rst): the
#: standard's and this project's extensions (docs/phh_extensions.md).
PHH_VARIANTS: dict[str, tuple[str, ...]] = {
    code: required_fields(spec) for code, spec in PHH_CODES.items()
}

ActionKind = Literal["db", "dh", "pb", "cbr", "cc", "f", "sd", "sm", "noop"]

_SCALAR_AMOUNTS = ("bring_in", "small_bet", "big_bet", "min_bet")
_OUTCOME_FIELDS = ("finishing_stacks", "winnings")
_READ_FIELDS = frozenset(
    {"variant", "antes", "blinds_or_straddles", "starting_stacks", "actions"}
    | set(_SCALAR_AMOUNTS)
    | {"ante_trimming_status", "finishing_stacks", "winnings"}
)
_PLAYER = re.compile(r"p([1-9][0-9]*)\Z")


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of the ``actions`` field.

    ``player`` is the 0-based player index (``p1`` is 0); ``None`` for the
    dealer or a no-op. ``cards`` holds dealt, discarded or shown cards with
    ``None`` for an unknown card; for ``sm`` it is ``None`` when the player
    mucks and ``()`` for ``sm -`` (shows the cards already dealt). ``amount``
    is the ``cbr`` total in chips (scaled like the rest of the file).
    """

    kind: ActionKind
    player: int | None = None
    cards: tuple[Card | None, ...] | None = None
    amount: int | None = None
    commentary: str | None = None


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand as the PHH fields describe it, amounts in integer chips.

    Per-player arrays are in PHH order: ``p1`` first (the small blind in
    button games, the button last; heads-up the big blind first). ``None`` in
    ``starting_stacks`` is an unknown (``inf``) stack. ``scale`` is how many
    chips make one unit of the file's money; ``fields`` keeps every other
    field (players, event, ...) as read so that writing loses nothing.
    """

    variant: str
    antes: tuple[int, ...]
    starting_stacks: tuple[int | None, ...]
    actions: tuple[PhhAction, ...]
    blinds_or_straddles: tuple[int, ...] | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    ante_trimming_status: bool = False
    finishing_stacks: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    scale: int = 1
    fields: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def player_count(self) -> int:
        """How many players were dealt in."""
        return len(self.starting_stacks)

    def __post_init__(self) -> None:
        _validate(self)


# ---------------------------------------------------------------- cards


def parse_phh_cards(text: str) -> tuple[Card | None, ...]:
    """Parse concatenated PHH cards (``"AsKs"``, ``"????Ad"``); ``??`` becomes ``None``."""
    if len(text) % 2:
        raise PhhError(f"{text!r} is not a card list: every card is two characters")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        token = text[i : i + 2]
        if token == "??":
            out.append(None)
            continue
        try:
            out.append(Card.parse(token))
        except CardError as exc:
            raise PhhError(str(exc)) from None
    return tuple(out)


def format_phh_cards(cards: Iterable[Card | None]) -> str:
    """Write cards the PHH way: concatenated, ``??`` for an unknown card."""
    return "".join("??" if c is None else str(c) for c in cards)


# ---------------------------------------------------------------- actions


def parse_action(text: str, scale: int = 1) -> PhhAction:
    """Parse one action notation such as ``"p1 cbr 300 # shove"`` (amounts times ``scale``)."""
    body, _, comment = text.partition("#")
    commentary = comment.strip() or None
    words = body.split()
    if not words:
        return PhhAction("noop", commentary=commentary)
    if words[0] == "d":
        return _parse_dealing(text, words, commentary)
    player = _player_index(words[0], text)
    kind = words[1] if len(words) > 1 else ""
    args = words[2:]
    if kind == "pb" and not args:
        return PhhAction("pb", player, commentary=commentary)
    if kind == "cc" and not args:
        return PhhAction("cc", player, commentary=commentary)
    if kind == "f" and not args:
        return PhhAction("f", player, commentary=commentary)
    if kind == "cbr" and len(args) == 1:
        return PhhAction("cbr", player, amount=_amount(args[0], scale, text), commentary=commentary)
    if kind == "sd" and len(args) <= 1:
        cards = parse_phh_cards(args[0]) if args else ()
        return PhhAction("sd", player, cards=cards, commentary=commentary)
    if kind == "sm" and len(args) <= 1:
        shown: tuple[Card | None, ...] | None
        if not args:
            shown = None
        elif args[0] == "-":
            shown = ()
        else:
            shown = parse_phh_cards(args[0])
        return PhhAction("sm", player, cards=shown, commentary=commentary)
    raise PhhError(f"action {text!r} is not in the PHH action grammar")


def _parse_dealing(text: str, words: list[str], commentary: str | None) -> PhhAction:
    if len(words) == 3 and words[1] == "db":
        return PhhAction("db", cards=parse_phh_cards(words[2]), commentary=commentary)
    if len(words) == 4 and words[1] == "dh":
        cards = parse_phh_cards(words[3])
        return PhhAction("dh", _player_index(words[2], text), cards, commentary=commentary)
    raise PhhError(f"dealer action {text!r} is neither 'd db CARDS' nor 'd dh pN CARDS'")


def _player_index(word: str, text: str) -> int:
    match = _PLAYER.match(word)
    if match is None:
        raise PhhError(f"action {text!r}: {word!r} is not an actor (expected 'd' or 'pN')")
    return int(match.group(1)) - 1


def format_action(action: PhhAction, scale: int = 1) -> str:
    """Write one action in PHH notation (amounts divided by ``scale``)."""
    words: list[str]
    if action.kind == "noop":
        words = []
    elif action.kind == "db":
        words = ["d", "db", format_phh_cards(action.cards or ())]
    elif action.kind == "dh":
        words = ["d", "dh", f"p{_req(action.player) + 1}", format_phh_cards(action.cards or ())]
    else:
        words = [f"p{_req(action.player) + 1}", action.kind]
        if action.kind == "cbr":
            words.append(_format_amount(_req(action.amount), scale))
        elif action.kind == "sd" and action.cards:
            words.append(format_phh_cards(action.cards))
        elif action.kind == "sm" and action.cards is not None:
            words.append(format_phh_cards(action.cards) if action.cards else "-")
    if action.commentary:
        words.append(f"# {action.commentary}")
    return " ".join(words)


def _req(value: int | None) -> int:
    if value is None:
        raise PhhError("action is missing its player or amount")
    return value


# ---------------------------------------------------------------- amounts


_LARGEST = 30
"""Amounts beyond 10**30 are refused before any arithmetic (which would overflow)."""


def _decimal(value: Any, where: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PhhError(f"{where}: {value!r} is not a number")
    number = Decimal(value)
    if number.is_finite() and number.adjusted() > _LARGEST:
        raise PhhError(f"{where}: {number:.3E} is too large an amount")
    return number


def _places(value: Decimal) -> int:
    """Decimal places of ``value`` once trailing zeros go (no context arithmetic: exact)."""
    if not value.is_finite() or value.adjusted() > _LARGEST:
        return 0
    _, digits, exponent = value.as_tuple()
    if not any(digits):
        return 0  # zero, however many zeros it is written with
    places, kept = -int(exponent), list(digits)
    while places > 0 and len(kept) > 1 and kept[-1] == 0:
        kept.pop()
        places -= 1
    return max(0, places)


def _to_chips(value: Decimal, scale: int, where: str, signed: bool = False) -> int:
    if not value.is_finite():
        raise PhhError(f"{where}: {value} is not a finite amount")
    if value < 0 and not signed:
        raise PhhError(f"{where}: {value} is negative")
    return int(value * scale)


def _amount(word: str, scale: int, text: str) -> int:
    try:
        value = Decimal(word)
    except InvalidOperation:
        raise PhhError(f"action {text!r}: {word!r} is not an amount") from None
    if not value.is_finite() or value.adjusted() > _LARGEST:  # checked before any arithmetic
        raise PhhError(f"action {text!r}: {word} is not a finite amount of a sensible size")
    chips = value * scale
    if chips != chips.to_integral_value():
        raise PhhError(f"action {text!r}: {word} is finer than the file's other amounts")
    return _to_chips(value, scale, f"action {text!r}")


def _format_amount(chips: int, scale: int) -> str:
    if scale == 1:
        return str(chips)
    return format(Decimal(chips) / scale, "f")


# ---------------------------------------------------------------- reading


def loads(text: str) -> list[HandHistory]:
    """Read PHH text: one hand (``.phh``) or tables ``[1]``, ``[2]`` ... (``.phhs``).

    Raises the first hand's :class:`PhhError` when any hand breaks the standard
    (:func:`read_hands` reads the others as well).
    """
    hands = read_hands(text)
    for hand in hands:
        if isinstance(hand, PhhError):
            raise hand
    return hands  # type: ignore[return-value]  # no error, so every entry is a hand


def read_hands(text: str) -> list[HandHistory | PhhError]:
    """Every hand of PHH text in order, a :class:`PhhError` in place of each hand that breaks
    the standard (the other hands still read). Raises PhhError when the text is not TOML
    or holds no hand at all. A leading byte-order mark (Windows editors write one) is
    not part of the text."""
    try:
        raw = tomllib.loads(text.removeprefix("\ufeff"), parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per nested array or table
        raise PhhError("not valid PHH: values nested too deeply") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise PhhError("not valid PHH: a number too long to read") from None
    if "variant" in raw:
        return [_read_one(raw, "hand")]
    tables = [(key, value) for key, value in raw.items() if isinstance(value, dict)]
    if not tables:
        raise PhhError("no hand found: neither a 'variant' field nor [N] tables")
    return [_read_one(value, f"table [{key}]") for key, value in tables]


def _read_one(raw: Mapping[str, Any], where: str) -> HandHistory | PhhError:
    try:
        return _from_raw(raw, where)
    except PhhError as exc:
        return exc


def load_path(path: str | Path) -> list[HandHistory]:
    """Read a ``.phh`` or ``.phhs`` file (PhhError for the first hand that breaks the standard)."""
    return loads(_read_text(path))


def read_path(path: str | Path) -> list[HandHistory | PhhError]:
    """Every hand of a ``.phh`` or ``.phhs`` file, as :func:`read_hands` reads text."""
    return read_hands(_read_text(path))


def _read_text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PhhError(f"cannot read {path}: {exc}") from None


def _from_raw(raw: Mapping[str, Any], where: str) -> HandHistory:
    variant = raw.get("variant")
    if not isinstance(variant, str) or variant not in PHH_VARIANTS:
        raise PhhError(f"{where}: unknown variant {variant!r}; known: {', '.join(PHH_VARIANTS)}")
    for name in ("antes", "starting_stacks", "actions", *PHH_VARIANTS[variant]):
        if name not in raw:
            raise PhhError(f"{where}: variant {variant} requires the field {name!r}")
    actions_raw = raw["actions"]
    if not isinstance(actions_raw, list) or not all(isinstance(a, str) for a in actions_raw):
        raise PhhError(f"{where}: 'actions' must be an array of strings")
    scale = _scale_of(raw, actions_raw, where)

    def amounts(name: str, signed: bool = False) -> tuple[int, ...] | None:
        values = raw.get(name)
        if values is None:
            return None
        if not isinstance(values, list):
            raise PhhError(f"{where}: {name!r} must be an array")
        label = f"{where} {name}"
        return tuple(_to_chips(_decimal(v, label), scale, label, signed) for v in values)

    outcome = {name: _outcome(raw, name, scale, where) for name in _OUTCOME_FIELDS}

    def scalar(name: str) -> int | None:
        if name not in raw:
            return None
        return _to_chips(_decimal(raw[name], f"{where} {name}"), scale, f"{where} {name}")

    stacks_raw = raw["starting_stacks"]
    if not isinstance(stacks_raw, list):
        raise PhhError(f"{where}: 'starting_stacks' must be an array")
    stacks = tuple(_stack(v, scale, where) for v in stacks_raw)
    trimming = raw.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise PhhError(f"{where}: 'ante_trimming_status' must be a boolean")
    actions: list[PhhAction] = []
    for number, text in enumerate(actions_raw, start=1):
        try:
            actions.append(parse_action(text, scale))
        except PhhError as exc:
            raise PhhError(f"{where}: action {number}: {exc}", number) from None
    return HandHistory(
        variant=variant,
        antes=amounts("antes") or (),
        starting_stacks=stacks,
        actions=tuple(actions),
        blinds_or_straddles=amounts("blinds_or_straddles", signed=True),
        bring_in=scalar("bring_in"),
        small_bet=scalar("small_bet"),
        big_bet=scalar("big_bet"),
        min_bet=scalar("min_bet"),
        ante_trimming_status=trimming,
        finishing_stacks=outcome["finishing_stacks"],
        winnings=outcome["winnings"],
        scale=scale,
        fields={
            k: v
            for k, v in raw.items()
            if k not in _READ_FIELDS or (k in outcome and outcome[k] is None)
        },
    )


def _outcome(raw: Mapping[str, Any], name: str, scale: int, where: str) -> tuple[int, ...] | None:
    """An outcome field in chips, or None (kept as written in ``fields``) when it is absent,
    malformed or finer than the inputs' unit: a replay never reads it, it is only written back."""
    values = raw.get(name)
    if not isinstance(values, list):
        return None
    try:
        chips = [_decimal(v, f"{where} {name}") * scale for v in values]
    except PhhError:
        return None
    if any(not c.is_finite() or c < 0 or c != c.to_integral_value() for c in chips):
        return None
    return tuple(int(c) for c in chips)


def _stack(value: Any, scale: int, where: str) -> int | None:
    number = _decimal(value, f"{where} starting_stacks")
    if number.is_infinite() and number > 0:
        return None
    chips = _to_chips(number, scale, f"{where} starting_stacks")
    if chips <= 0:
        raise PhhError(f"{where}: starting stacks must be positive, got {value}")
    return chips


def _scale_of(raw: Mapping[str, Any], actions: Sequence[str], where: str) -> int:
    """The power of ten that makes every input amount of the hand a whole number.

    Only the inputs count (forced bets, sizes, stacks, bets): the outcome fields
    (``finishing_stacks``, ``winnings``) must not change how a hand plays, and the
    chip unit decides how an odd chip splits.
    """
    values: list[Any] = [raw.get(name) for name in _SCALAR_AMOUNTS]
    for name in ("antes", "blinds_or_straddles", "starting_stacks"):
        seq = raw.get(name)
        if isinstance(seq, list):
            values.extend(seq)
    for text in actions:
        words = text.partition("#")[0].split()
        if len(words) == 3 and words[1] == "cbr":
            try:
                values.append(Decimal(words[2]))
            except InvalidOperation:
                raise PhhError(f"{where}: action {text!r}: {words[2]!r} is not an amount") from None
    places = max((_places(v) for v in values if isinstance(v, Decimal)), default=0)
    if places > 9:
        raise PhhError(f"{where}: amounts with more than 9 decimal places are not supported")
    return int(10**places)


# ---------------------------------------------------------------- validation


def _validate(hh: HandHistory) -> None:
    n = hh.player_count
    if n < 2:
        raise PhhError(f"a hand needs at least two players, got {n}")
    per_player = {
        "antes": hh.antes,
        "blinds_or_straddles": hh.blinds_or_straddles,
        "finishing_stacks": hh.finishing_stacks,
        "winnings": hh.winnings,
    }
    for name, values in per_player.items():
        if values is not None and len(values) != n:
            raise PhhError(f"{name!r} has {len(values)} entries for {n} players")
    for number, action in enumerate(hh.actions, start=1):
        if action.player is not None and action.player >= n:
            raise PhhError(
                f"action {number} names p{action.player + 1} but the hand has {n} players", number
            )


# ---------------------------------------------------------------- writing


def dumps(hh: HandHistory) -> str:
    """Write one hand as ``.phh`` text (the fields the variant requires, then the rest)."""
    lines = [f"variant = {_toml(hh.variant)}"]
    lines.append(f"ante_trimming_status = {_toml(hh.ante_trimming_status)}")
    lines.append(f"antes = {_money_array(hh.antes, hh.scale)}")
    if hh.blinds_or_straddles is not None:
        lines.append(f"blinds_or_straddles = {_money_array(hh.blinds_or_straddles, hh.scale)}")
    for name in _SCALAR_AMOUNTS:
        value = getattr(hh, name)
        if value is not None:
            lines.append(f"{name} = {_format_amount(value, hh.scale)}")
    stacks = ", ".join(
        "inf" if s is None else _format_amount(s, hh.scale) for s in hh.starting_stacks
    )
    lines.append(f"starting_stacks = [{stacks}]")
    lines.append("actions = [")
    lines.extend(f"  {_toml(format_action(a, hh.scale))}," for a in hh.actions)
    lines.append("]")
    if hh.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_money_array(hh.finishing_stacks, hh.scale)}")
    if hh.winnings is not None:
        lines.append(f"winnings = {_money_array(hh.winnings, hh.scale)}")
    lines.extend(f"{_key(k)} = {_toml(v)}" for k, v in hh.fields.items())
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[HandHistory]) -> str:
    """Write many hands as ``.phhs`` text: tables ``[1]``, ``[2]`` ..."""
    return "\n".join(f"[{i}]\n{dumps(hh)}" for i, hh in enumerate(hands, start=1))


def _money_array(values: Iterable[int], scale: int) -> str:
    return "[" + ", ".join(_format_amount(v, scale) for v in values) + "]"


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _string(key)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _string(text: str) -> str:
    """A TOML basic string: every other character raw (UTF-8), as TOML allows, but for the
    control characters, which it allows only escaped (JSON leaves DEL raw, and escapes
    astral characters as surrogate halves, which TOML refuses)."""
    out = (
        _ESCAPES.get(ch) or (f"\\u{ord(ch):04x}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch)
        for ch in text
    )
    return '"' + "".join(out) + '"'


def _toml(value: Any) -> str:
    """A TOML literal for a value read by :func:`loads` (or any plain value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        if value.is_nan():
            return "nan"
        if value.is_infinite():
            return "inf" if value > 0 else "-inf"
        text = format(value, "f")
        return text if "." in text else text + ".0"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    # Dates and times print in TOML's own (RFC 3339) form.
    return str(value)
