"""Mixed-game rotations (RULEBOOK §9): CUSTOM_MIXED, official HORSE, 8-Game."""

from __future__ import annotations

import pytest

from cardroom.games import (
    FIXED_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    Action,
    ConfigError,
    Hand,
    TableConfig,
    seed_003_rule,
)
from cardroom.room.rotation import (
    CUSTOM_MIXED_DEFAULT,
    RotationGame,
    custom_mixed,
    derived_stakes,
    eight_game,
    game_label,
    horse,
    rotation_from_dict,
    rotation_to_dict,
)


def _games_played(rotation_hands: list[TableConfig]) -> list[str]:
    """The sequence of games, one entry per block of consecutive equal games."""
    out: list[str] = []
    for config in rotation_hands:
        name = f"{config.variant.name}/{config.betting}"
        if not out or out[-1] != name:
            out.append(name)
    return out


def test_9_custom_mixed_default_rotation_and_eight_hands_per_game() -> None:
    rotation = custom_mixed(small_bet=10)
    configs = [rotation.game_for(n) for n in range(6 * 8 + 1)]
    names = [c.variant.name for c in configs]
    # RULEBOOK §9's default order, written out (the constant alone would check itself).
    written = ("holdem", "omaha", "omaha_hi_lo", "stud", "stud_hi_lo", "short_deck")
    assert tuple(names[0:48:8]) == written == CUSTOM_MIXED_DEFAULT
    # The game changes exactly every 8 hands, and wraps round.
    assert all(names[n] == names[n - n % 8] for n in range(48))
    assert names[48] == "holdem"
    assert rotation.badge == "CUSTOM_MIXED"


def test_9_custom_mixed_each_hand_uses_its_games_forced_bets_and_limit() -> None:
    rotation = custom_mixed(small_bet=10, hands_per_game=1)
    by_game = {rotation.game_for(n).variant.name: rotation.game_for(n) for n in range(6)}
    assert by_game["holdem"].betting == NO_LIMIT
    assert by_game["omaha"].betting == POT_LIMIT
    assert by_game["omaha_hi_lo"].betting == POT_LIMIT
    assert by_game["stud"].betting == FIXED_LIMIT
    assert (by_game["holdem"].stakes.small_blind, by_game["holdem"].stakes.big_blind) == (5, 10)
    stud = by_game["stud"].stakes
    assert (stud.effective_small_bet, stud.effective_big_bet, stud.ante) == (10, 20, 1)
    assert stud.effective_bring_in == 5  # half the small bet, as at a stud table (§4)
    short = by_game["short_deck"].stakes
    assert (short.ante, short.effective_button_blind, short.big_blind) == (5, 10, 0)


def test_9_custom_mixed_button_keeps_moving_in_stud() -> None:
    rotation = custom_mixed(small_bet=10)
    stud_hand = CUSTOM_MIXED_DEFAULT.index("stud") * 8 + 3
    assert rotation.game_for(stud_hand).variant.name == "stud"
    assert rotation.button_moves(stud_hand)
    assert all(rotation.button_moves(n) for n in range(1, 100))
    assert not rotation.button_moves(0)


def test_9_custom_mixed_games_are_the_operators_from_the_allowed_list() -> None:
    rotation = custom_mixed(small_bet=4, games=("plo5", "short_deck"), hands_per_game=3)
    assert [rotation.game_for(n).variant.name for n in range(7)] == [
        "plo5",
        "plo5",
        "plo5",
        "short_deck",
        "short_deck",
        "short_deck",
        "plo5",
    ]
    with pytest.raises(ConfigError, match="at least two"):
        custom_mixed(small_bet=4, games=("holdem",))
    with pytest.raises(ConfigError, match="razz"):
        custom_mixed(small_bet=4, games=("holdem", "razz"))
    with pytest.raises(ConfigError, match="once"):
        custom_mixed(small_bet=4, games=("holdem", "omaha", "holdem"))
    with pytest.raises(ConfigError, match="hands"):
        custom_mixed(small_bet=4, hands_per_game=0)


def test_9_horse_games_in_order_all_fixed_limit() -> None:
    rotation = horse(small_bet=20)
    configs = [rotation.game_for(n) for n in range(40)]
    assert _games_played(configs) == [
        "holdem/fixed_limit",
        "omaha_hi_lo/fixed_limit",
        "razz/fixed_limit",
        "stud/fixed_limit",
        "stud_hi_lo/fixed_limit",
    ]
    holdem = configs[0].stakes
    assert (holdem.small_blind, holdem.big_blind, holdem.effective_big_bet) == (10, 20, 40)
    razz = configs[16].stakes
    assert (razz.ante, razz.effective_bring_in, razz.effective_small_bet) == (2, 10, 20)
    assert rotation.badge == "HORSE"
    assert rotation.seat_limit == 8


def test_9_horse_button_frozen_in_stud_rounds() -> None:
    rotation = horse(small_bet=20)
    # Hands 0-15 flop games (H, O), 16-39 stud games (R, S, E), 40 is Hold'em again.
    moves = [rotation.button_moves(n) for n in range(48)]
    assert moves[0] is False
    assert all(moves[1:16])
    assert not any(moves[16:40])
    assert all(moves[40:48])


