"""The deck of a replayed PHH hand: the file's cards in the engine's dealing order.

The engine deals from a prearranged deck (see :mod:`cardroom.games.hand`):
each street's hole cards one at a time round the table, board cards in order,
a draw's replacements player after player as each one draws. PHH lists the
same cards per player (``d dh p1 AsKs``), so a run of hole dealings is dealt
round-robin, or player after player when it follows discards (``sd``). PHH
hands are dealt with burn cards (live rules, as PokerKit deals them) but do
not record them: each burn is an unknown slot.

Unknown cards (``??``) are slots to fill. Cards a player shows at showdown
(``sm``) or discards by name fill that player's unknown slots first; the rest
take cards the file never mentions. A discard of unknown cards (``sd ????``)
throws the player's first unknown cards, in hand order, which is also what
the replay discards, so the plan and the engine agree on every final hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cardroom.cards import Card
from cardroom.games.config import TableConfig
from cardroom.games.dealing import round_robin, street_deal
from cardroom.games.phh import HandHistory, PhhAction, PhhError, format_action

__all__ = ["DealPlan", "build_deck", "deal_plan", "deck_of", "reshuffled_top"]

_BETTING = frozenset({"cbr", "cc", "f", "pb"})


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Every card the file deals, as deck slots.

    ``slots`` holds the cards in deck order (``None``: still unknown once the
    shown and named discards are placed); ``unknown`` marks slots the file's
    dealing left unknown; ``hands`` lists each player's final hand as slots.
    """

    slots: tuple[Card | None, ...]
    unknown: tuple[bool, ...]
    hands: Mapping[int, tuple[int, ...]]
    owners: tuple[int, ...] = ()
    """The number of the action that put each slot's card there (0: a burn or filler)."""

    def hidden(self) -> dict[int, list[int]]:
        """Slots of final hands that stay unknown, by player (hands never shown)."""
        return {
            p: hidden
            for p, slots in self.hands.items()
            if (hidden := [i for i in slots if self.slots[i] is None])
        }


