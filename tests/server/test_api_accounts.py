"""The account routes over a real server: registration, login, cookies, CSRF, throttle,
profile, balances, the play-money top-up; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import websockets
from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom.ledger import ThrottlePolicy
from cardroom.server.house import prepare_house_bots
from cardroom.server.settings import Limits
from cardroom.store import Passwords, make_engine
from cardroom.store.models import LoginAttempt

from .api_client import (
    BACKENDS,
    PASSWORD,
    Api,
    bearer,
    fresh_alias,
    login,
    make_operator,
    register,
    start_api,
)

SIGNUP, CEILING = 1_000, 5_000


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("accounts")
    yield from start_api(request, tmp, signup_play_chips=SIGNUP, topup_ceiling=CEILING)


def _post(api: Api, path: str, body: object) -> httpx.Response:
    return httpx.post(api.base + path, json=body)


def test_10_1_registration_refuses_look_alikes_reserved_names_and_no_age(api: Api) -> None:
    alias = fresh_alias("Bob")
    register(api, alias)
    twin = alias.replace("o", "0", 1)
    taken = _post(
        api, "/api/register", {"alias": twin, "password": PASSWORD, "age_confirmed": True}
    )
    assert taken.status_code == 409 and taken.json()["code"] == "alias_taken"
    reserved = _post(
        api, "/api/register", {"alias": "Admin", "password": PASSWORD, "age_confirmed": True}
    )
    assert reserved.status_code == 400 and reserved.json()["code"] == "bad_alias"
    minor = _post(
        api, "/api/register", {"alias": fresh_alias(), "password": PASSWORD, "age_confirmed": False}
    )
    assert minor.status_code == 400 and minor.json()["code"] == "age_not_confirmed"
    missing = _post(api, "/api/register", {"alias": fresh_alias(), "password": PASSWORD})
    assert missing.status_code == 400 and missing.json()["code"] == "bad_request"


def test_10_1_the_house_bots_names_are_the_house_s(api: Api) -> None:
    # Bot004 registered over HTTP passed for a house bot, and the house could no longer
    # make its bot: the bot's logins failed for ever, each a failure counted against the
    # address every house bot logs in from.
    for alias in ("Bot004", "B0T-0O4", "TheBot042", "bot_1234"):
        body = {"alias": alias, "password": PASSWORD, "age_confirmed": True}
        refused = _post(api, "/api/register", body)
        assert refused.status_code == 400, (alias, refused.text)
        assert refused.json()["code"] == "bad_alias" and "house" in refused.json()["message"]
    for alias in ("Robot77", "Bot42", "Botanist"):  # not a name the house gives a bot
        register(api, fresh_alias(alias))
    engine = make_engine(api.database_url)
    try:
        prepare_house_bots(engine, {"Bot004": "the house's own"}, {}, SIGNUP, Passwords(1, 8, 1))
    finally:
        engine.dispose()
    made = _post(api, "/api/login", {"alias": "Bot004", "password": "the house's own"})
    assert made.status_code == 200, made.text


def test_login_sets_an_httponly_strict_cookie_and_answers_a_csrf_token(api: Api) -> None:
    alias = register(api)
    answer = httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD})
    assert answer.status_code == 200
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain http on loopback: a Secure cookie would never return
    body = answer.json()
    assert body["alias"] == alias and len(body["token"]) > 30 and len(body["csrf"]) == 32


def test_profile_and_balances_by_cookie_and_by_bearer(api: Api) -> None:
    alias = register(api)
    client, session = login(api, alias)
    me = client.get("/api/me").json()
    assert me["alias"] == alias and me["role"] == "player" and me["sanctions"] == []
    assert me["balances"] == {"real": 0, "play": SIGNUP}
    assert me["disconnect_all_ins"] == {"per_day": 2, "used_today": 0, "left_today": 2}
    assert me["csrf"] == session["csrf"]
    bot = bearer(api, alias)
    assert bot.get("/api/balances").json() == {"real": 0, "play": SIGNUP}
    assert httpx.get(api.base + "/api/me").status_code == 401


def test_csrf_a_cookie_write_needs_the_token_header_and_our_origin(api: Api) -> None:
    alias = register(api)
    client, session = login(api, alias)
    refused = client.post("/api/topup", json={"amount": 1})
    assert refused.status_code == 403 and refused.json()["code"] == "csrf"
    foreign = client.post(
        "/api/topup",
        json={"amount": 1},
        headers={"x-csrf-token": session["csrf"], "origin": "https://evil.example"},
    )
    assert foreign.status_code == 403 and foreign.json()["code"] == "csrf"
    wrong = client.post("/api/topup", json={"amount": 1}, headers={"x-csrf-token": "0" * 32})
    assert wrong.status_code == 403
    assert client.get("/api/balances").json()["play"] == SIGNUP  # nothing moved
    done = client.post("/api/topup", json={"amount": 1}, headers={"x-csrf-token": session["csrf"]})
    assert done.status_code == 200 and done.json()["added"] == 1
    out = client.post("/api/logout")  # logout is a write too
    assert out.status_code == 403 and client.get("/api/me").status_code == 200


def test_bearer_requests_need_no_csrf_token(api: Api) -> None:
    bot = bearer(api, register(api))
    assert bot.post("/api/topup", json={"amount": 5}).status_code == 200


def test_topup_stops_at_the_ceiling_and_once_per_period(api: Api) -> None:
    bot = bearer(api, register(api))
    first = bot.post("/api/topup", json={})
    assert first.status_code == 200
    assert first.json()["added"] == CEILING - SIGNUP
    assert first.json()["balances"]["play"] == CEILING
    again = bot.post("/api/topup", json={})
    assert again.status_code == 429 and again.json()["code"] == "topup_too_soon"
    assert int(again.headers["retry-after"]) > 0
    assert bot.get("/api/balances").json()["play"] == CEILING


def test_topup_refused_at_the_ceiling_and_for_a_frozen_account(api: Api) -> None:
    full = bearer(api, register(api))
    full.post("/api/topup", json={})  # now at the ceiling, this period used
    boss = register(api)
    make_operator(api, boss)
    frozen_alias = register(api)
    frozen = bearer(api, frozen_alias)
    made = bearer(api, boss).post(
        "/api/operator/sanctions",
        json={"alias": frozen_alias, "kind": "freeze", "reason": "review"},
    )
    assert made.status_code == 201
    answer = frozen.post("/api/topup", json={})
    assert answer.status_code == 403 and answer.json()["code"] == "frozen"
    sanctions = frozen.get("/api/me").json()["sanctions"]
    assert [s["kind"] for s in sanctions] == ["freeze"] and sanctions[0]["reason"] == "review"


def test_a_topup_past_the_ceiling_is_trimmed_to_it(api: Api) -> None:
    bot = bearer(api, register(api))
    answer = bot.post("/api/topup", json={"amount": 10 * CEILING})
    assert answer.status_code == 200 and answer.json()["balances"]["play"] == CEILING


def _login_from(api: Api, alias: str, address: str, password: str = PASSWORD) -> httpx.Response:
    """A login from ``address`` (as a proxy uvicorn trusts, on 127.0.0.1, tells it)."""
    body = {"alias": alias, "password": password}
    return httpx.post(api.base + "/api/login", json=body, headers={"x-forwarded-for": address})


def _refused(answer: httpx.Response, status: int, code: str) -> bool:
    return answer.status_code == status and answer.json()["code"] == code


def test_login_throttle_five_failures_then_429_even_with_the_right_password(api: Api) -> None:
    alias = register(api)
    for _ in range(5):
        wrong = _post(api, "/api/login", {"alias": alias, "password": "wrong-password"})
        assert wrong.status_code == 401 and wrong.json()["code"] == "login_refused"
    throttled = _post(api, "/api/login", {"alias": alias, "password": PASSWORD})
    assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
    assert int(throttled.headers["retry-after"]) > 0
    # That address only: the alias is not locked for the rest of the world.
    assert _login_from(api, alias, "10.20.0.1").status_code == 200


def test_a_stranger_s_failures_from_other_addresses_do_not_lock_the_owner_out(api: Api) -> None:
    owner, home = register(api), "10.30.0.1"
    assert _login_from(api, owner, home).status_code == 200
    for _ in range(5):  # a stranger's five: his address is locked, the owner's is not
        assert _refused(
            _login_from(api, owner, "10.31.0.1", "wrong-password"), 401, "login_refused"
        )
    assert _refused(_login_from(api, owner, "10.31.0.1"), 429, "throttled")
    assert _login_from(api, owner, home).status_code == 200
    for i in range(11):  # 49 failures from many addresses in all
        for _ in range(4):
            wrong = _login_from(api, owner, f"10.32.0.{i}", "wrong-password")
            assert _refused(wrong, 401, "login_refused")
    assert _login_from(api, owner, home).status_code == 200
    assert _login_from(api, owner, "10.33.0.1").status_code == 200  # under the alias's limit


def test_the_alias_limit_holds_from_many_addresses_but_not_at_the_owner_s(api: Api) -> None:
    owner, home = register(api), "10.40.0.1"
    assert _login_from(api, owner, home).status_code == 200
    for i in range(50):  # one guess from each of 50 addresses
        assert _refused(
            _login_from(api, owner, f"10.41.0.{i}", "wrong-password"), 401, "login_refused"
        )
    throttled = _login_from(api, owner, "10.42.0.1")  # the right password, a new address
    assert _refused(throttled, 429, "throttled") and int(throttled.headers["retry-after"]) > 0
    assert _refused(_login_from(api, owner, "10.41.0.7"), 429, "throttled")
    assert _login_from(api, owner, home).status_code == 200


def test_the_server_s_login_limits_are_the_store_s_throttle() -> None:
    limits = Limits(login_failures_per_source=2, login_window_seconds=60)
    assert limits.login_throttle() == ThrottlePolicy(
        max_failures_per_source=2, window=timedelta(seconds=60)
    )
    assert Limits().login_throttle() == ThrottlePolicy()  # one set of defaults, documented


def test_logout_revokes_the_session(api: Api) -> None:
    alias = register(api)
    client, session = login(api, alias)
    token = session["token"]
    out = client.post("/api/logout", headers={"x-csrf-token": session["csrf"]})
    assert out.status_code == 200 and out.json() == {"ok": True}
    assert client.get("/api/me").status_code == 401
    revoked = httpx.get(api.base + "/api/me", headers={"authorization": f"Bearer {token}"})
    assert revoked.status_code == 401 and revoked.json()["code"] == "unauthorized"


def test_login_and_register_refuse_another_site_s_origin(api: Api) -> None:
    alias = register(api)
    foreign = {"origin": "https://evil.example"}
    body = {"alias": alias, "password": PASSWORD}
    refused = httpx.post(api.base + "/api/login", json=body, headers=foreign)
    assert refused.status_code == 403 and refused.json()["code"] == "csrf"
    assert "set-cookie" not in refused.headers
    fresh = {"alias": fresh_alias(), "password": PASSWORD, "age_confirmed": True}
    assert httpx.post(api.base + "/api/register", json=fresh, headers=foreign).status_code == 403
    own = {"origin": api.base}
    assert httpx.post(api.base + "/api/login", json=body, headers=own).status_code == 200


def test_racing_topups_move_chips_once_and_only_one_is_told_so(api: Api) -> None:
    alias = register(api)
    token = httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD}).json()[
        "token"
    ]
    headers = {"authorization": f"Bearer {token}"}

    def one(_: int) -> httpx.Response:
        return httpx.post(api.base + "/api/topup", json={}, headers=headers, timeout=30)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(one, range(8)))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] + [429] * 7
    assert {a.json()["code"] for a in answers if a.status_code == 429} == {"topup_too_soon"}
    balances = httpx.get(api.base + "/api/balances", headers=headers).json()
    assert balances["play"] == CEILING


def test_the_cookie_is_secure_when_served_over_https(api: Api) -> None:
    alias = register(api)
    body = {"alias": alias, "password": PASSWORD}
    # uvicorn trusts X-Forwarded-Proto from 127.0.0.1 (a TLS-terminating proxy there).
    answer = httpx.post(api.base + "/api/login", json=body, headers={"x-forwarded-proto": "https"})
    assert answer.status_code == 200
    assert "secure" in answer.headers["set-cookie"].lower()


def test_an_ipv6_caller_is_counted_by_his_64_not_by_each_address(api: Api) -> None:
    """An IPv6 caller may take any of his /64's 2**64 addresses: the per-address limits,
    and the review's "same IP/household" (§10.1), count the /64; an IPv4-mapped address
    is its IPv4 address."""
    owner = register(api)
    for i in range(5):  # five guesses, each from another address of one /64
        wrong = _login_from(api, owner, f"2001:db8:5:6::{i + 1:x}", "wrong-password")
        assert _refused(wrong, 401, "login_refused")
    assert _refused(_login_from(api, owner, "2001:db8:5:6:ffff::9"), 429, "throttled")
    assert _login_from(api, owner, "2001:db8:5:7::1").status_code == 200  # another /64
    assert _login_from(api, owner, "::ffff:10.50.0.1").status_code == 200
    engine = make_engine(api.database_url)
    try:
        with Session(engine) as session:
            seen = session.scalars(
                select(LoginAttempt.ip).where(LoginAttempt.success.is_(True)).distinct()
            )
            assert {"2001:db8:5:7::/64", "10.50.0.1"} <= set(seen)
    finally:
        engine.dispose()


def test_a_cookie_logout_whose_session_already_ended_is_answered_and_clears_the_cookie(
    api: Api,
) -> None:
    """docs/api.md: a logout without a session is 200, the cookie cleared. A browser whose
    session was ended elsewhere (a logout on another device with the same session, a ban
    lifted, an operator's revocation) still sends its cookie: that logout was 401
    ``unauthorized`` and the dead cookie stayed in the browser. Another site's post is still
    refused, dead cookie or not."""
    alias = register(api)
    client, session = login(api, alias)
    ended = httpx.post(
        api.base + "/api/logout", headers={"authorization": f"Bearer {session['token']}"}
    )
    assert ended.status_code == 200
    foreign = client.post("/api/logout", headers={"origin": "https://evil.example"})
    assert foreign.status_code == 403 and foreign.json()["code"] == "csrf"
    assert "set-cookie" not in foreign.headers
    out = client.post("/api/logout", headers={"origin": api.base})
    assert out.status_code == 200 and out.json() == {"ok": True}
    cleared = out.headers["set-cookie"]
    assert cleared.startswith("cardroom_session=") and "Max-Age=0" in cleared


async def _after(api: Api, tokens: list[str], act: Callable[[], object]) -> list[list[str]]:
    """Open a WebSocket with each of ``tokens``, run ``act`` (blocking, in a thread), then
    say what each heard within 1 s: the error codes, then ``closed <code>``, or ``open``
    when it still answers a ping."""
    url = api.base.replace("http", "ws", 1) + "/ws"
    async with contextlib.AsyncExitStack() as stack:
        sockets = []
        for token in tokens:
            headers = {"authorization": f"Bearer {token}"}
            ws = await stack.enter_async_context(
                websockets.connect(url, additional_headers=headers)
            )
            json.loads(await ws.recv())  # hello
            sockets.append(ws)
        await asyncio.to_thread(act)
        heard: list[list[str]] = []
        for ws in sockets:
            said: list[str] = []
            with contextlib.suppress(websockets.ConnectionClosed):  # read what came first
                await ws.send(json.dumps({"type": "ping", "id": "still-there"}))
            try:
                async with asyncio.timeout(1.0):
                    async for raw in ws:
                        message = json.loads(raw)
                        if message.get("re") == "still-there" and message["type"] == "ok":
                            said.append("open")
                            break
                        said.append(message.get("code") or message["type"])
            except websockets.ConnectionClosed:
                said.append(f"closed {ws.close_code}")
            heard.append(said)
        return heard


def test_a_player_changes_his_password_and_every_other_session_ends_at_once(api: Api) -> None:
    """A player could not change his password: no route did (a stolen one stayed the
    thief's until an operator stepped in). ``POST /api/password`` checks the current one
    as a login does (counted by the login throttle: a stolen session is no free oracle),
    sets the new one, ends every session of the account (the thief's open WebSocket is
    closed at once) and answers a fresh session for the caller, its cookie set (his own
    open WebSocket goes on under it)."""
    alias = register(api)
    client, session = login(api, alias)
    thief = httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD})
    stolen = thief.json()["token"]
    new = "a new pass phrase"
    body = {"password": PASSWORD, "new_password": new}
    no_csrf = client.post("/api/password", json=body)
    assert no_csrf.status_code == 403 and no_csrf.json()["code"] == "csrf"
    csrf = {"x-csrf-token": session["csrf"]}
    wrong = client.post("/api/password", json={**body, "password": "not it at all"}, headers=csrf)
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    short = client.post("/api/password", json={**body, "new_password": "short"}, headers=csrf)
    assert short.status_code == 400 and short.json()["code"] == "refused"
    assert client.get("/api/me").status_code == 200  # nothing changed by the refusals
    answers: list[httpx.Response] = []
    thief_heard, own_heard = asyncio.run(
        _after(
            api,
            [stolen, session["token"]],
            lambda: answers.append(client.post("/api/password", json=body, headers=csrf)),
        )
    )
    changed = answers[0]
    assert changed.status_code == 200, changed.text
    fresh = changed.json()
    assert fresh["alias"] == alias and fresh["token"] not in (stolen, session["token"])
    assert thief_heard == ["session_ended", "closed 4401"]  # at once, not at the next look
    assert own_heard == ["open"]  # the changing session's own connection goes on
    bystander = httpx.get(api.base + "/api/me", headers={"authorization": f"Bearer {stolen}"})
    assert bystander.status_code == 401
    old_cookie = httpx.get(api.base + "/api/me", cookies={"cardroom_session": session["token"]})
    assert old_cookie.status_code == 401
    assert client.get("/api/me").json()["csrf"] == fresh["csrf"]  # the new cookie
    relog = httpx.post(api.base + "/api/login", json={"alias": alias, "password": PASSWORD})
    assert relog.status_code == 401
    assert httpx.post(api.base + "/api/login", json={"alias": alias, "password": new}).is_success


def test_a_stolen_session_cannot_guess_the_password_past_the_login_throttle(api: Api) -> None:
    """The current password asked by ``POST /api/password`` is a login's check: wrong
    guesses count against the login throttle (5 an alias from one address), then even the
    right one is ``throttled``, as at ``/api/login``."""
    alias = register(api)
    thief = bearer(api, alias)
    body = {"password": "guess number x", "new_password": "the thief's own"}
    for _ in range(api.settings.limits.login_failures_per_source):
        assert thief.post("/api/password", json=body).json()["code"] == "wrong_password"
    right = thief.post("/api/password", json={**body, "password": PASSWORD})
    assert right.status_code == 429 and right.json()["code"] == "throttled"
    assert "retry-after" in right.headers


def test_over_tls_the_session_cookie_is_host_only_and_a_tossed_one_is_not_read(
    api: Api,
) -> None:
    """Session fixation by cookie tossing: a page of a sibling host (``blog.room.example``,
    or any other port of the room's host) may set a cookie of the room's name for the
    whole domain, and the browser then sends both; the server read the last one, so a
    player already logged in was switched to the attacker's session (his seat, his
    chips, the attacker watching the cards dealt to it), and one not logged in was
    logged in as the attacker. Over TLS the cookie is ``__Host-cardroom_session`` (a
    browser lets only the room's own host set that name, Secure, Path=/), and only that
    name is read there; plain http (development on 127.0.0.1) keeps ``cardroom_session``."""
    victim, attacker = register(api), register(api)
    tls = {"x-forwarded-proto": "https"}  # a TLS-terminating proxy on 127.0.0.1, trusted
    body = {"alias": victim, "password": PASSWORD}
    answer = httpx.post(api.base + "/api/login", json=body, headers=tls)
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("__Host-cardroom_session=") and "Secure" in cookie
    assert "Path=/" in cookie and "domain" not in cookie.lower()
    own = answer.json()["token"]
    tossed = httpx.post(
        api.base + "/api/login", json={"alias": attacker, "password": PASSWORD}
    ).json()["token"]

    def me(cookies: str, headers: dict[str, str]) -> httpx.Response:
        return httpx.get(api.base + "/api/me", headers={**headers, "cookie": cookies})

    both = me(f"__Host-cardroom_session={own}; cardroom_session={tossed}", tls)
    assert both.status_code == 200 and both.json()["alias"] == victim
    alone = me(f"cardroom_session={tossed}", tls)
    assert alone.status_code == 401
    plain = me(f"cardroom_session={own}", {})  # plain http: the name it always had
    assert plain.status_code == 200 and plain.json()["alias"] == victim
    out = httpx.post(
        api.base + "/api/logout",
        headers={
            **tls,
            "cookie": f"__Host-cardroom_session={own}",
            "x-csrf-token": both.json()["csrf"],
        },
    )
    assert out.status_code == 200
    assert out.headers["set-cookie"].startswith("__Host-cardroom_session=")
