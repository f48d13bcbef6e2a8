"""Players: registration, logins with throttling, session tokens, sanctions (RULEBOOK §10.1, §10.7).

Bad input raises :class:`AccountError` (or a subclass) with the reason, and
changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.chat_bans import chat_ban_duration
from cardroom.ledger import (
    ThrottlePolicy,
    alias_key,
    alias_shaped,
    canonical_alias,
    validate_alias,
)
from cardroom.store.audit import audit
from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import AccountError as AccountError
from cardroom.store.errors import storage_errors, valid_id
from cardroom.store.ledger_sql import in_transaction
from cardroom.store.login_rows import PrunedLogins, prune_logins
from cardroom.store.login_throttle import PASSWORD_SET, lock_scopes, throttle_wait
from cardroom.store.models import LoginAttempt, LoginSession, Player, Sanction
from cardroom.store.passwords import Passwords, password_problem
from cardroom.store.sanction_rows import (
    MONEY_STOPPING,
    BanInForce,
    ban_in_force,
    not_covered,
    revoke_sessions,
)
from cardroom.store.sanction_rows import SanctionKind as SanctionKind
from cardroom.store.sanction_rows import active_sanctions as active_sanctions
from cardroom.store.sanction_rows import in_force as in_force

SESSION_TTL = timedelta(hours=12)
ROLES = ("player", "operator")
"""A player's role: everyone is a ``player``; ``operator`` opens the operator area."""
HOUSE_ROLE = "house"
"""The role of the house's bots, which the server makes (never a person's): the
integrity review leaves them out (one address, pots between two of them)."""
ID_BATCH = 500
"""Player ids a query names at most (:meth:`Players.restricted`)."""


class LoginRefused(AccountError):
    """Wrong alias or password: which of the two is not told."""


class AccountBanned(LoginRefused):
    """The right password of a banned account. Only the password's owner is told of the
    ban (``ban``: until when, and why): one without it is refused as for a wrong one,
    so a ban says nothing to a stranger; the player was told a wrong password and
    could not know he was banned, nor until when."""

    def __init__(self, ban: BanInForce) -> None:
        until = "until lifted" if ban.until is None else f"until {ban.until.isoformat()}"
        super().__init__(f"the account is banned {until}")
        self.ban = ban


class LoginThrottled(AccountError):
    """Too many failed logins recently; ``wait`` says how long until the next try."""

    def __init__(self, wait: timedelta) -> None:
        super().__init__(f"too many failed logins: try again in {int(wait.total_seconds()) + 1} s")
        self.wait = wait


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player as other layers see it (no password hash)."""

    id: int
    alias: str
    created_at: datetime

    @property
    def owner(self) -> str:
        """The owner name of this player's ledger accounts."""
        return str(self.id)


def valid_id_text(text: str) -> bool:
    """Whether ``text`` is a player id as written in the records (ASCII digits, in range)."""
    return len(text) <= 19 and text.isascii() and text.isdigit() and valid_id(int(text))


def find_player(session: Session, alias: str) -> Player:
    """The player with this alias (any case), or :class:`AccountError`."""
    # Text that cannot be an alias never reaches the database (PostgreSQL refuses NUL).
    player = (
        None
        if not alias_shaped(alias)
        else session.scalar(select(Player).where(Player.alias_key == alias_key(alias)))
    )
    if player is None:
        raise AccountError(f"no player with alias {alias!r}")
    return player


