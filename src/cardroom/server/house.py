"""The house bots' accounts at a server: an unguessable secret, accounts made directly.

The bots (``cardroom.bots.house``) derive each password from a secret. That
secret is the operator's ``CARDROOM_BOT_SECRET`` when set, else a random one
the server makes the first time it seats bots and keeps in the database
(``server_secrets``), so every later start, and every process on the same
database, uses the same. There is no default: the earlier one was public, and
anyone could log in as a house bot.

:func:`prepare_house_bots` (run by ``cardroom serve`` before the bots start)
makes each missing bot account directly in the store, with the signup play
chips (a bot does not register over HTTP, where registrations from one address
are limited); and, once per database, gives a new password to every existing
bot account whose password is still the one derived from the old public
default, ending its sessions (an account whose password is neither is left
alone: it is not the house's). The bots' names are the house's (RULEBOOK §10.1):
:func:`house_bot_named` is how registration over HTTP refuses them.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from cardroom.ledger import Currency, canonical_alias, reserved_match
from cardroom.store import HOUSE_ROLE, AccountError, Passwords, PlayerInfo, Players
from cardroom.store.cashier import signup_deposit
from cardroom.store.secrets import ServerSecrets

SECRET_ENV: Final = "CARDROOM_BOT_SECRET"
SECRET_NAME: Final = "house_bot_secret"
CHECKED_NAME: Final = "house_bots_public_default_reset"
"""Marks a database whose bot accounts were checked for the old public passwords."""
OPERATOR: Final = "server:house"


MOST_BOTS: Final = 9999
"""The most bots the house names (``Bot001`` to ``Bot9999``: :func:`house_aliases`)."""


def house_aliases(wanted: dict[str, int]) -> dict[str, list[str]]:
    """The house bots' aliases at each table (``Bot001``... in table order), for
    ``wanted[table]`` bots at each."""
    numbers = iter(range(1, MOST_BOTS + 1))
    return {
        table: [f"Bot{next(numbers):03d}" for _ in range(count)] for table, count in wanted.items()
    }


@functools.cache
def _bot_names() -> frozenset[str]:
    return frozenset(house_aliases({"": MOST_BOTS})[""])


def house_bot_named(alias: str) -> str | None:
    """The house bot's name ``alias`` poses as, read as the ledger reads the names of
    the house (§10.1: the canonical form of the alias or of a part of it, so ``B0T-0O4``
    and ``TheBot004`` are ``Bot004``), or None. The house makes its bots in the store
    (:func:`prepare_house_bots`); a player who took one of their names first would pass
    for a house bot, and the house's bot could never log in."""
    if "bot" not in canonical_alias(alias):  # no part of it reads as a bot's name
        return None
    return reserved_match(alias, _bot_names())


def house_bot_secret(engine: Engine, environ: Mapping[str, str] = os.environ) -> str:
    """The secret of the house bots' passwords: the operator's, else the database's
    (made at random the first time)."""
    given = environ.get(SECRET_ENV, "")
    if given:
        return given
    return ServerSecrets(engine).get_or_create(SECRET_NAME)


def prepare_house_bots(
    engine: Engine,
    passwords: Mapping[str, str],
    public: Mapping[str, str],
    signup_chips: int,
    hashes: Passwords | None = None,
) -> None:
    """Make the bot accounts ``passwords`` (alias: password) that do not exist, with
    ``signup_chips`` play chips and the house's role; the first time on a database, give those whose
    password is still ``public[alias]`` (derived from the old public default) their
    new one, ending their sessions."""
    players = Players(engine, passwords=hashes)
    secrets = ServerSecrets(engine)
    check_public = secrets.get(CHECKED_NAME) is None

    def one(alias: str) -> None:
        password = passwords[alias]
        try:
            info = players.get(alias)
        except AccountError:  # not there: made now, with its chips, in one transaction
            _register(players, alias, password, signup_chips)
            players.set_role(alias, HOUSE_ROLE, operator=OPERATOR)
            return
        if check_public and alias in public and players.password_is(alias, public[alias]):
            players.set_password(alias, password, operator=OPERATOR)
        # Made before bots had a role (or a kill came between): the house's if its password is.
        if players.role(info.id) != HOUSE_ROLE and players.password_is(alias, password):
            players.set_role(alias, HOUSE_ROLE, operator=OPERATOR)

    with ThreadPoolExecutor(2, thread_name_prefix="cardroom-house") as pool:
        list(pool.map(one, sorted(passwords)))
    if check_public:
        secrets.get_or_create(CHECKED_NAME, lambda: "done")


def _register(players: Players, alias: str, password: str, chips: int) -> None:
    def signup(session: Session, info: PlayerInfo) -> None:
        signup_deposit(session, players.clock, info, chips, Currency.PLAY, OPERATOR)

    # Made meanwhile by another process, or by the bot itself: fine.
    with contextlib.suppress(AccountError):
        players.register(alias, password, age_confirmed=True, then=signup if chips > 0 else None)