class _Planner:
    """Lays the file's cards out as deck slots, tracking the stub as the engine deals it.

    When a draw runs the stub out, the muck (every card not in a live hand, less the
    drawer's discards of this draw) becomes the new stub; a draw that starts on an
    empty stub burns nothing (draw_play.py), so the slots stay in step with the engine.
    """

    def __init__(
        self,
        burns: bool,
        deck_size: int,
        draw_burns: tuple[bool, ...] = (),
        board_sizes: tuple[int, ...] = (),
    ) -> None:
        self.burns = burns
        self.board_sizes = board_sizes  # the board cards of each street that deals some
        self.board_streets = 0  # board streets begun
        self.board_left = 0  # cards still to come on the board street being dealt
        # Whether each draw (or discard) street burns as it starts, in order, as
        # dealing.street_deal says: Irish's discard street deals nothing and burns nothing.
        self.draw_burns = draw_burns
        self.draws = 0  # draws begun
        self.deck_size = deck_size
        self.stub = deck_size  # cards left in the stub being dealt
        self.folded: set[int] = set()
        # Discards of this draw whose replacements the plan has not dealt yet, by player: the
        # engine deals each drawer at once, so these cards are still in the hand then.
        self.pending: dict[int, int] = {}
        self.pending_slots: dict[int, list[int]] = {}  # the same discards, as slots
        self.mucks: list[list[int]] = []  # the slots each reshuffle put in a new stub
        self.restocks: list[int] = []  # the first slot each new stub dealt
        self.slots: list[Card | None] = []
        self.owners: list[int] = []  # the action number behind each slot
        self.number = 0  # the action being planned
        self.hands: dict[int, list[int]] = {}
        self.group: list[tuple[int, PhhAction]] = []
        self.after_draw = False
        self.first_deal_done = False
        self.streets = 0  # hole-card streets dealt so far (draws not counted)
        self.drawn: set[int | None] = set()

    def burn(self) -> None:
        if self.burns and self.stub > 0:
            self.put(None, 0)

    def put(self, card: Card | None, number: int, drawer: int | None = None) -> None:
        if self.stub <= 0:  # the muck is shuffled into a new stub, less the drawer's discards
            self.restocks.append(len(self.slots))
            self.mucks.append(self.muck())
            held = sum(len(h) for p, h in self.hands.items() if p not in self.folded)
            held += sum(n for p, n in self.pending.items() if p != drawer)
            self.stub = max(0, self.deck_size - held - self.pending.get(drawer or 0, 0))
        self.stub -= 1
        self.slots.append(card)
        self.owners.append(number)

    def muck(self) -> list[int]:
        """Slots in the muck now: burned, discarded or in a folded hand since the last
        reshuffle (the discards of drawers not yet served are still held)."""
        out = {i for p, h in self.hands.items() if p not in self.folded for i in h}
        out.update(i for slots in self.pending_slots.values() for i in slots)
        out.update(i for muck in self.mucks for i in muck)  # shuffled into a stub before
        return [i for i in range(len(self.slots)) if i not in out]

    def flush(self) -> None:
        if not self.group:
            return
        if self.first_deal_done and not self.after_draw:
            self.burn()  # a later stud street (a draw burns when it starts)
        self.first_deal_done = True
        if not self.after_draw:
            self.streets += 1
        if self.after_draw:  # replacements go to each drawer in turn
            dealt = [(a.player, c, n) for n, a in self.group for c in a.cards or ()]
        else:  # a street's cards go one at a time round the table, from p1
            per: dict[int, list[tuple[Card | None, int]]] = {}
            for n, a in self.group:  # a player's down and up cards may come in two entries
                assert a.player is not None  # the reader refuses a deal to nobody
                per.setdefault(a.player, []).extend((c, n) for c in a.cards or ())
            # PHH orders players as they are dealt to, p1 first (spec: "the ordering of the
            # players"), but may list a street's deals in any order, as PokerKit reads them.
            dealt = round_robin([[(p, *c) for c in per[p]] for p in sorted(per)])
        previous = None
        for player, card, number in dealt:
            assert player is not None
            if previous is not None and previous != player:
                self.pending.pop(previous, None)  # that drawer is served
                self.pending_slots.pop(previous, None)
            previous = player
            slot = len(self.slots)
            self.put(card, number, player if self.after_draw else None)
            self.hands.setdefault(player, []).append(slot)
        if previous is not None:
            self.pending.pop(previous, None)
            self.pending_slots.pop(previous, None)
        self.group = []

    def board(self, action: PhhAction, config: TableConfig) -> None:
        """Board cards: a burn as a street's board begins, none while the file deals the
        rest of it (a flop may come card by card, as PokerKit reads it)."""
        cards = action.cards or ()
        if self.board_left <= 0:
            # Stud's community card is not burned for when no card would be left (stud.py).
            deck_left = self.deck_size - len(self.slots)
            if config.variant.stud is None or deck_left >= 2:
                self.burn()
            street = self.board_streets
            self.board_streets += 1
            self.board_left = self.board_sizes[street] if street < len(self.board_sizes) else 0
        for card in cards:
            self.put(card, self.number)
        self.board_left -= len(cards)

    def discard(self, action: PhhAction) -> None:
        if not self.after_draw or action.player in self.drawn:
            # A draw begins (all-in players may draw twice with no betting between).
            burns = self.draw_burns[self.draws] if self.draws < len(self.draw_burns) else self.burns
            self.draws += 1
            if burns:
                self.burn()
            self.drawn = set()
        self.drawn.add(action.player)
        hand = self.hands.get(action.player or 0, [])
        cards = action.cards or ()
        gone: list[int] = []
        for card in [c for c in cards if c is not None] + [c for c in cards if c is None]:
            slot = next((i for i in hand if card is not None and self.slots[i] == card), None)
            if slot is None:  # an unknown card, or a known card dealt face down as ??
                slot = next((i for i in hand if self.slots[i] is None and i not in gone), None)
                if slot is None:
                    raise PhhError(f"p{(action.player or 0) + 1} discards cards not held")
                self.slots[slot] = card
                self.owners[slot] = self.number
            gone.append(slot)
        hand[:] = [i for i in hand if i not in gone]
        self.pending[action.player or 0] = len(gone)
        self.pending_slots[action.player or 0] = gone
        self.after_draw = True

    def show(self, action: PhhAction) -> None:
        """Shown cards fill the player's unknown cards; a card known elsewhere is left out
        (the replay then finds that the player does not hold it), but for a card seen
        before a reshuffle: it fills a card dealt after one whose muck held it."""
        hand = self.hands.get(action.player or 0, [])
        free = [i for i in hand if self.slots[i] is None]
        held = {self.slots[i] for i in hand}
        for card in [c for c in action.cards or () if c is not None and c not in held]:
            seen = [i for i, c in enumerate(self.slots) if c == card]
            past = [i for i in free if i >= self.deck_size]
            slot = next((i for i in past if self._came_back(seen, i)), None) if seen else None
            if slot is None and seen and past:
                slot = past[-1]  # came back by way of a hand the reader did not see
            if slot is None and not seen and free:
                slot = min(free, key=lambda i: i >= self.deck_size)  # before the deck's end first
            if slot is not None:
                free.remove(slot)
                self.slots[slot] = card
                self.owners[slot] = self.number

    def _came_back(self, seen: list[int], slot: int) -> bool:
        """Whether a card seen at ``seen`` slots may be dealt again at ``slot``: it was in
        the muck that the reshuffle dealing ``slot`` put in the new stub."""
        k = _reshuffle_of(self.restocks, slot)
        return k >= 0 and any(i in self.mucks[k] for i in seen)


