"""PHH hands through the engine: import (replay) and export.

Import builds an engine :class:`~cardroom.games.hand.Hand` from a
:class:`~cardroom.games.phh.HandHistory` (table configuration from
:mod:`cardroom.games.phh_variants`, PHH ``pN`` in seat ``N - 1``, the button
last) with a prearranged deck holding the file's cards in the engine's dealing
order, then applies every player action. The finishing stacks are the
engine's; the file's ``finishing_stacks`` are never read.

Unknown cards (``??``) are filled with cards the file never mentions. A hand
that a player mucked (or never showed) must not be won by the filler cards, so
the fill is retried with other cards until no mucked hand wins a chip.

Export writes any engine hand whose table PHH can describe back to a record
that re-imports to the same result.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from cardroom.cards import CARDS, SHORT_DECK_CARDS, Card
from cardroom.games import events as ev
from cardroom.games.actions import CALL, CHECK, FOLD, RAISE, Action
from cardroom.games.config import TableConfig
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.hand import Hand
from cardroom.games.phh import HandHistory, PhhAction, PhhError
from cardroom.games.phh_variants import button_seat, phh_code_of, table_config
from cardroom.games.variants import BUTTON_BLIND, FIXED_LIMIT

__all__ = ["Replay", "build_deck", "export", "replay"]

UNKNOWN_STACK = 10**15
"""Chips given to a player whose stack the file does not know (``inf``)."""

_FILL_ATTEMPTS = 400
"""How many refills of a never-shown hand to try before keeping the last."""


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed hand: the engine hand and the finishing stacks in PHH player order.

    ``finishing_stacks`` are the engine's stacks after the last action (the
    pots settled when the hand is over); ``None`` for an unknown stack.
    """

    history: HandHistory
    hand: Hand

    @property
    def finishing_stacks(self) -> tuple[int | None, ...]:
        """Stacks by PHH player, from the engine."""
        stacks = self.hand.stacks
        return tuple(
            None if start is None else stacks[i]
            for i, start in enumerate(self.history.starting_stacks)
        )


def replay(hh: HandHistory) -> Replay:
    """Replay ``hh`` through the engine; PhhError or IllegalAction says where it breaks."""
    config = table_config(hh)
    hand = _play(hh, config, build_deck(hh, config))
    if hand.is_over and _hidden_slots(hh):
        hand = _losing_fill(hh, config, hand)
    return Replay(hh, hand)


def _play(hh: HandHistory, config: TableConfig, deck: list[Card]) -> Hand:
    stacks = [UNKNOWN_STACK if s is None else s for s in hh.starting_stacks]
    try:
        hand = Hand(config, stacks, button_seat(hh.player_count), deck)
    except ConfigError as exc:
        raise PhhError(f"cannot start the hand: {exc}") from None
    board: list[Card | None] = []
    hole: dict[int, list[Card | None]] = {}
    for number, action in enumerate(hh.actions, start=1):
        try:
            _apply(hand, action, board, hole)
        except (IllegalAction, PhhError) as exc:
            raise type(exc)(f"action {number} ({_describe(action)}): {exc}") from None
    return hand


def _apply(
    hand: Hand, action: PhhAction, board: list[Card | None], hole: dict[int, list[Card | None]]
) -> None:
    kind, seat = action.kind, action.player
    if kind == "db":
        board.extend(action.cards or ())
        _check_dealt(board, hand.board, "board")
    elif kind == "dh":
        assert seat is not None
        hole.setdefault(seat, []).extend(action.cards or ())
        _check_dealt(hole[seat], hand.hole_cards(seat), f"p{seat + 1}'s hole")
    elif kind in ("cc", "f", "cbr"):
        assert seat is not None
        if hand.actor != seat:
            who = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
            raise IllegalAction(f"p{seat + 1} acts but it is {who}'s turn")
        if kind == "f":
            hand.apply(Action(seat, FOLD))
        elif kind == "cbr":
            hand.apply(Action(seat, RAISE, action.amount or 0))
        else:
            hand.apply(Action(seat, CHECK if hand.legal_actions(seat).check else CALL))
    elif kind in ("pb", "sd"):
        raise PhhError(f"action {kind!r} is not replayable in {hand.config.variant.title}")
    # "sm" (the engine shows down by itself; the shown cards are in the deck) and no-ops.


