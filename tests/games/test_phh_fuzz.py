"""Malformed PHH never ends in a traceback (issue 12, §2).

Real files (the reference examples and exported hands of every PHH game) are
truncated, mutated and shuffled; reading and replaying each one may only give a
result or a :class:`PhhError`. ``cardroom replay`` turns each bad hand into one
error line and goes on with the others. ``CARDROOM_PHH_FUZZ`` sets the cases per
source (default 150: a few thousand in all).
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from cardroom.bench.engine_driver import EngineDriver
from cardroom.bench.pokerkit_peer import choose
from cardroom.cli import main
from cardroom.games.config import Stakes, TableConfig
from cardroom.games.phh import PhhError, dumps, loads, read_hands
from cardroom.games.phh_replay import export, replay

CASES = int(os.environ.get("CARDROOM_PHH_FUZZ", "150"))
EXAMPLES = sorted(Path("/work/shared/references/phh-examples").glob("*.phh*"))
if not EXAMPLES:
    EXAMPLES = sorted((Path(__file__).parents[3] / "shared/references/phh-examples").glob("*.phh*"))

STUD = {"fourth_street_pair": "small", "max_raises": 3}
GAMES = {
    "holdem": TableConfig.of("holdem", Stakes.blinds(1, 2, ante=1)),
    "stud": TableConfig.of("stud", Stakes(ante=1, small_bet=4, big_bet=8, bring_in=2), **STUD),
    "triple_draw_27": TableConfig.of("triple_draw_27", Stakes.limit(4)),
    "omaha_hi_lo": TableConfig.of("omaha_hi_lo", Stakes.limit(10), structure="fixed_limit"),
}


def _exported(game: str, seed: int) -> str:
    rng = random.Random(seed)
    config = GAMES[game]
    players = rng.randint(2, min(config.seat_limit, 6 if game != "stud" else 8))
    stacks = [rng.randint(1, 300) for _ in range(players)]
    driver = EngineDriver(config, stacks, deck_seed=rng.random())
    while not driver.over:
        driver.apply(choose(driver.options(), rng))
    return dumps(export(driver.hand))


SOURCES = {p.name: p.read_text() for p in EXAMPLES} | {
    f"{game}-{seed}": _exported(game, seed) for game in GAMES for seed in range(3)
}

_ACTIONS = re.compile(r"actions = \[(.*?)\n?\]", re.S)
_CARD = re.compile(r"[2-9TJQKA][cdhs]")


def _actions(text: str) -> tuple[list[str], tuple[int, int]] | None:
    match = _ACTIONS.search(text)
    if match is None:
        return None
    items = re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))
    return items, match.span(1)


def _with_actions(text: str, items: list[str], span: tuple[int, int]) -> str:
    body = ", ".join(json.dumps(a) for a in items)
    return text[: span[0]] + body + text[span[1] :]


def _mutate_action(item: str, rng: random.Random) -> str:
    choice = rng.randrange(6)
    if choice == 0 and _CARD.search(item):  # another card, maybe one already dealt
        rank, suit = rng.choice("23456789TJQKA"), rng.choice("cdhs")
        return _CARD.sub(rank + suit, item, count=1)
    if choice == 1:  # another player
        return re.sub(r"p\d+", f"p{rng.randint(1, 9)}", item, count=1)
    if choice == 2:  # another amount
        return re.sub(r"\d+(\.\d+)?$", str(rng.choice([0, 1, 3, 10**6, -5])), item)
    if choice == 3:  # another verb
        verbs = ["f", "cc", "cbr 7", "sd", "sd ????", "sm", "sm -", "pb", "sm ????AsKs"]
        return re.sub(r"^(p\d+) \S+.*$", rf"\1 {rng.choice(verbs)}", item)
    if choice == 4:  # cards added or dropped
        return item + rng.choice(["??", "Ah", "2c3c"]) if rng.random() < 0.5 else item[:-2]
    return item[: rng.randrange(len(item) + 1)]


def _mutate(text: str, rng: random.Random) -> str:
    parsed = _actions(text)
    kind = rng.randrange(7)
    if kind == 0 or parsed is None:  # cut the text anywhere
        return text[: rng.randrange(len(text) + 1)]
    items, span = parsed
    if not items:
        return text
    i = rng.randrange(len(items))
    if kind == 1:  # stop after any action
        items = items[:i]
    elif kind == 2:  # shuffle a stretch of actions
        j = rng.randrange(i, len(items)) + 1
        stretch = items[i:j]
        rng.shuffle(stretch)
        items[i:j] = stretch
    elif kind == 3:
        items[i] = _mutate_action(items[i], rng)
    elif kind == 4:  # drop or repeat an action
        items[i : i + 1] = [] if rng.random() < 0.5 else [items[i], items[i]]
    elif kind == 5:  # change a number of the header
        header = text[: span[0]]
        numbers = list(re.finditer(r"\d+(\.\d+)?", header))
        if numbers:
            m = rng.choice(numbers)
            new = str(rng.choice([0, 1, 2, -1, 10**12, "0.5", "inf"]))
            return header[: m.start()] + new + header[m.end() :] + text[span[0] :]
    else:  # several mutations at once
        for _ in range(3):
            k = rng.randrange(len(items))
            items[k] = _mutate_action(items[k], rng)
    return _with_actions(text, items, span)


def _outcome(text: str) -> str:
    """'ok', 'unfinished' or 'error': any other exception fails the test."""
    try:
        hands = read_hands(text)
    except PhhError:
        return "error"
    out = "ok"
    for hh in hands:
        if isinstance(hh, PhhError):
            out = "error"
            continue
        try:
            done = replay(hh)
        except PhhError as exc:
            assert exc.action is None or 1 <= exc.action <= len(hh.actions), exc
            out = "error"
            continue
        if not done.finished:
            out = "unfinished" if out == "ok" else out
    return out


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_mutated_files_give_a_result_or_a_phh_error(name: str) -> None:
    rng = random.Random(name)
    text = SOURCES[name]
    assert _outcome(text) == "ok"
    seen = {_outcome(_mutate(text, rng)) for _ in range(CASES)}
    assert "error" in seen  # the mutations do break files


def test_a_stud_file_that_deals_more_cards_than_the_deck_holds_is_an_error() -> None:
    """Eight all-in players dealt seven cards each: 56 cards (the engine deals a community
    card instead). Once an IndexError in the card search; now an error naming a deal."""
    players = range(1, 9)
    actions = [f'"d dh p{p} ??????"' for p in players]
    actions += [f'"d dh p{p} ??"' for _ in range(4) for p in players]
    text = (
        'variant = "F7S"\nante_trimming_status = true\nantes = [2, 2, 2, 2, 2, 2, 2, 2]\n'
        "bring_in = 1\nsmall_bet = 2\n"
        "big_bet = 4\nstarting_stacks = [1, 1, 1, 1, 1, 1, 1, 1]\n"
        f"actions = [{', '.join(actions)}]\n"
    )
    (hh,) = loads(text)
    with pytest.raises(PhhError, match="dealt") as caught:
        replay(hh)
    assert caught.value.action is not None and caught.value.action > 8


def test_cli_reports_each_bad_hand_on_one_line_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = SOURCES["holdem-0"]
    items, span = _actions(good) or ([], (0, 0))
    bad_hand = _with_actions(good, [items[0], "p1 zz", *items[1:]], span)
    cut = _with_actions(good, items[: len(items) // 2], span)
    many = tmp_path / "many.phhs"
    many.write_text(f"[1]\n{bad_hand}\n[2]\n{good}\n[3]\nvariant = 7\n[4]\n{cut}")
    other = tmp_path / "other.phh"
    other.write_text(good)
    assert main(["replay", str(many), str(tmp_path / "gone.phh"), str(other), "--json"]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(x["file"][-9:], x["index"]) for x in lines] == [
        ("many.phhs", 1),
        ("many.phhs", 2),
        ("many.phhs", 3),
        ("many.phhs", 4),
        ("/gone.phh", None),
        ("other.phh", 1),
    ]
    first, second, third, fourth, gone, last = lines
    assert first["action"] == 2 and "p1 zz" in first["error"]
    assert second["finishing_stacks"] == last["finishing_stacks"] is not None
    assert "error" not in second and "error" not in last
    assert third["action"] is None and "unknown variant" in third["error"]
    assert fourth["finishing_stacks"] is None and "unfinished" in fourth
    assert fourth["unfinished"]["pot"] > 0
    assert "cannot read" in gone["error"]
    assert main(["replay", str(other), "--json"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as usage:
        main(["replay"])
    assert usage.value.code == 2


def test_exported_sources_round_trip() -> None:
    for name, text in SOURCES.items():
        if "-" in name and not name.endswith(".phh"):
            hh = loads(text)[0]
            assert loads(dumps(hh))[0] == hh


@pytest.mark.parametrize(
    "amount", ["sNaN", "nan", "inf", "1e999999999", "1e-999999999", "0x10", "-0", "1e40"]
)
def test_odd_amounts_are_phh_errors_or_plain_numbers(amount: str) -> None:
    text = (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        "starting_stacks = [200, 200]\n"
        f'actions = ["d dh p1 AsKs", "d dh p2 ????", "p2 cbr {amount}"]\n'
    )
    with pytest.raises(PhhError):
        replay(loads(text)[0])
    huge = text.replace("[200, 200]", f"[200, {amount}]").replace(f"cbr {amount}", "cc")
    assert _outcome(huge) in ("error", "unfinished")  # as a stack: refused, or 16 (0x10)


def test_deeply_nested_toml_is_an_error_line_and_the_next_file_still_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # tomllib recurses once per nested array: 500 levels overflow the stack.
    deep = tmp_path / "deep.phh"
    deep.write_text('variant = "NT"\nx = ' + "[" * 5000 + "]" * 5000 + "\n")
    good = tmp_path / "good.phh"
    good.write_text(SOURCES["holdem-0"])
    assert main(["replay", str(deep), str(good), "--json"]) == 1
    first, second = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert "nested too deeply" in first["error"]
    assert second["finishing_stacks"] is not None


def test_an_integer_too_long_for_python_is_an_error_line_and_the_next_file_still_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Python refuses to read an integer of more than 4,300 digits (a ValueError from
    # inside tomllib, once a traceback); the file is refused and the next one replayed.
    long = tmp_path / "long.phh"
    long.write_text(
        SOURCES["holdem-0"].replace(
            "starting_stacks = [", "x = " + "9" * 5000 + "\nstarting_stacks = [", 1
        )
    )
    good = tmp_path / "good.phh"
    good.write_text(SOURCES["holdem-0"])
    assert main(["replay", str(long), str(good), "--json"]) == 1
    first, second = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert first["error"] == "not valid PHH: a number too long to read"
    assert second["finishing_stacks"] is not None


def test_an_error_quotes_a_hostile_file_s_words_only_in_part() -> None:
    # A stack of 4,000 digits and an amount word of 100,000 are refused with a message of
    # bounded size, not echoed whole.
    text = SOURCES["holdem-0"]
    for bad in (
        text.replace("starting_stacks = [", "starting_stacks = [" + "9" * 4000 + ", ", 1),
        text.replace("actions = [", 'actions = ["p3 cbr ' + "9" * 100_000 + '",', 1),
    ):
        with pytest.raises(PhhError) as caught:
            replay(loads(bad)[0])
        assert len(str(caught.value)) < 500
