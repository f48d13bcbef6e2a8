"""A disk cache for lookup tables that take a noticeable time to build.

Building the standard-high tables from first principles takes a tenth of a
second or more; reading them back takes a few milliseconds. :func:`cached`
keeps a table in ``$CARDROOM_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardroom``,
else ``~/.cache/cardroom`` (``CARDROOM_NO_CACHE=1`` turns the cache off).

The file name carries a version key: a hash of the source of the module that
builds the table and of the Python version (``marshal``'s format may change
between versions), so an edited generator never reads an old table. The file
holds the SHA-256 of its payload, so a truncated or damaged file is noticed.
Anything wrong (no file, a damaged one, a table of the wrong shape, a
directory that cannot be written) means the table is built as if there were
no cache: the cache can make start-up faster, never a result different.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ENV_DIR = "CARDROOM_CACHE_DIR"
ENV_OFF = "CARDROOM_NO_CACHE"
_DIGEST = 32  # bytes of SHA-256 in front of the payload


def cache_dir() -> Path | None:
    """Where tables are cached, or None when caching is off or there is no home."""
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return None
    if explicit := os.environ.get(ENV_DIR):
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):  # the XDG spec: a relative value is to be ignored
        return Path(xdg) / "cardroom"
    try:
        return Path.home() / ".cache" / "cardroom"
    except RuntimeError:  # no home directory to be found
        return None


def version_key(source: Path) -> str | None:
    """A short hash of ``source`` and the Python version; None if the source cannot be read."""
    try:
        digest = hashlib.sha256(source.read_bytes())
    except OSError:
        return None
    digest.update(f"python {sys.version_info[:2]} marshal {marshal.version}".encode())
    return digest.hexdigest()[:16]


def cached(
    name: str,
    source: Path,
    build: Callable[[], T],
    well_formed: Callable[[Any], bool],
    directory: Path | None = None,
) -> T:
    """The table ``build()`` returns, read from the cache when a good copy is there.

    ``source`` is the file of the code that builds the table (its hash is part
    of the file name); ``well_formed`` checks the shape of a table read back;
    ``directory`` defaults to :func:`cache_dir`.
    """
    folder = cache_dir() if directory is None else directory
    key = version_key(source)
    if folder is None or key is None:
        return build()
    path = folder / f"{name}-{key}.marshal"
    loaded = _read(path)
    if loaded is not None and well_formed(loaded):
        return loaded  # type: ignore[no-any-return]
    table = build()
    _write(path, table)
    return table


def _read(path: Path) -> Any:
    """The table stored at ``path``, or None if it is missing or damaged."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    digest, payload = raw[:_DIGEST], raw[_DIGEST:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


def _write(path: Path, table: Any) -> None:
    """Store ``table`` at ``path`` atomically; give up quietly if the disk says no."""
    try:
        payload = marshal.dumps(table)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except (OSError, ValueError):
        return
    try:
        # Written whole under another name, then renamed: a reader never sees half a file.
        with os.fdopen(handle, "wb") as out:
            out.write(hashlib.sha256(payload).digest() + payload)
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)
