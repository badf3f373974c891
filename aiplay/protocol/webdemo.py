"""The browser demo's server (``aiplay demo``, :mod:`aiplay.cli.demo`): the demo, a static page that plays against the bots over WebSocket.

The page (``aiplay/demo/``: plain HTML, CSS and JavaScript, no build step,
shipped as package data) is served over HTTP by the same server that speaks
the engine protocol over WebSocket (:func:`aiplay.protocol.websocket.serve_websocket`),
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
level plays, the best bot, as ``aiplay play --human`` seats), ``opt.NAME=VALUE`` another option of the
game (``opt.max_turns=6``), and ``autostart=1`` starts a game at once.

What the page shows a person (issue 38): a "How to play" panel (the protocol's ``rules``), each
move's meaning as the tooltip of its button, menu entry and board place (``legal`` with
``"meanings": true``), the engine's narration of every move as the seat may read it (the
statuses' ``log``) and, above the board, what the other seats did since the person's last move
(the statuses' ``summary``), with the elements it changed marked on the picture (``view`` with
``since_ply``: the ply where the bots' turn began, docs/svg.md). The game-over panel names the
winner(s), each seat's final score and result and why (the status's ``outcome``). The hint comes
from the best bot (the top level), its estimate in words. A chosen level hides the bot and
seconds fields (it sets both). The picture is drawn at least at its own size (its smallest
text is 12 units, so at least 12 px), larger when the board has the room.

The page is bound to its seat (docs/protocol.md, "Rights"): this server never trusts its clients
with ``"viewer": "all"``. Two people can share a table: with ``second=k`` (the form's "Second person
at seat") the page opens a table (``new`` with ``seats``; the other seats are bots at the chosen
level) and shows a join link, ``?join=TOKEN``, for the second person's tab; the engine plays the
bots and pushes every move to both tabs as each seat sees it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional, Sequence

from aiplay.protocol.server import ServerLimits
from aiplay.protocol.websocket import serve_websocket

#: The folder of the page's files (``aiplay/demo/``, package data).
STATIC_DIR = Path(__file__).resolve().parent.parent / "demo"


def serve_demo(port: int, host: str = "127.0.0.1", ready: Optional[Callable[[int], None]] = None,
               allow_origins: Sequence[str] = (), limits: Optional[ServerLimits] = None) -> int:
    """Serve the demo page and the protocol over WebSocket on ``host:port`` until interrupted.

    Needs the optional ``websockets`` package (``pip install 'aiplay[serve]'``).
    """
    return serve_websocket(port, host, static_dir=str(STATIC_DIR), ready=ready, allow_origins=allow_origins,
                           limits=limits)


__all__ = ["STATIC_DIR", "serve_demo"]
