"""The ASGI server: HTTP API, WebSocket protocol, per-seat views."""
