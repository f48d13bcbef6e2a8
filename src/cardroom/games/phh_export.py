"""Engine hands as PHH records (export); the inverse of :mod:`cardroom.games.phh_replay`.

Export writes any engine hand whose table PHH (with this project's variant codes,
``docs/phh_extensions.md``) can describe back to a record that re-imports to the
same result. Players are numbered from the button's left (``p1``), the button last.
Where the table's options PHH has no field for may not change a hand (the raise cap,
the stud options: :data:`PLAY_OPTIONS`), the hand is exported when it plays the same
under PHH's reading (the engine replays its moves under it to the same events), so a
room stud hand that never reached a fourth raise nor bet big on an open pair has one.

:func:`export_for` writes the record as one seat saw it: every card comes from that
event's projection for the seat (:func:`cardroom.games.views.event_view`), so a card
the seat was not shown is unknown (``??``) whatever else the seat knows of it (its
own discards, dealt to another player after a reshuffle, stay that player's secret).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import BRING_IN as BRING_IN_ACTION
from cardroom.games.actions import CALL, CHECK, DISCONNECT_ALL_IN, FOLD, RAISE
from cardroom.games.config import POST_BIG_BLIND, POST_BOTH_BLINDS, TableConfig
from cardroom.games.draw import DrawError
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.forced import DEAD_SMALL_BLIND, STRADDLE, bet_to_call, forced_posts
from cardroom.games.hand import Hand
from cardroom.games.phh import HandHistory, PhhAction, PhhError
from cardroom.games.phh_variants import big_blind_ante_index, phh_code_of, table_config
from cardroom.games.replay import replay_under
from cardroom.games.variants import BRING_IN, BUTTON_BLIND, FIXED_LIMIT
from cardroom.games.views import event_view

__all__ = ["REFUSALS", "export", "export_for"]

REFUSALS: dict[str, str] = {
    "cancelled": "the hand was cancelled (RULEBOOK 10.10): never played out",
    "disconnect_all_in": "a disconnected player was treated as all-in (10.6)",
    "blind_seats": "blinds were posted out of the usual seats",
    "dead_blind": "a dead small blind beside antes, or posted all-in",
    "live_post": "a live post heads-up or after a lone big blind",
    "dead_button": "a heads-up blind game with a dead button",
    "straddles": "straddles after a lone big blind",
    "table": "the table's game, structure, options or sizes have no PHH form",
    "room_rules": "the hand used a room rule PHH reads otherwise (a stud option, the cap)",
    "short_raise": "a short all-in raise the cap did not count took a round past PHH's cap",
    "short_forced_bet": "the largest forced bet was posted all-in for less (called in full)",
}
"""Why :func:`export` refuses a hand: ``PhhError.code`` -> what it means (docs/api.md:
``phh_refusal``). Stable: clients may switch on them."""

LIVE_POSTS = (POST_BIG_BLIND, POST_BOTH_BLINDS)
"""A seat's posts that put in a live big blind."""

STUD_OPTIONS: tuple[str, ...] = ("fourth_street_pair", "bring_in_by_position")
STUD_OPTIONS += ("stud_order_ties", "community_card_betting")
PLAY_OPTIONS = ("heads_up_uncapped", *STUD_OPTIONS)
"""Options (with the raise cap) that PHH has no field for but a hand may not use: a
hand played under the table's own is exported when it plays the same under PHH's
(a round that never reaches the smaller cap, no big bet on an open pair, no tie
deciding the bring-in or who acts first, no community card)."""
PLAY_RULES = ("raise_cap", *PLAY_OPTIONS)
_RULE_NAMES = {
    "raise_cap": "cap on raises",
    "heads_up_uncapped": "cap heads-up",
    "fourth_street_pair": "bet on an open pair on fourth street",
    "bring_in_by_position": "bring-in order",
    "stud_order_ties": "order of equal hands showing",
    "community_card_betting": "betting on a stud community card",
}

Cards = tuple[Card | None, ...]
Sight = Callable[[ev.Event, str, tuple[Card, ...]], Cards]
"""The cards of one field of an event as written (None: an unknown card)."""


