"""What ``cardroom play`` prints: a table as one seat sees it, drawn from ``hand.view(seat)`` only.

Every function here reads the JSON-able view the engine gives a seat (or a
spectator), never the hand itself, so nothing hidden can leak to the screen:
another player's down card is ``None`` in the view and ``??`` here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

View = dict[str, Any]
Namer = Callable[[Sequence[str], Sequence[str]], str | None]
"""(hole cards, board) -> the name of the hand they make (None: none qualifies)."""


def cards_text(cards: Sequence[str | None]) -> str:
    """Cards as the seat sees them: ``??`` for a card face down to it."""
    return " ".join(c or "??" for c in cards) or "-"


def seat_status(seat: dict[str, Any] | None, actor: int | None, number: int) -> str:
    """A seat's status word: busted, folded, all-in, to act or in the hand."""
    if seat is None:
        return "busted"
    if not seat["in_hand"]:
        return "folded"
    if seat["all_in"]:
        return "all-in"
    return "to act" if actor == number else "in hand"


def seat_line(view: View, number: int) -> str:
    """One line of the table: who, status, stack, chips in front, cards."""
    seat = view["seats"][number]
    who = f"seat {number}" + (" (you)" if view["you"] == number else "")
    if view["button"] == number:
        who += " [button]"
    status = seat_status(seat, view["actor"], number)
    if seat is None:
        return f"  {who:<22} {status}"
    cards = cards_text(seat["cards"]) if seat["in_hand"] else ""
    bet = f"  bet {seat['bet']}" if seat["bet"] else ""
    return f"  {who:<22} {status:<8} stack {seat['stack']:>5}{bet}  {cards}".rstrip()


def pots_line(view: View) -> str:
    """The pot and every side pot, with who can win each, and the bets not yet in a pot."""
    parts = []
    for index, pot in enumerate(view["pots"]):
        name = "pot" if index == 0 else f"side pot {index}"
        seats = ", ".join(str(s) for s in sorted(pot["eligible"]))
        parts.append(f"{name} {pot['amount']} (seats {seats})")
    bets = sum(s["bet"] for s in view["seats"] if s is not None)
    if bets:
        parts.append(f"bets this round {bets}")
    return "  " + (" | ".join(parts) if parts else "pot 0")


def street_line(view: View) -> str:
    """The street marker: ``*** flop ***`` and the board so far."""
    board = f"  board: {cards_text(view['board'])}" if view["board"] else ""
    return f"*** {view['street']} ***{board}"


def table_lines(view: View) -> list[str]:
    """The whole table: every seat, then the pots."""
    return [seat_line(view, n) for n in range(len(view["seats"]))] + [pots_line(view)]


def legal_text(legal: dict[str, Any]) -> str:
    """The legal actions in the words ``play`` accepts (``fold``, ``call 2``, ``raise 4..200``)."""
    parts = []
    for kind in legal["actions"]:
        if kind == "call":
            parts.append(f"call {legal['call']}")
        elif kind == "raise":
            low, high = legal["min_raise_to"], legal["max_raise_to"]
            verb = "bet" if legal.get("call") is None and not legal.get("bring_in") else "raise"
            parts.append(f"{verb} {low}" if low == high else f"{verb} {low}..{high}")
        elif kind == "bring_in":
            parts.append(f"bring_in {legal['bring_in']}")
        elif kind == "draw" and legal.get("draw_min"):  # a discard street: exactly so many
            parts.append(f"draw CARDS (discard exactly {legal['draw']}, none dealt)")
        elif kind == "draw":
            parts.append(f"draw CARDS (up to {legal['draw']}; 'draw' alone stands pat)")
        else:
            parts.append(kind)
    return ", ".join(parts)


def showdown_lines(view: View, name_hand: Namer | None) -> list[str]:
    """Cards shown at showdown, the hand each made, who won what and the stacks after."""
    result = view.get("result")
    if result is None:
        return []
    lines = []
    seats = [s for s in view["seats"] if s is not None]
    live = [s for s in seats if s["in_hand"]]
    if len(live) > 1:
        board = f"  board: {cards_text(view['board'])}" if view["board"] else ""
        lines.append(f"*** showdown ***{board}")
        for seat in live:
            if seat["cards"] and all(seat["cards"]):
                made = name_hand(seat["cards"], view["board"]) if name_hand else None
                shown = f"  seat {seat['seat']} shows {cards_text(seat['cards'])}"
                lines.append(shown + (f": {made}" if made else ""))
            else:
                lines.append(f"  seat {seat['seat']} does not show")
    for index, pot in enumerate(result["pots"]):
        name = "the pot" if index == 0 else f"side pot {index}"
        for award in pot["awards"]:
            named = f" with {award['hand']}" if award["hand"] else ""
            lines.append(f"  seat {award['seat']} wins {award['amount']} from {name}{named}")
    lines.append("  stacks: " + stacks_text(result["stacks"]))
    return lines


def stacks_text(stacks: Sequence[int | None]) -> str:
    """Every seat's stack; a seat with no chips left is shown as busted."""
    return ", ".join(
        f"seat {n} {stack}" if stack else f"seat {n} busted" for n, stack in enumerate(stacks)
    )
