"""PokerKit as a peer: the same hands driven through PokerKit's state machine.

Used by ``cardroom bench engine`` (rates side by side) and by the differential
tests (same legal actions and payouts). PokerKit is an optional dependency
(the ``bench`` extra); it is imported only when a peer is built.

Player ``i`` here is PHH/PokerKit player ``i``: the first seat left of the
button first, the button last (heads-up: the big blind first, the button
second). Every differential driver seats our hand the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardroom.values import value

__all__ = [
    "Decision",
    "LegalSet",
    "Options",
    "PokerKitGame",
    "PokerKitHand",
    "PokerKitSpec",
    "choose",
    "play_random_pokerkit_hand",
    "pokerkit_available",
]


class LegalSet(Protocol):
    """What :func:`choose` reads: :class:`Options`, or the engine's own ``LegalActions``."""

    @property
    def fold(self) -> bool: ...
    @property
    def check(self) -> bool: ...
    @property
    def call(self) -> int | None: ...
    @property
    def min_raise_to(self) -> int | None: ...
    @property
    def max_raise_to(self) -> int | None: ...
    @property
    def bring_in(self) -> int | None: ...
    @property
    def draw(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Options:
    """One decision's legal set, engine-neutral: ``call`` is the chips a call adds,
    ``bring_in`` the stud bring-in amount, ``draw`` the most cards that may be discarded."""

    actor: int
    fold: bool
    check: bool
    call: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    bring_in: int | None = None
    draw: int | None = None


@value
class Decision:
    """What the random player does: ``fold``, ``check``, ``call``, ``raise`` to ``amount``,
    ``bring_in``, or ``draw`` discarding the cards at ``positions`` of the hand."""

    kind: str
    amount: int = 0
    positions: tuple[int, ...] = ()


def choose(options: LegalSet, rng: random.Random) -> Decision:
    """A random legal decision, biased so hands often reach showdowns and all-ins.

    The raise size is the minimum, the maximum or anything between, so both
    bounds and the inside of the range are exercised. A draw discards each card
    with even odds (one random bit per card). It folds only facing a bet: our
    engine also offers a fold when a check is free, PokerKit's tournament mode
    does not, and the benchmark must play the same hands on both.
    """
    if options.draw is not None:
        # Each card is discarded with even odds: one random bit per card.
        return _DRAWS[options.draw][rng.getrandbits(options.draw)]
    roll = rng.random()
    if options.bring_in is not None and (options.min_raise_to is None or roll < 0.7):
        return _BRING_IN
    if options.min_raise_to is not None and options.max_raise_to is not None and roll < 0.3:
        pick = rng.random()
        if pick < 0.4:
            amount = options.min_raise_to
        elif pick < 0.6:
            amount = options.max_raise_to
        else:
            amount = rng.randint(options.min_raise_to, options.max_raise_to)
        return Decision("raise", amount)
    if options.fold and not options.check and roll > 0.85:
        return _FOLD
    if options.check:
        return _CHECK
    if options.call is not None:
        return _CALL
    if options.fold:
        return _FOLD
    if options.min_raise_to is not None:
        return Decision("raise", options.min_raise_to)
    raise AssertionError(f"no legal decision in {options}")


# The decisions without an amount, built once (decisions are immutable).
_BRING_IN = Decision("bring_in")
_FOLD = Decision("fold")
_CHECK = Decision("check")
_CALL = Decision("call")


def _draw_decisions(cards: int) -> tuple[Decision, ...]:
    """Every draw of a hand of ``cards`` cards, indexed by the bit mask of the discards."""
    return tuple(
        Decision("draw", positions=tuple(i for i in range(cards) if mask >> i & 1))
        for mask in range(1 << cards)
    )


_DRAWS = tuple(_draw_decisions(n) for n in range(8))


@dataclass(frozen=True, slots=True)
class PokerKitSpec:
    """How to build one PokerKit game: its class name and the amount arguments it takes.

    ``limits`` is ``("min_bet",)`` for NL/PL classes or ``("small_bet", "big_bet")``
    for classes built from the two limits (even when, like PokerKit's FO/8 class,
    they play pot limit).
    """

    class_name: str
    limits: tuple[str, ...]
    blinds: bool = True


#: PokerKit classes by PHH variant code.
POKERKIT_SPECS: dict[str, PokerKitSpec] = {
    "NT": PokerKitSpec("NoLimitTexasHoldem", ("min_bet",)),
    "FT": PokerKitSpec("FixedLimitTexasHoldem", ("small_bet", "big_bet")),
    "PO": PokerKitSpec("PotLimitOmahaHoldem", ("min_bet",)),
    "NS": PokerKitSpec("NoLimitShortDeckHoldem", ("min_bet",)),
    # PokerKit's "fixed-limit" Omaha hi-lo class inherits its pot-limit mixin.
    "FO/8": PokerKitSpec(
        "FixedLimitOmahaHoldemHighLowSplitEightOrBetter", ("small_bet", "big_bet")
    ),
    "F7S": PokerKitSpec("FixedLimitSevenCardStud", ("bring_in", "small_bet", "big_bet"), False),
    "F7S/8": PokerKitSpec(
        "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
        ("bring_in", "small_bet", "big_bet"),
        False,
    ),
    "FR": PokerKitSpec("FixedLimitRazz", ("bring_in", "small_bet", "big_bet"), False),
    "N2L1D": PokerKitSpec("NoLimitDeuceToSevenLowballSingleDraw", ("min_bet",)),
    "F2L3D": PokerKitSpec("FixedLimitDeuceToSevenLowballTripleDraw", ("small_bet", "big_bet")),
    "FB": PokerKitSpec("FixedLimitBadugi", ("small_bet", "big_bet")),
}


def pokerkit_available() -> bool:
    """True when PokerKit can be imported."""
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        return False
    return True


class PokerKitGame:
    """One PokerKit game in tournament mode (one runout, fold only when facing a bet): its
    class, automations, forced bets and limits, built once for any number of hands, as a
    table's configuration is ours.

    With ``deal=True`` PokerKit deals its own random cards (the benchmark);
    otherwise the caller deals with :meth:`PokerKitHand.deal_hole` and
    :meth:`PokerKitHand.deal_board`. Forced bets, bet collection, showdown and chip
    pushing are automated. ``ante_trimming=False`` makes the antes dead money for the
    main pot (a big-blind ante: ``antes = (0, X, 0, ...)``, heads-up too); ``blinds``
    may list straddles after the two blinds.
    """

    def __init__(
        self,
        code: str,
        *,
        antes: Sequence[int],
        blinds: Sequence[int] | None,
        amounts: dict[str, int],
        deal: bool = False,
        ante_trimming: bool = True,
    ) -> None:
        import pokerkit as pk

        spec = POKERKIT_SPECS[code]
        automations = [
            pk.Automation.ANTE_POSTING,
            pk.Automation.BET_COLLECTION,
            pk.Automation.BLIND_OR_STRADDLE_POSTING,
            pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            pk.Automation.HAND_KILLING,
            pk.Automation.CHIPS_PUSHING,
            pk.Automation.CHIPS_PULLING,
        ]
        if deal:
            automations += [
                pk.Automation.CARD_BURNING,
                pk.Automation.HOLE_DEALING,
                pk.Automation.BOARD_DEALING,
            ]
        game_class = getattr(pk, spec.class_name)
        args: list[Any] = [tuple(automations), ante_trimming, tuple(antes)]
        if spec.blinds:
            args.append(tuple(blinds or ()))
        args.extend(amounts[name] for name in spec.limits)
        self.pk = pk
        self.spec = spec
        self.game: Any = game_class(*args, mode=pk.Mode.TOURNAMENT)

    def hand(self, stacks: Sequence[int]) -> PokerKitHand:
        """A new hand of this game with ``stacks`` (PHH player order)."""
        return PokerKitHand(self, stacks)


class PokerKitHand:
    """One hand of a :class:`PokerKitGame`, behind the small interface the drivers share."""

    def __init__(self, game: PokerKitGame, stacks: Sequence[int]) -> None:
        self.pk = game.pk
        self.state: Any = game.game(tuple(stacks), len(stacks))
        _count_the_blind_as_the_bet(self.state, game.spec)

    # -- dealing (when the caller supplies the cards)

    def needs_hole(self) -> int | None:
        """The player PokerKit wants to deal hole cards to next, or ``None``."""
        state = self.state
        if state.can_burn_card("??"):
            state.burn_card("??")
        return state.hole_dealee_index if state.can_deal_hole() else None

    def deal_hole(self, player: int, cards: str) -> None:
        """Deal ``cards`` (PHH notation) to ``player``."""
        self.state.deal_hole(cards, player)

    def board_count_needed(self) -> int:
        """How many board cards PokerKit wants dealt now (0 when none)."""
        state = self.state
        if state.can_burn_card("??"):
            state.burn_card("??")
        if not state.can_deal_board():
            return 0
        return int(state.board_dealing_count or 0)

    def deal_board(self, cards: str) -> None:
        """Deal board ``cards`` (PHH notation)."""
        self.state.deal_board(cards)

    # -- decisions

    @property
    def actor(self) -> int | None:
        """The player to act or draw, or ``None`` between decisions."""
        state = self.state
        drawer = state.stand_patter_or_discarder_index
        return drawer if drawer is not None else state.actor_index  # type: ignore[no-any-return]

    def options(self) -> Options:
        """The legal set of the player to act."""
        state = self.state
        drawer = state.stand_patter_or_discarder_index
        if drawer is not None:
            held = len(state.hole_cards[drawer])
            return Options(drawer, False, False, None, None, None, draw=held)
        actor = state.actor_index
        can_call = state.can_check_or_call()
        amount = state.checking_or_calling_amount if can_call else None
        can_raise = state.can_complete_bet_or_raise_to()
        return Options(
            actor=actor,
            fold=state.can_fold(),
            check=bool(can_call and amount == 0),
            call=amount if can_call and amount else None,
            min_raise_to=state.min_completion_betting_or_raising_to_amount if can_raise else None,
            max_raise_to=state.max_completion_betting_or_raising_to_amount if can_raise else None,
            bring_in=state.effective_bring_in_amount if state.can_post_bring_in() else None,
        )

    def apply(self, decision: Decision) -> None:
        """Apply a decision of the player to act."""
        state = self.state
        if decision.kind == "fold":
            state.fold()
        elif decision.kind in ("check", "call"):
            state.check_or_call()
        elif decision.kind == "raise":
            state.complete_bet_or_raise_to(decision.amount)
        elif decision.kind == "bring_in":
            state.post_bring_in()
        elif decision.kind == "draw":
            held = state.hole_cards[state.stand_patter_or_discarder_index]
            state.stand_pat_or_discard([held[i] for i in decision.positions])
        else:
            raise ValueError(f"unknown decision {decision.kind!r}")

    @property
    def over(self) -> bool:
        """True once the hand is finished and the chips pushed."""
        return not self.state.status

    @property
    def stacks(self) -> list[int]:
        """Current stacks (the finishing stacks once :attr:`over`)."""
        return list(self.state.stacks)


def _count_the_blind_as_the_bet(state: Any, spec: PokerKitSpec) -> None:
    """Cap fixed-limit pre-flop betting at the big blind plus three raises.

    PokerKit caps each round at four bets or raises *made by players*, so its
    pre-flop allows a fifth bet on top of the big blind; the rulebook (§5: one
    bet and three raises) and card rooms count the big blind as the bet. Only
    when a blind was posted: blinds all-in on their antes post nothing.
    """
    first = state.streets[0]
    cap = first.max_completion_betting_or_raising_count
    if spec.blinds and cap is not None and any(state.bets):
        from dataclasses import replace as _replace

        state.streets = (
            _replace(first, max_completion_betting_or_raising_count=cap - 1),
            *state.streets[1:],
        )


def play_random_pokerkit_hand(hand: PokerKitHand, rng: random.Random) -> list[int]:
    """Drive a self-dealing PokerKit hand with random legal decisions; returns finishing stacks."""
    state = hand.state
    while state.status:
        if hand.actor is None:
            if state.can_deal_hole():  # replacements after a draw (no automation for them)
                state.deal_hole()
                continue
            raise AssertionError("PokerKit stopped without an actor")
        hand.apply(choose(hand.options(), rng))
    return hand.stacks