def export(hand: Hand) -> HandHistory:
    """The PHH record of ``hand`` (finished or not), players from the button's left.

    Raises PhhError when PHH cannot describe the table (a game without a PHH
    code, options that always replay differently) or this hand (one that used an
    option PHH reads otherwise, such as a fourth raise under a cap of four).
    """
    config = hand.config
    code = _for_table(phh_code_of, config)
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    order = hand.order
    player = {seat: i for i, seat in enumerate(order)}
    n = len(order)
    stakes = config.stakes
    lone = _lone_big_blind(hand)
    history = HandHistory(
        variant=code,
        antes=_with_dead_blinds(_export_antes(config, n, lone), hand),
        starting_stacks=tuple(started.seats[s].stack for s in order),  # type: ignore[union-attr]
        actions=tuple(_export_actions(hand.events, player)),
        blinds_or_straddles=_with_posts(_export_blinds(config, n, lone), hand),
        bring_in=stakes.effective_bring_in if config.variant.forced_bets == BRING_IN else None,
        min_bet=None if config.betting == FIXED_LIMIT else stakes.effective_min_bet,
        small_bet=stakes.effective_small_bet if config.betting == FIXED_LIMIT else None,
        big_bet=stakes.effective_big_bet if config.betting == FIXED_LIMIT else None,
        # A big-blind ante, a dead small blind are dead money (PokerKit's false, which
        # also keeps antes that differ by player); equal antes count in side pots.
        ante_trimming_status=not stakes.big_blind_ante and not any(_dead_small_blinds(hand)),
        finishing_stacks=tuple(hand.stacks[s] for s in order) if hand.is_over else None,
    )
    _check_describable(hand, history)
    return _with_rake(history, hand)


def export_for(hand: Hand, seat: int | None) -> HandHistory:
    """The PHH record of ``hand`` as ``seat`` saw it (None: a spectator): the cards of
    each event are those of its projection for ``seat``, every other one ``??``.

    Only how many cards a field holds is taken from the event itself (the number
    drawn or discarded is public). Raises PhhError like :func:`export`.
    """
    history = export(hand)
    order = hand.order
    player = {s: i for i, s in enumerate(order)}
    views: dict[int, dict[str, Any]] = {}

    def sight(event: ev.Event, name: str, cards: tuple[Card, ...]) -> Cards:
        view = views.get(id(event))
        if view is None:
            view = views[id(event)] = event_view(event, seat)
        shown = view.get(name)
        if not isinstance(shown, list):
            return (None,) * len(cards)
        return tuple(None if c is None else Card.parse(c) for c in shown)

    actions = tuple(_export_actions(hand.events, player, sight))
    return dataclasses.replace(history, actions=actions)


def _with_rake(history: HandHistory, hand: Hand) -> HandHistory:
    """A raked hand as the standard writes one (optional.rst): PHH has no rake field, so
    the actions replay to the stacks before the rake, and ``finishing_stacks`` and
    ``winnings`` are after it; ``_rake`` (a user-defined field) says how much was taken."""
    result = hand.result
    if hand.config.rake is None or result is None:
        return history
    won = result.winnings()
    winnings = tuple(won.get(s, 0) for s in hand.order)
    fields = {**history.fields, "_rake": result.rake}
    return dataclasses.replace(history, winnings=winnings, fields=fields)


def _everything(event: ev.Event, name: str, cards: tuple[Card, ...]) -> Cards:
    return cards


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


def _dead_small_blinds(hand: Hand) -> list[int]:
    """Each seat's dead small blind (by seat): posted by a player back from missing both
    blinds (§10.4), as the engine's ``Posted`` events say it was."""
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    dead = [0] * len(started.seats)
    for event in hand.events:
        if isinstance(event, ev.Posted) and event.what == DEAD_SMALL_BLIND:
            dead[event.seat] += event.amount
    return dead


def _with_dead_blinds(antes: tuple[int, ...], hand: Hand) -> tuple[int, ...]:
    """PHH has no dead blind, but a dead small blind is dead money put in before the
    cards, as an ante is: it is written in the poster's ante entry (the standard's
    antes may differ by player; PokerKit plays them as dead money for the main pot)."""
    dead = _dead_small_blinds(hand)
    return tuple(a + dead[s] for a, s in zip(antes, hand.order, strict=True))


def _with_posts(blinds: tuple[int, ...] | None, hand: Hand) -> tuple[int, ...] | None:
    """A player joining with a live big blind writes it negative (PHH's live post), and so
    does one posting both blinds (the dead small one is in his ante); a straddler's
    post is covered by the straddle, so it has its straddle entry already."""
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    if blinds is None:
        return None
    out = list(blinds)
    for i, s in enumerate(hand.order):
        seat = started.seats[s]
        if seat is not None and seat.post in LIVE_POSTS and not out[i]:
            out[i] = -hand.config.stakes.big_blind
    return tuple(out)


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


