"""The hand of poker as a pure, deterministic state machine.

A :class:`Hand` takes a :class:`~cardroom.games.config.TableConfig`, the seats
(index = seat number; ``None`` for an empty seat or a player sitting out; an
``int`` stack or a :class:`~cardroom.games.config.Seat`), the button's seat (an
empty seat: dead button) and a deck (prearranged in the order of
:mod:`cardroom.games.dealing`, else shuffled from ``seed`` or the CSPRNG). It
posts the forced bets, deals, and waits for :attr:`Hand.actor`; it deals the
next streets, runs out the board and settles the pots by itself.

Authority: :meth:`Hand.apply` takes a player's action and accepts it exactly
when :meth:`Hand.legal_actions` allows it; :meth:`Hand.apply_room` and
:meth:`Hand.cancel` are the room's decisions (:mod:`cardroom.games.authority`).
All three are atomic: if anything fails inside, the hand rebuilds itself from
its inputs and the actions it accepted (:func:`cardroom.games.replay.rebuild`).

Parts talk through public interfaces: a :class:`~cardroom.games.dealer.Dealer` owns the
deck, a :class:`~cardroom.games.betting_round.BettingRound` the round's state; the stud
and draw rules get what they need as arguments and return decisions the hand applies.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from cardroom.cards import Card, Deck
from cardroom.games import errors as err
from cardroom.games import events as ev
from cardroom.games.actions import (
    BET,
    BRING_IN,
    CALL,
    CHECK,
    DISCONNECT_ALL_IN,
    DRAW,
    FOLD,
    RAISE,
    Action,
    LegalActions,
    RoomAction,
    nothing_for,
)
from cardroom.games.authority import room_decision
from cardroom.games.betting import STRUCTURE_RULES, is_full_raise, raise_bounds, street_sizes
from cardroom.games.betting_round import BettingRound
from cardroom.games.config import Seat, TableConfig, check_seats
from cardroom.games.dealer import Dealer
from cardroom.games.dealing import build_deck, dealing_order, rotations, street_deal
from cardroom.games.draw_play import DrawPlay
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.forced import DEAD_MONEY, bet_to_call, forced_posts, opening_raise
from cardroom.games.pots import Pot, build_pots
from cardroom.games.reshuffle import Reshuffler
from cardroom.games.showdown import Contender, HandResult, Table, settle
from cardroom.games.stud_play import StudPlay, raise_sizes
from cardroom.games.variants import LEFT_OF_BIG_BLIND, Street

if TYPE_CHECKING:
    from cardroom.games.replay import Origin

SeatInput = Seat | int | None


class Hand:
    """One hand at one table; see the module docstring for the contract."""

    CACHES: Final = ("_legal",)
    """Attributes that only remember what the state determines (not part of the state)."""

    def __init__(
        self,
        config: TableConfig,
        seats: Sequence[SeatInput],
        button: int,
        deck: Sequence[Card] | Deck | None = None,
        *,
        seed: int | str | bytes | None = None,
        blind_seats: tuple[int | None, int | None] | None = None,
        reshuffles: Sequence[Sequence[Card | None]] = (),
    ) -> None:
        self.config = config
        # Per-table constants read on every decision (properties of the config otherwise).
        self._structure = STRUCTURE_RULES[config.betting]
        self._fixed = self._structure.fixed
        self._half_rule = config.limit_rule_half
        self._cap = config.raise_cap
        self._min_bet = config.stakes.effective_min_bet
        self._street_bet = 0  # fixed-limit bet of the street being played
        self._spread_max = 0  # spread-limit maximum of the street being played
        self._seats: tuple[Seat | None, ...] = check_seats(config, seats)
        n = len(self._seats)
        if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < n:
            raise ConfigError(f"the button must be a seat from 0 to {n - 1}")
        self.button = button
        # Dealt-in seats clockwise from the button's left (the button last).
        self.order = dealing_order([s is not None for s in self._seats], button)
        if len(self.order) < 2:
            raise ConfigError("a hand needs at least two players dealt in")
        cards = build_deck(config, deck, seed, len(self.order))
        self._dealer = Dealer(cards)
        # Muck orders come from a seed: the table's, or a secret one drawn from the CSPRNG
        # (as unpredictable, and it lets a failed apply rebuild the hand exactly).
        shuffle = secrets.token_bytes(16) if seed is None else seed
        # What rebuilds this hand: these inputs, then every action accepted (_inputs).
        self._origin: Origin = (self._seats, button, cards, shuffle, blind_seats, reshuffles)
        self._inputs: list[Action | RoomAction | None] = []
        self.cancelled = False
        self._legal: LegalActions | None = None  # the actor's, until the state changes
        self._stack = [0 if s is None else s.stack for s in self._seats]
        self._bet = [0] * n
        self._total = [0] * n
        self._dead = [0] * n  # dead money (DEAD_MONEY): in _total, but only the main pot's
        self._live = [s is not None for s in self._seats]
        self._protected = [False] * n  # disconnect all-in: in the hand, no longer acting
        self._hole: list[list[Card]] = [[] for _ in range(n)]
        self._up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        # The betting round; its search order for the next actor: the dealing order
        # starting at each position.
        self._round = BettingRound(rotations(self.order), n)
        self._nlive = len(self.order)
        self._big_blind: int | None = None
        self.actor: int | None = None
        self.street_index = 0
        self.result: HandResult | None = None
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.events: list[ev.Event] = [ev.HandStarted(config, self._seats, button, blind_seats)]
        # Stud and draw games: their rules live in stud_play / draw_play.
        self._reshuffle = Reshuffler(shuffle, reshuffles)
        stud = config.variant.stud
        self._stud = None if stud is None else StudPlay(stud, config)
        draws = any(st.draw or st.discard for st in config.variant.streets)
        self._draw = DrawPlay(self._reshuffle) if draws else None
        out = self.events
        self._post_forced(blind_seats, out)
        self._start_street(0, out)
        self._continue(out)

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        """True once the pots are settled or the hand was cancelled."""
        return self.result is not None or self.cancelled

    @property
    def seats(self) -> tuple[Seat | None, ...]:
        """The seats as given (None = not dealt in)."""
        return self._seats

    @property
    def starting_stacks(self) -> tuple[int | None, ...]:
        """Stacks at the start of the hand by seat: what a cancelled hand gives back (§10.10)."""
        return tuple(None if s is None else s.stack for s in self._seats)

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, by seat (0 for seats not dealt in)."""
        return tuple(self._stack)

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips bet in the current betting round, by seat."""
        return tuple(self._bet)

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips each seat has put in this hand (antes, blinds, bets), by seat."""
        return tuple(self._total)

    @property
    def current_bet(self) -> int:
        """The bet to match in this betting round."""
        return self._round.to_match

    def call_amount(self, seat: int) -> int | None:
        """What ``seat`` puts in to call now, all in if short (None: nothing to call)."""
        to_call, stack = self._round.to_match - self._bet[seat], self._stack[seat]
        return None if to_call <= 0 else to_call if to_call < stack else stack

    @property
    def full_raise(self) -> int:
        """The size of a full bet or raise now (what reopens the betting, RULEBOOK §5)."""
        return self._basis()

    @property
    def street(self) -> Street:
        """The street being played."""
        return self.config.variant.streets[self.street_index]

    def is_live(self, seat: int) -> bool:
        """True when ``seat`` was dealt in and has not folded."""
        return self._live[seat]

    def is_all_in(self, seat: int) -> bool:
        """True when ``seat`` is still in the hand with no chips behind (or protected all-in)."""
        return self._live[seat] and (self._stack[seat] == 0 or self._protected[seat])

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """Every card ``seat`` holds (engine-side knowledge: project through views for players)."""
        return tuple(self._hole[seat])

    def up_flags(self, seat: int) -> tuple[bool, ...]:
        """Which of ``seat``'s cards are face up."""
        return tuple(self._up[seat])

    def pots(self) -> list[Pot]:
        """The pots as they stand, not counting bets of the round in progress."""
        collected = [t - b for t, b in zip(self._total, self._bet, strict=True)]
        return build_pots(collected, self._live, self.order, self._dead)

    @property
    def pot_total(self) -> int:
        """Every chip in the middle, bets of this round included."""
        return sum(self._total)

    def legal_actions(self, seat: int) -> LegalActions:
        """What ``seat`` may do now (nothing unless it is that seat's turn)."""
        if seat != self.actor:
            return nothing_for(seat)
        known = self._legal  # the server asks, then applies: once is enough
        if known is None or known.seat != seat:
            known = self._legal = self._find_legal(seat)
        return known

    def _find_legal(self, seat: int) -> LegalActions:
        if self._draw is not None and self._draw.pending:
            return self._draw.legal(seat, tuple(self._hole[seat]))
        decision = self._raise_decision(seat)
        stack, stud = self._stack[seat], self._stud
        if stud is not None and stud.bring_in_due:
            amount = stud.bring_in_amount(stack)
            bounds = None if isinstance(decision, str) or stack <= amount else decision
            return stud.legal_bring_in(seat, amount, bounds)
        call = self.call_amount(seat)
        if isinstance(decision, str):
            return LegalActions(seat, True, call is None, call, None, None, no_raise=decision)
        lo, hi = decision
        if stud is not None and stud.open_pair and stud.choice(self.street_index) is not None:
            sizes = raise_sizes(decision)  # the small or the big bet, nothing between
            return LegalActions(seat, True, call is None, call, lo, hi, raise_sizes=sizes)
        return LegalActions(seat, True, call is None, call, lo, hi)

    def view(self, seat: int | None) -> dict[str, object]:
        """What ``seat`` may see (``None``: a spectator); see :mod:`cardroom.games.views`."""
        from cardroom.games.views import view

        return view(self, seat)

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action) -> list[ev.Event]:
        """Apply a player's ``action``; return the events it caused.

        Accepted exactly when ``legal_actions(action.seat).allows(action)``; otherwise
        :class:`IllegalAction` (with its ``code``) and the hand is unchanged. Atomic: if
        anything fails inside, the hand is rebuilt as it was before the call.
        """
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}", err.BAD_ACTION)
        refusal = self._legal_for(action.seat).refusal(action)
        if refusal is not None:
            raise refusal
        return self._atomically(action, action.kind, action.amount, action.cards, False)

    def apply_room(self, action: RoomAction) -> list[ev.Event]:
        """Apply a decision only the room may take (:data:`~cardroom.games.actions.ROOM_KINDS`).

        ``timeout``: stand pat on a draw (no bet or raise next round), post a due bring-in,
        otherwise check if possible, otherwise fold. ``disconnect_all_in``: the seat faces
        a bet with chips already in; it stays in for them (RULEBOOK §10.6).
        """
        if not isinstance(action, RoomAction):
            raise IllegalAction(f"not a room action: {action!r}", err.BAD_ACTION)
        seat = action.seat
        kind = room_decision(self._legal_for(seat), action.kind, self._total[seat])
        return self._atomically(action, kind, 0, (), True)  # timed out on a draw: stands pat

    def cancel(self) -> list[ev.Event]:
        """Cancel the hand (RULEBOOK §10.10): every stack back to its start-of-hand value.

        The room's decision for a hand that cannot finish. Works whatever state the
        hand is in; afterwards the hand is over, with no result.
        """
        if self.is_over:
            raise IllegalAction("the hand is over", err.HAND_OVER)
        stacks = self.starting_stacks
        self._stack = [0 if s is None else s for s in stacks]
        self._bet = [0] * len(stacks)
        self._total = [0] * len(stacks)
        self._dead = [0] * len(stacks)
        self.actor = None
        self.cancelled = True
        self._legal = None
        out: list[ev.Event] = [ev.HandCancelled(stacks)]
        self.events.extend(out)
        self._inputs.append(None)
        return out

    def _legal_for(self, seat: int) -> LegalActions:
        if seat != self.actor:
            if self.actor is None:
                raise IllegalAction("the hand is over", err.HAND_OVER)
            raise IllegalAction(
                f"it is seat {self.actor}'s turn, not seat {seat}'s", err.NOT_YOUR_TURN
            )
        known = self._legal  # usually asked for just before
        return known if known is not None and known.seat == seat else self.legal_actions(seat)

    def _atomically(
        self,
        action: Action | RoomAction,
        kind: str,
        amount: int,
        cards: tuple[Card, ...],
        by_room: bool,
    ) -> list[ev.Event]:
        """Make the move ``kind`` (checked) for ``action``'s seat, then move the hand on;
        on any failure rebuild the hand as it was. ``by_room``: a timeout or a disconnect."""
        out: list[ev.Event] = []
        self._legal = None
        try:
            if kind == DRAW:
                self._drew(action.seat, cards, out, by_room)
            else:
                self._bet_action(action.seat, kind, amount, out)
            self._continue(out)
        except BaseException:
            self._restore()
            raise
        self.events.extend(out)
        self._inputs.append(action)
        return out

    def _restore(self) -> None:
        """Become again the hand as it was before the failed call (all is deterministic)."""
        from cardroom.games.replay import rebuild

        again = rebuild(self.config, self._origin, self._inputs)
        state = vars(self)
        state.clear()
        state.update(vars(again))

    def _drew(
        self, seat: int, discards: tuple[Card, ...], out: list[ev.Event], timed_out: bool = False
    ) -> None:
        draw, hole, old = self._draw, self._hole, self._hole[seat]
        assert draw is not None
        hole[seat] = draw.draw(self._dealer, seat, old, discards, timed_out, self._folded, out)
        kept = hole[seat]
        if len(kept) < len(old):  # a discard street: the flags of the cards kept
            self._up[seat] = [u for c, u in zip(old, self._up[seat], strict=True) if c in kept]
        if not draw.pending and self.street.betting:
            self._open_round(self.street_index)

    def _bet_action(self, seat: int, kind: str, to: int, out: list[ev.Event]) -> None:
        """A betting decision already checked against the legal set."""
        r = self._round
        if kind == BRING_IN:
            assert self._stud is not None
            full = self.config.stakes.effective_bring_in
            amount = self._stud.bring_in_amount(self._stack[seat])
            self._put(seat, amount)
            r.to_match = max(r.to_match, full)  # §4: a bring-in posted short is called in full
            if self._stud.posted_bring_in(full):
                r.bets = 1  # a bring-in of a full small bet is the opening bet
            out.append(ev.Acted(seat, BRING_IN, amount, self._bet[seat], self._stack[seat] == 0))
        elif kind == FOLD:
            self._live[seat] = False
            self._nlive -= 1
            out.append(ev.Acted(seat, FOLD, 0, self._bet[seat], False))
        elif kind == CHECK:
            out.append(ev.Acted(seat, CHECK, 0, self._bet[seat], False))
        elif kind == CALL:
            amount = min(r.to_match - self._bet[seat], self._stack[seat])
            self._put(seat, amount)
            out.append(ev.Acted(seat, CALL, amount, self._bet[seat], self._stack[seat] == 0))
        elif kind in (RAISE, BET):
            self._raise(seat, to, out)
        else:  # DISCONNECT_ALL_IN, checked by apply_room
            self._protected[seat] = True
            out.append(ev.Acted(seat, DISCONNECT_ALL_IN, 0, self._bet[seat], True))
        r.acted(seat)

    def _raise(self, seat: int, to: int, out: list[ev.Event]) -> None:
        size = to - self._round.to_match
        stud = self._stud  # its sizes matter only with the bring-in due or on 4th street
        if stud is not None and (stud.bring_in_due or self.street_index == 1):
            stud.after_raise(self.street_index, size)
        full = is_full_raise(size, self._basis(), self._half_rule)
        self._round.raised(seat, to, size, full)
        added = to - self._bet[seat]
        self._put(seat, added)
        out.append(ev.Acted(seat, RAISE, added, to, self._stack[seat] == 0))

    def _put(self, seat: int, amount: int) -> None:
        self._stack[seat] -= amount
        self._bet[seat] += amount
        self._total[seat] += amount

    # ---------------------------------------------------------------- sizing

    def _basis(self) -> int:
        """The size of a full raise now."""
        r = self._round
        if self._fixed:
            size = self._street_bet
            # Stud changes the size only to complete the bring-in and for a 4th-street open pair.
            stud, street = self._stud, self.street_index
            if stud is not None and (
                (street == 0 and r.bets == 0) or (street == 1 and stud.open_pair)
            ):
                return stud.bet_size(street, r.bets, r.to_match, size)
            return size
        floor = self._min_bet
        return r.last_full if r.last_full > floor else floor

    def _raise_decision(self, seat: int) -> tuple[int, int] | str:
        """The one place that decides whether ``seat`` may bet or raise: the bounds, or why not."""
        stack, r = self._stack[seat], self._round
        cur = r.to_match
        if stack <= cur - self._bet[seat]:
            return "not enough chips to raise: call all-in instead"
        if r.has_acted[seat] and not r.may_reopen(seat, self._half_rule, self._basis):
            return "the betting was not reopened: an all-in short of a full raise (call or fold)"
        if self._draw is not None and seat in self._draw.no_raise:
            return "timed out on the draw: no bet or raise this betting round"
        if self._fixed and not r.uncapped and r.bets > self._cap:
            return "the betting is capped"
        live, stacks, bets = self._live, self._stack, self._bet
        for s in self.order:
            if s != seat and live[s] and stacks[s] + bets[s] > cur and not self._protected[s]:
                break
        else:
            return "nobody left who could call a raise"
        # Fixed limit: the street's bet, but for stud's completion and 4th-street pair.
        plain = self._fixed and (self._stud is None or self.street_index > 1)
        basis = self._street_bet if plain else self._basis()
        own, most = self._bet[seat], self._spread_max
        pot = sum(self._total) if self._structure.pot_share else 0  # only a pot limit reads it
        bounds = raise_bounds(self._structure, cur, own, stack, pot, basis, most)
        if bounds is None:
            return "no raise is possible here"
        if self._stud is not None and self._stud.open_pair:
            bounds = self._stud.widen(self.street_index, bounds, cur, self._bet[seat] + stack)
        return bounds

    # ------------------------------------------------------------ progression

    def _continue(self, out: list[ev.Event]) -> None:
        """Move to the next player to act, dealing and settling as needed."""
        while True:
            if self._nlive == 1:
                self._close_round(out)
                self._settle(out, showdown=False)
                return
            if self._draw is not None and self._draw.pending:
                self.actor = self._draw.pending[0]
                return
            if self._round.is_open:
                nxt = self._round.next_actor(self._live, self._stack, self._bet, self._protected)
                if nxt is not None:
                    self.actor = nxt
                    return
                self._close_round(out)
            if self.street_index + 1 >= len(self.config.variant.streets):
                self._settle(out, showdown=True)
                return
            self._start_street(self.street_index + 1, out)

    def _close_round(self, out: list[ev.Event]) -> None:
        """End the betting round: return an uncalled bet, gather the bets."""
        self.actor = None
        if not self._round.close():
            return
        bets = self._bet  # by seat; seats not dealt in hold 0, and a table has two seats
        *_, second, most = sorted(bets)
        if most > second:  # one seat bet more than anybody called
            top = bets.index(most)
            self._stack[top] += most - second
            self._total[top] -= most - second
            out.append(ev.UncalledReturned(top, most - second))
        bets[:] = [0] * len(bets)
        out.append(ev.BettingClosed(self.street_index))

    # ----------------------------------------------------------------- dealing

    def _start_street(self, index: int, out: list[ev.Event]) -> None:
        """Deal street ``index`` and open its betting round."""
        self.street_index = index
        street = self.config.variant.streets[index]
        stakes = self.config.stakes
        small, big = stakes.effective_small_bet, stakes.effective_big_bet
        self._street_bet, self._spread_max = street_sizes(small, big, stakes.spread, street)
        out.append(ev.StreetStarted(index, street.name))
        live = [s for s in self.order if self._live[s]]
        dealer, community = self._dealer, None
        deal = street_deal(street, self.config.burn_cards)  # the order of this street's cards
        if self._stud is not None:
            stud, folded = self._stud, self._folded
            community = stud.deal(dealer, deal, len(live), folded, self._reshuffle, out)
        if community is not None:
            self.board.append(community)
        elif deal.down or deal.up:  # one event per seat and street
            flags = (False,) * deal.down + (True,) * deal.up
            dealt = dealer.round_robin(len(live), deal.down, deal.up)
            for s, cards in zip(live, dealt, strict=True):
                self._hole[s].extend(cards)
                self._up[s].extend(flags)
                out.append(ev.HoleDealt(s, cards, flags))
        if deal.board:
            if deal.burn_board:
                out.append(ev.Burned(dealer.card()))
            cards = tuple(dealer.cards(deal.board))
            self.board.extend(cards)
            out.append(ev.BoardDealt(cards))
        self._round.aggressor = None
        if deal.draw and self._draw is not None:
            burn, discard = deal.burn_draw, street.discard  # betting follows the draws
            self._draw.open(dealer, burn, self.order, live, out, discard)
        elif street.betting and (community is None or self.config.community_card_betting):
            self._open_round(index)

    def _open_round(self, index: int) -> None:
        rule = self.config.variant.first_to_act[0 if index == 0 else 1]
        cursor = 0  # LEFT_OF_BUTTON: the first seat in the dealing order
        if rule == LEFT_OF_BIG_BLIND and self._big_blind is not None:
            cursor = (self.order.index(self._big_blind) + 1) % len(self.order)
        elif self._stud is not None:  # the bring-in, then the best (or lowest) showing hand
            live = [s for s in self.order if self._live[s]]
            seat = self._stud.opener(rule, index, live, self._hole, self._up, self.board)
            cursor = self.order.index(seat)
        uncapped = self.config.heads_up_uncapped and self._nlive == 2
        opening = self._opening_raise if index == 0 else 0
        self._round.open(cursor, opening, uncapped, first=index == 0)

    def _folded(self) -> list[tuple[int, list[Card]]]:
        """The folded seats and their cards (they join the muck at a reshuffle)."""
        return [(s, self._hole[s]) for s in self.order if not self._live[s]]

    # ------------------------------------------------------------ forced bets

    def _post_forced(
        self, blind_seats: tuple[int | None, int | None] | None, out: list[ev.Event]
    ) -> None:
        posts, self._big_blind = forced_posts(
            self.config, self._seats, self.order, self.button, blind_seats
        )
        for seat, what, amount, live in posts:
            if self._stack[seat]:
                amount = min(amount, self._stack[seat])
                self._stack[seat] -= amount
                self._total[seat] += amount
                if live:
                    self._bet[seat] += amount
                elif what in DEAD_MONEY:
                    self._dead[seat] += amount
                out.append(ev.Posted(seat, what, amount, live, self._stack[seat] == 0))
        self._opening_raise = opening_raise(self.config, posts)
        self._round.to_match = bet_to_call(posts)  # §4: a blind posted short is called in full
        self._round.bets = 1 if self._round.to_match > 0 else 0

    # --------------------------------------------------------------- settling

    def _settle(self, out: list[ev.Event], *, showdown: bool) -> None:
        """Rake, show, award every pot from the last side pot to the main pot, finish."""
        self.actor = None
        live = [s for s in self.order if self._live[s]]
        first, stud = self._round.aggressor, self._stud  # who shows first: the last aggressor,
        if first is None and stud is not None:  # in stud without one, the best board
            first = stud.first_to_show(self.street_index, live, self._hole, self._up, self.board)
        settlement = settle(
            self.config,
            Table(self.order, tuple(self._live), tuple(self._total), self.button, self._dead),
            {s: Contender(tuple(self._hole[s]), self._mucks(s), self.is_all_in(s)) for s in live}
            if showdown  # who wins without a showdown shows nothing
            else {},
            tuple(self.board),
            first,
            raked=self.street_index >= self.config.variant.rake_street,
            showdown=showdown,
        )
        for award in settlement.awards():
            self._stack[award.seat] += award.amount
        out.extend(settlement.events)
        for e in settlement.events:
            if isinstance(e, ev.Shown):
                self.shown[e.seat] = e.cards
        stacks = tuple(
            None if seat is None else self._stack[s] for s, seat in enumerate(self._seats)
        )
        out.append(ev.HandEnded(stacks))
        self.result = HandResult(settlement.pots, settlement.rake, stacks)

    def _mucks(self, s: int) -> bool:
        return (seat := self._seats[s]) is None or seat.auto_muck