def test_9_horse_button_resumes_one_seat_on_from_the_last_flop_hand() -> None:
    rotation = horse(small_bet=20, hands_per_game=2)
    seats = 6
    button = 0
    buttons = []
    for n in range(2 * 5 + 2):
        if rotation.button_moves(n):
            button = (button + 1) % seats
        buttons.append(button)
    # H H O O: 0 1 2 3; R R S S E E frozen on 3; then H: 4, as if no stud hand was dealt.
    assert buttons == [0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 4, 5]


def test_9_eight_game_adds_triple_draw_nl_holdem_and_plo() -> None:
    rotation = eight_game(small_bet=20, hands_per_game=1)
    played = [f"{c.variant.name}/{c.betting}" for c in map(rotation.game_for, range(8))]
    assert played == [
        "triple_draw_27/fixed_limit",
        "holdem/fixed_limit",
        "omaha_hi_lo/fixed_limit",
        "razz/fixed_limit",
        "stud/fixed_limit",
        "stud_hi_lo/fixed_limit",
        "holdem/no_limit",
        "omaha/pot_limit",
    ]
    assert [rotation.button_moves(n) for n in range(1, 9)] == [
        True,  # FL Hold'em
        True,  # Omaha Hi-Lo
        False,  # Razz
        False,  # Stud
        False,  # Stud Hi-Lo
        True,  # NL Hold'em
        True,  # PLO
        True,  # 2-7 Triple Draw
    ]
    nl = rotation.game_for(6).stakes
    assert (nl.small_blind, nl.big_blind) == (10, 20)
    assert rotation.badge == "8-Game"
    assert rotation.seat_limit == 6  # 2-7 Triple Draw seats six


def test_9_current_and_next_game_for_the_players() -> None:
    rotation = horse(small_bet=20)
    assert rotation.current_and_next(0) == ("FL Hold'em", "FL Omaha Hi-Lo")
    assert rotation.current_and_next(7) == ("FL Hold'em", "FL Omaha Hi-Lo")
    assert rotation.current_and_next(8) == ("FL Omaha Hi-Lo", "FL Razz")
    assert rotation.current_and_next(39) == ("FL Stud Hi-Lo", "FL Hold'em")
    assert rotation.hands_left(0) == 8
    assert rotation.hands_left(7) == 1
    assert rotation.hands_left(8) == 8


def _play_passively(hand: Hand) -> None:
    """Bring in, check, call or stand pat until the hand is over."""
    while hand.actor is not None:
        legal = hand.legal_actions(hand.actor)
        if legal.bring_in is not None:
            hand.apply(Action.bring_in(hand.actor))
        elif legal.draw is not None:
            hand.apply(Action.draw(hand.actor))
        elif legal.check:
            hand.apply(Action.check(hand.actor))
        else:
            hand.apply(Action.call(hand.actor))


def test_9_every_hand_of_every_rotation_plays_on_the_engine() -> None:
    for rotation in (custom_mixed(10), horse(10), eight_game(10)):
        for n in range(0, len(rotation.games) * rotation.hands_per_game, rotation.hands_per_game):
            plain = rotation.game_for(n)
            config = rotation.game_for(n, rake=seed_003_rule(plain.betting, 10))
            assert config.rake is not None and config.variant == plain.variant
            assert config.seat_limit == rotation.seat_limit
            stacks = [200] * rotation.seat_limit
            hand = Hand(config, stacks, button=0, seed=n)
            _play_passively(hand)
            assert hand.result is not None
            finish = [s for s in hand.result.stacks if s is not None]
            assert sum(finish) + hand.result.rake == sum(stacks), config.variant.name


def test_9_stakes_derivation_keeps_small_tables_legal() -> None:
    stud = derived_stakes("stud", FIXED_LIMIT, 2)
    assert (stud.ante, stud.effective_bring_in) == (1, 1)
    short = derived_stakes("short_deck", NO_LIMIT, 3)
    assert (short.ante, short.effective_button_blind) == (1, 3)
    with pytest.raises(ConfigError):
        horse(small_bet=1)


def test_9_rotation_round_trips_through_its_record() -> None:
    for rotation in (custom_mixed(10, ("omaha", "stud"), 4, max_seats=6), horse(20), eight_game(6)):
        assert rotation_from_dict(rotation_to_dict(rotation)) == rotation
    with pytest.raises(ConfigError):
        rotation_from_dict({"kind": "HORSE"})


def test_9_a_rotation_plays_the_stud_games_fixed_limit() -> None:
    # The engine would deal no-limit stud; a rotation does not (HORSE, 8-Game and
    # CUSTOM_MIXED all play stud at a limit), nor does a record that says otherwise.
    data = rotation_to_dict(custom_mixed(10, ("holdem", "stud")))
    data["games"] = [["holdem", NO_LIMIT], ["stud", NO_LIMIT]]
    with pytest.raises(ConfigError, match="fixed limit"):
        rotation_from_dict(data)


def test_12_game_labels_use_the_engine_names() -> None:
    assert game_label("omaha", POT_LIMIT) == "PL Omaha"
    assert game_label("plo5", POT_LIMIT) == "PL Omaha 5-Card"
    assert RotationGame("triple_draw_27", FIXED_LIMIT).label == "FL 2-7 Triple Draw"
    with pytest.raises(ValueError):
        game_label("poker", NO_LIMIT)