def _showdown_before_the_runout(events: Sequence[ev.Event]) -> Sequence[ev.Event]:
    """``events`` with the showdown moved before the board dealt after the last action:
    the standard shows "after all players go all-in" (``required.rst``), then deals the
    rest. Only where nothing but board cards follow the last action (a stud or draw hand
    still deals or draws its players' own cards) and every hand is shown: the standard
    has everyone show then, while §7 lets a covering player muck a beaten hand at the
    end (written at the end, as played)."""
    last = max((i for i, e in enumerate(events) if isinstance(e, ev.Acted)), default=-1)
    after = events[last + 1 :]
    if not any(isinstance(e, ev.BoardDealt) for e in after) or any(
        isinstance(e, ev.HoleDealt | ev.Drew | ev.Mucked) for e in after
    ):
        return events
    showdown = [e for e in after if isinstance(e, ev.Shown)]
    rest = [e for e in after if not isinstance(e, ev.Shown)]
    return [*events[: last + 1], *showdown, *rest]


def _export_actions(
    events: Sequence[ev.Event], player: dict[int, int], sight: Sight = _everything
) -> Iterator[PhhAction]:
    street: dict[int, list[Card | None]] = {}  # a street's cards per player: down, then up
    replaced: list[PhhAction] = []  # a draw's replacements, after every discard (PHH order)
    for event in _showdown_before_the_runout(events):
        if isinstance(event, ev.HoleDealt):
            street.setdefault(player[event.seat], []).extend(sight(event, "cards", event.cards))
            continue
        if isinstance(event, ev.Drew):
            yield PhhAction("sd", player[event.seat], sight(event, "discarded", event.discarded))
            if event.dealt:
                dealt = sight(event, "dealt", event.dealt)
                replaced.append(PhhAction("dh", player[event.seat], dealt))
            continue
        if isinstance(event, ev.StubReshuffled):
            continue  # mid-draw, unwritten: the round's discards still come before its deals
        yield from replaced
        replaced = []
        for p, cards in street.items():
            yield PhhAction("dh", p, tuple(cards))
        street = {}
        if isinstance(event, ev.BoardDealt):
            yield PhhAction("db", cards=sight(event, "cards", event.cards))
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
            yield PhhAction("sm", player[event.seat], sight(event, "cards", event.cards))
        elif isinstance(event, ev.Mucked):
            yield PhhAction("sm", player[event.seat])


def _check_dead_blinds(hand: Hand) -> None:
    """A dead small blind is written as an ante, dead money for the main pot (PokerKit's
    ``ante_trimming_status = false``): refuse it beside antes (equal antes count in the
    side pots, a big-blind ante has the ante entries), or where PHH would post it first
    (antes come before blinds) from a stack too short for both blinds (for a straddler,
    the small blind and his straddle)."""
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    stakes = hand.config.stakes
    dead = _dead_small_blinds(hand)
    if not any(dead):
        return
    if stakes.big_blind_ante or stakes.ante:
        raise PhhError("PHH cannot record a dead small blind beside antes", code="dead_blind")
    straddlers = [e.seat for e in hand.events if isinstance(e, ev.Posted) and e.what == STRADDLE]
    for s, (seat, money) in enumerate(zip(started.seats, dead, strict=True)):
        # A straddle covers the live post of a straddler: his live chips are the straddle.
        live = stakes.straddles[straddlers.index(s)] if s in straddlers else stakes.big_blind
        if money and seat is not None and seat.stack < stakes.small_blind + live:
            raise PhhError("PHH cannot record a dead small blind posted all-in", code="dead_blind")


def _check_describable(hand: Hand, history: HandHistory) -> None:
    """PHH has no field for some table options: refuse what would replay differently."""
    config = hand.config
    for event in hand.events:
        if isinstance(event, ev.HandCancelled):
            raise PhhError(
                "a cancelled hand has no PHH record: it was never played out", code="cancelled"
            )
        if isinstance(event, ev.Acted) and event.kind == DISCONNECT_ALL_IN:
            raise PhhError(
                "PHH cannot record a disconnect all-in (the room's decision)",
                code="disconnect_all_in",
            )
    started = hand.events[0]
    assert isinstance(started, ev.HandStarted)
    usual = started.blind_seats is None or _lone_big_blind(hand)
    posts = [s.post for s in started.seats if s is not None and s.post is not None]
    if not usual:
        raise PhhError("PHH cannot record blinds posted out of the usual seats", code="blind_seats")
    _check_dead_blinds(hand)
    _check_short_forced_bet(hand, started)
    if posts and (len(hand.order) == 2 or _lone_big_blind(hand)):
        raise PhhError(
            "PHH cannot record a live post heads-up or after a lone big blind", code="live_post"
        )
    # Heads-up the button posts the small blind and acts first: PHH cannot say it sat out.
    # Stud's button only says who is dealt first (p1, either way).
    blinds = config.variant.forced_bets != BRING_IN
    if len(hand.order) == 2 and started.seats[hand.button] is None and blinds:
        raise PhhError("PHH cannot record a heads-up hand with a dead button", code="dead_button")
    if config.stakes.straddles and _lone_big_blind(hand):
        raise PhhError("PHH cannot record straddles after a lone big blind", code="straddles")
    again = _for_table(table_config, history)  # after the checks above: they say it better
    rules = ("betting", "limit_rule_half", "high_evaluator", "low_evaluator")
    for name in rules:
        if getattr(config, name) != getattr(again, name):
            raise PhhError(
                f"PHH cannot describe this table's {name.replace('_', ' ')}", code="table"
            )
    for name in ("incomplete_raise_rule", "burn_cards"):
        if getattr(config, name) != getattr(again, name):
            raise PhhError(f"PHH cannot describe the table option {name}", code="table")
    sizes = ["effective_small_bet", "effective_big_bet"]
    if config.betting != FIXED_LIMIT:  # a fixed-limit hand never asks its min bet
        sizes.append("effective_min_bet")
    if config.variant.forced_bets == BRING_IN:
        sizes.append("effective_bring_in")
    for name in sizes:
        if getattr(config.stakes, name) != getattr(again.stakes, name):
            what = name.removeprefix("effective_").replace("_", " ")
            raise PhhError(
                f"PHH cannot describe this table's {what} with its other sizes", code="table"
            )
    _check_same_play(hand, again)  # the sizes and rules above always change play
    _check_short_raises(hand, again)


