"""Hand-ranking families of RULEBOOK section 2, lookup tables and equity.

Every evaluator returns a :class:`HandValue` whose ``strength`` is larger for
the better hand within its family (equal strength splits). ``get_evaluator``
gives a ``(hole, board) -> HandValue | None`` callable by family name.
"""

from cardroom.evaluation.badugi import badugi
from cardroom.evaluation.front import front3
from cardroom.evaluation.hand_value import EvaluationError, HandValue
from cardroom.evaluation.high import high, short_deck
from cardroom.evaluation.lowball import low_27, low_a5
from cardroom.evaluation.omaha import omaha_high, omaha_low
from cardroom.evaluation.registry import EVALUATORS, Evaluator, get_evaluator
from cardroom.evaluation.soko import soko

__all__ = [
    "EVALUATORS",
    "EvaluationError",
    "Evaluator",
    "HandValue",
    "badugi",
    "front3",
    "get_evaluator",
    "high",
    "low_27",
    "low_a5",
    "omaha_high",
    "omaha_low",
    "short_deck",
    "soko",
]
