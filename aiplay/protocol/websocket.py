"""The WebSocket transport: one :class:`~aiplay.protocol.server.Server` per connection, plus static files.

Needs the optional ``websockets`` package (``pip install 'aiplay[serve]'``).
"""

from __future__ import annotations

import errno
import logging
import select
import socket
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from aiplay.errors import AiplayError, InvalidOptionError
from aiplay.exits import Interrupted
from aiplay.protocol.origin import _check_origin, allowed_origins, origin_refusal
from aiplay.protocol.server import Server, ServerLimits
from aiplay.protocol.wire import MAX_LINE, WEBSOCKET_QUEUE, encode_reply

#: Where the transport reports what it survived (accept() failures, refused connections).
log = logging.getLogger("aiplay.serve")
#: Seconds between two reports of the same kind (a flood must not flood the log too).
_LOG_EVERY = 5.0
#: The longest pause between two tries of a failing accept(), in seconds.
_ACCEPT_BACKOFF = 0.5


class _Gate:
    """The TCP connections of one WebSocket server: counted from accept() until their handler ends.

    Connections that are not WebSocket clients yet (in their handshake, or a plain HTTP request)
    are capped at ``limits.max_handshakes``: one past it is answered 503 and closed at once, so
    that half-open sockets can hold neither every file descriptor nor every thread.
    """

    def __init__(self, limits: ServerLimits):
        self.limits = limits
        self.lock = threading.Lock()
        self.open = 0  # accepted TCP connections whose handler has not ended
        self.clients: Set[Any] = set()  # sockets holding a WebSocket client slot (limits.connections)
        self._last_report: Dict[str, float] = {}
        self.refused = 0
        self.accept_failures = 0

    def pending(self) -> int:
        """Connections accepted that hold no client slot (handshakes, plain HTTP requests)."""
        return self.open - len(self.clients)

    def admit(self) -> bool:
        with self.lock:
            if self.pending() >= self.limits.max_handshakes:
                self.refused += 1
                return False
            self.open += 1
            return True

    def take_slot(self, sock: Any) -> bool:
        """Count ``sock`` as a WebSocket client (at its handshake); False past ``max_connections``."""
        if not self.limits.connect():
            return False
        with self.lock:
            self.clients.add(sock)
        return True

    def release(self, sock: Any) -> None:
        """``sock``'s handler ended: its connection, and its client slot if it had one, are free."""
        with self.lock:
            self.open -= 1
            slot = sock in self.clients
            self.clients.discard(sock)
        if slot:
            self.limits.disconnect()

    def report(self, kind: str, message: str) -> None:
        """Log ``message`` unless a report of ``kind`` was logged in the last few seconds."""
        now = time.monotonic()
        with self.lock:
            if now - self._last_report.get(kind, -_LOG_EVERY) < _LOG_EVERY:
                return
            self._last_report[kind] = now
        log.warning("aiplay: %s", message)


class _Listener(socket.socket):
    """The listening socket, made to survive: accept() never fails while the socket is open.

    * A failing accept() (EMFILE and ENFILE when file descriptors run out, ENOBUFS, ENOMEM,
      ECONNABORTED...) is logged and tried again after a short pause, doubling up to half a
      second: the server goes on serving its clients meanwhile, and accepts again once
      descriptors are free. (The websockets library's loop ends on the first failure, which
      closed the port and made ``aiplay serve`` exit with status 0.)
    * A connection past the gate's cap is answered ``503`` and closed at once.

    Non-blocking: accept() waits in select(), so that a close from another thread ends it.
    """

    gate: _Gate

    def accept(self) -> Tuple[socket.socket, Any]:  # type: ignore[override]
        backoff = 0.01
        while True:
            try:
                fd, addr = self._accept()  # type: ignore[attr-defined]
            except (BlockingIOError, InterruptedError):
                self._wait()
                continue
            except OSError as exc:
                if self.fileno() == -1:
                    raise  # closed: the server is shutting down
                self.gate.accept_failures += 1
                self.gate.report("accept", f"accept() failed ({exc}); still serving the "
                                           f"{self.gate.open} connections open, and trying again")
                time.sleep(backoff)
                backoff = min(_ACCEPT_BACKOFF, backoff * 2)
                continue
            backoff = 0.01
            sock = socket.socket(self.family, self.type, self.proto, fileno=fd)
            sock.setblocking(True)
            if self.gate.admit():
                return sock, addr
            self.gate.report("refused", f"refused connections past --max-handshakes "
                                        f"{self.gate.limits.max_handshakes} (unfinished handshakes)")
            _refuse(sock, f"too many unfinished connections: this server accepts "
                          f"{self.gate.limits.max_handshakes} at once (--max-handshakes)\n")

    def _wait(self) -> None:
        """Until a connection is pending, or the socket is closed (then accept() raises)."""
        if self.fileno() == -1:
            raise OSError(errno.EBADF, "the listening socket is closed")
        try:
            select.select([self], [], [], 0.5)
        except (OSError, ValueError):
            if self.fileno() == -1:
                raise OSError(errno.EBADF, "the listening socket is closed") from None
            time.sleep(0.01)