def _check_dealt(phh: Sequence[Card | None], engine: Sequence[Card], what: str) -> None:
    if len(engine) < len(phh):
        raise PhhError(f"the file deals the {what} cards before the engine deals them")
    for mine, theirs in zip(phh, engine, strict=False):
        if mine is not None and mine != theirs:
            raise PhhError(f"the file's {what} cards {list(phh)} are not dealt in that order")


def _describe(action: PhhAction) -> str:
    from cardroom.games.phh import format_action

    return format_action(action)


# ------------------------------------------------------------------ the deck


def build_deck(
    hh: HandHistory, config: TableConfig, fixed: Mapping[int, Card] | None = None
) -> list[Card]:
    """The prearranged deck that deals the file's cards in the engine's dealing order.

    Consecutive hole dealings form one street's deal, given out one card at a
    time round the table; board cards follow in order (the PHH tables play
    without burns). Cards shown at showdown fill that player's unknown slots;
    ``fixed`` (deck index to card) fills others; the remaining unknown cards
    are the unused cards in order, and the rest of the deck follows.
    """
    universe = SHORT_DECK_CARDS if config.variant.deck == "short" else CARDS
    slots = _reveal(hh, _deal_order(hh))
    for index, card in (fixed or {}).items():
        slots[index] = card
    known = {c for c in slots if c is not None}
    stray = [c for c in known if c not in universe]
    if stray:
        raise PhhError(f"cards {stray} are not in the {config.variant.title} deck")
    spares = iter([c for c in universe if c not in known])
    deck = [c if c is not None else next(spares) for c in slots]
    if len(set(deck)) != len(deck):
        raise PhhError("the file deals the same card twice")
    return deck + list(spares)


def _deal_order(hh: HandHistory) -> list[Card | None]:
    order: list[Card | None] = []
    for group, board in _dealings(hh):
        order.extend(_round_robin([a.cards or () for a in group]))
        order.extend(board)
    return order


def _dealings(hh: HandHistory) -> Iterator[tuple[list[PhhAction], tuple[Card | None, ...]]]:
    """The file's deals in order: each run of hole dealings (one street), or one board deal."""
    group: list[PhhAction] = []
    for action in hh.actions:
        if action.kind == "noop":
            continue  # commentary does not break a street's deal
        if action.kind == "dh":
            group.append(action)
            continue
        if group:
            yield group, ()
            group = []
        if action.kind == "db":
            yield [], action.cards or ()
    if group:
        yield group, ()


def _round_robin(hands: Sequence[Sequence[Card | None]]) -> Iterator[Card | None]:
    for r in range(max((len(h) for h in hands), default=0)):
        for cards in hands:
            if r < len(cards):
                yield cards[r]


def _hole_positions(hh: HandHistory) -> dict[int, list[int]]:
    """Each player's hole cards, in dealing order, as indices of the deck."""
    positions: dict[int, list[int]] = {}
    index = 0
    for group, board in _dealings(hh):
        per = [len(a.cards or ()) for a in group]
        for r in range(max(per, default=0)):
            for a, count in zip(group, per, strict=True):
                if r < count:
                    positions.setdefault(a.player or 0, []).append(index)
                    index += 1
        index += len(board)
    return positions


def _reveal(hh: HandHistory, slots: list[Card | None]) -> list[Card | None]:
    """Put cards shown at showdown into the slots where that player's unknown cards were dealt."""
    out = list(slots)
    positions = _hole_positions(hh)
    for a in hh.actions:
        if a.kind == "sm" and a.player is not None and a.cards:
            for slot, card in zip(positions.get(a.player, ()), a.cards, strict=False):
                if card is not None and out[slot] is None:
                    out[slot] = card
    return out


# ------------------------------------------------------------------ mucked hands


def _hidden_slots(hh: HandHistory) -> dict[int, list[int]]:
    """Deck indices of the unknown cards of every player who never showed them."""
    slots = _reveal(hh, _deal_order(hh))
    return {
        player: hidden
        for player, positions in _hole_positions(hh).items()
        if (hidden := [i for i in positions if slots[i] is None])
    }


def _won(hand: Hand, seat: int) -> bool:
    return any(isinstance(e, ev.PotAwarded) and e.seat == seat and e.hand for e in hand.events)


