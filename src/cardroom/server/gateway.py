"""The WebSocket endpoint ``/ws`` (connection handling, separate from table ownership)."""

from __future__ import annotations

from starlette.websockets import WebSocket


async def websocket_endpoint(websocket: WebSocket) -> None:
    """Accept a connection (the protocol is served from the next commit)."""
    await websocket.close(code=1013)
