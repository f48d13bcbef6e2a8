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
