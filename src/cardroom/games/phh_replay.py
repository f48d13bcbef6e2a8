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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import BRING_IN as BRING_IN_ACTION
from cardroom.games.actions import CALL, CHECK, FOLD, RAISE, Action
from cardroom.games.config import TableConfig
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.hand import Hand
from cardroom.games.phh import HandHistory, PhhAction, PhhError, format_action
from cardroom.games.phh_deck import DealPlan, build_deck, deal_plan, reshuffled_top
from cardroom.games.phh_variants import (
    big_blind_ante_index,
    blind_seats,
    button_seat,
    phh_code_of,
    table_config,
)
from cardroom.games.variants import BRING_IN, BUTTON_BLIND, FIXED_LIMIT

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
    plan = deal_plan(hh, config)
    hand = _play(hh, config, plan, {})
    if hand.is_over and plan.hidden():
        hand = _losing_fill(hh, config, plan, hand)
    return Replay(hh, hand)


def _play(hh: HandHistory, config: TableConfig, plan: DealPlan, fixed: dict[int, Card]) -> Hand:
    deck = build_deck(hh, config, fixed, plan)
    unknown = {deck[i] for i, flag in enumerate(plan.unknown) if flag and i < len(deck)}
    stacks = [UNKNOWN_STACK if s is None else s for s in hh.starting_stacks]
    top = reshuffled_top(plan, config)  # a draw that ran the deck out
    try:
        hand = Hand(
            config,
            stacks,
            button_seat(hh.player_count),
            deck,
            seed=0,
            reshuffles=[top] if top else (),
            blind_seats=blind_seats(hh),
        )
    except ConfigError as exc:
        raise PhhError(f"cannot start the hand: {exc}") from None
    board: list[Card | None] = []
    for number, action in enumerate(hh.actions, start=1):
        try:
            _apply(hand, action, board, unknown)
        except (IllegalAction, PhhError) as exc:
            raise type(exc)(f"action {number} ({format_action(action)}): {exc}") from None
    return hand


def _apply(hand: Hand, action: PhhAction, board: list[Card | None], unknown: set[Card]) -> None:
    kind, seat = action.kind, action.player
    if kind == "db":
        board.extend(action.cards or ())
        _check_dealt(board, hand.board, "board")
        return
    if kind == "dh":
        assert seat is not None
        held = hand.hole_cards(seat)
        if any(c is not None and c not in held for c in action.cards or ()):
            raise PhhError(f"the file deals p{seat + 1} cards the engine has not dealt yet")
        return
    if kind not in ("cc", "f", "cbr", "pb", "sd"):
        return  # "sm": the engine shows down by itself (shown cards are in the deck)
    assert seat is not None
    if hand.actor != seat:
        who = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
        raise IllegalAction(f"p{seat + 1} acts but it is {who}'s turn")
    if kind == "f":
        hand.apply(Action(seat, FOLD))
    elif kind == "cbr":
        hand.apply(Action(seat, RAISE, action.amount or 0))
    elif kind == "pb":
        hand.apply(Action.bring_in(seat))
    elif kind == "sd":
        hand.apply(Action.draw(seat, _discards(hand.hole_cards(seat), action, unknown)))
    else:
        hand.apply(Action(seat, CHECK if hand.legal_actions(seat).check else CALL))


def _discards(held: Sequence[Card], action: PhhAction, unknown: set[Card]) -> list[Card]:
    """The named discards, then the first unknown cards held for each ``??`` (as the plan)."""
    cards = action.cards or ()
    out = [c for c in cards if c is not None]
    spare = [c for c in held if c in unknown and c not in out]
    for _ in range(len(cards) - len(out)):
        if not spare:
            raise PhhError("discards more unknown cards than the player holds")
        out.append(spare.pop(0))
    return out


def _check_dealt(phh: Sequence[Card | None], engine: Sequence[Card], what: str) -> None:
    if len(engine) < len(phh):
        raise PhhError(f"the file deals the {what} cards before the engine deals them")
    for mine, theirs in zip(phh, engine, strict=False):
        if mine is not None and mine != theirs:
            raise PhhError(f"the file's {what} cards {list(phh)} are not dealt in that order")


# ------------------------------------------------------------------ hands never shown


def _won(hand: Hand, seat: int) -> bool:
    return any(isinstance(e, ev.PotAwarded) and e.seat == seat and e.hand for e in hand.events)


