"""``aiplay demo``: serve the browser demo and open it (:mod:`aiplay.protocol.webdemo`)."""

from __future__ import annotations

import webbrowser
from typing import Any

from aiplay.cli.serve import add_origin_argument
from aiplay.errors import InvalidOptionError
from aiplay.protocol.webdemo import serve_demo


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

    return serve_demo(args.port, args.host, ready=ready, allow_origins=getattr(args, "allow_origin", None) or ())


__all__ = ["add_demo_command", "cmd_demo"]