def deal_plan(hh: HandHistory, config: TableConfig) -> DealPlan:
    """The file's deal as deck slots, with shown and discarded cards placed.

    With the table's ``burn_cards`` a slot for a burn card, which PHH never
    records, comes before every board deal, every stud street after the first
    and every draw. A street's hole cards may come in one entry per player or
    card by card; once a player holds the street's count, the next street starts.
    """
    streets = config.variant.streets
    deals = [street_deal(st, config.burn_cards) for st in streets]
    draw_burns = tuple(deal.burn_draw for deal in deals if deal.draw)
    board_sizes = tuple(st.board for st in streets if st.board)
    plan = _Planner(config.burn_cards, len(deck_of(config)), draw_burns, board_sizes)
    sizes = [st.hole_down + st.hole_up for st in streets if st.hole_down + st.hole_up]
    raw: list[bool] = []
    try:
        for plan.number, action in enumerate(hh.actions, start=1):
            _plan_one(plan, action, sizes, config, raw)
        plan.flush()
        raw.extend(c is None for c in plan.slots[len(raw) :])
        for plan.number, action in enumerate(hh.actions, start=1):
            if action.kind == "sm" and action.cards:
                plan.show(action)
    except PhhError as exc:
        text = format_action(hh.actions[plan.number - 1], hh.scale)
        raise PhhError(f"action {plan.number} ({text}): {exc}", plan.number) from None
    hands = {p: tuple(h) for p, h in plan.hands.items()}
    slots = _from_the_mucks(plan.slots, plan.mucks, plan.restocks)
    return DealPlan(tuple(slots), tuple(raw), hands, tuple(plan.owners))


def _plan_one(
    plan: _Planner, action: PhhAction, sizes: list[int], config: TableConfig, raw: list[bool]
) -> None:
    kind = action.kind
    if kind == "noop":
        return  # commentary does not break a street's deal
    if kind == "dh":
        size = sizes[min(plan.streets, len(sizes) - 1)] if sizes else 0
        held = sum(len(a.cards or ()) for _, a in plan.group if a.player == action.player)
        if not plan.after_draw and held and held + len(action.cards or ()) > size:
            plan.flush()  # the next street came with no betting between (all-in)
            raw.extend(c is None for c in plan.slots[len(raw) :])
        plan.group.append((plan.number, action))
        return
    plan.flush()
    raw.extend(c is None for c in plan.slots[len(raw) :])
    if kind == "db":
        plan.board(action, config)
    elif kind == "sd":
        if not any(st.draw or st.discard for st in config.variant.streets):
            who = "a player" if action.player is None else f"p{action.player + 1}"
            raise PhhError(f"{who} draws, but {config.variant.title} has no draw")
        plan.discard(action)
    elif kind in _BETTING:
        plan.after_draw = False
        if kind == "f" and action.player is not None:
            plan.folded.add(action.player)


def _reshuffle_of(restocks: list[int], slot: int) -> int:
    """The reshuffle whose stub deals ``slot`` (its index in ``restocks``, the slots
    where each new stub starts), or -1 for the first deck."""
    return sum(1 for start in restocks if start <= slot) - 1


