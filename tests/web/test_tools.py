"""The browser tests' own tools: a missing one skips a test on a developer's machine and
fails it in CI (CI=true), so no check passes there without running; axe-core is pinned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.web import browser


def _no_npm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDROOM_AXE_DIR", str(tmp_path / "axe"))
    monkeypatch.setattr(browser.shutil, "which", lambda _name: None)


def test_without_npm_axe_is_skipped_on_a_developers_machine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _no_npm(monkeypatch, tmp_path)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="npm is missing"):
        browser.axe_script()


def test_without_npm_axe_fails_in_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _no_npm(monkeypatch, tmp_path)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        browser.axe_script()


def test_axe_core_is_pinned_to_one_version() -> None:
    here = Path(browser.__file__).parent
    wanted = json.loads((here / "package.json").read_text())["dependencies"]["axe-core"]
    lock = json.loads((here / "package-lock.json").read_text())
    assert wanted == browser.AXE_VERSION and wanted[0].isdigit()  # exact: no ^ or ~
    assert lock["packages"]["node_modules/axe-core"]["version"] == wanted
