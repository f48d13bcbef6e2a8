"""The cash table: a pure state machine around a sequence of hands (issue 13).

A :class:`Table` takes commands (:mod:`cardroom.room.commands`) and clock ticks
and returns events: its own (:mod:`cardroom.room.events`) and its hands'. Time
comes from an injected clock; money moves only through a
:class:`~cardroom.room.money.TableBank`; nothing here opens a socket, a thread or
a database. Every change of state is an event applied by
:func:`~cardroom.room.reducer.apply_event`, so the table is rebuilt from its
record: the snapshot taken at the start of the current hand plus the events
since (:meth:`Table.record`, :meth:`Table.restore`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from cardroom.cards import CARDS
from cardroom.chinese import Event as ChineseEvent
from cardroom.games import Event as HandEvent
from cardroom.games import Hand, IllegalAction, Seat, TableConfig, button_by_high_card, shuffle_deck
from cardroom.games.variants import BLINDS
from cardroom.ledger import Ledger
from cardroom.room import conduct, engine_port, seating, turns
from cardroom.room import events as rv
from cardroom.room import views as table_views
from cardroom.room.allowances import Allowances, MemoryAllowances
from cardroom.room.chat import TableChat
from cardroom.room.clock import Clock, system_clock
from cardroom.room.commands import Command, PlaceCards
from cardroom.room.errors import BAD_COMMAND, NO_HAND, WRONG_GAME, TableError
from cardroom.room.games_port import game_for
from cardroom.room.integrity import Access, Flag
from cardroom.room.money import TableBank
from cardroom.room.positions import (
    NOT_READY,
    READY,
    SeatFacts,
    as_post,
    dealing_need,
    eligible_seats,
    plan_hand,
)
from cardroom.room.reducer import apply_event
from cardroom.room.review import Review, SettledHand, hand_ref
from cardroom.room.settings import TableSettings, forced_need
from cardroom.room.state import SeatState, TableState, state_from_dict, state_to_dict

AnyEvent = rv.RoomEvent | HandEvent | ChineseEvent
"""An event of the table's record: the table's own or its hand's (a poker hand's, or a
Chinese poker hand's at a :class:`~cardroom.room.chinese_room.ChineseRoomTable`)."""

ROOM_EVENT_TYPES = frozenset(rv.ROOM_EVENTS)
REBASE_EVENTS = 1000
"""Events the log holds between hands before :meth:`Table.rebase` starts it afresh."""


def _no_placement(table: Table, c: Any) -> None:
    raise TableError(WRONG_GAME, "this is a poker table: act, there are no rows to place")


_HANDLERS: dict[type, Callable[[Table, Any], None]] = {
    **seating.HANDLERS,
    **turns.HANDLERS,
    **conduct.HANDLERS,
    PlaceCards: _no_placement,
}


