"""``aiplay serve``: the engine protocol over stdio or WebSocket, and ``--allow-origin`` (shared with ``demo``)."""

from __future__ import annotations

import sys
from typing import Any

from aiplay.errors import InvalidOptionError
from aiplay.protocol.origin import _check_origin
from aiplay.protocol.server import ServerLimits
from aiplay.protocol.stdio import serve_stdio
from aiplay.protocol.websocket import serve_websocket
from aiplay.protocol.wire import (
    DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_GAMES,
    DEFAULT_MAX_HANDSHAKES, DEFAULT_MAX_SEARCHES,
)


def add_serve_command(sub: Any) -> None:
    """Add ``aiplay serve`` to the command line's subcommands."""
    serve = sub.add_parser(
        "serve", help="run the engine protocol (JSON lines over stdio, or WebSocket)",
        description="Serve the aiplay engine protocol (docs/protocol.md): one JSON object per line on "
                    "standard input, replies on standard output; or over WebSocket with --websocket PORT.")
    serve.add_argument("--websocket", type=int, metavar="PORT",
                       help="serve over WebSocket on this port instead of stdio (needs aiplay[serve]; 0: any free port)")
    serve.add_argument("--host", default="127.0.0.1", help="WebSocket address to listen on (default 127.0.0.1)")
    add_origin_argument(serve)
    serve.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES, metavar="N",
                       help=f"open games at once, over all clients (default {DEFAULT_MAX_GAMES})")
    serve.add_argument("--max-searches", type=int, default=DEFAULT_MAX_SEARCHES, metavar="N",
                       help=f"searches (go, analyse, solve) running at once, over all clients "
                            f"(default {DEFAULT_MAX_SEARCHES})")
    serve.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS, metavar="N",
                       help=f"WebSocket clients at once (default {DEFAULT_MAX_CONNECTIONS})")
    serve.add_argument("--trust-clients", action="store_true",
                       help="WebSocket clients may open games with viewer \"all\" (every hand shown) and act "
                            "for any seat, as a stdio client may; by default each WebSocket client sees and "
                            "acts only as its seat in games with hidden information")
    serve.add_argument("--max-handshakes", type=int, default=DEFAULT_MAX_HANDSHAKES, metavar="N",
                       help=f"TCP connections still in their WebSocket handshake (or a plain HTTP request) at "
                            f"once; one past it is closed at once (default {DEFAULT_MAX_HANDSHAKES})")
    serve.add_argument("--handshake-timeout", type=float, default=DEFAULT_HANDSHAKE_TIMEOUT, metavar="SECONDS",
                       help=f"close a connection that has not finished its WebSocket handshake within this "
                            f"time (default {DEFAULT_HANDSHAKE_TIMEOUT:g})")
    serve.add_argument("--idle-timeout", type=float, default=DEFAULT_IDLE_TIMEOUT, metavar="SECONDS",
                       help=f"close a WebSocket client that sent no request, got no reply and ran no search for "
                            f"this long; its games end (default {DEFAULT_IDLE_TIMEOUT:g})")
    serve.set_defaults(func=cmd_serve)


def add_origin_argument(parser: Any) -> None:
    """``--allow-origin`` (repeatable), shared by ``aiplay serve`` and ``aiplay demo``."""
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="also accept WebSocket clients from the web page of this origin (e.g. "
                             "http://localhost:3000; 'null', or '*' for any); repeatable. By default only the "
                             "server's own page and local programs may connect")


def cmd_serve(args: Any) -> int:
    """``aiplay serve``: stdio, or WebSocket with ``--websocket PORT``."""
    limits = ServerLimits(args.max_games, args.max_searches, args.max_connections, args.max_handshakes,
                          idle_timeout=args.idle_timeout, handshake_timeout=args.handshake_timeout)
    origins = [_check_origin(o) for o in args.allow_origin]
    if args.websocket is None:
        if origins:
            raise InvalidOptionError("--allow-origin applies to --websocket only")
        if args.trust_clients:
            raise InvalidOptionError("--trust-clients applies to --websocket only (a stdio client is trusted)")
        return serve_stdio(limits=limits)
    if not 0 <= args.websocket <= 65535:
        raise InvalidOptionError(f"--websocket {args.websocket} is not a port (0..65535)")

    def ready(port: int) -> None:
        print(f"aiplay: serving the engine protocol at ws://{args.host}:{port}/", file=sys.stderr, flush=True)

    return serve_websocket(args.websocket, args.host, ready=ready, allow_origins=origins, limits=limits,
                           trust_clients=args.trust_clients)


__all__ = ["add_origin_argument", "add_serve_command", "cmd_serve"]