def _from_the_mucks(
    slots: list[Card | None], mucks: list[list[int]], restocks: list[int]
) -> list[Card | None]:
    """The slots with every card the file deals after a reshuffle put where it was when
    that muck was shuffled: in a discard or a folded hand the reader did not see (an
    unknown slot of that muck), and so on back through earlier reshuffles. The engine
    takes the recorded cards from its muck; fillers left to chance would not be there."""
    out = list(slots)
    first = {c for c in out[: restocks[0]] if c is not None} if restocks else set()
    ends = [*restocks[1:], len(out)]  # where each new stub's slots end

    def dealt_by(k: int, card: Card) -> bool:
        """Whether the stub of reshuffle ``k`` already deals ``card`` (once in a stub)."""
        return any(out[i] == card for i in range(restocks[k], ends[k]))

    def place(card: Card, k: int) -> bool:
        muck = mucks[k]
        if any(out[i] == card for i in muck):
            return True
        for slot in [i for i in muck if out[i] is None]:
            if slot < restocks[0] and card in first:
                continue  # a card of the deck is in one place in it
            # Likewise in a later stub: a card thrown, reshuffled, dealt and thrown again
            # (or burned) comes back through another slot of this muck, not one of a stub
            # that deals it already (that stub would hold it twice).
            if slot >= restocks[0] and dealt_by(_reshuffle_of(restocks, slot), card):
                continue
            out[slot] = card
            if slot < restocks[0]:
                first.add(card)
                return True
            if place(card, _reshuffle_of(restocks, slot)):  # it came back once before
                return True
            out[slot] = None
        return False  # a wrong file: the engine says which reshuffle

    for slot in range(restocks[0] if restocks else len(out), len(out)):
        card = out[slot]
        if card is not None:
            place(card, _reshuffle_of(restocks, slot))
    return out


def deck_of(config: TableConfig) -> tuple[Card, ...]:
    """Every card of the table's deck."""
    return config.variant.cards


def build_deck(hh: HandHistory, config: TableConfig, plan: DealPlan | None = None) -> list[Card]:
    """The prearranged deck: the plan's cards, then cards the file never mentions in the
    unknown slots and after them. PhhError names the action that deals a card twice or
    a card the deck does not hold."""
    plan = plan or deal_plan(hh, config)
    universe = deck_of(config)
    # Cards dealt after the deck ran out come from the reshuffled muck: reshuffled_top().
    slots = list(plan.slots[: len(universe)])
    seen: set[Card] = set()
    for i, card in enumerate(slots):
        if card is None:
            continue
        if card not in universe or card in seen:
            number = plan.owners[i] if i < len(plan.owners) else 0
            what = "twice" if card in seen else f"but the {config.variant.title} deck has none"
            where = (
                f"action {number} ({format_action(hh.actions[number - 1], hh.scale)})"
                if number
                else "the deal"
            )
            raise PhhError(f"{where}: the file deals {card} {what}", number or None)
        seen.add(card)
    spares = iter(_filler_order([c for c in universe if c not in seen], config))
    return [c if c is not None else next(spares) for c in slots] + list(spares)


def reshuffled_top(plan: DealPlan, config: TableConfig) -> tuple[Card | None, ...]:
    """The cards the file deals after the deck's last card, when draws ran the deck out
    and the muck was shuffled into new stubs (``None``: unknown, such as a burn). The
    engine takes them as recorded reshuffles (the rest of each muck follows)."""
    top = list(plan.slots[len(deck_of(config)) :])
    while top and top[-1] is None:
        top.pop()
    return tuple(top)


def _filler_order(spare: list[Card], config: TableConfig) -> list[Card]:
    """Unused cards in the order unknown slots take them.

    In stud an unknown door card must not take the bring-in from the player
    the file names, so fillers come farthest from the bring-in card first:
    aces down for the lowest-card bring-in, aces (low) up for Razz's highest.
    """
    stud = config.variant.stud
    if stud is None:
        return spare
    if stud.bring_in.highest:
        key = (lambda c: ((c.rank + 1) % 13, c.suit)) if stud.bring_in.aces_low else None
        return sorted(spare, key=key)
    return sorted(spare, reverse=True)
