"""Every ``cardroom`` command shown in README.md runs from a fresh clone and exits 0.

The commands are read from the README's ``sh`` blocks and run in order, one
shell each, in an empty directory that holds only a link to ``examples/``
(so the money commands make their own ``cardroom.db`` there). Lines that
install or run the test suite are not examples of the command and are left
out. A benchmark shown without ``--quick`` runs with it: the full run takes
minutes and measures the same code; a command shown twice runs once.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP = ("pip install", "pytest")


def readme_commands() -> list[str]:
    """The command lines of the README's ``sh`` blocks, comments removed."""
    text = (ROOT / "README.md").read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            command = re.sub(r"\s+#\s.*$", "", line).strip()
            if "cardroom" in command and not any(s in command for s in SKIP):
                commands.append(command)
    return commands


def test_the_readme_shows_commands_and_every_input_is_shipped() -> None:
    commands = readme_commands()
    assert len(commands) >= 10, commands
    for command in commands:
        for name in re.findall(r"<\s*(\S+)", command):
            assert (ROOT / name).is_file(), f"{command}: {name} is not in the repository"
        assert "../" not in command, command


def test_every_readme_command_exits_0(tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {k: v for k, v in os.environ.items() if k != "CARDROOM_DATABASE_URL"}
    env["PYTHONPATH"] = str(ROOT / "src")
    env["CARDROOM_PYTHON"] = sys.executable
    shim = 'cardroom() { "$CARDROOM_PYTHON" -m cardroom "$@"; }\n'
    failures, ran = [], set()
    for command in readme_commands():
        if " bench " in f" {command} " and "--quick" not in command:
            command += " --quick"
        if command in ran:  # the same benchmark shown twice runs once
            continue
        ran.add(command)
        done = subprocess.run(
            ["bash", "-c", shim + command],
            cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            failures.append(f"{command}: exit {done.returncode}: {done.stderr[-500:]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", ["hands.txt", "showdown.json", "arrange.json"])
def test_example_inputs_are_small(name: str) -> None:
    assert (ROOT / "examples" / name).stat().st_size < 2000
