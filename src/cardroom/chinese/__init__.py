"""Chinese poker and the Open Face family (RULEBOOK section 8).

Variants are data (:data:`VARIANTS`); :class:`ChineseHand` is the pure state
machine (``start``, ``apply``, ``legal_actions``, ``view``, ``replay``);
:func:`score_hands` settles a showdown (:func:`pairwise_points`: pair by pair);
:func:`best_arrangement` sets 13 to 17 cards for a Fantasyland timeout or as a hint.
"""

from cardroom.chinese.arrange import BestArrangement, best_arrangement, fill_in_dealt_order
from cardroom.chinese.codec import decode_event, encode_event
from cardroom.chinese.errors import ChineseError
from cardroom.chinese.events import (
    CardsDealt,
    CardsPlaced,
    Event,
    HandSettled,
    HandStarted,
    Place,
    PlaceOptions,
    SeatResult,
)
from cardroom.chinese.hand import ChineseHand
from cardroom.chinese.rows import Arrangement, RowValues, evaluate_rows, is_fouled
from cardroom.chinese.royalties import PINEAPPLE_27_ROYALTIES, STANDARD_ROYALTIES, RoyaltyTable
from cardroom.chinese.scoring import PlayerScore, pairwise_points, score_hands
from cardroom.chinese.variants import (
    VARIANTS,
    ChineseVariant,
    FantasylandRules,
    Street,
    get_variant,
)
from cardroom.chinese.views import project_event, project_hand

__all__ = [
    "PINEAPPLE_27_ROYALTIES",
    "STANDARD_ROYALTIES",
    "VARIANTS",
    "Arrangement",
    "BestArrangement",
    "CardsDealt",
    "CardsPlaced",
    "ChineseError",
    "ChineseHand",
    "ChineseVariant",
    "Event",
    "FantasylandRules",
    "HandSettled",
    "HandStarted",
    "Place",
    "PlaceOptions",
    "PlayerScore",
    "RowValues",
    "RoyaltyTable",
    "SeatResult",
    "Street",
    "best_arrangement",
    "decode_event",
    "encode_event",
    "evaluate_rows",
    "fill_in_dealt_order",
    "get_variant",
    "is_fouled",
    "pairwise_points",
    "project_event",
    "project_hand",
    "score_hands",
]
