"""The table's own events (the hand's are the engine's): immutable values, JSON-able, the record.

A table is rebuilt from its snapshot at the start of the current hand plus these
events and the hand's events since (:mod:`cardroom.room.record`). Every change of
table state is one of these events, applied in one place
(:mod:`cardroom.room.reducer`). Times are seconds since the epoch.
"""

from __future__ import annotations

from typing import Final

from cardroom.values import value


@value
class PlayerSeated:
    """A player sat down at ``seat`` with ``stack`` chips bought in; ``owes`` is the blind
    owed before being dealt in (a new player's big blind), ``post_now`` the choice to post
    it at once rather than wait for the big blind."""

    player: str
    seat: int
    stack: int
    owes: str | None
    post_now: bool
    time_bank: float
    at: float


@value
class ChipsAdded:
    """A rebuy between hands."""

    seat: int
    amount: int
    stack: int


TABLE_CLOSED: Final = "table_closed"
"""Why everyone leaves a table the room closes (an operator, a server's stop or its
recovery): not the player's choice, so the reducing rule (§10.2) does not bind."""


FROZEN: Final = "frozen"
"""Why the room stands up (or takes off a waiting list) a player whose account was
frozen (§10.9): his chips go back to the account, frozen with it."""
BANNED: Final = "banned"
"""Why the room stands up (or takes off a waiting list) a banned player (§10.9)."""
SANCTIONED: Final = frozenset({FROZEN, BANNED})
"""The departure reasons only the record and the staff see (:mod:`cardroom.room.views`
shows them to the table as ``left``: a freeze may be an investigation's first step)."""


@value
class PlayerLeft:
    """A player left (``reason``: ``left``, ``sat_out_too_long``, ``table_closed``,
    ``frozen`` or ``banned``); ``cashed_out`` chips went back to the account."""

    seat: int
    player: str
    cashed_out: int
    reason: str
    at: float


@value
class DeparturesForgotten:
    """The reducing rule (§10.2) no longer binds these players, who left with chips
    ``reducing_minutes`` ago or more: the table forgets what they took off (so a table
    that runs for months keeps only its recent departures)."""

    players: tuple[str, ...]


@value
class LeaveRequested:
    """A player dealt into the hand asked to leave, or the room stands him up
    (``reason``, as PlayerLeft's): his decisions are played at once as on a
    timeout (check if free, else fold; stand pat; a due bring-in posted), and he
    leaves when the hand ends."""

    seat: int
    reason: str = "left"


@value
class LeaveCancelled:
    """A player who asked to leave during the hand (``LeaveRequested``, his own) takes it
    back: he keeps the seat after the hand and his decisions are his again."""

    seat: int


@value
class SatOut:
    """A player stopped being dealt in (``reason``: ``asked``, ``short`` of chips for the
    forced bets, ``disconnected``); the seat is kept."""

    seat: int
    reason: str
    at: float


@value
class SitOutRequested:
    """A player dealt into the hand asked to sit out from the next hand."""

    seat: int


@value
class AutoMuckSet:
    """The seat mucks losing hands at the showdown (``on``) or shows them (RULEBOOK §7),
    from the next hand dealt; only its own seat is told."""

    seat: int
    on: bool


@value
class SatIn:
    """A player came back; ``post_now``: post what is owed at once rather than wait for
    the big blind."""

    seat: int
    post_now: bool


@value
class Disconnected:
    """The player's connection dropped."""

    seat: int
    at: float


@value
class Reconnected:
    """The player is back: the full view is sent again, own cards included."""

    seat: int


@value
class WaitlistJoined:
    """A player joined the waiting list of a full table."""

    player: str


@value
class WaitlistLeft:
    """A player left the waiting list (``left``, ``seated``, ``offer_expired``,
    ``disconnected`` (the server: no connection of his came back in time),
    ``table_closed``, ``frozen`` or ``banned``)."""

    player: str
    reason: str


@value
class SeatOffered:
    """A free seat offered to the first player waiting, held for them until ``expires``."""

    player: str
    seat: int
    expires: float


@value
class HandDealt:
    """A hand begins (the engine's events follow): its number, game (index in the
    settings), positions, seats dealt in, extra posts and the debts of seats left out.
    ``debts_kept``: a stud hand of a rotation whose button is frozen (HORSE, 8-Game):
    the blind games resume as if it had not been played, so the blinds the seats dealt
    in owe stand (recorded before: False)."""

    hand_no: int
    game: int
    button: int
    sb: int
    bb: int
    dealt: tuple[int, ...]
    posts: tuple[tuple[int, str], ...]
    owes: tuple[tuple[int, str], ...]
    missed: tuple[int, ...]
    at: float
    debts_kept: bool = False


@value
class TurnStarted:
    """``seat`` is to act by ``deadline``; ``bank`` when that is time bank time;
    ``waited`` once this decision has waited for its player's return (§10.6: once a
    decision, so a player who keeps dropping and coming back cannot stretch it)."""

    seat: int
    deadline: float
    bank: bool
    waited: bool = False