class Table:
    """One cash table; see the module docstring."""

    def __init__(
        self,
        settings: TableSettings,
        ledger: Ledger,
        clock: Clock = system_clock,
        allowances: Allowances | None = None,
        *,
        state: TableState | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.bank = TableBank(ledger, settings.table_id, settings.currency)
        self.allowances: Allowances = allowances if allowances is not None else MemoryAllowances()
        self.configs: tuple[TableConfig, ...] = tuple(
            settings.hand_config(c) for c in settings.games
        )
        # Chips a seat needs to be dealt in, per game (asked at every deal).
        self.needs: tuple[int, ...] = tuple(forced_need(c) for c in self.configs)
        self.state = state if state is not None else TableState([None] * settings.seat_count)
        self.hand: Hand | None = None
        self.chat = TableChat()
        self.reviews: list[Review] = []
        """What the room's integrity review has yet to see (:mod:`cardroom.room.review`)."""
        self.snapshot: dict[str, Any] = state_to_dict(self.state)
        self.log: list[AnyEvent] = []
        self.out: list[AnyEvent] = []
        self.now = clock()

    # ------------------------------------------------------------------ driving

    def handle(self, command: Command) -> list[AnyEvent]:
        """Apply a command; return the events it caused, or raise TableError unchanged."""
        self.now = self.clock()
        self.out = []
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise TableError(BAD_COMMAND, f"not a table command: {command!r}")
        try:
            handler(self, command)
        except IllegalAction as exc:
            raise TableError(getattr(exc, "code", "illegal_action"), str(exc)) from exc
        return self.out

    def tick(self, *, deal: bool = True) -> list[AnyEvent]:
        """Let time pass: timeouts, expired offers, long sit-outs, the next hand (not
        with ``deal`` false: a room stopping lets the hands in progress finish)."""
        self.now = self.clock()
        self.out = []
        turns.expire_turn(self)
        seating.expire(self)
        if deal and not self.state.in_hand and self.now >= self.state.next_hand_at:
            self.start_hand()
        return self.out

    def resume_clocks(self) -> list[AnyEvent]:
        """After the table stood still (a step its database refused, its record read back):
        the decision running gets at least ``action_seconds`` from now (§10.5), a seat
        offered at least ``waitlist_offer_seconds`` (§10.3). Meanwhile every action and
        join was answered ``not_stored`` or ``busy`` while the clock ran on, so the table
        timed the player out (his bank spent) or passed the seat on the moment the
        database was back."""
        self.now = self.clock()
        self.out = []
        turn = self.state.turn
        resumed = self.now + self.settings.action_seconds
        if self.state.in_hand and turn is not None and turn.deadline < resumed:
            self.emit(rv.TurnStarted(turn.seat, resumed, False, turn.waited))
        held = self.now + self.settings.waitlist_offer_seconds
        for player, offer in sorted(self.state.offers.items()):
            if offer.expires < held:
                self.emit(rv.SeatOffered(player, offer.seat, held))
        return self.out

    def cancel_hand(self) -> list[AnyEvent]:
        """Cancel the hand in progress (RULEBOOK §10.10): every stack back to its start."""
        self.now = self.clock()
        self.out = []
        hand = self.hand
        if hand is None or not self.state.in_hand:
            raise TableError(NO_HAND, "no hand in progress")
        self.emit_hand(engine_port.cancel(hand))
        turns.clear_advances_at_hand_end(self)
        self.emit(self.voided())
        self.hand = None
        seating.after_hand(self)
        return self.out

    def voided(self) -> rv.HandVoided:
        """The event cancelling the hand in progress (§10.10): the table goes back to
        its state at the start of the hand (its snapshot): stacks, positions, and the
        blinds the deal took from each seat's debts (a seat's own choice made since,
        to post now or not, stays when it was not dealt in)."""
        state, before = self.state, state_from_dict(self.snapshot)
        stacks = tuple((s, self.seat(s).stack) for s in state.dealt)
        p = before.positions
        positions = () if p is None else (p.button, p.sb, p.bb)
        debts = []
        for s, seat in enumerate(state.seats):
            was = before.seats[s]
            if seat is None or was is None or was.player != seat.player:
                continue
            post_now = was.post_now if s in state.dealt else seat.post_now
            debt = (was.owes, post_now, was.missed_bb_hand)
            if debt != (seat.owes, seat.post_now, seat.missed_bb_hand):
                debts.append((s, seat.player, *debt))
        return rv.HandVoided(state.hand_no, stacks, self.now, positions, tuple(debts))

    def close(self) -> list[AnyEvent]:
        """Everyone stands up and is cashed out (after a crash, or when the table closes);
        a hand in progress is cancelled first. The waiting list ends first: no seat of a
        closing table is offered (nor held on the table reopened after a recovery)."""
        cancelled = self.cancel_hand() if self.state.in_hand else []
        self.now = self.clock()
        self.out = cancelled
        for player in list(self.state.waitlist):
            self.emit(rv.WaitlistLeft(player, rv.TABLE_CLOSED))
        for s, seat in enumerate(self.state.seats):
            if seat is not None:
                seating.remove(self, s, rv.TABLE_CLOSED)
        return self.out

    # ----------------------------------------------------------------- emitting

    def emit(self, event: rv.RoomEvent) -> None:
        """Apply a table event and add it to the record and to this call's output."""
        apply_event(self.state, event)
        self.log.append(event)
        self.out.append(event)

    def emit_hand(self, events: Sequence[HandEvent | ChineseEvent]) -> None:
        """Record the hand's events (the hand has applied them already)."""
        self.log.extend(events)
        self.out.extend(events)

    def take_snapshot(self) -> dict[str, Any]:
        """The table between hands as data (a kind that keeps more adds it)."""
        return state_to_dict(self.state)

    def rebase(self) -> bool:
        """Between hands, once :data:`REBASE_EVENTS` events piled up in the log: a snapshot
        of now, the log emptied; whether it was taken. The log is emptied only when a hand is dealt,
        and a table dealing none (one player seated; the lines he chats, players coming
        and going) would keep every event for weeks, and have them all replayed at a
        rebuild."""
        if self.state.in_hand or len(self.log) < REBASE_EVENTS:
            return False
        self.snapshot, self.log = self.take_snapshot(), []
        return True

    def seat(self, s: int) -> SeatState:
        """The occupied seat ``s``."""
        seat = self.state.seats[s]
        if seat is None:
            raise TableError(BAD_COMMAND, f"seat {s} is empty")
        return seat

    def review_access(self, player: str, ip: str, device: str) -> None:
        """``player`` sat down from ``ip`` / ``device``: set aside for the room's review."""
        self.reviews.append(Access(player, ip, device, self.now))

    def set_aside(
        self, events: Sequence[HandEvent], players: dict[int, str], net: dict[str, int]
    ) -> None:
        """The hand just settled, for the room's review (``net``: each player's result)."""
        ref = hand_ref(self.settings.table_id, self.state.hand_no)
        money = self.settings.currency.value
        self.reviews.append(SettledHand(ref, events, players, net, self.now, money))

    def take_reviews(self) -> list[Review]:
        """What the room's integrity review has yet to see, in order (then forgotten)."""
        items, self.reviews = self.reviews, []
        return items

    def record_flags(self, flags: Sequence[Flag]) -> list[AnyEvent]:
        """Record the room's integrity flags (§10.9) as ``ReviewFlagged`` events of this
        table, for an operator (shown to no player); returns them."""
        self.out = []
        for flag in flags:
            hands = tuple(str(h) for h in flag.hands)
            self.emit(rv.ReviewFlagged(flag.rule, flag.accounts, flag.evidence, hands))
        return self.out

    def decision_key(self, s: int) -> Hashable:
        """What names seat ``s``'s decision in the hand in progress (None: no hand): it
        changes whenever that decision may have changed, and only then; a server refuses
        an action decided before (the protocol's ``stale_turn``). In poker each action
        can change everyone's: the hand's number and how far its record has come."""
        hand = self.hand
        if hand is None or not self.state.in_hand:
            return None
        return self.state.hand_no, len(hand.events)

    def dealt_in(self, s: int) -> bool:
        """True when seat ``s`` is dealt into the hand in progress."""
        return self.state.in_hand and s in self.state.dealt

    # -------------------------------------------------------------------- hands

    def start_hand(self) -> None:
        """Deal the next hand if at least two players can be dealt in."""
        state = self.state
        hand_no = state.hand_no + 1
        slot = game_for(self.settings, state.rotation_hand(hand_no))
        config, need = self.configs[slot.index], self.needs[slot.index]
        seating.sit_out_unready(self, need, config.stakes.small_blind)
        facts = self.facts(config, need)
        eligible = eligible_seats(facts)
        prev = state.positions if self.game_goes_on() else None
        plan = plan_hand(
            facts,
            prev,
            hand_no,
            blinds=config.variant.forced_bets == BLINDS,
            frozen=slot.button_frozen,
            drawn=None if prev else self.draw_for_button(eligible),
        )
        if plan is None:
            return
        self.snapshot, self.log = self.take_snapshot(), []  # the one way a snapshot is taken
        seats: list[Seat | None] = [None] * len(state.seats)
        for s in plan.dealt:
            seat = self.seat(s)
            seats[s] = Seat(seat.stack, seat.auto_muck, plan.posts.get(s))
        blind_seats = None
        if config.variant.forced_bets == BLINDS:
            blind_seats = (plan.small_blind, plan.big_blind)
        seed = self.hand_seed(hand_no)
        hand = Hand(config, seats, plan.positions.button, seed=seed, blind_seats=blind_seats)
        p = plan.positions
        self.emit(
            rv.HandDealt(
                hand_no,
                slot.index,
                p.button,
                p.sb,
                p.bb,
                plan.dealt,
                tuple(sorted(plan.posts.items())),
                tuple(sorted(plan.owes.items())),
                plan.missed_at,
                self.now,
                # HORSE's stud: the blinds owed wait for the flop games; not at a new
                # table (§3), which has no blind game to resume: everyone is dealt in.
                slot.button_frozen and not plan.fresh,
            )
        )
        self.hand = hand
        self.emit_hand(hand.events)
        self.after_hand_change()

    def game_goes_on(self) -> bool:
        """Whether the next hand goes on from the last one's positions: some player seated
        here, sitting out or not, has played a hand here. Otherwise the table is new
        again (RULEBOOK §3), even if it dealt hands to players now gone: everyone
        present is dealt in and the button drawn for, not left on a seat emptied since
        (a dead button, no small blind) with newcomers waiting for a big blind in a
        game nobody at the table is playing. Players sitting out count: back, they
        find the game they left (its blinds owed, its button), not a new one."""
        if self.state.positions is None:
            return False
        return any(seat is not None and seat.hands_dealt for seat in self.state.seats)

    def draw_for_button(self, seats: Sequence[int]) -> int | None:
        """At a new table, the seat of ``seats`` (those who can be dealt in) that draws
        the highest card for the button (RULEBOOK §3; a seeded table draws from its
        seed); None when the table does not draw (``draw_button``) or no hand can be
        dealt (fewer than two seats: an empty table waiting shuffles nothing)."""
        if len(seats) < 2 or not self.settings.draw_button:
            return None
        seed = None if self.settings.seed is None else f"{self.settings.seed}:button"
        return button_by_high_card(seats, shuffle_deck(CARDS, seed))[0]

    def play_for(self, s: int, *, disconnected: bool) -> None:
        """Act for seat ``s`` whose time ran out (§10.5) or who is away (§10.6)."""
        hand = self.hand
        assert hand is not None
        turns.act_for(self, hand, s, disconnected=disconnected)

    def next_need(self, seat: SeatState | None = None, *, post_now: bool = False) -> int:
        """Chips a seat needs to be dealt the next hand: its game's forced bets; for
        ``seat``, posting now if ``post_now``, the dead small blind too when it owes both
        blinds (:func:`~cardroom.room.positions.dealing_need`)."""
        state = self.state
        game = game_for(self.settings, state.rotation_hand(state.hand_no + 1)).index
        if seat is None:
            return self.needs[game]
        small_blind = self.configs[game].stakes.small_blind
        return dealing_need(self.needs[game], small_blind, seat.owes, post_now)

    def hand_seed(self, hand_no: int) -> str | None:
        """The seed of hand ``hand_no`` at a seeded table (None: CSPRNG decks)."""
        return None if self.settings.seed is None else f"{self.settings.seed}:{hand_no}"

    def facts(self, config: TableConfig, need: int) -> list[SeatFacts | None]:
        """What the planner needs of each seat for a hand of ``config`` (``need``: chips
        for its forced bets)."""
        out: list[SeatFacts | None] = []
        for seat in self.state.seats:
            if seat is None:
                out.append(None)
                continue
            least = dealing_need(need, config.stakes.small_blind, seat.owes, seat.post_now)
            eligible = not seat.sitting_out and seat.connected and seat.stack >= least
            if seat.owes is None and not seat.post_now and seat.missed_bb_hand is None:
                out.append(READY if eligible else NOT_READY)  # most seats, most hands
            else:
                out.append(
                    SeatFacts(eligible, as_post(seat.owes), seat.post_now, seat.missed_bb_hand)
                )
        return out

    def after_hand_change(self) -> None:
        """After the hand moved: settle it if over, else start the next decision's clock
        (playing pre-selected actions and leaving players' folds at once)."""
        hand, state = self.hand, self.state
        while hand is not None and state.in_hand:
            actor = hand.actor
            if actor is None:  # the hand is over (no decision is left)
                self.finish_hand(hand)
                return
            if state.advances:
                turns.clear_stale_advances(self, hand)
            seat = state.seats[actor]
            assert seat is not None
            # Most decisions wait for the player: skip the advance/leaving checks then.
            busy = seat.advance is not None or seat.leaving
            if not (busy and turns.act_without_waiting(self, hand, actor)):
                turns.start_turn(self, actor, seat)
                return

    def finish_hand(self, hand: Hand) -> None:
        """Post the hand's one ledger transaction and record its end."""
        result = hand.result
        assert result is not None
        deltas: dict[str, int] = {}
        players: dict[int, str] = {}
        stacks: list[tuple[int, int]] = []
        seats, hand_no = self.state.seats, self.state.hand_no
        for s in self.state.dealt:
            seat = seats[s]
            assert seat is not None
            end = result.stacks[s]
            assert end is not None
            deltas[seat.player] = end - seat.stack
            players[s] = seat.player
            stacks.append((s, end))
        self.bank.settle(hand_no, deltas, result.rake)
        self.set_aside(hand.events, players, deltas)
        pause = self.settings.hand_pause_seconds
        pot = sum(p.amount for p in result.pots)
        turns.clear_advances_at_hand_end(self)
        self.emit(
            rv.HandFinished(self.state.hand_no, tuple(stacks), pot, result.rake, self.now + pause)
        )
        turns.refill_time_banks(self, [s for s, _ in stacks])
        seating.after_hand(self)

    # ------------------------------------------------------------------- record

    def record(self) -> tuple[dict[str, Any], list[AnyEvent]]:
        """The snapshot at the start of the current hand and the events since."""
        return self.snapshot, list(self.log)

    @classmethod
    def restore(
        cls,
        settings: TableSettings,
        snapshot: dict[str, Any],
        events: Sequence[AnyEvent],
        ledger: Ledger,
        clock: Clock = system_clock,
        allowances: Allowances | None = None,
    ) -> Table:
        """A table rebuilt from its record (the ledger and allowances are not touched:
        the money the events describe was posted when they happened): the room's events
        through the reducer, each event through :meth:`fold`, the hand in progress
        through :meth:`resume_hand`."""
        table = cls(
            settings,
            ledger,
            clock,
            allowances,
            state=state_from_dict(snapshot),
        )
        table.snapshot = snapshot
        table.unpack(snapshot)
        hand_events: list[Any] = []
        for e in events:
            if type(e) in ROOM_EVENT_TYPES:
                apply_event(table.state, e)  # type: ignore[arg-type]
                if isinstance(e, rv.HandDealt):
                    hand_events = []
            else:
                hand_events.append(e)
            table.fold(e)
        table.log = list(events)
        if table.state.in_hand:
            table.resume_hand(hand_events)
        return table

    def unpack(self, snapshot: dict[str, Any]) -> None:
        """Take what a table kind keeps in its snapshot beside the state (nothing here)."""

    def fold(self, event: AnyEvent) -> None:
        """Follow one event of the record beyond the state (nothing here)."""

    def resume_hand(self, hand_events: list[Any]) -> None:
        """The hand in progress, from its own events (its deck is in its record)."""
        self.hand = engine_port.rebuild_hand(hand_events, self.hand_seed(self.state.hand_no))

    @classmethod
    def recover(
        cls,
        settings: TableSettings,
        snapshot: dict[str, Any],
        events: Sequence[AnyEvent],
        ledger: Ledger,
        clock: Clock = system_clock,
        allowances: Allowances | None = None,
    ) -> Table:
        """After a crash: rebuild the table and cancel the unfinished hand (§10.10)."""
        table = cls.restore(settings, snapshot, events, ledger, clock, allowances)
        if table.state.in_hand:
            table.cancel_hand()
        return table

    # -------------------------------------------------------------------- views

    def view(self, player: str | None) -> dict[str, Any]:
        """The table as ``player`` sees it (None: a spectator)."""
        return table_views.table_view(self, player)

    def turn_parts(self, view: dict[str, Any]) -> tuple[dict[str, Any], list[Any], list[Any]]:
        """From the view of the player to act: the legal actions, own cards and board
        (what the server's ``turn`` message carries); KeyError when there is no decision."""
        hand = view["hand"]
        legal = hand["legal"]
        if legal is None:
            raise KeyError("legal")
        mine = hand["seats"][view["you"]] or {}
        return legal, list(mine.get("cards") or []), list(hand.get("board") or [])

    def stacks(self) -> dict[str, int]:
        """Settled chips by player (what the ledger's table-stack accounts hold)."""
        return {s.player: s.stack for s in self.state.seats if s is not None}