def impose(
    session: Session,
    clock: Clock,
    alias: str,
    kind: SanctionKind,
    operator: str,
    reason: str = "",
    duration: timedelta | None = None,
    offence: bool = False,
) -> int:
    """Impose a sanction inside the caller's transaction (``duration`` None: until
    lifted); returns its id. A table's step stores a chat offence's ban with the offence.

    A chat ban without a duration takes the next step of the ladder
    (:func:`cardroom.chat_bans.chat_ban_duration`);
    for an ``offence`` (the server's, §10.7) none when a chat ban is in force: the
    lines of a burst sent before it was stored are one offence (its id is returned).
    A ban also revokes every session.
    """
    now = clock()
    player = find_player(session, alias)
    if kind is not SanctionKind.CHAT_BAN:  # chat bans escalate instead
        not_covered(session, player, kind, now, for_good=duration is None)
    if kind is SanctionKind.CHAT_BAN and duration is None:
        mine = (Sanction.player_id == player.id, Sanction.kind == kind.value)
        if offence:
            banned = session.scalar(select(Sanction.id).where(*mine, *in_force(now)))
            if banned is not None:
                return banned
        earlier = session.scalar(select(func.count(Sanction.id)).where(*mine))
        duration = chat_ban_duration(earlier or 0)
    row = Sanction(
        player_id=player.id,
        kind=kind.value,
        reason=reason[:500],
        starts_at=now,
        ends_at=None if duration is None else now + duration,
        created_by=operator[:64],
    )
    session.add(row)
    session.flush()
    if kind is SanctionKind.BAN:
        revoke_sessions(session, player.id, now)
    ends = None if row.ends_at is None else row.ends_at.isoformat()
    audit(session, clock, operator, kind.value, player.alias, reason=reason, ends=ends)
    return row.id


@dataclass(frozen=True, slots=True)
class SanctionInfo:
    """One sanction in force: its id, kind, reason and end (None: until lifted)."""

    id: int
    kind: SanctionKind
    reason: str
    starts_at: datetime
    ends_at: datetime | None


@dataclass(frozen=True, slots=True)
class _Attempt:
    """A login attempt already counted (as a failure until the password proves right)."""

    id: int
    player_id: int | None
    stored_hash: str | None
    banned: BanInForce | None


