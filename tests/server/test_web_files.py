"""The browser client's files after a deploy (docs/api.md, "Caching of the client's
files"): a browser asks again for each one at each use, so a page loaded after a new
release never runs a module kept from the old one beside the new ones (an old module
importing a name the new one no longer exports leaves the page blank); and a file's
ETag follows its bytes, so an unchanged one is a 304 and a changed one never is, even
copied with its old time and size (a reproducible build's, ``cp -p``'s, ``rsync -t``'s)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cardroom.server.settings import WEB_DIR

from .api_client import Api, start_api

CLIENT_FILES = ["/", "/index.html", "/js/app.js", "/js/dom.js", "/css/style.css"]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the client the tests may change (a deploy in place)."""
    folder = tmp_path_factory.mktemp("webfiles") / "web"
    assert WEB_DIR is not None
    shutil.copytree(WEB_DIR, folder)
    return folder


@pytest.fixture(scope="module")
def api(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, web: Path
) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("webfiles-db")
    yield from start_api(request, tmp, "sqlite", web_dir=web)


@pytest.mark.parametrize("path", CLIENT_FILES)
def test_a_browser_asks_again_before_using_a_client_file(api: Api, path: str) -> None:
    # Without a Cache-Control a browser keeps a file a tenth of its age since
    # Last-Modified (RFC 9111 4.2.2: a day for a release ten days old) and uses it
    # without asking: after a deploy a reload ran old modules beside new ones.
    answer = httpx.get(api.base + path)
    assert answer.status_code == 200
    assert answer.headers.get("cache-control") == "no-cache", path
    again = httpx.get(api.base + path, headers={"if-none-match": answer.headers["etag"]})
    assert again.status_code == 304, path  # unchanged: asking again costs no body
    assert again.headers.get("cache-control") == "no-cache", path


def test_a_file_changed_with_its_old_time_and_size_gets_a_new_etag(api: Api, web: Path) -> None:
    module = web / "js" / "deployed.js"
    module.write_text("export const release = 1;\n")
    os.utime(module, (1_000_000_000, 1_000_000_000))
    first = httpx.get(api.base + "/js/deployed.js")
    assert first.status_code == 200
    module.write_text("export const release = 2;\n")  # the same size
    os.utime(module, (1_000_000_000, 1_000_000_000))  # and the same time
    asked = {"if-none-match": first.headers["etag"]}
    second = httpx.get(api.base + "/js/deployed.js", headers=asked)
    assert second.status_code == 200, "the old file's ETag was taken for the new one"
    assert second.text == "export const release = 2;\n"
    assert second.headers["etag"] != first.headers["etag"]
    unchanged = {"if-none-match": second.headers["etag"]}
    assert httpx.get(api.base + "/js/deployed.js", headers=unchanged).status_code == 304


def test_the_api_and_its_errors_keep_no_store(api: Api) -> None:
    for path in ("/api/tables", "/api/me", "/api/no-such-thing"):
        assert httpx.get(api.base + path).headers.get("cache-control") == "no-store", path
