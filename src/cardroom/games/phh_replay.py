"""PHH hands through the engine: import (replay); export lives in :mod:`phh_export`.

Import builds an engine :class:`~cardroom.games.hand.Hand` from a
:class:`~cardroom.games.phh.HandHistory` (table configuration from
:mod:`cardroom.games.phh_variants`, PHH ``pN`` in seat ``N - 1``, the button
last) with a prearranged deck holding the file's cards in the engine's dealing
order, then applies every player action. Only the file's inputs are read: its
``finishing_stacks`` and ``winnings`` never are.

Unknown cards (``??``) are filled with cards the file never mentions. A hand
that a player mucked or never showed surrenders its claim at showdown
(:mod:`cardroom.games.phh_showdown`): no filler card can win a chip.

Every check names the action at fault (:attr:`PhhError.action`): a player
acting out of turn, a deal of the wrong size or of cards the engine did not
deal there, showdown cards the player does not hold. A file that stops before
the hand ends replays to an unfinished :class:`Replay` (``finished`` False).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from cardroom.cards import Card
from cardroom.games.actions import CALL, CHECK, FOLD, RAISE, Action
from cardroom.games.config import TableConfig
from cardroom.games.draw import DrawError
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.hand import Hand
from cardroom.games.phh import HandHistory, PhhAction, PhhError, format_action
from cardroom.games.phh_deck import DealPlan, build_deck, deal_plan, reshuffled_top
from cardroom.games.phh_export import export
from cardroom.games.phh_showdown import surrendered_stacks
from cardroom.games.phh_variants import blind_seats, button_seat, seats_of, table_config

__all__ = ["Replay", "build_deck", "export", "replay"]

UNKNOWN_STACK = 10**15
"""Chips given to a player whose stack the file does not know (``inf``)."""


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed hand: the engine hand and the stacks after the file's last action.

    ``stacks`` are by seat (PHH player ``pN`` in seat ``N - 1``): the engine's,
    with the pots re-awarded without the ``surrendered`` players (mucked or
    never shown) when the hand ended in a showdown. ``hand.result`` and the
    hand's events stay the engine's cards-speak showdown of the cards dealt
    (filler cards included), so read the outcome here, not there.
    """

    history: HandHistory
    hand: Hand
    stacks: tuple[int, ...]
    surrendered: frozenset[int] = field(default_factory=frozenset)

    @property
    def finished(self) -> bool:
        """True when the file plays the hand to its end (every pot awarded)."""
        return self.hand.is_over

    @property
    def finishing_stacks(self) -> tuple[int | None, ...]:
        """Stacks by PHH player after the last action (``None``: an unknown stack); while
        the hand is unfinished, chips in the pot are in nobody's stack."""
        return tuple(
            None if start is None else self.stacks[i]
            for i, start in enumerate(self.history.starting_stacks)
        )


def replay(hh: HandHistory) -> Replay:
    """Replay ``hh`` through the engine; :class:`PhhError` says which action breaks it.

    The engine counts in the file's smallest unit (cents for a file of 0.50 and 1), so
    an error about a fractional file says which unit its amounts are in."""
    try:
        return _replay(hh)
    except PhhError as exc:
        if hh.scale == 1:
            raise
        unit = format(Decimal(1) / hh.scale, "f")
        said = f"{exc} (the engine's amounts are in units of {unit})"
        raise PhhError(said, exc.action, code=exc.code) from None


def _replay(hh: HandHistory) -> Replay:
    config = table_config(hh)
    plan = deal_plan(hh, config)
    hand = _play(hh, config, plan)
    mucked = _mucked(hh)
    surrendered = frozenset(plan.hidden()) | mucked
    stacks = hand.stacks
    if hand.is_over:
        _check_board_known(hh, hand, surrendered)
        try:
            stacks = surrendered_stacks(hand, surrendered, mucked)
        except PhhError as exc:
            last = len(hh.actions)
            raise PhhError(f"after the last action ({last}): {exc}", last or None) from None
        if config.stakes.ante:  # equal antes (a big-blind ante is dead money: no such case)
            _check_short_antes(hh, stacks)
    return Replay(hh, hand, stacks, surrendered)