def _losing_fill(hh: HandHistory, config: TableConfig, plan: DealPlan, hand: Hand) -> Hand:
    """Refill unknown cards of hands never shown until none of them wins a chip.

    PHH (like PokerKit) gives nothing to a hand that was mucked or never
    shown; the engine's cards speak, so such hands get the weakest cards
    found: combinations of unused cards, lowest ranks first.
    """
    hidden = plan.hidden()
    dealt = len(plan.slots)
    fixed: dict[int, Card] = {}
    for _ in range(2):  # a second pass: a later refill may make an earlier hand win
        for player in sorted(hidden):
            if not _won(hand, player):
                continue
            deck = build_deck(hh, config, fixed, plan)
            spare = {deck[i] for i in hidden[player]} | set(deck[dealt:])
            ordered = sorted(spare, key=lambda c: (c.rank, c.suit))
            for tries, combo in enumerate(combinations(ordered, len(hidden[player]))):
                trial = {**fixed, **dict(zip(hidden[player], combo, strict=True))}
                try:
                    candidate = _play(hh, config, plan, trial)
                except (IllegalAction, PhhError):
                    continue  # these cards would change the play itself (a stud door card)
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
    lone = _lone_big_blind(hand)
    history = HandHistory(
        variant=code,
        antes=_export_antes(config, n, lone),
        starting_stacks=tuple(started.seats[s].stack for s in order),  # type: ignore[union-attr]
        actions=tuple(_export_actions(hand.events, player)),
        blinds_or_straddles=_export_blinds(config, n, lone),
        bring_in=stakes.effective_bring_in if config.variant.forced_bets == BRING_IN else None,
        min_bet=None if config.betting == FIXED_LIMIT else stakes.effective_min_bet,
        small_bet=stakes.effective_small_bet if config.betting == FIXED_LIMIT else None,
        big_bet=stakes.effective_big_bet if config.betting == FIXED_LIMIT else None,
        # A big-blind ante is dead money (PokerKit's false); equal antes count in side pots.
        ante_trimming_status=not stakes.big_blind_ante,
        finishing_stacks=tuple(hand.stacks[s] for s in order) if hand.is_over else None,
    )
    _check_describable(hand, history)
    return history


def _lone_big_blind(hand: Hand) -> bool:
    """Only the first player posts, a big blind (the room left the small blind's seat dead)."""
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    return len(hand.order) >= 3 and started.blind_seats == (None, hand.order[0])


def _export_antes(config: TableConfig, n: int, lone: bool) -> tuple[int, ...]:
    """Equal antes, or the big-blind ante in the big blind's entry (as the importer reads it)."""
    stakes = config.stakes
    if not stakes.big_blind_ante:
        return (stakes.ante,) * n
    antes = [0] * n
    antes[big_blind_ante_index(n, lone)] = stakes.big_blind_ante
    return tuple(antes)


def _export_blinds(config: TableConfig, n: int, lone: bool = False) -> tuple[int, ...] | None:
    stakes = config.stakes
    if lone:
        return (stakes.big_blind,) + (0,) * (n - 1)
    if config.variant.forced_bets == BRING_IN:
        return None
    if config.variant.forced_bets == BUTTON_BLIND:
        blinds = (0,) * (n - 1) + (stakes.effective_button_blind,)
        return blinds[::-1] if n == 2 else blinds  # PHH reverses heads-up forced bets
    straddles = stakes.straddles[: max(n - 2, 0)]  # straddles nobody could post are not written
    return (stakes.small_blind, stakes.big_blind, *straddles) + (0,) * (n - 2 - len(straddles))


def _export_actions(events: Sequence[ev.Event], player: dict[int, int]) -> Iterator[PhhAction]:
    street: dict[int, list[Card]] = {}  # a street's cards per player: down, then up
    replaced: list[PhhAction] = []  # a draw's replacements, after every discard (PHH order)
    for event in events:
        if isinstance(event, ev.HoleDealt):
            street.setdefault(player[event.seat], []).extend(event.cards)
            continue
        if isinstance(event, ev.Drew):
            yield PhhAction("sd", player[event.seat], tuple(event.discarded))
            if event.dealt:
                replaced.append(PhhAction("dh", player[event.seat], tuple(event.dealt)))
            continue
        yield from replaced
        replaced = []
        for p, cards in street.items():
            yield PhhAction("dh", p, tuple(cards))
        street = {}
        if isinstance(event, ev.BoardDealt):
            yield PhhAction("db", cards=tuple(event.cards))
        elif isinstance(event, ev.Acted):
            p = player[event.seat]
            if event.kind == FOLD:
                yield PhhAction("f", p)
            elif event.kind in (CHECK, CALL):
                yield PhhAction("cc", p)
            elif event.kind == RAISE:
                yield PhhAction("cbr", p, amount=event.to)
            elif event.kind == BRING_IN_ACTION:
                yield PhhAction("pb", p)
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
    usual = started.blind_seats is None or _lone_big_blind(hand)
    if not usual or any(s.post for s in started.seats if s is not None):
        raise PhhError("PHH cannot record blinds posted out of the usual seats")
    if len(hand.order) == 2 and started.seats[hand.button] is None:
        raise PhhError("PHH cannot record a heads-up hand with a dead button")
    if config.stakes.straddles and _lone_big_blind(hand):
        raise PhhError("PHH cannot record straddles after a lone big blind")
    rules = ("betting", "raise_cap", "limit_rule_half", "high_evaluator", "low_evaluator")
    for name in rules:
        if getattr(config, name) != getattr(again, name):
            raise PhhError(f"PHH cannot describe this table's {name.replace('_', ' ')}")
    for name in ("heads_up_uncapped", "incomplete_raise_rule"):
        if getattr(config, name) != getattr(again, name):
            raise PhhError(f"PHH cannot describe the table option {name}")
