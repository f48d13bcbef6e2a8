"""The room prunes the login rows nothing reads (``store/login_rows.py``) at its start
and every hour, past the operator's ``login_keep_days``: a server started on a database
holding a session expired 40 days ago and a failed login of then deletes them, and keeps
the successful login the shared-address review reads (RULEBOOK §10.1) and the login
throttle's known addresses. SQLite and PostgreSQL."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta

import httpx
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.server.settings import ServerSettings
from cardroom.store import make_engine
from cardroom.store.models import LoginAttempt, LoginSession

from .conftest import running_server


def _rows(url: str) -> tuple[int, int, int]:
    """Sessions, failed attempts, successful attempts."""
    engine = make_engine(url)
    try:
        with Session(engine) as s:
            sessions = s.scalar(select(func.count(LoginSession.id))) or 0
            failed = s.scalar(select(func.count()).where(LoginAttempt.success.is_(False))) or 0
            ok = s.scalar(select(func.count()).where(LoginAttempt.success.is_(True))) or 0
        return sessions, failed, ok
    finally:
        engine.dispose()


def _age_everything(url: str, days: int) -> None:
    """Move every login row ``days`` into the past (what a clock would have done)."""
    engine = make_engine(url)
    back = timedelta(days=days)
    try:
        with Session(engine) as s, s.begin():
            for row in s.scalars(select(LoginSession)):
                row.created_at, row.expires_at = row.created_at - back, row.expires_at - back
            for attempt in s.scalars(select(LoginAttempt)):
                attempt.at -= back
    finally:
        engine.dispose()


def test_10_1_the_room_prunes_old_login_rows_at_its_start(settings: ServerSettings) -> None:
    settings = replace(settings, login_keep_days=30)
    body = {"alias": "oldtimer", "password": "password1"}
    with running_server(settings) as base:
        assert httpx.post(base + "/api/register", json=body | {"age_confirmed": True}).is_success
        assert httpx.post(base + "/api/login", json=body).status_code == 200
        assert httpx.post(base + "/api/login", json=body | {"password": "nope"}).status_code
    assert settings.database_url is not None
    _age_everything(settings.database_url, 40)
    with running_server(settings):
        deadline = time.monotonic() + 20
        while _rows(settings.database_url) != (0, 0, 1) and time.monotonic() < deadline:
            time.sleep(0.1)
        # The expired session and the old failure are gone; the successful login stays:
        # it is the shared-address review's one sighting of that player, address, device.
        assert _rows(settings.database_url) == (0, 0, 1)


def test_the_owner_s_address_stays_known_after_the_room_prunes(settings: ServerSettings) -> None:
    # Logged in 40 days ago from 127.0.0.1; the room prunes at its start; then 50
    # strangers' failures lock the alias, but not for the address he logged in from.
    settings = replace(settings, login_keep_days=30)
    body = {"alias": "regular", "password": "password1"}
    with running_server(settings) as base:
        assert httpx.post(base + "/api/register", json=body | {"age_confirmed": True}).is_success
        assert httpx.post(base + "/api/login", json=body).status_code == 200
    assert settings.database_url is not None
    _age_everything(settings.database_url, 40)
    with running_server(settings) as base:
        deadline = time.monotonic() + 20
        while _rows(settings.database_url) != (0, 0, 1) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _rows(settings.database_url) == (0, 0, 1)
        for i in range(50):
            stranger = {"x-forwarded-for": f"10.50.0.{i}"}
            wrong = httpx.post(
                base + "/api/login", json=body | {"password": "nope"}, headers=stranger
            )
            assert wrong.status_code == 401
        elsewhere = httpx.post(
            base + "/api/login", json=body, headers={"x-forwarded-for": "10.51.0.1"}
        )
        assert elsewhere.status_code == 429 and elsewhere.json()["code"] == "throttled"
        assert httpx.post(base + "/api/login", json=body).status_code == 200
