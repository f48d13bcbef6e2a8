"""Advance actions (RULEBOOK §10.5) over the protocol against a real server: a refusal
says why in words a player can act on."""

from __future__ import annotations

import asyncio

from tests.server.sessions import answer, first_turn, seated_pair


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
