"""The WebSocket transport: one :class:`~aiplay.protocol.server.Server` per connection, plus static files.

Needs the optional ``websockets`` package (``pip install 'aiplay[serve]'``).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from aiplay.errors import InvalidOptionError
from aiplay.exits import Interrupted
from aiplay.protocol.origin import _check_origin, allowed_origins, origin_refusal
from aiplay.protocol.server import Server, ServerLimits
from aiplay.protocol.wire import MAX_LINE, encode_reply


def serve_websocket(port: int, host: str = "127.0.0.1", static_dir: Optional[str] = None,
                    ready: Optional[Callable[[int], None]] = None, allow_origins: Sequence[str] = (),
                    limits: Optional[ServerLimits] = None, trust_clients: bool = False) -> int:
    """Serve the protocol over WebSocket at ``ws://host:port/`` (one message per request or reply).

    With ``static_dir``, plain HTTP requests get that folder's files (the
    browser demo), and the page's WebSocket connects to the same port.
    ``ready(port)`` is called once listening (port 0 picks a free one).
    Ctrl-C stops the server (connections closed, their games ended) and
    raises :class:`aiplay.exits.Interrupted`, which the CLI turns into one
    line and status 130.
    Handshakes from another web page are refused with HTTP 403 (see
    :func:`allowed_origins`; ``allow_origins`` widens it), and past
    ``limits.max_connections`` clients with HTTP 503. ``trust_clients``: clients may
    open games with ``"viewer": "all"`` and act for any seat (trusted local use; by
    default each client sees and acts only as its seat in games with hidden information).
    Needs the optional ``websockets`` package (``pip install aiplay[serve]``).
    """
    try:
        # Late and optional: only this transport needs the package (aiplay[serve]).
        from websockets.datastructures import Headers  # type: ignore[import-not-found, unused-ignore]
        from websockets.http11 import Response  # type: ignore[import-not-found, unused-ignore]
        from websockets.sync.server import serve  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise InvalidOptionError(
            "serving over WebSocket needs the 'websockets' package: pip install 'aiplay[serve]'") from None
    import mimetypes
    from pathlib import Path

    extra = [_check_origin(o) for o in allow_origins]
    shared = limits if limits is not None else ServerLimits()
    root = Path(static_dir).resolve() if static_dir is not None else None
    origins: List[str] = []  # filled once the port is known (port 0 picks one)

    def handler(connection: Any) -> None:
        if not shared.connect():  # a race past process_request's check: refuse here too
            connection.close(1013, f"too many connections (the limit is {shared.max_connections})")
            return

        def emit(obj: Dict[str, Any]) -> None:
            try:
                connection.send(encode_reply(obj))
            except Exception:  # the client went away: nothing to tell it any more
                pass

        server = Server(emit, shared, trusted=trust_clients)
        try:
            for message in connection:
                if isinstance(message, bytes):
                    message = message.decode("utf-8", errors="replace")
                if not server.handle_line(message):
                    break
        except Exception:  # a dropped connection ends this client's games, never the server
            pass
        finally:
            server.shutdown()
            shared.disconnect()

    def process_request(connection: Any, request: Any) -> Any:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            refusal = origin_refusal(request.headers.get("Origin"), origins)
            if refusal is not None:
                return connection.respond(403, refusal + "\n")
            if shared.connections >= shared.max_connections:
                return connection.respond(503, f"too many connections: this server accepts "
                                               f"{shared.max_connections} at once (--max-connections)\n")
            return None
        if root is None:
            return connection.respond(426, "This is the aiplay engine protocol over WebSocket.\n")
        path = request.path.split("?", 1)[0].lstrip("/") or "index.html"
        target = (root / path).resolve()
        if root not in target.parents and target != root or not target.is_file():
            return connection.respond(404, "not found\n")
        body = target.read_bytes()
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))),
                           ("Cache-Control", "no-store")])
        return Response(200, "OK", headers, body)

    with serve(handler, host, port, process_request=process_request, max_size=MAX_LINE) as server:
        actual = server.socket.getsockname()[1]
        origins.extend(allowed_origins(host, actual, extra))
        if ready is not None:
            ready(actual)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            # Ctrl-C is how a server is stopped, but it is still an interruption (the CLI's one
            # line and status 130): re-raised once the `with` has closed the socket and clients.
            stopped = True
        else:
            stopped = False
    if stopped:
        raise Interrupted(f"stopped serving on port {actual}")
    return 0


__all__ = ["serve_websocket"]