def _check_short_antes(hh: HandHistory, stacks: Sequence[int]) -> None:
    """With ``ante_trimming_status = false`` (the default) a player short of the ante may
    win every ante in full (optional.rst; PokerKit puts the antes in the main pot). The
    engine plays equal antes as any chip (RULEBOOK §5: the short player wins what he
    matched), which ``true`` describes. The two readings differ only when the short
    player wins something (else the same hands take the antes): only then is it refused."""
    if hh.ante_trimming_status:
        return
    for i, (start, ante) in enumerate(zip(hh.starting_stacks, hh.antes, strict=True)):
        if start is not None and start < ante and stacks[i] > 0:
            who = f"p{i + 1}"
            raise PhhError(
                f"{who} has {start} for an ante of {ante}, wins chips, and "
                f"ante_trimming_status is false: {who} may win every ante in full, which the "
                "engine does not play (a short ante wins what it matched: "
                "ante_trimming_status = true)"
            )


def _check_board_known(hh: HandHistory, hand: Hand, surrendered: frozenset[int]) -> None:
    """A board card the file leaves unknown (``d db ??``) is a filler in the replay: it may
    not decide a pot that two hands still claim at showdown (the file does not say who won)."""
    unknown = [n for n, a in enumerate(hh.actions, 1) if a.kind == "db" and None in (a.cards or ())]
    if not unknown or hand.result is None:
        return
    for pot in hand.result.pots:
        claims = [s for s in pot.eligible if s not in surrendered]
        if len(claims) > 1:
            number = unknown[0]
            who = " and ".join(f"p{s + 1}" for s in claims)  # PHH pN is seat N - 1
            raise PhhError(
                f"action {number} ({format_action(hh.actions[number - 1], hh.scale)}): "
                f"the board card it leaves unknown decides pot {pot.index + 1} between {who}",
                number,
            )


def _mucked(hh: HandHistory) -> frozenset[int]:
    """Players who muck at showdown (``sm`` without cards)."""
    return frozenset(
        a.player for a in hh.actions if a.kind == "sm" and a.cards is None and a.player is not None
    )


def _play(hh: HandHistory, config: TableConfig, plan: DealPlan) -> Hand:
    deck = build_deck(hh, config, plan=plan)
    unknown = {deck[i] for i, flag in enumerate(plan.unknown) if flag and i < len(deck)}
    stacks = [UNKNOWN_STACK if s is None else s for s in hh.starting_stacks]
    top = reshuffled_top(plan, config)  # a draw that ran the deck out
    try:
        hand = Hand(
            config,
            seats_of(hh, stacks),
            button_seat(hh.player_count),
            deck,
            seed=0,
            reshuffles=[top] if top else (),
            blind_seats=blind_seats(hh),
        )
    except ConfigError as exc:
        raise PhhError(f"cannot start the hand: {_players(str(exc))}") from None
    player = _Player(hand, unknown)
    number = 0
    try:
        for number, action in enumerate(hh.actions, start=1):
            if action.kind not in ("dh", "noop"):
                player.end_deal()
            player.apply(number, action)
        player.end_deal(final=True)
    except (IllegalAction, ConfigError, DrawError, PhhError) as exc:
        # DrawError: a recorded reshuffle that is not the engine's muck (a wrong file).
        number = getattr(exc, "action", None) or number
        text = format_action(hh.actions[number - 1], hh.scale)
        raise PhhError(f"action {number} ({text}): {_players(str(exc))}", number) from None
    return hand


def _players(said: str) -> str:
    """An engine message in the file's words: the engine counts seats from 0, a PHH file
    names players p1, p2, ..."""
    return re.sub(r"\bseat (\d+)", lambda m: f"p{int(m.group(1)) + 1}", said)