@value
class TimeBankChanged:
    """The seat's time bank is now ``seconds`` (used, or refilled by the table's rule)."""

    seat: int
    seconds: float


@value
class TimedOut:
    """The table acted for ``seat`` (RULEBOOK §10.5–§10.6): ``disconnected`` when the
    player was away; the engine's event says what was done."""

    seat: int
    disconnected: bool


@value
class DisconnectAllInUsed:
    """A disconnect all-in was given (§10.6), logged for abuse review. That it was is
    public; ``used_today`` (the player's uses that day) is sent to his own seat only."""

    seat: int
    player: str
    hand_no: int
    used_today: int
    day: int


@value
class AllowanceReset:
    """A player's disconnect all-ins for ``day`` were reset on request (logged; seen by
    that player's seat only)."""

    seat: int
    player: str
    day: int


@value
class AdvanceSet:
    """A pre-selected action (private to the seat) and the situation it assumed: the
    street and the bet to match when it was set."""

    seat: int
    kind: str
    amount: int
    street: int
    bet: int


@value
class AdvanceCleared:
    """A pre-selected action was used, withdrawn, or dropped because the situation it
    assumed changed (``reason``: ``used``, ``stale`` (it no longer fitted when the turn
    came: nothing played), ``acted``, ``withdrawn``, ``street``, ``bet_changed``,
    ``out``, ``hand_over``: the hand ended, or was cancelled, with it still set)."""

    seat: int
    reason: str


@value
class HandFinished:
    """The hand was settled (one ledger transaction); stacks by seat after it."""

    hand_no: int
    stacks: tuple[tuple[int, int], ...]
    pot: int
    rake: int
    next_hand_at: float


@value
class HandVoided:
    """The hand could not finish and was cancelled (§10.10): every stack is back to its
    start-of-hand value, nothing moved in the ledger. What the deal changed is put
    back, so the next hand is dealt as this one was and nobody skips or repeats a
    blind: ``positions`` (button, small blind, big blind) before the hand (empty: it
    was the table's first; None: recorded before cancels put them back) and
    ``debts``, (seat, player, owes, post_now, missed_bb_hand) of each seat the deal
    changed, as they were."""

    hand_no: int
    stacks: tuple[tuple[int, int], ...]
    next_hand_at: float
    positions: tuple[int, ...] | None
    debts: tuple[tuple[int, str, str | None, bool, int | None], ...]


@value
class ChatSaid:
    """A chat line broadcast to the table (after moderation, §10.7)."""

    player: str
    text: str
    at: float


@value
class ChatBlocked:
    """A message not broadcast (or masked): ``code`` says why, ``offence`` when it earns a
    chat ban (the server records it with the account). Seen by its sender only."""

    seat: int
    player: str
    code: str
    found: str
    offence: bool
    at: float


@value
class ChatReported:
    """A complaint against a player, for review (seen by the reporter only)."""

    seat: int
    reporter: str
    accused: str
    reason: str
    note: str
    at: float


@value
class ReviewFlagged:
    """An integrity rule fired (§10.9): a flag for review, never a punishment; not shown
    to players. The room's review (``cardroom.room.review``) records it at the table
    whose hand or sit-down raised it; ``hands`` are named room-wide, ``table#n`` (they
    may be of several tables)."""

    rule: str
    accounts: tuple[str, ...]
    evidence: str
    hands: tuple[str, ...]


RoomEvent = (
    PlayerSeated
    | ChipsAdded
    | PlayerLeft
    | DeparturesForgotten
    | LeaveRequested
    | LeaveCancelled
    | SatOut
    | SitOutRequested
    | AutoMuckSet
    | SatIn
    | Disconnected
    | Reconnected
    | WaitlistJoined
    | WaitlistLeft
    | SeatOffered
    | HandDealt
    | TurnStarted
    | TimeBankChanged
    | TimedOut
    | DisconnectAllInUsed
    | AllowanceReset
    | AdvanceSet
    | AdvanceCleared
    | HandFinished
    | HandVoided
    | ChatSaid
    | ChatBlocked
    | ChatReported
    | ReviewFlagged
)
"""Any event of the table itself."""

ROOM_EVENTS: tuple[type, ...] = RoomEvent.__args__
"""Every room event class (for the codec)."""

PRIVATE: tuple[type, ...] = (
    AdvanceSet, AdvanceCleared, ChatBlocked, ChatReported, AllowanceReset, AutoMuckSet,
)  # fmt: skip
"""Events only their own seat sees."""
HIDDEN: tuple[type, ...] = (ReviewFlagged, DeparturesForgotten)
"""Events for the room's staff only (a flag; the table's own bookkeeping)."""
OWN_FIELDS: dict[type, tuple[str, ...]] = {DisconnectAllInUsed: ("used_today",)}
"""Fields of a public event that only its own seat (and the record, the staff) sees:
how many disconnect all-ins a player used today tells the others when he has none
left, when knocking him offline wins the pot by a forced fold (§10.6)."""
