"""Chinese poker at a room table (RULEBOOK §8, §10): OFC, Pineapple and the rest, served.

:class:`ChineseRoomTable` is a :class:`~cardroom.room.table.Table` whose hands are
:class:`~cardroom.chinese.ChineseHand` s: the same commands, events, views, record and
recovery, so the server drives both kinds alike. Everything that is not the hand is
the room's own code: seating, buy-ins, rebuys, leaving, sitting out, the waiting list
(:mod:`~cardroom.room.seating`), the decision clock, time bank, timeouts and
disconnection (:mod:`~cardroom.room.turns`), chat, the bank (one ledger transaction
per settled hand) and the record. What differs:

- **Seats.** The config's ``max_seats``, else the game's default (§3: OFC family 3,
  plain OFC up to 4; Chinese poker 4).
- **Dealing.** Every seated player who is not sitting out, is connected and holds
  ``min_points * point_value`` chips (at least 1) is dealt in; the button moves to
  the next such seat clockwise (at a new table, or one whose players all left: the
  draw's winner, §3). No blinds: ``HandDealt`` names the button and ``-1`` for the blinds.
- **Turns.** The player to place has ``action_seconds`` for a street, or the Chinese
  config's ``set_seconds`` (the game's ``arrange_seconds``, else 90) to set 13 cards or
  more (classic, Fantasyland); then the time bank; then the table places for him
  (:meth:`~cardroom.chinese.ChineseHand.timeout_action`: the best arrangement of a
  Fantasyland hand, else back row first in dealt order, the last cards discarded). A
  disconnected player waits ``reconnect_seconds`` first, as at a poker table; there is
  no disconnect all-in. In classic Chinese poker everyone may set at once; the clock
  runs for the first player still to set, then the next (each gets his own time).
  A leaving player's placement is made at once.
- **Settling.** The scoring's chips are settled pair by pair with each loss limited to
  the chips on the table, a short loser's creditors paid in seat order from the
  button's left (:func:`~cardroom.room.chinese_table.settle`), and posted as one ledger
  transaction; ``HandFinished`` carries the stacks after it, ``pot`` the chips won.
- **Fantasyland** carries over to the player's very next hand when dealt in to it
  (kept by player: a new player in the seat does not inherit it); a player who leaves
  or is not dealt in loses it, unless the room sat him out for being away at the deal
  (§10.6: he keeps it for the next hand he is dealt); a cancelled hand puts back what
  was pending when it was dealt (a player who sat that hand out keeps his too). The
  pending Fantasyland is
  part of the snapshot (``"fantasyland"``), and it follows ``HandDealt``,
  ``HandSettled``, ``HandVoided`` and ``PlayerLeft`` (:meth:`fold`), on a live table
  and when it is rebuilt from its record alike.
- **Conduct**: the chat's card-talk rule applies to every player dealt in (nobody
  folds); the room's integrity review sees who won chips from whom in each settled hand
  (the chip-dumping rule; there is no betting for the soft-play rule to read).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from cardroom.chinese import ChineseError, ChineseHand, HandSettled, Place, get_variant
from cardroom.chinese import Event as ChineseEvent
from cardroom.games import Event as HandEvent
from cardroom.ledger import Ledger
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room import seating, turns
from cardroom.room import views as table_views
from cardroom.room.allowances import Allowances
from cardroom.room.chinese_table import ChineseTableConfig, hand_debts, settle
from cardroom.room.clock import Clock, system_clock
from cardroom.room.commands import Command
from cardroom.room.errors import (
    BAD_PLACEMENT,
    NO_HAND,
    NOT_IN_HAND,
    NOT_YOUR_TURN,
    WRONG_GAME,
    TableError,
)
from cardroom.room.settings import TableSettings
from cardroom.room.state import SeatState, TableState, state_to_dict
from cardroom.room.table import AnyEvent, Table

POKER_ONLY = (cmd.Act, cmd.SetAdvance, cmd.ClearAdvance)
"""Commands a Chinese poker table refuses with ``wrong_game``."""


class ChineseRoomTable(Table):
    """A room table playing one game of the Chinese poker family (module docstring)."""

    def __init__(
        self,
        settings: TableSettings,
        ledger: Ledger,
        clock: Clock = system_clock,
        allowances: Allowances | None = None,
        *,
        state: TableState | None = None,
    ) -> None:
        if settings.chinese is None:
            raise TableError(WRONG_GAME, "not a Chinese poker table's settings")
        super().__init__(settings, ledger, clock, allowances, state=state)
        self.config: ChineseTableConfig = settings.chinese
        self.variant = get_variant(self.config.variant)
        self.game: ChineseHand | None = None
        self.fantasyland: dict[str, int] = {}
        """Player -> cards of his Fantasyland hand, for the next hand he is dealt."""
        self.fantasyland_before: dict[str, int] = {}
        """The pending Fantasyland when the hand in progress was dealt: a cancelled hand
        puts it back, for those dealt in and those not (as if never dealt, §10.10)."""
        self.snapshot = self.take_snapshot()

    def decision_key(self, s: int) -> Hashable:
        """Seat ``s``'s placement (see :meth:`Table.decision_key`): the hand's number and
        the cards the seat has to place. Another player's placement does not change it
        (in classic everyone sets at once); a new street dealt to the seat does."""
        game = self.game
        if game is None or not self.state.in_hand or s not in game.players:
            return None
        return self.state.hand_no, game.players[s].pending

    # ------------------------------------------------------------------ driving

    def handle(self, command: Command) -> list[AnyEvent]:
        """Apply a command (a placement, or any seating, clock or chat command)."""
        if isinstance(command, POKER_ONLY):
            raise TableError(WRONG_GAME, "this is a Chinese poker table: place your cards")
        if isinstance(command, cmd.PlaceCards):
            self.now = self.clock()
            self.out = []
            self.place(command)
            return self.out
        out = super().handle(command)
        game = self.game
        if isinstance(command, cmd.Leave) and game is not None and self.state.in_hand:
            s = self.state.seat_of(command.player)
            if s is not None and s in game.to_act():
                self.after_hand_change()  # a leaving player's placement is made at once
        return out

    def place(self, c: cmd.PlaceCards) -> None:
        """A player's placement: checked by the hand, then the next turn or the end."""
        s = seating.seat_of(self, c.player)
        game = self.game
        if game is None or not self.dealt_in(s):
            raise TableError(NOT_IN_HAND, "you are not in this hand")
        if s not in game.to_act():
            raise TableError(NOT_YOUR_TURN, "it is not your turn to place")
        try:
            events = game.apply(Place(s, c.top, c.middle, c.bottom, c.discard))
        except ChineseError as exc:
            raise TableError(BAD_PLACEMENT, str(exc)) from exc
        turn = self.state.turn
        if turn is not None and turn.seat == s and turn.bank:  # the bank left is kept
            self.emit(rv.TimeBankChanged(s, turns.bank_left(turn, self.now)))
        self.emit_hand(events)
        # In classic Chinese poker another player's clock may be the one running: keep it.
        if turn is None or turn.seat == s or game.finished or not self.variant.simultaneous:
            self.after_hand_change()

    def play_for(self, s: int, *, disconnected: bool) -> None:
        """Place for a player out of time or away: the hand's timeout placement."""
        game = self.game
        assert game is not None
        self.emit(rv.TimedOut(s, disconnected))
        self.emit_hand(game.apply(game.timeout_action(s)))
        self.after_hand_change()

    def next_need(self, seat: SeatState | None = None, *, post_now: bool = False) -> int:
        """Chips a seat needs to be dealt in (``ChineseTableConfig.chips_needed``)."""
        return self.config.chips_needed

    # ----------------------------------------------------------------- emitting

    def emit(self, event: rv.RoomEvent) -> None:
        """Apply a table event (Fantasyland follows it) and record it."""
        super().emit(event)
        self.fold(event)

    def emit_hand(self, events: Sequence[HandEvent | ChineseEvent]) -> None:
        """Record the hand's events (Fantasyland follows the settlement)."""
        super().emit_hand(events)
        for e in events:
            self.fold(e)

    def fold(self, event: AnyEvent) -> None:
        """Carry Fantasyland through one event of the record (the state already has it)."""
        state = self.state
        if isinstance(event, rv.HandDealt):
            # Dealt in or not, a player's Fantasyland is used up by this hand, unless the
            # room sat him out for being away at the deal: that was not his choice.
            self.fantasyland_before = self.fantasyland
            self.fantasyland = {p: n for p, n in self.fantasyland.items() if self._away(p)}
        elif isinstance(event, HandSettled):
            seats = state.seats
            self.fantasyland = {
                **self.fantasyland,
                **{
                    seat.player: r.fantasyland_next
                    for r in event.results
                    if r.fantasyland_next and (seat := seats[r.seat]) is not None
                },
            }
        elif isinstance(event, rv.HandVoided):
            self.fantasyland = dict(self.fantasyland_before)
        elif isinstance(event, rv.PlayerLeft):
            self.fantasyland.pop(event.player, None)
            self.fantasyland_before.pop(event.player, None)

    def _away(self, player: str) -> bool:
        """True when ``player`` sits out because the room sat him out, away at a deal."""
        s = self.state.seat_of(player)
        seat = None if s is None else self.state.seats[s]
        return seat is not None and seat.sitting_out and seat.sat_out_for == "disconnected"

    # -------------------------------------------------------------------- hands

    def take_snapshot(self) -> dict[str, Any]:
        """The table between hands as data: the room's state and the pending Fantasyland."""
        fantasyland = [[p, n] for p, n in sorted(self.fantasyland.items())]
        return {**state_to_dict(self.state), "fantasyland": fantasyland}

    def start_hand(self) -> None:
        """Deal the next hand if enough players can be dealt in (module docstring)."""
        state = self.state
        seating.sit_out_unready(self, self.next_need(), 0)
        dealt = tuple(
            s for s, seat in enumerate(state.seats) if seat is not None and not seat.sitting_out
        )
        if len(dealt) < self.variant.min_players:
            return
        # A table whose players all left is new again (§3), as a poker table is.
        last = state.positions.button if state.positions and self.game_goes_on() else None
        later = [s for s in dealt if last is None or s > last]
        button = (later or list(dealt))[0] if last is not None else None
        if button is None:  # a new table draws for the button (§3), or takes the first
            drawn = self.draw_for_button(dealt)
            button = dealt[0] if drawn is None else drawn
        hand_no = state.hand_no + 1
        self.snapshot, self.log = self.take_snapshot(), []
        fantasyland = {
            s: self.fantasyland[p] for s in dealt if (p := self.seat(s).player) in self.fantasyland
        }
        game = ChineseHand.start(
            self.variant,
            dealt,
            button,
            seed=self.hand_seed(hand_no),
            fantasyland=fantasyland,
            point_value=self.config.point_value,
        )
        self.emit(rv.HandDealt(hand_no, 0, button, -1, -1, dealt, (), (), (), self.now))
        self.game = game
        self.emit_hand(game.events)
        self.after_hand_change()

    def after_hand_change(self) -> None:
        """Settle the hand if over; else make leaving players' placements and start the
        clock of the next player to place."""
        game = self.game
        while game is not None and self.state.in_hand:
            if game.finished:
                self.finish()
                return
            to_act = game.to_act()
            leaving = [s for s in to_act if self.seat(s).leaving]
            if leaving:
                self.emit_hand(game.apply(game.timeout_action(leaving[0])))
                continue
            self.start_turn(to_act[0])
            return

    def start_turn(self, s: int) -> None:
        """Start the clock of seat ``s``'s placement. In a game where everyone sets at
        once (classic, §8) the clock is one for all, from the deal: the table shows the
        first player still setting, and when that one is done the next inherits what is
        left (none: the time is up, his time bank runs or the table sets for him), so
        nobody waits for another's clock to run out before his own starts."""
        game = self.game
        assert game is not None
        turn = self.state.turn
        shared = self.variant.simultaneous and turn is not None  # not the deal's first
        if shared and turn is not None and turn.seat == s:
            return  # another player set: this one's clock runs on
        options = game.legal_actions(s)
        full = bool(options) and options[0].place >= 13
        deadline = self.now + (self.set_seconds() if full else self.settings.action_seconds)
        if shared and turn is not None:
            deadline = self.now if turn.bank else max(self.now, turn.deadline)
        away = not self.seat(s).connected
        if away:  # the decision's one wait for the player's return (§10.6)
            deadline = max(deadline, self.now + self.settings.reconnect_seconds)
        self.emit(rv.TurnStarted(s, deadline, False, away))

    def set_seconds(self) -> float:
        """Time to set a whole hand (classic, Fantasyland)."""
        if self.config.set_seconds is not None:
            return self.config.set_seconds
        return float(self.variant.arrange_seconds or 90)

    def finish(self) -> None:
        """Settle the finished hand (losses limited to the table chips) as one ledger
        transaction and record its end."""
        game = self.game
        assert game is not None and game.results is not None
        start = {s: self.seat(s).stack for s in game.seats}
        paid = settle(hand_debts(game), start, game.seats).paid
        net = {self.seat(s).player: paid[s] for s in paid}
        self.bank.settle(self.state.hand_no, net, 0)
        self.set_aside((), {}, net)  # chips dumped by playing badly (no betting to read)
        stacks = tuple((s, start[s] + paid[s]) for s in self.state.dealt)
        pot = sum(v for v in paid.values() if v > 0)
        self.game = None
        next_at = self.now + self.settings.hand_pause_seconds
        self.emit(rv.HandFinished(self.state.hand_no, stacks, pot, 0, next_at))
        turns.refill_time_banks(self, [s for s, _ in stacks])
        seating.after_hand(self)

    def cancel_hand(self) -> list[AnyEvent]:
        """Cancel the hand in progress (§10.10): nobody's chips moved, Fantasyland stays."""
        self.now = self.clock()
        self.out = []
        if self.game is None or not self.state.in_hand:
            raise TableError(NO_HAND, "no hand in progress")
        self.emit(self.voided())
        self.game = None
        seating.after_hand(self)
        return self.out

    # ------------------------------------------------------------------- record

    def unpack(self, snapshot: dict[str, Any]) -> None:
        """Fantasyland as the snapshot holds it."""
        self.fantasyland = {p: n for p, n in snapshot.get("fantasyland", [])}

    def resume_hand(self, hand_events: list[Any]) -> None:
        """The hand in progress, replayed from its own events (its deck is in them)."""
        self.game = ChineseHand.replay(hand_events, self.variant)

    # -------------------------------------------------------------------- views

    def view(self, player: str | None) -> dict[str, Any]:
        """The table as ``player`` sees it: cards only through the Chinese projection
        (placed face-up cards are public; cards to place, discards and a Fantasyland hand
        until the showdown are the owner's)."""
        me = None if player is None else self.state.seat_of(player)
        game = self.game
        hand = None
        if game is not None and self.state.in_hand:
            hand = game.view(me)
        info = self.game_info()
        out = table_views.frame(self, player, table_views.seat_rows(self, None), (info, info), hand)
        fantasyland = {
            s: self.fantasyland[seat.player]
            for s, seat in enumerate(self.state.seats)
            if seat is not None and seat.player in self.fantasyland
        }
        out["chinese"] = {
            "variant": self.variant.key,
            "point_value": self.config.point_value,
            # §8's `arrange_seconds`, a table option shown as every option is (a street
            # takes the terms' `action_seconds`; classic deals no street at all).
            "set_seconds": self.set_seconds(),
            "fantasyland": fantasyland,
        }
        return out

    def game_info(self) -> dict[str, Any]:
        """The game as a view names it (``structure``: points)."""
        return {
            "game": self.variant.key,
            "title": self.variant.name,
            "structure": "points",
            "label": self.variant.name,
        }

    def turn_parts(self, view: dict[str, Any]) -> tuple[dict[str, Any], list[Any], list[Any]]:
        """The placement asked of the player to act (``legal``: ``actions`` ["place"],
        ``place``, ``discard``, ``free`` per row) and his cards to place."""
        hand = view["hand"]
        options = hand["options"]
        if options is None:
            raise KeyError("options")
        mine = next(p for p in hand["players"] if p["seat"] == view["you"])
        return {"actions": ["place"], **options}, list(mine["pending"]), []
