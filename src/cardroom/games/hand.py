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
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

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
from cardroom.games.betting import is_full_raise, raise_bounds
from cardroom.games.config import Seat, TableConfig, check_seats
from cardroom.games.dealing import build_deck, dealing_order, needed_cards, rotations
from cardroom.games.draw_play import DrawPlay
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.forced import BIG_BLIND_ANTE, forced_posts, opening_raise
from cardroom.games.pots import Pot, build_pots
from cardroom.games.reshuffle import Reshuffler
from cardroom.games.showdown import Contender, HandResult, Table, settle
from cardroom.games.stud_play import StudPlay
from cardroom.games.variants import (
    FIXED_LIMIT,
    LEFT_OF_BIG_BLIND,
    Street,
)

SeatInput = Seat | int | None
Origin = tuple[
    tuple[Seat | None, ...],
    int,
    Sequence[Card],
    int | str | bytes,
    tuple[int | None, int | None] | None,
    Sequence[Sequence[Card | None]],
]
"""What a hand starts from: seats, button, deck, shuffle seed, blind seats, reshuffles."""


class Hand:
    """One hand at one table; see the module docstring for the contract."""

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
        self._structure = config.betting
        self._fixed = self._structure == FIXED_LIMIT
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
        # The dealing order starting at each position: the search order for the next actor.
        self._rotations = rotations(self.order)
        self._deck = build_deck(config, deck, seed, needed_cards(config, len(self.order)))
        # Muck orders come from a seed: the table's, or a secret one drawn from the CSPRNG
        # (as unpredictable, and it lets a failed apply rebuild the hand exactly).
        shuffle = secrets.token_bytes(16) if seed is None else seed
        # What rebuilds this hand: these inputs, then every action accepted (_inputs).
        self._origin: Origin = (self._seats, button, self._deck, shuffle, blind_seats, reshuffles)
        self._inputs: list[Action | RoomAction | None] = []
        self._cached_legal: tuple[int, LegalActions] | None = None
        self.cancelled = False
        self._next_card = 0
        self._stack = [0 if s is None else s.stack for s in self._seats]
        self._bet = [0] * n
        self._total = [0] * n
        self._dead = [0] * n  # the big-blind ante: in _total, but only the main pot's
        self._live = [s is not None for s in self._seats]
        self._protected = [False] * n  # disconnect all-in: in the hand, no longer acting
        self._hole: list[list[Card]] = [[] for _ in range(n)]
        self._up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self._acted = [False] * n
        self._acted_level = [0] * n
        self._acted_seq = [0] * n
        self._cur = 0
        self._inc = 0
        self._full_seq = 0
        self._nbets = 0
        self._uncapped = False
        self._round_open = False
        self._cursor = 0
        self._nlive = len(self.order)
        self._big_blind: int | None = None
        self._aggressor: int | None = None
        self.actor: int | None = None
        self.street_index = 0
        self.result: HandResult | None = None
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.events: list[ev.Event] = [ev.HandStarted(config, self._seats, button, blind_seats)]
        # Stud and draw games: their rules live in stud_play / draw_play.
        self._reshuffle = Reshuffler(shuffle, reshuffles)
        stud = config.variant.stud
        self._stud = None if stud is None else StudPlay(stud, config.variant.streets)
        draws = any(st.draw for st in config.variant.streets)
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
        return self._cur

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
        # Every change of state records an event: the set is cached for its decision.
        cached = self._cached_legal
        if cached is not None and cached[0] == len(self.events):
            return cached[1]
        legal = self._legal_now(seat)
        self._cached_legal = (len(self.events), legal)
        return legal

    def _legal_now(self, seat: int) -> LegalActions:
        if self._draw is not None and self._draw.pending:
            return self._draw.legal(seat, self)
        if self._stud is not None and self._stud.bring_in_due:
            return self._stud.legal_bring_in(self, seat)
        if self._stud is not None and self._stud.open_pair and self._stud.choice(self) is not None:
            return self._stud.legal_with_choice(self, seat)
        to_call = self._cur - self._bet[seat]
        decision = self._raise_decision(seat)
        lo, hi, why = (None, None, decision) if isinstance(decision, str) else (*decision, "")
        call = min(to_call, self._stack[seat]) if to_call > 0 else None
        return LegalActions(seat, True, to_call <= 0, call, lo, hi, no_raise=why)

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
        legal = self._legal_for(action.seat)
        refusal = legal.refusal(action)
        if refusal is not None:
            raise refusal
        return self._atomically(action, action.seat, action.kind, action.amount, action.cards)

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
        return self._atomically(action, seat, kind, 0, ())

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
        out: list[ev.Event] = [ev.HandCancelled(stacks)]
        self.events.extend(out)
        self._inputs.append(None)
        return out

    def _legal_for(self, seat: int) -> LegalActions:
        if self.actor is None:
            raise IllegalAction("the hand is over", err.HAND_OVER)
        if seat != self.actor:
            raise IllegalAction(
                f"it is seat {self.actor}'s turn, not seat {seat}'s", err.NOT_YOUR_TURN
            )
        return self.legal_actions(seat)

    def _atomically(
        self, action: Action | RoomAction, seat: int, kind: str, to: int, cards: tuple[Card, ...]
    ) -> list[ev.Event]:
        """Make the move (already checked), then move the hand on; on any failure rebuild
        the hand as it was. A draw by the room is a timeout: it stands pat."""
        out: list[ev.Event] = []
        try:
            if kind == DRAW:
                assert self._draw is not None
                self._draw.draw(self, seat, cards, isinstance(action, RoomAction), out)
            else:
                self._bet_action(seat, kind, to, out)
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

    def _bet_action(self, seat: int, kind: str, to: int, out: list[ev.Event]) -> None:
        """A betting decision already checked against the legal set."""
        if kind == BRING_IN:
            assert self._stud is not None
            out.append(self._stud.post_bring_in(self, seat))
        elif kind == FOLD:
            self._live[seat] = False
            self._nlive -= 1
            out.append(ev.Acted(seat, FOLD, 0, self._bet[seat], False))
        elif kind == CHECK:
            out.append(ev.Acted(seat, CHECK, 0, self._bet[seat], False))
        elif kind == CALL:
            amount = min(self._cur - self._bet[seat], self._stack[seat])
            self._put(seat, amount)
            out.append(ev.Acted(seat, CALL, amount, self._bet[seat], self._stack[seat] == 0))
        elif kind in (RAISE, BET):
            self._raise(seat, to, out)
        else:  # DISCONNECT_ALL_IN, checked by apply_room
            self._protected[seat] = True
            out.append(ev.Acted(seat, DISCONNECT_ALL_IN, 0, self._bet[seat], True))
        self._acted[seat] = True
        self._acted_level[seat] = self._cur
        self._acted_seq[seat] = self._full_seq

    def _raise(self, seat: int, to: int, out: list[ev.Event]) -> None:
        size = to - self._cur
        stud = self._stud  # its sizes matter only with the bring-in due or on 4th street
        if stud is not None and (stud.bring_in_due or self.street_index == 1):
            stud.after_raise(self, size)
        if is_full_raise(size, self._basis(), self._half_rule):
            if size > self._inc:
                self._inc = size
            self._full_seq += 1
            self._nbets += 1
        self._cur = to
        self._aggressor = seat
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
        if self._fixed:
            size = self._street_bet
            # Stud changes the size only to complete the bring-in and for a 4th-street open pair.
            stud, street = self._stud, self.street_index
            if stud is not None and (
                (street == 0 and self._nbets == 0) or (street == 1 and stud.open_pair)
            ):
                return stud.bet_size(self, size)
            return size
        floor = self._min_bet
        return self._inc if self._inc > floor else floor

    def _may_reopen(self, seat: int) -> bool:
        """The incomplete-raise rule: may ``seat`` raise when the action comes back?"""
        if not self._acted[seat] or self._acted_seq[seat] < self._full_seq:
            return True
        # TDA: facing at least a full raise in total since this seat last acted.
        return not self._half_rule and (self._cur - self._acted_level[seat] >= self._basis())

    def _raise_bounds(self, seat: int) -> tuple[int, int] | None:
        """The bounds of a bet or raise by ``seat`` now, or None when there is none."""
        decision = self._raise_decision(seat)
        return None if isinstance(decision, str) else decision

    def _raise_decision(self, seat: int) -> tuple[int, int] | str:
        """The one place that decides whether ``seat`` may bet or raise: the bounds, or why not."""
        stack = self._stack[seat]
        if stack <= self._cur - self._bet[seat]:
            return "not enough chips to raise: call all-in instead"
        if self._acted[seat] and not self._may_reopen(seat):
            return "the betting was not reopened: an all-in short of a full raise (call or fold)"
        if self._draw is not None and seat in self._draw.no_raise:
            return "timed out on the draw: no bet or raise this betting round"
        if self._fixed and not self._uncapped and self._nbets > self._cap:
            return "the betting is capped"
        cur, live, stacks, bets = self._cur, self._live, self._stack, self._bet
        for s in self.order:
            if s != seat and live[s] and stacks[s] + bets[s] > cur and not self._protected[s]:
                break
        else:
            return "nobody left who could call a raise"
        # Fixed limit: the street's bet, but for stud's completion and 4th-street pair.
        plain = self._fixed and (self._stud is None or self.street_index > 1)
        basis = self._street_bet if plain else self._basis()
        if self._fixed:  # the one size, or all-in for less
            own, to = self._bet[seat] + stack, cur + basis
            bounds: tuple[int, int] | None = (to, to) if own >= to else (own, own)
        else:
            bounds = raise_bounds(
                self._structure,
                cur,
                self._bet[seat],
                stack,
                sum(self._total),
                basis,
                self._spread_max,
            )
        if bounds is None:
            return "no raise is possible here"
        if self._stud is not None and self._stud.open_pair:
            bounds = self._stud.widen(self, seat, bounds)
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
            if self._round_open:
                nxt = self._next_actor()
                if nxt is not None:
                    self.actor = nxt
                    return
                self._close_round(out)
            if self.street_index + 1 >= len(self.config.variant.streets):
                self._settle(out, showdown=True)
                return
            self._start_street(self.street_index + 1, out)

    def _next_actor(self) -> int | None:
        """The next seat from the cursor that still has to act, or None: the round is over."""
        # One pass from the cursor: count the seats able to act, note the first that must.
        live, stack, bet, cur = self._live, self._stack, self._bet, self._cur
        acted, protected = self._acted, self._protected
        start = self._cursor
        able = 0
        first = -1
        at = 0
        for i, s in enumerate(self._rotations[start]):
            if live[s] and stack[s] > 0 and not protected[s]:
                able += 1
                if first >= 0:
                    break  # a second seat able to act: the first one found acts
                if bet[s] < cur or not acted[s]:
                    first, at = s, i
                    if able > 1:
                        break
        # A lone seat able to act that has matched the bet has nobody to act against.
        if first < 0 or (able == 1 and bet[first] >= cur):
            return None
        self._cursor = (start + at + 1) % len(self.order)
        return first

    def _close_round(self, out: list[ev.Event]) -> None:
        """End the betting round: return an uncalled bet, gather the bets."""
        self.actor = None
        if not self._round_open:
            return
        self._round_open = False
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

    def _card(self) -> Card:
        card = self._deck[self._next_card]
        self._next_card += 1
        return card

    def _start_street(self, index: int, out: list[ev.Event]) -> None:
        """Deal street ``index`` and open its betting round."""
        self.street_index = index
        street = self.config.variant.streets[index]
        stakes = self.config.stakes
        self._street_bet = (
            stakes.effective_big_bet if street.big_bet else stakes.effective_small_bet
        )
        spread = stakes.spread
        self._spread_max = spread[street.spread_tier] if street.spread_tier < len(spread) else 0
        out.append(ev.StreetStarted(index, street.name))
        live = [s for s in self.order if self._live[s]]
        dealt_here = self._stud is not None and self._stud.deal(
            self, street, live, out, self._reshuffle
        )
        down, count = street.hole_down, street.hole_down + street.hole_up
        if count and not dealt_here:
            # One card at a time round the table, face-down ones first: seat j of k gets
            # cards j, j + k, j + 2k... of each block; one event per seat and street.
            k, start = len(live), self._next_card
            downs = self._deck[start : start + k * down]
            ups = self._deck[start + k * down : start + k * count]
            self._next_card = start + k * count
            flags = (False,) * down + (True,) * (count - down)
            for j, s in enumerate(live):
                cards = (*downs[j::k], *ups[j::k])
                self._hole[s].extend(cards)
                self._up[s].extend(flags)
                out.append(ev.HoleDealt(s, cards, flags))
        if street.board:
            if street.burn and self.config.burn_cards:
                out.append(ev.Burned(self._card()))
            start = self._next_card
            cards = tuple(self._deck[start : start + street.board])
            self._next_card = start + street.board
            self.board.extend(cards)
            out.append(ev.BoardDealt(cards))
        self._aggressor = None
        if street.draw and self._draw is not None:
            self._draw.open(self, out)  # the betting round opens after the draws
        elif street.betting and not (dealt_here and not self.config.community_card_betting):
            self._open_round(index)

    def _open_round(self, index: int) -> None:
        n = len(self._seats)
        if index > 0:
            self._cur = 0
            self._nbets = 0
        self._inc = self._opening_raise if index == 0 else 0
        self._full_seq = 0
        self._acted = [False] * n
        self._acted_level = [0] * n
        self._acted_seq = [0] * n
        self._uncapped = self.config.heads_up_uncapped and self._nlive == 2
        self._round_open = True
        rule = self.config.variant.first_to_act[0 if index == 0 else 1]
        self._cursor = 0
        if rule == LEFT_OF_BIG_BLIND and self._big_blind is not None:
            self._cursor = (self.order.index(self._big_blind) + 1) % len(self.order)
        if self._stud is not None:
            self._cursor = self.order.index(self._stud.opener(self, index))

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
                elif what == BIG_BLIND_ANTE:
                    self._dead[seat] += amount
                out.append(ev.Posted(seat, what, amount, live, self._stack[seat] == 0))
        self._opening_raise = opening_raise(self.config, posts, self._bet)
        self._cur = max(self._bet)
        self._nbets = 1 if self._cur > 0 else 0

    # --------------------------------------------------------------- settling

    def _settle(self, out: list[ev.Event], *, showdown: bool) -> None:
        """Rake, show, award every pot from the last side pot to the main pot, finish."""
        self.actor = None
        live = [s for s in self.order if self._live[s]]
        settlement = settle(
            self.config,
            Table(self.order, tuple(self._live), tuple(self._total), self.button, self._dead),
            {s: Contender(tuple(self._hole[s]), self._mucks(s), self.is_all_in(s)) for s in live},
            tuple(self.board),
            # The last aggressor of the final round; in stud without one, the best board.
            self._stud.first_to_show(self)
            if self._aggressor is None and self._stud is not None
            else self._aggressor,
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
        seat = self._seats[s]
        return True if seat is None else seat.auto_muck
