"""Registration, logins, throttling, tokens and sanctions on both databases."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.chat_bans import CHAT_BAN_STEPS
from cardroom.ledger import AliasError, ThrottlePolicy
from cardroom.store import (
    AccountBanned,
    AccountError,
    LoginRefused,
    LoginThrottled,
    Passwords,
    Players,
    SanctionKind,
    audit_trail,
)
from cardroom.store.models import Player, Sanction

PW = "correct horse"


@pytest.fixture
def players(db: Any, clock: Any, cheap_passwords: Passwords) -> Players:
    return Players(db.engine, clock=clock, passwords=cheap_passwords)


def count_players(players: Players) -> int:
    with Session(players.engine) as s:
        return s.scalar(select(func.count(Player.id))) or 0


def test_register_then_login_and_authenticate(players: Players) -> None:
    info = players.register("AceHigh", PW, age_confirmed=True, ip="1.2.3.4")
    assert info.alias == "AceHigh" and players.get("acehigh") == info
    token = players.login("ACEHIGH", PW)
    assert players.authenticate(token) == info
    assert players.authenticate(token + "x") is None
    assert [r.action for r in audit_trail(players.engine, "AceHigh")] == ["register"]


def test_alias_is_unique_ignoring_case_and_bad_aliases_change_nothing(players: Players) -> None:
    players.register("River_Rat", PW, age_confirmed=True)
    with pytest.raises(AccountError, match="taken"):
        players.register("river_rat", PW, age_confirmed=True)
    for bad in ["ab", "has space", "sh1t_head", "x" * 17]:
        with pytest.raises(AliasError):
            players.register(bad, PW, age_confirmed=True)
    with pytest.raises(AccountError, match="18"):
        players.register("Minor", PW, age_confirmed=False)
    with pytest.raises(AccountError, match="at least 8"):
        players.register("ShortPw", "short", age_confirmed=True)
    assert count_players(players) == 1


def test_password_is_stored_as_salted_argon2id(players: Players) -> None:
    players.register("Hashy", PW, age_confirmed=True)
    players.register("Hashy2", PW, age_confirmed=True)
    with Session(players.engine) as s:
        hashes = list(s.scalars(select(Player.password_hash)))
    assert all(h.startswith("$argon2id$") and PW not in h for h in hashes)
    assert hashes[0] != hashes[1]  # salted
    default = Passwords()
    stored = default.hash(PW)
    assert stored.startswith("$argon2id$v=19$m=65536,t=3")
    assert default.verify(stored, PW) and not default.verify(stored, PW + "!")
    assert not default.verify("garbage", PW)


def test_wrong_password_and_unknown_alias_are_refused_alike(players: Players) -> None:
    players.register("Solid", PW, age_confirmed=True)
    with pytest.raises(LoginRefused) as wrong:
        players.login("Solid", "nope nope")
    with pytest.raises(LoginRefused) as unknown:
        players.login("Nobody", PW)
    assert str(wrong.value) == str(unknown.value)


def test_tokens_expire_and_can_be_revoked(players: Players, clock: Any) -> None:
    players.register("Timer", PW, age_confirmed=True)
    t1, t2, t3 = (players.login("Timer", PW) for _ in range(3))
    players.logout(t1)
    assert players.authenticate(t1) is None and players.authenticate(t2) is not None
    assert players.revoke_all("timer") == 2
    assert players.authenticate(t3) is None
    t4 = players.login("Timer", PW)
    clock.advance(hours=12)
    assert players.authenticate(t4) is None


def test_five_failed_logins_lock_the_alias_for_their_address_only(
    players: Players, clock: Any
) -> None:
    players.register("Target", PW, age_confirmed=True)
    for _ in range(5):
        with pytest.raises(LoginRefused):
            players.login("Target", "wrong pass", ip="9.9.9.9")
        clock.advance(minutes=1)
    with pytest.raises(LoginThrottled) as throttled:
        players.login("Target", PW, ip="9.9.9.9")  # even the right password waits there
    assert throttled.value.wait == timedelta(minutes=10)
    assert players.login("Target", PW, ip="8.8.8.8")  # the owner elsewhere: never seen
    assert players.login("Target", PW)  # nor without an address
    clock.advance(minutes=10)
    assert players.login("Target", PW, ip="9.9.9.9")
    # A success wipes that address's slate for the alias.
    for _ in range(4):
        with pytest.raises(LoginRefused):
            players.login("Target", "wrong pass", ip="9.9.9.9")
    assert players.login("Target", PW, ip="9.9.9.9")


def test_failed_logins_are_throttled_per_ip(db: Any, clock: Any, cheap_passwords: Any) -> None:
    policy = ThrottlePolicy(max_failures_per_alias=100, max_failures_per_ip=3)
    players = Players(db.engine, clock=clock, passwords=cheap_passwords, throttle=policy)
    players.register("Victim", PW, age_confirmed=True)
    for alias in ("a1x", "a2x", "a3x"):
        with pytest.raises(LoginRefused):
            players.login(alias, "guess guess", ip="6.6.6.6")
    with pytest.raises(LoginThrottled):
        players.login("Victim", PW, ip="6.6.6.6")
    assert players.login("Victim", PW, ip="7.7.7.7")


def test_ban_refuses_login_and_kills_sessions(players: Players) -> None:
    players.register("Cheater", PW, age_confirmed=True)
    token = players.login("Cheater", PW)
    sid = players.sanction("Cheater", SanctionKind.BAN, operator="op", reason="collusion")
    assert players.authenticate(token) is None
    with pytest.raises(LoginRefused):
        players.login("Cheater", PW)
    assert players.sanctions("cheater") == {SanctionKind.BAN}
    players.lift(sid, operator="op")
    assert players.sanctions("cheater") == set()
    with pytest.raises(AccountError, match="no active sanction"):
        players.lift(sid, operator="op")


def test_10_9_a_banned_player_with_the_right_password_is_told_until_when_and_why(
    players: Players, clock: Any
) -> None:
    # He was told "wrong alias or password, or the account is closed", as a stranger
    # guessing is: he could not know he was banned, nor until when. A wrong password is
    # still refused as for an unknown alias, so a ban says nothing to a stranger.
    players.register("Shark", PW, age_confirmed=True)
    players.sanction(
        "Shark", SanctionKind.BAN, operator="op", reason="collusion", duration=timedelta(hours=2)
    )
    ends = players.sanctions_in_force("Shark")[0].ends_at
    with pytest.raises(LoginRefused) as wrong:
        players.login("Shark", "not the password", ip="1.1.1.1")
    with pytest.raises(LoginRefused) as nobody:
        players.login("Nobody", PW, ip="1.1.1.2")
    assert not isinstance(wrong.value, AccountBanned) and str(wrong.value) == str(nobody.value)
    with pytest.raises(AccountBanned) as told:
        players.login("Shark", PW, ip="1.1.1.3")
    assert told.value.ban.until == ends and told.value.ban.reason == "collusion"
    assert ends is not None and f"until {ends.isoformat()}" in str(told.value)
    clock.advance(hours=1, minutes=59, seconds=59)
    with pytest.raises(AccountBanned):
        players.login("Shark", PW, ip="1.1.1.4")
    clock.advance(seconds=1)  # the ban's end, to the microsecond: he plays again
    assert players.login("Shark", PW, ip="1.1.1.5")
    players.sanction("Shark", SanctionKind.BAN, operator="op", reason="for good")
    with pytest.raises(AccountBanned) as lasting:
        players.login("Shark", PW, ip="1.1.1.6")
    assert lasting.value.ban.until is None and "until lifted" in str(lasting.value)


def test_chat_bans_escalate_24h_48h_72h_week_month_forever(players: Players, clock: Any) -> None:
    players.register("Chatty", PW, age_confirmed=True)
    lengths = []
    for _ in range(7):
        sid = players.sanction("Chatty", SanctionKind.CHAT_BAN, operator="mod")
        with Session(players.engine) as s:
            row = s.get(Sanction, sid)
            assert row is not None
            lengths.append(None if row.ends_at is None else row.ends_at - row.starts_at)
    assert lengths == [*CHAT_BAN_STEPS, None]
    assert lengths[:3] == [timedelta(hours=24), timedelta(hours=48), timedelta(hours=72)]
    assert SanctionKind.CHAT_BAN in players.sanctions("Chatty")


def test_timed_sanction_ends_by_itself(players: Players, clock: Any) -> None:
    players.register("Briefly", PW, age_confirmed=True)
    players.sanction("Briefly", SanctionKind.FREEZE, operator="op", duration=timedelta(hours=1))
    assert players.sanctions("Briefly") == {SanctionKind.FREEZE}
    clock.advance(hours=1)
    assert players.sanctions("Briefly") == set()


def test_unknown_alias_is_a_clear_error(players: Players) -> None:
    with pytest.raises(AccountError, match="no player with alias 'ghost'"):
        players.get("ghost")


def test_weak_hashes_are_upgraded_at_login(db: Any, clock: Any, cheap_passwords: Any) -> None:
    Players(db.engine, clock=clock, passwords=cheap_passwords).register(
        "Oldtimer", PW, age_confirmed=True
    )
    strong = Players(db.engine, clock=clock, passwords=Passwords(time_cost=2, memory_cost=1024))
    assert strong.login("Oldtimer", PW)
    with Session(db.engine) as s:
        stored = s.scalar(select(Player.password_hash).where(Player.alias == "Oldtimer"))
    assert stored is not None and "m=1024,t=2" in stored
    assert strong.login("Oldtimer", PW)


def test_10_7_offences_while_a_chat_ban_is_in_force_are_one_step(
    players: Players, clock: Any
) -> None:
    # A burst of foul lines sent before the first ban was stored is one offence: five
    # used to climb to the month's step at once. Once the ban ends, the next steps up.
    players.register("Burst", PW, age_confirmed=True)
    first = players.sanction("Burst", SanctionKind.CHAT_BAN, operator="s", offence=True)
    again = [
        players.sanction("Burst", SanctionKind.CHAT_BAN, operator="s", offence=True)
        for _ in range(4)
    ]
    assert again == [first] * 4
    clock.advance(hours=24, seconds=1)
    later = players.sanction("Burst", SanctionKind.CHAT_BAN, operator="s", offence=True)
    with Session(players.engine) as s:
        rows = [s.get(Sanction, i) for i in (first, later)]
    lengths = [r.ends_at - r.starts_at for r in rows if r is not None and r.ends_at]
    assert lengths == [timedelta(hours=24), timedelta(hours=48)]
