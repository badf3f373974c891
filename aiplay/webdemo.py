"""``aiplay demo``: the browser demo, a static page that plays against the bots over WebSocket.

The page (``aiplay/demo/``: plain HTML, CSS and JavaScript, no build step,
shipped as package data) is served over HTTP by the same server that speaks
the engine protocol over WebSocket (:func:`aiplay.protocol.serve_websocket`),
so ``http://127.0.0.1:PORT/`` is the page and ``ws://127.0.0.1:PORT/ws`` the
engine. The page talks to the engine only through the protocol. Needs the
optional ``websockets`` package (``pip install 'aiplay[serve]'``).

The person plays by clicking the board: the ``view`` picture's elements that
legal moves touch (the reply's ``targets``) are highlighted, one click plays the
one move there or opens a small menu of the few, and a second click on another
marked element narrows them; moves without a place are grouped buttons. Every
request names the person's seat as ``viewer``, so the log, the view and the
bots' progress show only what that seat may see (see ``aiplay/demo/demo.js``).

Query parameters preset the form: ``?game=my_game&players=3&seat=0&bot=heuristic&seconds=0.5&seed=1``
(and ``level=k`` where the engine offers levels; with neither ``bot`` nor ``level`` the top
level plays, the best bot, as ``aiplay play --human`` seats), and ``autostart=1`` starts a game at once.
"""

from __future__ import annotations

import sys
import webbrowser
from pathlib import Path
from typing import Any

from aiplay.errors import InvalidOptionError
from aiplay.protocol import add_origin_argument, serve_websocket

#: The folder of the page's files.
STATIC_DIR = Path(__file__).resolve().parent / "demo"


def add_demo_command(sub: Any) -> None:
    """Add ``aiplay demo`` to the command line's subcommands."""
    demo = sub.add_parser(
        "demo", help="play a board game against the bots in your browser",
        description="Serve the browser demo (a static page) and the engine protocol over WebSocket on one "
                    "port, and open the page. Needs aiplay[serve] (the websockets package).")
    demo.add_argument("--port", type=int, default=8765, help="port to serve on (default 8765; 0: any free port)")
    demo.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    demo.add_argument("--no-browser", action="store_true", help="print the address but do not open a browser")
    add_origin_argument(demo)  # only the demo's own page may drive the engine, unless widened here
    demo.set_defaults(func=cmd_demo)


def cmd_demo(args: Any) -> int:
    """Run the demo server until interrupted (Ctrl-C)."""
    if not 0 <= args.port <= 65535:
        raise InvalidOptionError(f"--port {args.port} is not a port (0..65535)")

    def ready(port: int) -> None:
        url = f"http://{args.host}:{port}/"
        print(f"aiplay demo: open {url} (Ctrl-C to stop)", flush=True)
        if not args.no_browser:
            webbrowser.open(url)

    return serve_websocket(args.port, args.host, static_dir=str(STATIC_DIR), ready=ready,
                           allow_origins=getattr(args, "allow_origin", None) or ())