class _Player:
    """Applies the file's actions to the engine hand and checks its deals against it.

    Hole cards are checked when a run of deals ends (a street may be dealt card by
    card, so a short deal shows only then): each player the run dealt to must hold
    exactly the engine's count, and every card the file names where the engine put it.
    """

    def __init__(self, hand: Hand, unknown: set[Card]) -> None:
        self.hand = hand
        self.unknown = unknown
        self.board: list[Card | None] = []
        self.held: dict[int, int] = {}  # cards the file has dealt each player, less discards
        self.run: list[tuple[int, PhhAction]] = []

    def apply(self, number: int, action: PhhAction) -> None:
        kind, seat = action.kind, action.player
        if kind == "db":
            self.board.extend(action.cards or ())
            _check_dealt(self.board, self.hand.board, "board")
        elif kind == "dh":
            assert seat is not None  # the grammar gives every dh a player
            self.run.append((number, action))
            self.held[seat] = self.held.get(seat, 0) + len(action.cards or ())
        elif kind == "sm":
            self.show(action)
        elif kind != "noop":
            self.act(action)

    def end_deal(self, final: bool = False) -> None:
        """Check the run of deals that just ended; raise for its first wrong action. After
        the file's last action a run may stop short (the file stops there)."""
        faults: list[tuple[int, str]] = []
        last = {a.player: number for number, a in self.run}
        self.learn_unknown()
        for number, action in self.run:
            seat = action.player
            assert seat is not None
            held = self.hand.hole_cards(seat)
            named = [c for c in action.cards or () if c is not None]
            stray = [c for c in named if c not in held]
            if stray:
                faults.append((number, f"the engine did not deal {_cards(stray)} to p{seat + 1}"))
            count = self.held[seat]
            if last[seat] == number and (count > len(held) or (count < len(held) and not final)):
                faults.append(
                    (
                        number,
                        f"p{seat + 1} has been dealt {count} cards here but the game "
                        f"has dealt {len(held)} by now",
                    )
                )
        self.run = []
        if faults:
            number, message = min(faults)
            raise PhhError(message, number)

    def learn_unknown(self) -> None:
        """A card the run deals as ``??`` is unknown to the file, whichever the engine dealt
        there: after a reshuffle it comes from the muck, not from a filler slot of the deck
        (it may even be a card the file named before, thrown by another player)."""
        dealt: dict[int, list[Card | None]] = {}
        for _, action in self.run:
            assert action.player is not None
            dealt.setdefault(action.player, []).extend(action.cards or ())
        for seat, cards in dealt.items():
            held = self.hand.hole_cards(seat)
            if cards and len(held) >= len(cards):
                new = held[len(held) - len(cards) :]
                self.unknown.update(c for c, named in zip(new, cards, strict=True) if named is None)

    def show(self, action: PhhAction) -> None:
        """``sm``: shown cards must be the cards the player holds (the engine shows by itself)."""
        seat = action.player
        assert seat is not None
        if not action.cards:
            return  # a muck, or "sm -": the cards already dealt
        if not self.hand.is_live(seat):
            raise PhhError(f"p{seat + 1} shows cards after folding")
        held = self.hand.hole_cards(seat)
        named = [c for c in action.cards if c is not None]
        if len(action.cards) > len(held) or any(c not in held for c in named):
            raise PhhError(f"p{seat + 1} shows {_cards(action.cards)} but holds {_cards(held)}")

    def act(self, action: PhhAction) -> None:
        kind, seat, hand = action.kind, action.player, self.hand
        assert seat is not None  # the grammar gives every player action a player
        if hand.actor != seat:
            who = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
            raise PhhError(f"p{seat + 1} acts but it is {who}'s turn")
        if kind == "f":
            hand.apply(Action(seat, FOLD))
        elif kind == "cbr":
            hand.apply(Action(seat, RAISE, action.amount or 0))
        elif kind == "pb":
            hand.apply(Action.bring_in(seat))
        elif kind == "sd":
            discards = _discards(hand.hole_cards(seat), action, self.unknown)
            hand.apply(Action.draw(seat, discards))
            self.held[seat] = self.held.get(seat, 0) - len(discards)
        else:
            hand.apply(Action(seat, CHECK if hand.legal_actions(seat).check else CALL))


def _cards(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards) or "no cards"


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
            raise PhhError(f"the file's {what} cards {_cards(phh)} are not dealt in that order")
