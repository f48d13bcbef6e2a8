"""PHH's showdown rule for hands a file never shows: they surrender their claim.

A PHH file records what was seen. A player who mucks (``sm`` without cards) or
whose cards the file never shows (``????`` to the end) threw the hand away, so
it wins nothing at showdown, whatever cards the replay had to deal it (PHH and
PokerKit both read a muck this way). The engine plays cards speak, so the replay
re-awards each contested pot among the hands that were shown, with the engine's
own pots (amounts and who may win each) and its evaluators. No card search is
involved: the cards dealt to a surrendered hand never matter.

A pot that only one player can win goes to that player without a showdown,
shown or not. A contested pot in which no eligible hand was shown goes to the one
player who did not muck (everyone else threw the hand away: real histories often
write the winner's cards as ``????`` then); when several unshown hands kept their
claim, it cannot be awarded from the file: that is a
:class:`~cardroom.games.phh.PhhError`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cardroom.cards import Card
from cardroom.evaluation import get_evaluator
from cardroom.games.config import TableConfig
from cardroom.games.hand import Hand
from cardroom.games.phh import PhhError
from cardroom.games.showdown import Strengths, award_pot

__all__ = ["surrendered_stacks"]


def surrendered_stacks(
    hand: Hand, surrendered: Collection[int], mucked: Collection[int] = ()
) -> tuple[int, ...]:
    """The finished ``hand``'s stacks by seat once the ``surrendered`` seats' claims are
    withdrawn from every contested pot (the engine's stacks when nothing changes);
    ``mucked`` (surrendered too) threw their hands away outright."""
    result = hand.result
    if result is None or not surrendered:
        return hand.stacks
    stacks = list(hand.stacks)
    for pot in result.pots:
        if len(pot.eligible) < 2 or not any(a.seat in surrendered for a in pot.awards):
            continue  # uncontested, or no surrendered hand took a chip of it
        claims = [s for s in pot.eligible if s not in surrendered]
        if not claims:  # nobody shown: the one who did not muck, if there is just one
            claims = [s for s in pot.eligible if s not in mucked]
            if len(claims) != 1:
                who = ", ".join(f"p{s + 1}" for s in pot.eligible)  # PHH pN is seat N - 1
                raise PhhError(f"pot {pot.index + 1}: the file shows none of its hands ({who})")
        for award in pot.awards:
            stacks[award.seat] -= award.amount
        for seat, chips, _ in _award(hand, pot.amount - pot.rake, claims):
            stacks[seat] += chips
    return tuple(stacks)


def _award(hand: Hand, amount: int, claims: Sequence[int]) -> list[tuple[int, int, str]]:
    config: TableConfig = hand.config
    board = tuple(hand.board)
    high = _strengths(config.high_evaluator, claims, hand, board)
    low_name = config.low_evaluator
    low = None if low_name is None else _strengths(low_name, claims, hand, board)
    return award_pot(amount, claims, high, low)


def _strengths(name: str, seats: Sequence[int], hand: Hand, board: tuple[Card, ...]) -> Strengths:
    evaluate = get_evaluator(name)
    out: dict[int, int | None] = {}
    for seat in seats:
        value = evaluate(hand.hole_cards(seat), board)
        out[seat] = None if value is None else value.strength
    return out
