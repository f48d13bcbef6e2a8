"""Our engine behind the small interface of :class:`~cardroom.bench.pokerkit_peer.PokerKitHand`.

Player ``i`` is our seat ``i`` with the button on the last seat, which is PHH
and PokerKit player ``i`` (see :mod:`cardroom.games.phh_variants`).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.bench.pokerkit_peer import Decision, Options
from cardroom.cards import Card
from cardroom.games.actions import BRING_IN, CALL, CHECK, DRAW, FOLD, RAISE, Action
from cardroom.games.config import TableConfig
from cardroom.games.hand import Hand

__all__ = ["EngineDriver", "to_action"]

_KINDS = {"fold": FOLD, "check": CHECK, "call": CALL, "raise": RAISE, "bring_in": BRING_IN}


class EngineDriver:
    """One engine hand driven decision by decision, as the server drives it."""

    __slots__ = ("hand",)

    def __init__(
        self,
        config: TableConfig,
        stacks: Sequence[int],
        *,
        deck: Sequence[Card] | None = None,
        deck_seed: object = None,
    ) -> None:
        seed = None if deck_seed is None else repr(deck_seed)
        self.hand = Hand(config, list(stacks), len(stacks) - 1, deck, seed=seed)

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` once the hand is over."""
        return self.hand.actor

    @property
    def over(self) -> bool:
        """True once the pots are settled."""
        return self.hand.is_over

    def options(self) -> Options:
        """The legal set of the seat to act."""
        seat = self.hand.actor
        assert seat is not None, "nobody is to act"
        legal = self.hand.legal_actions(seat)
        return Options(
            actor=seat,
            # A fold when a check is free is legal (RULEBOOK §5), but PokerKit's tournament
            # mode refuses it: the engine-neutral set offers only the fold facing a bet.
            fold=legal.fold and not legal.check,
            check=legal.check,
            call=legal.call,
            min_raise_to=legal.min_raise_to,
            max_raise_to=legal.max_raise_to,
            bring_in=legal.bring_in,
            draw=legal.draw,
        )

    def apply(self, decision: Decision) -> None:
        """Apply a decision of the seat to act."""
        seat = self.hand.actor
        assert seat is not None, "nobody is to act"
        self.hand.apply(to_action(self.hand, seat, decision))

    def finishing_stacks(self) -> tuple[int, ...]:
        """Stacks by seat (final once :attr:`over`)."""
        return self.hand.stacks


def to_action(hand: Hand, seat: int, decision: Decision) -> Action:
    """The engine action for ``decision`` by ``seat`` (discard positions become cards),
    built afresh each time, as a server builds one from each message it reads."""
    kind = decision.kind
    if kind == "draw":
        held = hand.hole_cards(seat)
        return Action(seat, DRAW, 0, tuple([held[i] for i in decision.positions]))
    return Action(seat, _KINDS[kind], decision.amount)
