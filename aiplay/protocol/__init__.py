"""The aiplay engine protocol: JSON lines over stdio (``aiplay serve``) or WebSocket.

A frontend in any language drives the engine with one JSON object per line;
``docs/protocol.md`` is the specification (its version is
:data:`PROTOCOL_VERSION`). The package, one concern a module:

* :mod:`aiplay.protocol.wire` -- constants, :class:`ProtocolError`, request parsing, strict JSON replies;
* :mod:`aiplay.protocol.server` -- :class:`Server` (one client's games) and :class:`ServerLimits`;
* :mod:`aiplay.protocol.stdio` -- :func:`serve_stdio`, the stdio transport;
* :mod:`aiplay.protocol.websocket` -- :func:`serve_websocket`, the WebSocket transport (``aiplay[serve]``);
* :mod:`aiplay.protocol.origin` -- which web pages may use the WebSocket transport;
* :mod:`aiplay.protocol.webdemo` -- the browser demo's server.

The ``aiplay serve`` and ``aiplay demo`` commands are :mod:`aiplay.cli.serve` and :mod:`aiplay.cli.demo`.
"""

from aiplay.protocol.origin import allowed_origins, origin_refusal
from aiplay.protocol.server import Server, ServerLimits, Session
from aiplay.protocol.stdio import serve_stdio
from aiplay.protocol.websocket import serve_websocket
from aiplay.protocol.wire import ENGINE_NAME, PROTOCOL_VERSION, ProtocolError, encode_reply, parse_request
from aiplay.views.text import render_state

__all__ = ["ENGINE_NAME", "PROTOCOL_VERSION", "ProtocolError", "Server", "ServerLimits", "Session",
           "allowed_origins", "encode_reply", "origin_refusal", "parse_request", "render_state", "serve_stdio",
           "serve_websocket"]
