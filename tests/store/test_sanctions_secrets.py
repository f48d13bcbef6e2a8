"""What the server reads of the store to hold sanctions at its tables, to make an
account with its chips at once, and to keep its own secrets (both databases)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.ledger import AccountRef, Currency
from cardroom.store import AccountError, LoginRefused, Passwords, Players, SanctionKind, SqlLedger
from cardroom.store.cashier import signup_deposit
from cardroom.store.models import Player
from cardroom.store.secrets import ServerSecrets

PW = "correct horse"


@pytest.fixture
def players(db: Any, clock: Any, cheap_passwords: Passwords) -> Players:
    return Players(db.engine, clock=clock, passwords=cheap_passwords)


def test_restricted_lists_the_frozen_and_banned_players_in_force(
    players: Players, clock: Any
) -> None:
    a, b, c = (players.register(x, PW, age_confirmed=True) for x in ("Anna", "Boris", "Cleo"))
    frozen = players.sanction("Anna", SanctionKind.FREEZE, operator="op")
    players.sanction("Boris", SanctionKind.BAN, operator="op", duration=timedelta(hours=1))
    players.sanction("Cleo", SanctionKind.CHAT_BAN, operator="op")
    assert players.restricted() == {a.id: {SanctionKind.FREEZE}, b.id: {SanctionKind.BAN}}
    assert players.sanctions_of(c.id) == {SanctionKind.CHAT_BAN}
    assert players.sanctions_of(10**6) == set() and players.sanctions_of(-1) == set()
    players.lift(frozen, operator="op")
    clock.advance(hours=2)  # the ban ran out
    assert players.restricted() == {} and players.sanctions_of(a.id) == set()


def test_restricted_among_given_players_reads_only_theirs(players: Players) -> None:
    """A server asks only of the players it has (connected, seated, waiting): a room's
    bans pile up for ever and were all read every few seconds. Asked of more players than
    one query's batch, every batch is read."""
    a, b, c = (players.register(x, PW, age_confirmed=True) for x in ("Anna", "Boris", "Cleo"))
    players.sanction("Anna", SanctionKind.FREEZE, operator="op")
    players.sanction("Boris", SanctionKind.BAN, operator="op")
    assert players.restricted(among={a.id, c.id}) == {a.id: {SanctionKind.FREEZE}}
    assert players.restricted(among=set()) == {}
    many = set(range(10**6, 10**6 + 1_200)) | {b.id}  # Boris past the first batches
    assert players.restricted(among=many) == {b.id: {SanctionKind.BAN}}


def test_a_registration_and_what_it_does_next_are_one_transaction(
    db: Any, players: Players
) -> None:
    def fails(session: Session, info: Any) -> None:
        raise AccountError("the signup deposit failed")

    with pytest.raises(AccountError, match="signup deposit"):
        players.register("Halfway", PW, age_confirmed=True, then=fails)
    with Session(db.engine) as session:
        assert session.scalar(select(func.count(Player.id))) == 0

    def signup(session: Session, info: Any) -> None:
        signup_deposit(session, players.clock, info, 500, Currency.PLAY, "server:signup")

    info = players.register("Whole", PW, age_confirmed=True, then=signup)
    assert SqlLedger(db.engine).balance(AccountRef.player(info.owner, Currency.PLAY)) == 500


def test_a_new_password_ends_the_sessions(players: Players) -> None:
    players.register("Dora", PW, age_confirmed=True)
    token = players.login("Dora", PW)
    assert players.password_is("Dora", PW) and not players.password_is("Dora", "other one")
    players.set_password("Dora", "a new password", operator="op")
    assert players.authenticate(token) is None
    with pytest.raises(LoginRefused):
        players.login("Dora", PW)
    assert players.login("Dora", "a new password")
    with pytest.raises(AccountError):
        players.set_password("Dora", "short", operator="op")


def test_a_server_secret_is_made_once_and_read_after(db: Any) -> None:
    secrets = ServerSecrets(db.engine)
    assert secrets.get("house") is None
    made = secrets.get_or_create("house")
    assert len(made) >= 40 and secrets.get("house") == made
    assert secrets.get_or_create("house", lambda: "another") == made
