"""Hand histories written by PokerKit replay through our engine to PokerKit's stacks.

PokerKit plays random hands of every PHH variant it shares with us (its own
dealing, its own PHH writer); the importer must rebuild each one and the
engine must finish it with the same stacks, but for odd chips: a three-way tie
leaving two odd chips gives both to the first winner in PokerKit, one each in ours
(RULEBOOK §7; PokerKit's cards are its own random ones, so such a tie comes now
and then). Stacks are deep so that no all-in rule where PokerKit differs (see
``test_pokerkit_diff``) comes into play.

``FO/8`` is left out: PokerKit's class for it plays pot limit, so its files
hold pot-limit bets that a fixed-limit Omaha Hi-Lo hand cannot contain.
"""

from __future__ import annotations

import random
import warnings

import pokerkit  # a dev dependency: a test that needs it fails without it
import pytest
from tests.games.pokerkit_differences import odd_chips_only

from cardroom.bench.pokerkit_peer import PokerKitGame, play_random_pokerkit_hand
from cardroom.games.phh import loads
from cardroom.games.phh_replay import replay
from cardroom.games.phh_variants import phh_code_of, table_config

LIMITS = {"small_bet": 4, "big_bet": 8}
GAMES: dict[str, tuple[dict[str, int], int]] = {  # code: PokerKit amounts, most players
    "NT": ({"min_bet": 4}, 6),
    "FT": (LIMITS, 6),
    "PO": ({"min_bet": 4}, 6),
    "NS": ({"min_bet": 4}, 6),
    "F7S": ({"bring_in": 2, **LIMITS}, 6),
    "F7S/8": ({"bring_in": 2, **LIMITS}, 6),
    "FR": ({"bring_in": 2, **LIMITS}, 6),
    "N2L1D": ({"min_bet": 4}, 3),
    "F2L3D": (LIMITS, 3),
    "FB": (LIMITS, 3),
}


def pokerkit_hand(code: str, rng: random.Random) -> tuple[str, list[int]]:
    """A random PokerKit hand of ``code``: its PHH text and its finishing stacks."""
    amounts, most = GAMES[code]
    players = rng.randint(2, most)
    antes = [rng.choice((0, 1, 2))] * players
    blinds: list[int] | None = [2, 4] + [0] * (players - 2)
    if code == "NS" and rng.random() < 0.5:
        antes = [2] * players
        blinds = [0] * (players - 1) + [4]  # the button blind
        if players == 2:
            blinds.reverse()  # PHH reverses heads-up forced bets
    if code in ("F7S", "F7S/8", "FR"):
        antes, blinds = [1] * players, None
    stacks = [rng.randint(3000, 6000) for _ in range(players)]
    game = PokerKitGame(code, antes=antes, blinds=blinds, amounts=amounts, deal=True)
    hand = game.hand(stacks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = play_random_pokerkit_hand(hand, rng)
        text = pokerkit.HandHistory.from_game_state(game.game, hand.state).dumps()
    return text, final


def _reshuffled(text: str) -> bool:
    """True when PokerKit dealt a card twice (it deals from the muck when the deck runs out)."""
    cards: list[str] = []
    for line in text.split("actions = [", 1)[1].split("]", 1)[0].split(","):
        words = line.strip().strip("'\"").split()
        if len(words) == 4 and words[1] == "dh":
            cards += [words[3][i : i + 2] for i in range(0, len(words[3]), 2)]
    known = [c for c in cards if c != "??"]
    return len(set(known)) != len(known)


@pytest.mark.parametrize("code", sorted(GAMES))
def test_pokerkit_files_replay_to_pokerkit_stacks(code: str) -> None:
    rng = random.Random(f"pk-{code}")
    checked = 0
    for _ in range(8):
        text, final = pokerkit_hand(code, rng)
        if _reshuffled(text):
            continue
        (hh,) = loads(text)
        assert phh_code_of(table_config(hh)) == code
        ours = replay(hh)
        assert ours.hand.is_over
        # PokerKit gives a pot's whole remainder to its first winner, we one odd chip
        # each (RULEBOOK §7): the one difference allowed, as in test_pokerkit_diff.
        stacks = list(ours.finishing_stacks)
        assert stacks == final or odd_chips_only(ours.hand, final), text
        checked += 1
    assert checked >= 5


THREE_WAY_TIE = """variant = 'FT'
ante_trimming_status = false
antes = [1, 1, 1, 1, 1]
blinds_or_straddles = [2, 4, 0, 0, 0]
small_bet = 4
big_bet = 8
starting_stacks = [3960, 4819, 3871, 3351, 4251]
actions = ['d dh p1 7hKh', 'd dh p2 2dAh', 'd dh p3 4h5c', 'd dh p4 4s3h', 'd dh p5 2s3s', \
'p3 cbr 8', 'p4 cc', 'p5 cc', 'p1 cbr 12', 'p2 cbr 16', 'p3 cc', 'p4 cc', 'p5 cc', 'p1 cc', \
'd db Kd7d7c', 'p1 cc', 'p2 cc', 'p3 cbr 4', 'p4 cbr 8', 'p5 cbr 12', 'p1 cc', 'p2 cc', \
'p3 cbr 16', 'p4 cc', 'p5 cc', 'p1 cc', 'p2 cc', 'd db Js', 'p1 cc', 'p2 cc', 'p3 cbr 8', \
'p4 cc', 'p5 cc', 'p1 f', 'p2 cc', 'd db Qs', 'p2 cc', 'p3 cc', 'p4 cbr 8', 'p5 cc', 'p2 f', \
'p3 cc', 'p4 sm 4s3h', 'p5 sm 2s3s', 'p3 sm 4h5c']
"""


def test_a_three_way_tie_s_two_odd_chips_go_one_each_where_pokerkit_gives_both() -> None:
    # A PokerKit hand of a CI run: p3, p4 and p5 play the board (K Q J 7 7) and split
    # 221 chips. 73 each and two odd chips: one to p3, one to p4, the first two winners
    # left of the button (RULEBOOK §7); PokerKit gave both to p3.
    ours = replay(loads(THREE_WAY_TIE)[0])
    assert list(ours.finishing_stacks) == [3927, 4778, 3896, 3376, 4275]
    theirs = [3927, 4778, 3897, 3375, 4275]
    assert odd_chips_only(ours.hand, theirs)
    assert not odd_chips_only(ours.hand, [3928, 4778, 3895, 3376, 4275])  # p1 won nothing
