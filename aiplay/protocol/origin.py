"""The origin policy of the WebSocket transport: which web pages may drive the engine."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from aiplay.errors import InvalidOptionError


def allowed_origins(host: str, port: int, extra: Sequence[str] = ()) -> List[str]:
    """The ``Origin`` values a WebSocket server on ``host:port`` accepts: its own pages', plus ``extra``.

    A browser sends the origin of the page that opens a WebSocket; only the
    server's own page (``http://127.0.0.1:PORT``, ``http://localhost:PORT``,
    ``http://HOST:PORT``) may drive the engine by default, so a web site the
    user visits cannot. ``extra`` (``--allow-origin``) widens the list
    deliberately; ``"*"`` accepts every origin.
    """
    hosts = ["127.0.0.1", "localhost", "[::1]"]
    if host and host not in ("0.0.0.0", "::", ""):
        hosts.append(f"[{host}]" if ":" in host and not host.startswith("[") else host)
    own = [f"http://{h}:{port}" for h in dict.fromkeys(hosts)]
    return own + [o for o in extra if o not in own]


def origin_refusal(origin: Optional[str], allowed: Sequence[str]) -> Optional[str]:
    """Why a WebSocket handshake with this ``Origin`` header is refused; None when it is accepted.

    No ``Origin`` at all: a local program, not a web page (browsers always
    send one), accepted. ``null`` (a sandboxed page, a ``file:`` URL) and any
    other site are refused unless listed in ``allowed``.
    """
    if origin is None or "*" in allowed:
        return None
    if origin.rstrip("/") in allowed:
        return None
    return (f"origin {origin!r} may not use this engine: only its own page ({allowed[0]}) and "
            f"local programs may; start the server with --allow-origin {origin} to allow it")


def _check_origin(text: Any) -> str:
    """An ``--allow-origin`` value: ``scheme://host[:port]``, ``null`` or ``*``."""
    if not isinstance(text, str) or not text:
        raise InvalidOptionError(f"--allow-origin {text!r} is invalid; it accepts an origin such as "
                                 "http://localhost:3000, or null, or *")
    text = text.rstrip("/")
    if text in ("null", "*"):
        return text
    scheme, sep, rest = text.partition("://")
    if not sep or scheme not in ("http", "https") or not rest or "/" in rest:
        raise InvalidOptionError(f"--allow-origin {text!r} is invalid; it accepts an origin such as "
                                 "http://localhost:3000 (scheme and host, no path), or null, or *")
    return text


check_origin = _check_origin

__all__ = ["allowed_origins", "check_origin", "origin_refusal"]
