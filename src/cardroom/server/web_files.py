"""The browser client's files (``cardroom/web``), served so that a deploy never leaves a
browser running a mix of two releases (docs/api.md, "Caching of the client's files").

The client is plain ES modules at fixed URLs (``/js/dom.js``), no release in their
names. Starlette's files carry an ETag and Last-Modified but no ``Cache-Control``, so a
browser kept each one for a tenth of its age (RFC 9111 4.2.2, "heuristic freshness":
a day for a file ten days old) and used it without asking. After a deploy, a reload
took the modules still fresh in its cache from the old release and asked the server
only for the others: an old module importing a name the new one no longer exports
stops the whole page (a blank screen until the cache let go). So every file is sent
``no-cache``: the browser asks again at each use, and an unchanged file is a 304
without its body.

Starlette's ETag is made of the file's time and size, which a new release may share
with the old (a reproducible build's fixed times, ``cp -p``, ``rsync -t``): a changed
file would then be a 304 and the old one kept. The ETag here is a digest of the bytes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope


def client_release(web_dir: Path | None) -> str:
    """The release of the client served from ``web_dir``: a digest of every file's path
    and bytes (16 hex digits; "" without a client). Sent in ``hello``: a page open
    across a deploy sees it change when it reconnects and asks its player to reload
    (its modules are the old release's for as long as it stays open)."""
    if web_dir is None or not web_dir.is_dir():
        return ""
    digest = hashlib.sha256()
    for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
        name = path.relative_to(web_dir).as_posix().encode()
        body = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(body)) + body)
    return digest.hexdigest()[:16]


CACHE_CONTROL = "no-cache"
"""Sent with every client file: kept, but asked again (conditionally) before each use."""


class ClientFiles(StaticFiles):
    """Static files with :data:`CACHE_CONTROL` and an ETag of their content."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, html=True)
        # path -> (what its stat said when read, its ETag); one entry per file.
        self.etags: dict[str, tuple[tuple[int, ...], str]] = {}

    def content_etag(self, full_path: str, stat: os.stat_result) -> str:
        """A digest of the file's bytes, read again only when its stat changes (a
        rewrite moves its ctime even when its mtime and size are put back)."""
        key = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
        known = self.etags.get(full_path)
        if known is not None and known[0] == key:
            return known[1]
        # The client's files are a few KB each: read once per release, not per request.
        digest = hashlib.sha256(Path(full_path).read_bytes()).hexdigest()[:32]
        etag = f'"{digest}"'
        self.etags[full_path] = (key, etag)
        return etag

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file, or 304 when the request's ``If-None-Match`` names its content."""
        headers = {
            "cache-control": CACHE_CONTROL,
            "etag": self.content_etag(os.fspath(full_path), stat_result),
        }
        response = FileResponse(
            full_path, status_code=status_code, stat_result=stat_result, headers=headers
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
