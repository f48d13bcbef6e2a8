"""The pure rules engine: variants as data, betting, pots, showdown, hand histories.

Public API (other layers import these names from ``cardroom.games``)::

    config = TableConfig.of("holdem", Stakes.blinds(1, 2))        # or TableConfig(HOLDEM, ...)
    hand = Hand(config, [200, 200, None, 150], button=0, seed=7)  # None = empty seat
    hand.actor                       # seat to act, None when nobody (hand over)
    hand.legal_actions(seat)         # LegalActions: fold / check / call amount / raise bounds
    hand.apply(Action.raise_to(seat, 6))  # a player's action -> events, or IllegalAction
                                     # (with .code; the hand unchanged); atomic
    Action.bring_in(seat), Action.draw(seat, discards)  # stud, draw
    hand.apply_room(RoomAction(seat, TIMEOUT))  # the room's decisions: timeout,
                                     # disconnect_all_in; nothing a client sends reaches it
    hand.cancel()                    # the room cancels the hand: stacks back (§10.10)
    hand.result                      # HandResult once over: pots, awards, rake, stacks
    hand.view(seat) / hand.view(None)  # the only projections (see views.py)
    replay(hand.events)              # rebuilds the hand from its record
    encode_event(e) / decode_event(d)  # the record as plain JSON data (codec.py)

Action amounts are totals TO for the current betting round (PHH ``cbr``); see
:mod:`cardroom.games.actions`. The dealing order and prearranged decks are
described in :mod:`cardroom.games.dealing`; games are defined in
:mod:`cardroom.games.variants`, betting structures in :mod:`cardroom.games.betting`.
"""

from cardroom.games.actions import (
    BET,
    CALL,
    CHECK,
    DISCONNECT_ALL_IN,
    DRAW,
    FOLD,
    RAISE,
    TIMEOUT,
    Action,
    LegalActions,
    RoomAction,
)
from cardroom.games.config import (
    HALF,
    POST_BIG_BLIND,
    POST_BOTH_BLINDS,
    TDA,
    Seat,
    Stakes,
    TableConfig,
    config_from_dict,
    config_to_dict,
)
from cardroom.games.dealing import arrange_deck, button_by_high_card, dealing_order, shuffle_deck
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.events import Event
from cardroom.games.hand import Hand
from cardroom.games.pots import Pot, build_pots
from cardroom.games.rake import SEED_003_SCHEDULE, RakeRule, RakeTier, seed_003_rule
from cardroom.games.replay import replay
from cardroom.games.showdown import Award, HandResult, PotResult
from cardroom.games.variants import (
    BADUGI,
    COURCHEVEL,
    COURCHEVEL_HI_LO,
    FIVE_CARD_DRAW,
    FIXED_LIMIT,
    HALF_POT_LIMIT,
    HOLDEM,
    NO_LIMIT,
    OMAHA,
    OMAHA_HI_LO,
    PLO5,
    POT_LIMIT,
    RAZZ,
    SHORT_DECK,
    SINGLE_DRAW_27,
    SOKO,
    SPREAD_LIMIT,
    STRUCTURES,
    STUD,
    STUD_HI_LO,
    TRIPLE_DRAW_27,
    TRIPLE_DRAW_A5,
    VARIANTS,
    Street,
    Variant,
    get_variant,
)
from cardroom.games.views import event_view, view

__all__ = [
    "BADUGI",
    "BET",
    "CALL",
    "CHECK",
    "COURCHEVEL",
    "COURCHEVEL_HI_LO",
    "DISCONNECT_ALL_IN",
    "DRAW",
    "FIVE_CARD_DRAW",
    "FIXED_LIMIT",
    "FOLD",
    "HALF",
    "HALF_POT_LIMIT",
    "HOLDEM",
    "NO_LIMIT",
    "OMAHA",
    "OMAHA_HI_LO",
    "PLO5",
    "POST_BIG_BLIND",
    "POST_BOTH_BLINDS",
    "POT_LIMIT",
    "RAISE",
    "RAZZ",
    "SEED_003_SCHEDULE",
    "SHORT_DECK",
    "SINGLE_DRAW_27",
    "SOKO",
    "SPREAD_LIMIT",
    "STRUCTURES",
    "STUD",
    "STUD_HI_LO",
    "TDA",
    "TIMEOUT",
    "TRIPLE_DRAW_27",
    "TRIPLE_DRAW_A5",
    "VARIANTS",
    "Action",
    "Award",
    "ConfigError",
    "Event",
    "Hand",
    "HandResult",
    "IllegalAction",
    "LegalActions",
    "Pot",
    "PotResult",
    "RakeRule",
    "RakeTier",
    "RoomAction",
    "Seat",
    "Stakes",
    "Street",
    "TableConfig",
    "Variant",
    "arrange_deck",
    "build_pots",
    "button_by_high_card",
    "config_from_dict",
    "config_to_dict",
    "dealing_order",
    "event_view",
    "get_variant",
    "replay",
    "seed_003_rule",
    "shuffle_deck",
    "view",
]
