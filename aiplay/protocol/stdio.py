"""The stdio transport: the protocol over standard input and output (``aiplay serve``)."""

from __future__ import annotations

import sys
from typing import Any, Dict, Optional, TextIO

from aiplay.protocol.server import Server, ServerLimits
from aiplay.protocol.wire import encode_reply


def serve_stdio(stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None,
                limits: Optional[ServerLimits] = None) -> int:
    """Serve the protocol over standard input and output until ``quit`` or end of input (caps: ``limits``)."""
    out = stdout if stdout is not None else sys.stdout
    source = stdin if stdin is not None else sys.stdin
    binary = getattr(source, "buffer", None)

    def emit(obj: Dict[str, Any]) -> None:
        out.write(encode_reply(obj) + "\n")
        out.flush()

    server = Server(emit, limits)
    while True:
        if binary is not None:
            raw = binary.readline()
            if not raw:
                break
            line = raw.decode("utf-8", errors="replace")
        else:
            line = source.readline()
            if not line:
                break
        if not server.handle_line(line.rstrip("\r\n")):
            break
    server.shutdown()
    return 0


__all__ = ["serve_stdio"]
