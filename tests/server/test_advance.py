"""Advance actions (RULEBOOK §10.5) over the protocol against a real server: a refusal
says why in words a player can act on."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.sessions import answer, first_turn, seated_pair, until


def test_10_5_an_advance_call_with_nothing_to_call_is_refused_saying_so(server: str) -> None:
    """A client written from the docs pre-selected ``call`` as the big blind with nothing
    to call and was told ``the call now is 0, not 0``: a refusal that contradicts itself.
    It now says there is nothing to call, and ``check`` is what it takes."""

    async def go() -> None:
        a, _, b, _ = await seated_pair(server)
        actor, _ = await first_turn([a, b], "holdem")
        big_blind = b if actor is a else a  # heads-up: the button acts first preflop
        await big_blind.send("advance", id="adv-call", table="holdem", kind="call", amount=0)
        refused = await answer(big_blind, "adv-call")
        assert refused["type"] == "error" and refused["code"] == "bad_command"
        assert "nothing to call" in refused["message"], refused
        await big_blind.send("advance", id="adv-call-2", table="holdem", kind="call", amount=2)
        refused = await answer(big_blind, "adv-call-2")
        assert refused["code"] == "bad_command" and "nothing to call" in refused["message"]
        await big_blind.send("advance", id="adv-check", table="holdem", kind="check")
        assert (await answer(big_blind, "adv-check"))["type"] == "ok"
        await a.close()
        await b.close()

    asyncio.run(go())


def test_10_5_an_advance_fold_with_an_amount_is_refused_not_stored(server: str) -> None:
    """Only ``call`` assumes an amount. A ``fold`` sent with 2**53 - 1 chips was answered
    ``ok`` and stored as sent (the seat's view then showed that amount); it is refused
    ``bad_command`` now, as an ``act`` with an amount it takes none of is."""

    async def go() -> None:
        a, _, b, _ = await seated_pair(server)
        actor, _ = await first_turn([a, b], "holdem")
        big_blind = b if actor is a else a
        big = 2**53 - 1
        await big_blind.send("advance", id="adv-fold", table="holdem", kind="fold", amount=big)
        refused = await answer(big_blind, "adv-fold")
        assert refused["type"] == "error" and refused["code"] == "bad_command", refused
        await big_blind.send("advance", id="adv-fold-2", table="holdem", kind="fold")
        assert (await answer(big_blind, "adv-fold-2"))["type"] == "ok"
        await a.close()
        await b.close()

    asyncio.run(go())


def _last_seq(msg: dict[str, Any], seen: int) -> int:
    """The last ``seq`` a client has seen after ``msg``."""
    if msg["type"] == "events" and msg["events"]:
        return max(seen, msg["events"][-1]["seq"])
    return max(seen, msg.get("seq") or 0)


def test_10_5_an_advance_chosen_in_a_hand_or_street_gone_by_is_refused_stale(server: str) -> None:
    """Over a slow or stalled line (seconds of delay, the connection kept), a player's
    pre-selected ``fold`` or ``call_any`` reached the table after the hand it was chosen
    in had ended and was set in the next one, a hand he had not seen: it then folded or
    called for him there. An ``advance`` names the last ``seq`` seen (``turn``), as an
    ``act`` does; one chosen before the hand or the street in progress began is refused
    ``stale_turn`` (the situation it assumed is gone, as the room's own clearing says);
    one chosen on this street, other players having acted since, is set."""

    async def go() -> None:
        a, _, b, _ = await seated_pair(server)
        alice_seen = 0
        mover, turn = await first_turn([a, b], "holdem")
        if mover is a:  # alice has the button: she folds, so that bobby has it next
            await a.send("act", id="f0", table="holdem", kind="fold", turn=turn["seq"])
            assert (await answer(a, "f0"))["type"] == "ok"
            turn = await until(b, "turn", table="holdem")
        chosen_at = turn["seq"]  # alice, the big blind, chooses here (bobby to act)
        await b.send("act", id="f1", table="holdem", kind="fold", turn=turn["seq"])
        assert (await answer(b, "f1"))["type"] == "ok"
        async with asyncio.timeout(10):  # the next hand: alice, the button, acts first
            while True:
                msg = await a.receive()
                alice_seen = _last_seq(msg, alice_seen)
                if msg["type"] == "turn" and msg["seq"] > chosen_at:
                    break
        await a.send("act", id="c1", table="holdem", kind="call", turn=msg["seq"])
        async with asyncio.timeout(10):
            while (msg := await a.receive()).get("re") != "c1":
                alice_seen = _last_seq(msg, alice_seen)
        assert msg["type"] == "ok", msg
        alice_seen = max(alice_seen, msg["seq"])
        late = {"table": "holdem", "kind": "fold", "turn": chosen_at}
        await a.send("advance", id="late", **late)  # bobby, the big blind, is to act
        refused = await answer(a, "late")
        assert refused["type"] == "error" and refused["code"] == "stale_turn", refused
        await a.send("advance", id="now", table="holdem", kind="check_fold", turn=alice_seen)
        assert (await answer(a, "now"))["type"] == "ok"
        await a.close()
        await b.close()

    asyncio.run(go())
