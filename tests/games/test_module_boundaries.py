"""The engine's shape (issue 12 §3–§4): modules talk through public names, files stay
small, and each decision is written in one place."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardroom
from cardroom.cards import CARDS, SHORT_DECK_CARDS
from cardroom.games.config import Stakes, TableConfig
from cardroom.games.dealing import needed_cards
from cardroom.games.hand import Hand
from cardroom.games.variants import DECK_CARDS, VARIANTS

SRC = Path(cardroom.__file__).parent
GAMES = SRC / "games"
MOST_LINES = 600


def _defined_in_class(cls: ast.ClassDef) -> set[str]:
    """Every name a class defines for itself: methods, class attributes, slots and the
    attributes its methods set on ``self``."""
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and isinstance(node.ctx, ast.Store)
        ):
            names.add(node.attr)
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            names.update(
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            )
    return names


def foreign_private_names(source: str) -> list[str]:
    """Where ``source`` reads or writes an underscored name that is not its own.

    ``x._name`` counts unless ``x`` is ``self``/``cls``, or the access sits in the
    class that defines ``_name`` and ``x`` is surely another instance of it: a parameter
    annotated with the class, a name checked with ``isinstance(x, A)``, or a name bound
    to the class's constructor (``A(...)``, ``cls(...)``, ``object.__new__(cls)``).
    ``from m import _name``, ``getattr(x, "_name")`` and ``vars(x)["_name"]`` count.

    >>> foreign_private_names("def f(hand):\\n    return hand._deck\\n")
    ['line 2: hand._deck']
    >>> own = "class A:\\n    _n = 1\\n    def eq(self, o: A):\\n        return o._n\\n"
    >>> foreign_private_names(own)
    []
    >>> other = "class A:\\n    _n = 1\\n    def f(self, hand):\\n        hand._n = 2\\n"
    >>> foreign_private_names(other)
    ['line 4: hand._n']
    """
    tree = ast.parse(source)
    own: dict[ast.AST, tuple[set[str], set[str]]] = {}  # node -> (names, same-class names)
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            names = _defined_in_class(cls)
            for method in cls.body:
                if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                    mine = _instances_of(cls.name, method)
                    for node in ast.walk(method):
                        own[node] = (names, mine)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            names, mine = own.get(node, (set(), set()))
            if isinstance(owner, ast.Name) and owner.id in mine and node.attr in names:
                continue
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Call | ast.Attribute)
            and _is_vars(node.value)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
            and _private(node.slice.value)
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom):
            found.extend(
                f"line {node.lineno}: from {node.module} import {alias.name}"
                for alias in node.names
                if _private(alias.name)
            )
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _instances_of(cls: str, method: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names in ``method`` that surely hold an instance of class ``cls``."""
    names = {
        a.arg
        for a in [*method.args.posonlyargs, *method.args.args, *method.args.kwonlyargs]
        if a.annotation is not None
        and ast.unparse(a.annotation).strip("'\"") in (cls, "Self", "typing.Self")
    }
    for node in ast.walk(method):
        if (  # isinstance(x, cls) narrows x
            isinstance(node, ast.Call)
            and ast.unparse(node.func) == "isinstance"
            and len(node.args) == 2
            and isinstance(node.args[0], ast.Name)
            and ast.unparse(node.args[1]) == cls
        ):
            names.add(node.args[0].id)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            made = ast.unparse(node.value.func)
            if made in (cls, "cls", "type(self)", "object.__new__"):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _is_vars(node: ast.expr) -> bool:
    """``vars(x)`` or ``x.__dict__``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "__dict__"
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_touches_another_modules_underscored_names() -> None:
    offences = {
        str(path.relative_to(SRC)): found
        for path in sorted(SRC.rglob("*.py"))
        if (found := foreign_private_names(path.read_text()))
    }
    assert offences == {}


def test_the_scan_catches_what_the_family_rules_used_to_do() -> None:
    # stud_play and draw_play once wrote the hand's fields and called its methods.
    source = (
        "def deal(hand):\n"
        "    hand._deck = []\n"
        "    hand._open_round(1)\n"
        "    return hand._hole[0]\n"
        "from cardroom.games.hand import _secret\n"
        "x = getattr(hand, '_cur')\n"
        "y = vars(hand)['_deck']\n"
        "class StudPlay:\n"
        "    def __init__(self):\n"
        "        self._deck = []\n"
        "    def deal(self, hand):\n"
        "        hand._deck = []\n"  # its own name, but another object's field
    )
    assert len(foreign_private_names(source)) == 7


def test_every_source_file_is_under_600_lines() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in sorted(SRC.rglob("*.py"))
        if (n := len(p.read_text().splitlines())) >= MOST_LINES
    }
    assert long == {}


# ------------------------------------------------------------------ one deck decision


def test_a_games_deck_is_decided_in_one_place() -> None:
    assert DECK_CARDS == {"standard": CARDS, "short": SHORT_DECK_CARDS}
    for variant in VARIANTS.values():
        assert variant.cards is DECK_CARDS[variant.deck]
    # Nobody else in the engine picks a deck by name or counts its cards.
    for path in sorted(GAMES.glob("*.py")):
        if path.name == "variants.py":
            continue
        text = path.read_text()
        assert "SHORT_DECK_CARDS" not in text, path.name
        assert 'deck == "short"' not in text, path.name


@pytest.mark.parametrize("game", ["short_deck", "holdem", "stud"])
def test_the_hand_deals_from_its_games_deck(game: str) -> None:
    stakes = Stakes.short_deck(1) if game == "short_deck" else Stakes.limit(2)
    config = TableConfig.of(game, stakes)
    hand = Hand(config, [100] * 6, 0, seed=3)
    dealt = {c for s in range(6) for c in hand.hole_cards(s)}
    assert dealt <= set(config.variant.cards)
    assert needed_cards(config, 8) <= len(config.variant.cards)


def test_no_code_bent_for_a_compiled_build_comes_back() -> None:
    # Issue 11 §4: the mypyc build went, and with it hand-written __init__s of
    # object.__setattr__ lines; plain dataclasses are the engine's objects.
    root = SRC.parents[1]
    assert not (root / "setup.py").exists()
    assert "mypyc" not in (root / "pyproject.toml").read_text()
    setattr_users = {
        str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if "object.__setattr__(" in p.read_text()
    }
    assert setattr_users <= {"games/actions.py", "ledger/accounts.py"}  # a frozen field normalised