def _losing_fill(hh: HandHistory, config: TableConfig, hand: Hand) -> Hand:
    """Refill unknown cards of hands never shown until none of them wins a chip.

    PHH (like PokerKit) gives nothing to a hand that was mucked or never
    shown; the engine's cards speak, so such hands get the weakest cards
    found: combinations of unused cards, lowest ranks first.
    """
    hidden = _hidden_slots(hh)
    dealt = len(_deal_order(hh))
    fixed: dict[int, Card] = {}
    for _ in range(2):  # a second pass: a later refill may make an earlier hand win
        for player in sorted(hidden):
            if not _won(hand, player):
                continue
            deck = build_deck(hh, config, fixed)
            spare = {deck[i] for i in hidden[player]} | set(deck[dealt:])
            ordered = sorted(spare, key=lambda c: (c.rank, c.suit))
            for tries, combo in enumerate(combinations(ordered, len(hidden[player]))):
                trial = {**fixed, **dict(zip(hidden[player], combo, strict=True))}
                candidate = _play(hh, config, build_deck(hh, config, trial))
                if not _won(candidate, player) or tries >= _FILL_ATTEMPTS:
                    fixed, hand = trial, candidate
                    break
    return hand


# ------------------------------------------------------------------ export


def export(hand: Hand) -> HandHistory:
    """The PHH record of ``hand`` (finished or not), players from the button's left.

    Raises PhhError when PHH cannot describe the table (a game without a PHH
    code, or options that would replay differently, such as rake).
    """
    config = hand.config
    code = phh_code_of(config)
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    order = hand.order
    player = {seat: i for i, seat in enumerate(order)}
    n = len(order)
    stakes = config.stakes
    history = HandHistory(
        variant=code,
        antes=(stakes.ante,) * n,
        starting_stacks=tuple(started.seats[s].stack for s in order),  # type: ignore[union-attr]
        actions=tuple(_export_actions(hand.events, player)),
        blinds_or_straddles=_export_blinds(config, n),
        min_bet=None if config.betting == FIXED_LIMIT else stakes.effective_min_bet,
        small_bet=stakes.effective_small_bet if config.betting == FIXED_LIMIT else None,
        big_bet=stakes.effective_big_bet if config.betting == FIXED_LIMIT else None,
        ante_trimming_status=True,
        finishing_stacks=tuple(hand.stacks[s] for s in order) if hand.is_over else None,
    )
    _check_describable(hand, history)
    return history


def _export_blinds(config: TableConfig, n: int) -> tuple[int, ...]:
    stakes = config.stakes
    if config.variant.forced_bets == BUTTON_BLIND:
        return (0,) * (n - 1) + (stakes.effective_button_blind,)
    return (stakes.small_blind, stakes.big_blind) + (0,) * (n - 2)


def _export_actions(events: Sequence[ev.Event], player: dict[int, int]) -> Iterator[PhhAction]:
    for event in events:
        if isinstance(event, ev.HoleDealt):
            yield PhhAction("dh", player[event.seat], tuple(event.cards))
        elif isinstance(event, ev.BoardDealt):
            yield PhhAction("db", cards=tuple(event.cards))
        elif isinstance(event, ev.Acted):
            p = player[event.seat]
            if event.kind == FOLD:
                yield PhhAction("f", p)
            elif event.kind in (CHECK, CALL):
                yield PhhAction("cc", p)
            elif event.kind == RAISE:
                yield PhhAction("cbr", p, amount=event.to)
        elif isinstance(event, ev.Shown):
            yield PhhAction("sm", player[event.seat], tuple(event.cards))
        elif isinstance(event, ev.Mucked):
            yield PhhAction("sm", player[event.seat])


def _check_describable(hand: Hand, history: HandHistory) -> None:
    """PHH has no field for some table options: refuse what would replay differently."""
    config, again = hand.config, table_config(history)
    if config.rake is not None:
        raise PhhError("PHH cannot record rake: export a hand from a table without rake")
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    if started.blind_seats is not None or any(s.post for s in started.seats if s is not None):
        raise PhhError("PHH cannot record blinds posted out of the usual seats")
    if len(hand.order) == 2 and started.seats[hand.button] is None:
        raise PhhError("PHH cannot record a heads-up hand with a dead button")
    rules = ("betting", "raise_cap", "limit_rule_half", "high_evaluator", "low_evaluator")
    for name in rules:
        if getattr(config, name) != getattr(again, name):
            raise PhhError(f"PHH cannot describe this table's {name.replace('_', ' ')}")
    for name in ("heads_up_uncapped", "incomplete_raise_rule"):
        if getattr(config, name) != getattr(again, name):
            raise PhhError(f"PHH cannot describe the table option {name}")
