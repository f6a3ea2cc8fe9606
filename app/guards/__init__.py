"""Guards against hostile clients: the ASGI middleware (body cap and timeout, rates, socket
caps, idle sockets: `middleware`, `http`, `sockets`), the per-client rates (`ratelimit`),
the connection-level guards of the uvicorn server (`connections`), and HEAD served as GET
(`head`)."""

from app.guards.middleware import Guards, install

__all__ = ["Guards", "install"]