def _check_short_raises(hand: Hand, again: TableConfig) -> None:
    """At fixed limit an all-in raise short of half a bet is no raise for the cap (§4),
    but PHH's reader (PokerKit) counts every bet and raise: refuse a round that holds more
    of them than a bet and ``raise_cap`` raises (PHH counts no blind as the bet)."""
    if hand.config.betting != FIXED_LIMIT:
        return
    raises, index = 0, 0
    for event in hand.events:
        if isinstance(event, ev.Acted) and event.kind == RAISE:
            raises += 1
            if raises > again.raise_cap + 1:
                raise PhhError(
                    "PHH counts every raise toward the cap, a short all-in one too: "
                    f"this hand's round {index + 1} holds {raises} bets and raises",
                    code="short_raise",
                )
        elif isinstance(event, ev.BettingClosed):
            raises, index = 0, event.index + 1


def _check_short_forced_bet(hand: Hand, started: ev.HandStarted) -> None:
    """RULEBOOK §4 calls a forced bet posted all-in for less at its full amount (the
    engine's :func:`~cardroom.games.forced.bet_to_call`); PHH's reader (PokerKit) calls the
    largest amount posted: refuse a hand whose largest forced bet was posted short."""
    posts, _ = forced_posts(
        hand.config, started.seats, hand.order, hand.button, started.blind_seats
    )
    posted = [e.amount for e in hand.events if isinstance(e, ev.Posted) and e.live]
    if max(posted, default=0) < bet_to_call(posts):
        raise PhhError(
            "PHH cannot record a forced bet posted all-in for less that is called in full",
            code="short_forced_bet",
        )


def _for_table(read: Callable[[Any], Any], value: Any) -> Any:
    """``read(value)``; a refusal of the table by the PHH reader is export's ``table``."""
    try:
        return read(value)
    except PhhError as exc:
        raise PhhError(str(exc), exc.action, code=exc.code or "table") from None


def _phh_reading(config: TableConfig, again: TableConfig) -> TableConfig:
    """The table as PHH reads it: ``config`` with ``again``'s (PHH's) options of
    :data:`PLAY_OPTIONS` (its other rules and sizes are checked to be the table's)."""
    names = [n for n in PLAY_OPTIONS if config.variant.stud is not None or n not in STUD_OPTIONS]
    return dataclasses.replace(
        config, max_raises=again.raise_cap, **{n: getattr(again, n) for n in names}
    )


def _check_same_play(hand: Hand, again: TableConfig) -> None:
    """A hand at a table whose :data:`PLAY_OPTIONS` differ from PHH's reading has a PHH
    only when it plays the same under that reading: the same moves, every one legal,
    deal the same cards to the same pots and stacks (the engine's events compared)."""
    config = hand.config
    reading = _phh_reading(config, again)
    changed = [_RULE_NAMES[n] for n in PLAY_RULES if getattr(config, n) != getattr(reading, n)]
    if not changed:
        return
    why = f"PHH's {', '.join(changed)}"
    try:
        events = replay_under(reading, hand.events).events
    except (IllegalAction, ConfigError, DrawError) as exc:  # a draw: a muck reshuffled
        raise PhhError(
            f"PHH cannot describe this hand: a move is not legal under {why}: {exc}",
            code="room_rules",
        ) from None
    if events[1:] != hand.events[1:]:
        raise PhhError(
            f"PHH cannot describe this hand: it plays differently under {why}", code="room_rules"
        )
