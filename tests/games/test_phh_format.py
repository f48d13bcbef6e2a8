"""The PHH text format: reading, writing and the errors for bad input."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from cardroom.cards import Card
from cardroom.games.phh import (
    HandHistory,
    PhhAction,
    PhhError,
    dumps,
    dumps_all,
    format_action,
    load_path,
    loads,
    parse_action,
)

EXAMPLES = sorted(Path("/work/shared/references/phh-examples").glob("*.phh*"))
if not EXAMPLES:  # the references live beside the repository
    EXAMPLES = sorted((Path(__file__).parents[3] / "shared/references/phh-examples").glob("*.phh*"))

NT_HEADER = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
"""


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d dh p1 AsKs", PhhAction("dh", 0, (c("As"), c("Ks")))),
        ("d dh p3 ????", PhhAction("dh", 2, (None, None))),
        ("d db 9h6cKc", PhhAction("db", None, (c("9h"), c("6c"), c("Kc")))),
        ("p2 cbr 300", PhhAction("cbr", 1, amount=300)),
        ("p2 cc", PhhAction("cc", 1)),
        ("p10 f", PhhAction("f", 9)),
        ("p1 pb", PhhAction("pb", 0)),
        ("p1 sd", PhhAction("sd", 0, ())),
        ("p1 sd ??Qh", PhhAction("sd", 0, (None, c("Qh")))),
        ("p1 sm", PhhAction("sm", 0, None)),
        ("p1 sm -", PhhAction("sm", 0, ())),
        ("p1 sm ??Ad", PhhAction("sm", 0, (None, c("Ad")))),
        ("  p1   cc   # slow call  ", PhhAction("cc", 0, commentary="slow call")),
        ("# Burn card 6s is exposed", PhhAction("noop", commentary="Burn card 6s is exposed")),
        ("", PhhAction("noop")),
    ],
)
def test_every_action_of_the_grammar_parses_and_writes_back(text: str, expected: PhhAction) -> None:
    action = parse_action(text)
    assert action == expected
    assert parse_action(format_action(action)) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("p1 raise 300", "grammar"),
        ("x1 cc", "actor"),
        ("p0 cc", "actor"),
        ("d dh p1 AsK", "two characters"),
        ("d dh p1 AsXx", "rank"),
        ("d db", "dealer action"),
        ("p1 cbr lots", "amount"),
        ("p1 cbr -5", "negative"),
        # An amount finer than the chip unit is refused, not cut to whole chips (phh P20).
        ("p1 cbr 1.5", "finer"),
        # A bet is one amount: a second word is no part of the grammar (phh P21).
        ("p1 cbr 300 400", "grammar"),
    ],
)
def test_bad_actions_are_rejected_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(PhhError, match=reason):
        parse_action(text)


def test_a_hand_reads_its_fields_in_chips() -> None:
    hh = loads(NT_HEADER + 'actions = ["d dh p1 AsKs", "p3 cbr 6"]\nplayers = ["a", "b", "c"]')[0]
    assert hh.variant == "NT"
    assert hh.blinds_or_straddles == (1, 2, 0)
    assert hh.min_bet == 2 and hh.small_bet is None
    assert hh.starting_stacks == (100, 100, 100)
    assert hh.player_count == 3 and hh.scale == 1
    assert hh.actions[1] == PhhAction("cbr", 2, amount=6)
    assert hh.fields == {"players": ["a", "b", "c"]}


def test_fractional_amounts_are_scaled_to_whole_chips() -> None:
    text = NT_HEADER.replace("[100, 100, 100]", "[100.25, 100, 99.5]") + 'actions = ["p3 cbr 6.5"]'
    hh = loads(text)[0]
    assert hh.scale == 100
    assert hh.starting_stacks == (10025, 10000, 9950)
    assert hh.blinds_or_straddles == (100, 200, 0)
    assert hh.actions[0].amount == 650
    again = loads(dumps(hh))[0]
    assert again == hh
    assert "100.25" in dumps(hh) and "p3 cbr 6.5" in dumps(hh)


def test_unknown_stacks_read_as_none_and_write_as_inf() -> None:
    hh = loads(NT_HEADER.replace("[100, 100, 100]", "[inf, 100, 100]") + "actions = []")[0]
    assert hh.starting_stacks == (None, 100, 100)
    assert "starting_stacks = [inf, 100, 100]" in dumps(hh)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('variant = "XX"\nantes=[0,0]\nstarting_stacks=[1,1]\nactions=[]', "unknown variant"),
        (NT_HEADER.replace("min_bet = 2\n", "") + "actions = []", "requires the field 'min_bet'"),
        (
            NT_HEADER.replace("antes = [0, 0, 0]", "antes = [0, 0]") + "actions = []",
            "'antes' has 2",
        ),
        (NT_HEADER.replace("[100, 100, 100]", "[100, 0, 100]") + "actions = []", "positive"),
        (NT_HEADER + 'actions = ["p4 cc"]', "p4 but the hand has 3"),
        (NT_HEADER + "actions = [1]", "array of strings"),
        (NT_HEADER + 'actions = ["p1 cbr 1.5"]', None),  # scales, not an error
        ("variant = ", "not valid TOML"),
        ("x = 1", "no hand found"),
        (NT_HEADER.replace("[100, 100, 100]", "[100, 100, 100, 100]") + "actions = []", "entries"),
    ],
)
def test_bad_files_raise_one_error_type_with_a_reason(text: str, reason: str | None) -> None:
    if reason is None:
        assert loads(text)[0].scale == 10
        return
    with pytest.raises(PhhError, match=reason):
        loads(text)