def _refuse(sock: socket.socket, reason: str) -> None:
    """Answer HTTP 503 without waiting for the request (never blocks), and close."""
    body = reason.encode()
    try:
        sock.setblocking(False)
        sock.send(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                  b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    except OSError:
        pass
    finally:
        sock.close()


def _listen(host: str, port: int, gate: _Gate) -> _Listener:
    raw = socket.create_server((host, port), backlog=128)
    listener = _Listener(raw.family, raw.type, raw.proto, fileno=raw.detach())
    listener.gate = gate
    listener.setblocking(False)
    return listener


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
    ``limits.max_connections`` clients with HTTP 503 (a client's slot is
    taken at its handshake and freed when its handler has ended). A request
    message is at most :data:`MAX_LINE` bytes (longer: the connection is
    closed with code 1009, never buffered whole). ``limits`` also caps the
    unfinished handshakes and times them out, and closes idle clients
    (:class:`ServerLimits`); a failing ``accept()`` (no file descriptor left)
    is logged and survived (:class:`_Listener`).
    ``trust_clients``: clients may open games with ``"viewer": "all"`` and act for any
    seat (trusted local use; by default each client sees and acts only as its seat in
    games with hidden information).
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

    gate = _Gate(shared)

    def handler(connection: Any) -> None:
        def emit(obj: Dict[str, Any]) -> None:
            try:
                connection.send(encode_reply(obj))
            except Exception:  # the client went away: nothing to tell it any more
                pass

        server = Server(emit, shared, trusted=trust_clients)
        try:
            while True:
                try:
                    # A message already received is always read first: a server too busy to read
                    # for a while must not take its clients' waiting requests for idleness.
                    message = connection.recv(timeout=max(0.0, min(1.0, shared.idle_timeout
                                                                   - server.idle_seconds())))
                except TimeoutError:
                    # Idle: no request, no reply and no search running for idle_timeout seconds.
                    if server.idle_seconds() >= shared.idle_timeout:
                        connection.close(1001, f"idle for {shared.idle_timeout:g} seconds (--idle-timeout)")
                        break
                    continue
                if isinstance(message, bytes):
                    message = message.decode("utf-8", errors="replace")
                if not server.handle_line(message):
                    break
        except Exception:  # a dropped connection ends this client's games, never the server
            pass
        finally:
            server.shutdown()  # cancels its searches and solves: their memory is freed

    def process_request(connection: Any, request: Any) -> Any:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            refusal = origin_refusal(request.headers.get("Origin"), origins)
            if refusal is not None:
                return connection.respond(403, refusal + "\n")
            # The slot is taken here, at the handshake (not when the handler starts, later, in
            # another thread: clients opened meanwhile went past the cap), and freed once the
            # connection's handler has ended (tracked()).
            if not gate.take_slot(connection.socket):
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

    listener = _listen(host, port, gate)
    with serve(handler, sock=listener, process_request=process_request, max_size=MAX_LINE,
               max_queue=WEBSOCKET_QUEUE, open_timeout=shared.handshake_timeout) as server:
        sock_handler = server.handler

        def tracked(sock: Any, addr: Any) -> None:
            try:
                sock_handler(sock, addr)  # the handshake (open_timeout), then handler()
            finally:
                gate.release(sock)

        server.handler = tracked  # every accepted connection is counted until its handler ends
        actual = listener.getsockname()[1]
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
    # serve_forever() returns only once the listening socket is closed, which nothing here asks
    # for: never a quiet exit with status 0 that ends every client's games.
    raise AiplayError(f"the listening socket of port {actual} was closed; stopped serving")


__all__ = ["serve_websocket"]
