"""Running the server in this process with uvicorn (``cardroom serve``)."""

from __future__ import annotations

import asyncio
import socket
import sys

import uvicorn

from cardroom.server.app import create_app
from cardroom.server.settings import ServerSettings


def serve(settings: ServerSettings, log_level: str = "warning") -> int:
    """Bind, print the URL, serve until interrupted; returns the exit code."""
    app = create_app(settings)
    sock = socket.socket(socket.AF_INET6 if ":" in settings.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((settings.host, settings.port))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level=log_level, lifespan="on", ws_max_size=1 << 20)
    server = uvicorn.Server(config)
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    print(f"cardroom serving on http://{host}:{port}/", flush=True)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0 if server.started or not server.should_exit else 1


def main() -> None:  # pragma: no cover - convenience for `python -m cardroom.server.serve`
    """Serve with the default settings."""
    sys.exit(serve(ServerSettings()))