def test_phhs_holds_many_hands_in_numbered_tables() -> None:
    one = loads(NT_HEADER + 'actions = ["d dh p1 AsKs"]')[0]
    two = loads(NT_HEADER + 'actions = ["p3 f", "p1 f"]')[0]
    text = dumps_all([one, two])
    assert text.startswith("[1]\n") and "\n[2]\n" in text
    assert loads(text) == [one, two]


def test_a_byte_order_mark_before_the_text_is_read_past(tmp_path: Path) -> None:
    # Editors on Windows save UTF-8 with a byte-order mark; it is not part of the TOML.
    text = NT_HEADER + 'actions = ["d dh p1 AsKs"]'
    path = tmp_path / "bom.phh"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_path(path) == loads("\ufeff" + text) == loads(text)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_file_writes_back_to_the_same_record(path: Path) -> None:
    (hh,) = load_path(path)
    again = loads(dumps(hh))[0]
    assert again == hh
    assert dict(again.fields) == dict(hh.fields)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_read_like_pokerkit_reads_them(path: Path) -> None:
    import pokerkit

    with path.open("rb") as fp:
        theirs = pokerkit.HandHistory.load(fp)
    (ours,) = load_path(path)
    assert ours.variant == theirs.variant
    assert [Decimal(s) / ours.scale for s in ours.starting_stacks if s is not None] == [
        Decimal(str(s)) for s in theirs.starting_stacks
    ]
    assert [Decimal(a) / ours.scale for a in ours.antes] == [Decimal(str(a)) for a in theirs.antes]
    assert len(ours.actions) == len(theirs.actions)
    dealt = [a for a in ours.actions if a.kind in ("dh", "db")]
    assert [a.cards for a in dealt] == [
        tuple(None if repr(x) == "??" else c(repr(x)) for x in _cards(t))
        for t in theirs.actions
        if t.startswith("d ")
    ]


def _cards(action: str) -> tuple[object, ...]:
    from pokerkit import Card as PkCard

    return tuple(PkCard.parse(action.split("#")[0].split()[-1]))


def test_records_compare_by_value() -> None:
    a = HandHistory("NT", (0, 0), (10, 10), (), blinds_or_straddles=(1, 2), min_bet=2)
    b = HandHistory("NT", (0, 0), (10, 10), (), blinds_or_straddles=(1, 2), min_bet=2)
    assert a == b
    with pytest.raises(PhhError, match="at least two players"):
        HandHistory("NT", (0,), (10,), (), blinds_or_straddles=(1,), min_bet=2)


def test_any_text_read_writes_back_as_toml_both_readers_read() -> None:
    # TOML escapes what it cannot hold raw (DEL, the other control characters) and takes
    # \u escapes of Unicode scalars only (no surrogate halves); a float may be nan.
    text = NT_HEADER + (
        'actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f # a\\u007fb\\u0001",'
        ' "p1 f"]\n'
        'players = ["Jürgen\\u007f", "李明 😀", "\\\\ \\" \\t"]\n'
        '"_😀 key" = 1\n_odd = {"ü\\u007f" = nan, a = [-inf, 2.50]}\n'
    )
    (hh,) = loads(text)
    written = dumps(hh)
    again = loads(written)[0]
    assert again == hh
    assert repr(dict(again.fields)) == repr(dict(hh.fields))  # repr: nan != nan
    import pokerkit

    theirs = pokerkit.HandHistory.loads(written)
    assert theirs.players == ["Jürgen\x7f", "李明 😀", '\\ " \t']


# ---------------------------------------------------------------- mutation audit (phh)


def test_a_negative_infinite_starting_stack_is_refused_not_read_as_unknown() -> None:
    """The standard's ``inf`` is an unknown stack; ``-inf`` is no stack at all (phh P8)."""
    text = NT_HEADER.replace("[100, 100, 100]", "[-inf, 100, 100]") + "actions = []"
    with pytest.raises(PhhError, match="finite"):
        loads(text)


def test_amounts_finer_than_nine_decimal_places_are_refused_with_the_reason() -> None:
    """The chip unit is at most 10**-9 (a nano-unit), so a 10-place amount is refused,
    not scaled by 10**10 (phh P12); 9 places still read."""
    nine = NT_HEADER.replace("[100, 100, 100]", "[100.000000001, 100, 100]") + "actions = []"
    assert loads(nine)[0].scale == 10**9
    ten = NT_HEADER.replace("[100, 100, 100]", "[100.0000000001, 100, 100]") + "actions = []"
    with pytest.raises(PhhError, match="more than 9 decimal places"):
        loads(ten)


def test_a_negative_finishing_stack_is_not_read_as_chips_but_kept_as_written() -> None:
    """optional.rst: ``finishing_stacks`` are non-negative. A negative one is no outcome the
    record can hold (phh P19): it stays in ``fields`` and is written back as read."""
    text = NT_HEADER + "actions = []\nfinishing_stacks = [-5, 100, 100]\n"
    hh = loads(text)[0]
    assert hh.finishing_stacks is None
    assert "finishing_stacks = [-5, 100, 100]" in dumps(hh)