def _info(p: Player) -> PlayerInfo:
    return PlayerInfo(p.id, p.alias, p.created_at)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Players:
    """Registration, login and sanctions over the database behind ``engine``."""

    def __init__(
        self,
        engine: Engine,
        clock: Clock = system_clock,
        passwords: Passwords | None = None,
        throttle: ThrottlePolicy | None = None,
        session_ttl: timedelta = SESSION_TTL,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.passwords = passwords or Passwords()
        self.throttle = throttle or ThrottlePolicy()
        self.session_ttl = session_ttl
        self._dummy_hash = ""

    @storage_errors("registration")
    def register(
        self,
        alias: str,
        password: str,
        *,
        age_confirmed: bool,
        ip: str = "",
        device: str = "",
        then: Callable[[Session, PlayerInfo], object] | None = None,
    ) -> PlayerInfo:
        """Create an account; the alias is checked, unique over its canonical form
        (RULEBOOK §10.1: ``Player1`` is taken once ``PlayerI`` is), never changeable.

        ``then`` runs in the registration's transaction once the player has an id (e.g.
        the signup deposit, :func:`cardroom.store.cashier.signup_deposit`): the account
        and what ``then`` writes are stored together or not at all."""
        validate_alias(alias)
        if not age_confirmed:
            raise AccountError("players must confirm they are 18 or older (or of local age)")
        if problem := password_problem(password):
            raise AccountError(problem)
        now = self.clock()
        player = Player(
            alias=alias,
            alias_key=alias_key(alias),
            alias_canonical=canonical_alias(alias),
            password_hash=self.passwords.hash(password),
            age_attested_at=now,
            created_at=now,
            registration_ip=ip[:64],
            registration_device=device[:128],
        )
        try:
            with Session(self.engine, expire_on_commit=False) as session, session.begin():
                session.add(player)
                session.flush()
                audit(session, self.clock, alias, "register", alias, ip=ip, device=device)
                if then is not None:
                    then(session, _info(player))
        except IntegrityError:
            # Either unique column (case folded, or look-alikes folded) clashed.
            raise AccountError(
                f"alias {alias!r} is taken, or reads the same as an alias that is"
            ) from None
        return _info(player)

    @storage_errors("looking up a player")
    def get(self, alias: str) -> PlayerInfo:
        """The player with this alias (any case)."""
        with Session(self.engine) as session:
            return _info(find_player(session, alias))

    @storage_errors("looking up a player")
    def named(self, name: str) -> PlayerInfo:
        """The player with this id (the tables' records and the room's logs name players
        by id; an alias has a letter), or else with this alias: AccountError if neither."""
        with Session(self.engine) as session:
            found = session.get(Player, int(name)) if valid_id_text(name) else None
            return _info(found if found is not None else find_player(session, name))

    @storage_errors("login")
    def login(self, alias: str, password: str, *, ip: str = "", device: str = "") -> str:
        """Check the password and open a session; returns the bearer token (shown once).

        The attempt is counted (as a failure) before the slow hash runs, in one
        transaction that first locks the alias's and the address's throttle rows:
        however many guesses arrive at once, at most the policy's limits reach the
        hash (``store/login_throttle.py``: per alias and address, per alias but for the
        sources the player logged in from, per address). The hash itself runs outside
        any transaction, holding no lock.
        """
        if not alias_shaped(alias):  # no account can have it, so no hash need run
            raise LoginRefused("wrong alias or password")
        now, key = self.clock(), alias_key(alias)[:64]
        ip, device = ip[:64], device[:128]
        attempt = in_transaction(
            self.engine, lambda session: self._count_attempt(session, key, ip, device, now)
        )
        # Unknown aliases still pay for a hash, so timing does not reveal which exist.
        if attempt.stored_hash is None and not self._dummy_hash:
            self._dummy_hash = self.passwords.hash("not a real password")
        stored = attempt.stored_hash or self._dummy_hash
        ok = self.passwords.verify(stored, password) and attempt.stored_hash is not None
        if not ok:
            raise LoginRefused("wrong alias or password")
        if attempt.banned is not None:  # the password is right: its owner is told why
            raise AccountBanned(attempt.banned)
        # Hashes made with older, weaker parameters are upgraded at login.
        rehash = self.passwords.hash(password) if self.passwords.needs_rehash(stored) else None
        token = secrets.token_urlsafe(32)
        self._succeed(attempt, token, rehash, now, ip, device)
        return token

    def _succeed(
        self, attempt: _Attempt, token: str, rehash: str | None, now: datetime, ip: str, device: str
    ) -> None:
        """Mark the attempt a success, store a stronger hash if any, open the session."""
        assert attempt.player_id is not None
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(LoginAttempt).where(LoginAttempt.id == attempt.id).values(success=True)
            )
            if rehash is not None:
                session.execute(
                    update(Player)
                    .where(Player.id == attempt.player_id)
                    .values(password_hash=rehash)
                )
            self._open_session(session, attempt.player_id, token, now, ip, device)

    def _open_session(
        self, session: Session, player_id: int, token: str, now: datetime, ip: str, device: str
    ) -> None:
        session.add(
            LoginSession(
                token_hash=_token_hash(token),
                player_id=player_id,
                created_at=now,
                expires_at=now + self.session_ttl,
                ip=ip,
                device=device,
            )
        )

    def _count_attempt(
        self, session: Session, key: str, ip: str, device: str, now: datetime
    ) -> _Attempt:
        """Lock the throttle rows, check the limits, record the attempt as a failure."""
        lock_scopes(session, key, ip, now)
        player = session.scalar(select(Player).where(Player.alias_key == key))
        player_id = player.id if player else None
        wait = throttle_wait(session, self.throttle, (key, player_id, ip, device), now)
        if wait is not None:
            raise LoginThrottled(wait)
        banned = None if player is None else ban_in_force(session, player.id, now)
        row = LoginAttempt(
            alias_key=key, player_id=player_id, ip=ip, device=device, at=now, success=False
        )
        session.add(row)
        session.flush()
        if player is None:
            return _Attempt(row.id, None, None, None)
        return _Attempt(row.id, player.id, player.password_hash, banned)

    @storage_errors("checking a session token")
    def authenticate(self, token: str) -> PlayerInfo | None:
        """The player a token belongs to, or ``None`` if unknown, expired, revoked or banned."""
        now = self.clock()
        with Session(self.engine) as session:
            row = session.execute(
                select(LoginSession, Player)
                .join(Player, Player.id == LoginSession.player_id)
                .where(LoginSession.token_hash == _token_hash(token))
            ).first()
            if row is None:
                return None
            login, player = row
            if login.revoked_at is not None or login.expires_at <= now:
                return None
            if SanctionKind.BAN in active_sanctions(session, player.id, now):
                return None
            return _info(player)

    @storage_errors("checking session tokens")
    def ended_sessions(self, tokens: Iterable[str]) -> set[str]:
        """Those of ``tokens`` that no longer open a session: unknown, revoked or expired
        (a connection opened with one is closed; a ban is looked at apart)."""
        wanted = {_token_hash(t): t for t in tokens}
        live: set[str] = set()
        now = self.clock()
        hashes = list(wanted)
        with Session(self.engine) as session:
            for i in range(0, len(hashes), 500):  # a bounded IN list per query
                live.update(
                    session.scalars(
                        select(LoginSession.token_hash)
                        .where(LoginSession.token_hash.in_(hashes[i : i + 500]))
                        .where(LoginSession.revoked_at.is_(None))
                        .where(LoginSession.expires_at > now)
                    )
                )
        return {t for h, t in wanted.items() if h not in live}

    @storage_errors("logout")
    def logout(self, token: str) -> None:
        """Revoke one session token."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(LoginSession)
                .where(LoginSession.token_hash == _token_hash(token))
                .where(LoginSession.revoked_at.is_(None))
                .values(revoked_at=self.clock())
            )

    @storage_errors("pruning the login rows")
    def prune_logins(self, keep: timedelta) -> PrunedLogins:
        """Delete the login rows older than ``keep`` (never less than the throttle's
        window) that nothing reads any more (:mod:`cardroom.store.login_rows`)."""
        return prune_logins(self.engine, self.clock(), max(keep, self.throttle.window))

    @storage_errors("checking a password")
    def password_is(self, alias: str, password: str) -> bool:
        """Whether ``password`` is the player's (no throttle, no session: for the
        server's own set-up, never for a request)."""
        with Session(self.engine) as session:
            stored = find_player(session, alias).password_hash
        return self.passwords.verify(stored, password)

    @storage_errors("changing a password")
    def set_password(self, alias: str, password: str, *, operator: str) -> int:
        """Give the player a new password and end every session (audited); how many
        sessions were ended. The login throttle forgets the addresses the player was
        known at before (a thief's among them: ``store/login_throttle.py``)."""
        if problem := password_problem(password):
            raise AccountError(problem)
        hashed = self.passwords.hash(password)
        with Session(self.engine) as session, session.begin():
            player = find_player(session, alias)
            player.password_hash = hashed
            ended = revoke_sessions(session, player.id, self.clock())
            audit(session, self.clock, operator, PASSWORD_SET, player.alias)
            return ended

    @storage_errors("changing a password")
    def change_password(
        self, alias: str, current: str, new: str, *, ip: str = "", device: str = ""
    ) -> str:
        """The player's own change: ``current`` is checked as a login checks it (counted
        by the login throttle, so a stolen session is no unthrottled oracle of the
        password: :class:`LoginRefused`, :class:`LoginThrottled`), then the new password
        is set, every session of the account ends (:meth:`set_password`, audited with the
        player as the actor) and a new one is opened for the caller: its token."""
        if problem := password_problem(new):
            raise AccountError(problem)
        self.login(alias, current, ip=ip, device=device)  # its session ends just below
        self.set_password(alias, new, operator=alias)
        token = secrets.token_urlsafe(32)
        with Session(self.engine) as session, session.begin():
            player = find_player(session, alias)
            self._open_session(session, player.id, token, self.clock(), ip[:64], device[:128])
        return token

    @storage_errors("revoking sessions")
    def revoke_all(self, alias: str) -> int:
        """Revoke every open session of a player; returns how many."""
        with Session(self.engine) as session, session.begin():
            return revoke_sessions(session, find_player(session, alias).id, self.clock())

    @storage_errors("imposing a sanction")
    def sanction(
        self,
        alias: str,
        kind: SanctionKind,
        *,
        operator: str,
        reason: str = "",
        duration: timedelta | None = None,
        offence: bool = False,
    ) -> int:
        """Impose a sanction in a transaction of its own (:func:`impose`); its id."""
        with Session(self.engine) as session, session.begin():
            return impose(session, self.clock, alias, kind, operator, reason, duration, offence)

    @storage_errors("lifting a sanction")
    def lift(self, sanction_id: int, *, operator: str) -> None:
        """End a sanction now (the record stays)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(Sanction, sanction_id) if valid_id(sanction_id) else None
            if row is None or row.lifted_at is not None:
                raise AccountError(f"no active sanction {sanction_id}")
            row.lifted_at = self.clock()
            audit(session, self.clock, operator, "lift", str(row.player_id), sanction=sanction_id)

    @storage_errors("reading a sanction")
    def sanction_owner(self, sanction_id: int) -> int | None:
        """The id of the player a sanction is on (None: no such sanction)."""
        if not valid_id(sanction_id):
            return None
        with Session(self.engine) as session:
            row = session.get(Sanction, sanction_id)
            return None if row is None else row.player_id

    @storage_errors("reading a role")
    def role(self, player_id: int) -> str:
        """The role of the player with this id (``player`` if there is none)."""
        if not valid_id(player_id):
            return ROLES[0]
        with Session(self.engine) as session:
            role = session.scalar(select(Player.role).where(Player.id == player_id))
            return role or ROLES[0]

    @storage_errors("granting a role")
    def set_role(self, alias: str, role: str, *, operator: str) -> None:
        """Give a player a role of :data:`ROLES` (audited)."""
        if role not in (*ROLES, HOUSE_ROLE):
            raise AccountError(f"no role {role!r}: one of {', '.join(ROLES)}")
        with Session(self.engine) as session, session.begin():
            player = find_player(session, alias)
            player.role = role
            audit(session, self.clock, operator, "set_role", player.alias, role=role)

    @storage_errors("reading sanctions")
    def sanctions_in_force(self, alias: str) -> list[SanctionInfo]:
        """The sanctions in force for a player now, oldest first."""
        now = self.clock()
        with Session(self.engine) as session:
            player_id = find_player(session, alias).id
            query = select(Sanction).where(
                Sanction.player_id == player_id,
                *in_force(now),
            )
            return [
                SanctionInfo(r.id, SanctionKind(r.kind), r.reason, r.starts_at, r.ends_at)
                for r in session.scalars(query.order_by(Sanction.id))
            ]

    @storage_errors("reading sanctions")
    def sanctions(self, alias: str) -> set[SanctionKind]:
        """The sanction kinds in force for a player now."""
        with Session(self.engine) as session:
            return active_sanctions(session, find_player(session, alias).id, self.clock())

    @storage_errors("reading sanctions")
    def sanctions_of(self, player_id: int) -> set[SanctionKind]:
        """The sanction kinds in force now for the player with this id (none if no such
        player)."""
        if not valid_id(player_id):
            return set()
        with Session(self.engine) as session:
            return active_sanctions(session, player_id, self.clock())

    @storage_errors("reading sanctions")
    def restricted_named(self, aliases: Collection[str]) -> dict[str, set[SanctionKind]]:
        """:meth:`restricted` of the players with these aliases, by alias (an operator's
        page names players so)."""
        names = sorted(aliases)
        batches = (names[i : i + ID_BATCH] for i in range(0, len(names), ID_BATCH))
        with Session(self.engine) as session:
            ids = {
                pid: alias
                for batch in batches
                for pid, alias in session.execute(
                    select(Player.id, Player.alias).where(Player.alias.in_(batch))
                )
            }
        found = self.restricted(among=ids) if ids else {}
        return {ids[pid]: kinds for pid, kinds in found.items()}

    @storage_errors("reading sanctions")
    def restricted(self, among: Collection[int] | None = None) -> dict[int, set[SanctionKind]]:
        """Every player whose money is stopped now (a freeze or a ban in force), by id,
        with the kinds in force; ``among``: of those players only (a server looks every
        few seconds at the players it has, while a room's bans pile up for ever)."""
        now = self.clock()
        query = select(Sanction.player_id, Sanction.kind).where(
            Sanction.kind.in_([k.value for k in MONEY_STOPPING]),
            *in_force(now),
        )
        if among is None:
            queries = [query]
        else:  # in batches: a query's parameters are bounded (SQLite: 32,766)
            ids = sorted(among)
            batches = (ids[i : i + ID_BATCH] for i in range(0, len(ids), ID_BATCH))
            queries = [query.where(Sanction.player_id.in_(batch)) for batch in batches]
        found: dict[int, set[SanctionKind]] = {}
        with Session(self.engine) as session:
            for each in queries:
                for player_id, kind in session.execute(each):
                    found.setdefault(player_id, set()).add(SanctionKind(kind))
        return found
