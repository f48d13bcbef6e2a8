"""The server's settings: where it listens, which database, which tables, the limits.

Everything has a default that works on a fresh install: a SQLite file in the
working directory, 127.0.0.1, the default tables of :mod:`cardroom.server.tables_file`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from cardroom.ledger import ThrottlePolicy
from cardroom.store.login_rows import KEEP_DAYS

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client shipped with the package (served at ``/``)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may send (hostile clients, issue 14)."""

    max_message_bytes: int = 8192
    """A WebSocket text frame above this closes nothing but is refused with ``too_large``."""
    per_connection_rate: float = 30.0
    """Messages per second one connection may send, on average..."""
    per_connection_burst: float = 60.0
    """...with bursts of this many."""
    per_account_rate: float = 60.0
    """Messages per second one account may send over all its connections."""
    per_account_burst: float = 120.0
    max_connections_per_account: int = 8
    queued_messages: int = 64
    """Messages one connection may have read and waiting for an answer (the database
    slow; above the per-connection burst): the connection goes on being read meanwhile,
    so its keepalive is answered; beyond, it is read no further until one is answered."""
    seen_ids: int = 256
    """Client ids remembered per account (a resent id is answered, never acted again)."""
    seen_accounts: int = 1000
    """Accounts whose ids are remembered in memory, the most lately active (beyond, the
    store answers for the ids that acted)."""
    api_per_address_rate: float = 20.0
    """HTTP API requests (``/api/...``) a second from one client address, on average
    (beyond: 429 ``throttled`` with ``Retry-After``): the lobby and the history are
    answered on the loop every table runs on, so a flood of looks would stall the
    tables..."""
    api_per_address_burst: float = 100.0
    """...with bursts of this many (a page opening asks several at once)."""
    registrations_per_address: float = 10.0
    """``POST /api/register`` from one client address: this many at once..."""
    registrations_per_address_per_hour: float = 10.0
    """...then this many an hour (beyond: 429 ``throttled`` with ``Retry-After``)."""
    registrations_burst: float = 30.0
    """Registrations from all addresses together: this many at once..."""
    registrations_per_second: float = 1.0
    """...then this many a second."""
    login_failures_per_source: int = 5
    """Failed logins at one alias from one client address in ``login_window_seconds``:
    beyond, that address waits (429 ``throttled``), no other does."""
    login_failures_per_alias: int = 50
    """Failed logins at one alias from all addresses together (guesses spread over many):
    beyond, every address waits but those the player has logged in from lately."""
    login_failures_per_address: int = 20
    """Failed logins from one client address at any aliases (credential stuffing)."""
    login_window_seconds: int = 900
    """The sliding window of the login limits (``cardroom.ledger.logins``)."""
    login_known_days: int = 90
    """An address (or device) the player logged in from stays exempt from the alias's
    limit this long after his last login from it (and only since his password was set)."""

    def login_throttle(self) -> ThrottlePolicy:
        """The store's login throttle with these limits."""
        return ThrottlePolicy(
            max_failures_per_source=self.login_failures_per_source,
            max_failures_per_alias=self.login_failures_per_alias,
            max_failures_per_ip=self.login_failures_per_address,
            window=timedelta(seconds=self.login_window_seconds),
            known_for=timedelta(days=self.login_known_days),
        )


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """One server process."""

    database_url: str | None = None
    """None: ``$CARDROOM_DATABASE_URL``, else ``sqlite:///cardroom.db``."""
    host: str = "127.0.0.1"
    port: int = 8000
    tables_file: Path | None = None
    """A TOML table list; None: the default tables."""
    web_dir: Path | None = WEB_DIR
    tick_seconds: float = 0.2
    """How often each table's clock is looked at."""
    db_threads: int = 4
    db_queue: int = 512
    """Database jobs waiting at most; beyond, a request is refused with ``busy``."""
    hash_threads: int = 2
    """Threads for the slow password hashes of logins and registrations: a pool of their
    own, so a burst of them never holds up the database pool (WebSocket logins,
    buy-ins, ``/healthz``)."""
    hash_queue: int = 64
    """Logins and registrations waiting at most for a hash thread; beyond, ``busy``."""
    signup_play_chips: int = 10_000
    """Play money a new account starts with."""
    topup_ceiling: int = 10_000
    """A play-money top-up never takes the play balance above this."""
    topup_period_seconds: int = 3600
    """At most one play-money top-up per player in each such period."""
    cheap_passwords: bool = False
    """Tests only: argon2 at minimal cost."""
    secure_cookies: bool = False
    """Mark the session cookie Secure (behind TLS)."""
    allowed_hosts: tuple[str, ...] = ()
    """The host names the room answers to (``server/hosts.py``: ``poker.example``,
    ``*.poker.example``, an IP address); any other ``Host`` is refused 400 ``bad_host``.
    Empty: any."""
    sanction_check_seconds: float = 5.0
    """How often the freezes and bans in force are applied to open connections and seats
    (a sanction made through this server's operator API is applied at once)."""
    integrity_keep_seconds: float = 600.0
    """How often the integrity monitor's counts are kept in the database while the room
    runs (and at a stop): a crash loses only what was counted since. They are read a
    few thousand pairs at a time, the tables playing on between (docs/server.md)."""
    login_keep_days: int = KEEP_DAYS
    """How long login rows no reader needs are kept (sessions expired or revoked, failed
    attempts, successful ones that repeat a newer one's player, address and device;
    ``store/login_rows.py``): the room deletes older ones at its start and every hour.
    The shared IP / device review (RULEBOOK §10.1, §10.9) keeps all it reads."""
    ws_ping_seconds: float = 10.0
    """How often each WebSocket is pinged, and how long its pong may take: a
    connection whose peer vanished without closing it (a phone off its network, a
    pulled cable) is closed within twice this, so its player is away (§10.6: the
    reconnect wait, disconnect protection) before a 30 s decision and its time bank
    have run out on a dead line."""
    drain_seconds: float = 0.0
    """At a clean stop, how long the hands in progress may go on to their end, no new
    hand dealt (``cardroom serve --drain-seconds``); those still unfinished then are
    voided at the next start (§10.10). 0: none waits."""
    heartbeat_seconds: float = 10.0
    """How often the room renews its lease on the database (``server/lease.py``): well
    under the 30 s after which a silent holder is taken as gone. Tests shorten it."""
    limits: Limits = field(default_factory=Limits)

    @property
    def url(self) -> str:
        """Where the server is reached."""
        return f"http://{self.host}:{self.port}/"
