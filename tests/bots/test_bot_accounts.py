"""A bot's account: registered when new, then logged in (``bots.client.account``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.bots.conftest import bot_settings
from tests.server.conftest import running_server, with_limits

from cardroom.bots.client import account


def test_a_refused_registration_is_what_a_bot_says_when_it_cannot_log_in(tmp_path: Path) -> None:
    """A registration past the address's limit was ignored, and the login of the alias
    it never made said only "login failed ... 401": a fleet past the limit stalled with
    no word of why (the handnames audit: 56 bots stopped at the 10th)."""
    settings = with_limits(
        bot_settings(tmp_path), registrations_per_address=3, registrations_per_address_per_hour=1
    )
    with running_server(settings, signup_limits=True) as base:
        made = 0
        with pytest.raises(RuntimeError, match=r"registration of bot[0-9] failed: 429"):
            for k in range(4):  # the house's players may have taken some of the three
                assert account(base, f"bot{k}", "password1")["alias"] == f"bot{k}"
                made += 1
        assert made < 4
        if made:  # an account made before logs in, its registration refused or not
            assert account(base, "bot0", "password1")["alias"] == "bot0"
