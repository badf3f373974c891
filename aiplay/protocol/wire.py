"""The protocol's wire format: its constants, one request line in, one reply object out.

What every transport and the server share (docs/protocol.md): the version, the
caps' defaults, :class:`ProtocolError`, strict JSON replies (:func:`encode_reply`),
request parsing (:func:`parse_request`) and the checks of a request's fields.
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Dict, Mapping, Tuple

from aiplay.errors import AiplayError, InvalidOptionError
from aiplay.jsonio import strict_loads

#: The protocol version (``hello`` reports it; docs/protocol.md describes it).
PROTOCOL_VERSION = 1
#: Engine name reported by ``hello``.
ENGINE_NAME = "aiplay"
#: The longest request line accepted, in characters (a position is a few kB).
MAX_LINE = 1_000_000
#: Bot kinds whose search is run in slices, with an ``info`` line after each.
SLICED_BOTS = ("mcts", "ismcts")
#: Default slice of a ``seconds`` budget, in seconds (one ``info`` line each).
DEFAULT_INFO_SECONDS = 0.1
#: The time budget of a ``solve`` that gives neither ``seconds`` nor ``nodes``, in seconds.
DEFAULT_SOLVE_SECONDS = 10.0
#: How long ``quit`` waits for a running solve that has a node budget only, in seconds.
SOLVE_QUIT_WAIT = 60.0
#: The longest ``solve`` the protocol runs, in seconds (``stop`` cannot end one: its budget does).
MAX_SOLVE_SECONDS = 600.0
#: Keys every reply carries; a command's data never overrides them.
RESERVED = ("id", "type", "cmd", "ok")

#: Default server-wide caps (``aiplay serve --max-games/--max-searches/--max-connections``).
DEFAULT_MAX_GAMES = 64
DEFAULT_MAX_SEARCHES = 4
DEFAULT_MAX_CONNECTIONS = 16
#: TCP connections still in their opening handshake (or a plain HTTP request) at once
#: (``--max-handshakes``); one past it is closed at once.
DEFAULT_MAX_HANDSHAKES = 16
#: Seconds a connection may take to finish its WebSocket handshake (``--handshake-timeout``).
DEFAULT_HANDSHAKE_TIMEOUT = 10.0
#: Seconds a WebSocket client may stay idle, no request, no reply and no search running,
#: before the server closes it (``--idle-timeout``).
DEFAULT_IDLE_TIMEOUT = 600.0
#: The longest timeout either option accepts, in seconds (a day).
MAX_TIMEOUT = 86_400.0
#: Incoming WebSocket messages buffered per connection (frames read ahead of the server: flow control).
WEBSOCKET_QUEUE = 4
#: The largest value a cap accepts.
MAX_CAP = 100_000
#: Commands that open a game, and commands that start a search (each checked against a cap).
OPENING = ("new", "load")
SEARCHING = ("go", "analyse", "solve", "review")

Emit = Callable[[Dict[str, Any]], None]


class ProtocolError(AiplayError, ValueError):
    """A request that is malformed or cannot be served (its text is the reply's ``error``)."""



def _strict(value: Any) -> Any:
    """``value`` with every non-finite float replaced by None: a reply is strict JSON (docs/protocol.md)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    return value


def encode_reply(obj: Mapping[str, Any]) -> str:
    """One reply as strict JSON text (no ``NaN``/``Infinity``, which ``JSON.parse`` rejects)."""
    try:
        return json.dumps(obj, separators=(",", ":"), allow_nan=False)
    except ValueError:  # a non-finite number somewhere (a standard error of one sample...): sent as null
        return json.dumps(_strict(obj), separators=(",", ":"), allow_nan=False)


def parse_request(line: str) -> Dict[str, Any]:
    """One request line as an object; :class:`ProtocolError` naming what is wrong."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"line too long ({len(line)} characters; the limit is {MAX_LINE})")
    if not line.strip():
        raise ProtocolError("empty line: a request is one JSON object with a 'cmd' field")
    try:
        request = strict_loads(line)
    except RecursionError:
        raise ProtocolError("malformed JSON: nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError(f"malformed JSON: {exc}") from None
    if not isinstance(request, dict):
        raise ProtocolError(f"a request must be a JSON object, got {type(request).__name__}")
    return request


def _field(request: Mapping[str, Any], key: str, kinds: Tuple[type, ...], default: Any = None,
           required: bool = False) -> Any:
    """``request[key]`` checked against ``kinds`` (bool is never an int here)."""
    if key not in request or request[key] is None:
        if required:
            raise ProtocolError(f"missing field {key!r}")
        return default
    value = request[key]
    if isinstance(value, bool) and bool not in kinds:
        raise ProtocolError(f"field {key!r} must be {_kind_names(kinds)}, got {json.dumps(value)}")
    if not isinstance(value, kinds):
        raise ProtocolError(f"field {key!r} must be {_kind_names(kinds)}, got {_short(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError(f"field {key!r} must be finite")
    return value


def _option_field(options: Mapping[str, Any], key: str, kinds: Tuple[type, ...]) -> Any:
    """``options[key]`` checked like a request field (:class:`InvalidOptionError` naming ``options.key``)."""
    try:
        return _field(options, key, kinds)
    except ProtocolError as exc:
        raise InvalidOptionError(str(exc).replace(f"field {key!r}", f"options.{key}", 1)) from None


def _kind_names(kinds: Tuple[type, ...]) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
             dict: "an object", list: "a list"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


__all__ = ["DEFAULT_HANDSHAKE_TIMEOUT", "DEFAULT_IDLE_TIMEOUT", "DEFAULT_INFO_SECONDS", "DEFAULT_MAX_CONNECTIONS",
           "DEFAULT_MAX_GAMES", "DEFAULT_MAX_HANDSHAKES", "DEFAULT_MAX_SEARCHES", "MAX_TIMEOUT", "WEBSOCKET_QUEUE",
           "DEFAULT_SOLVE_SECONDS", "ENGINE_NAME", "MAX_CAP", "MAX_LINE", "MAX_SOLVE_SECONDS", "OPENING",
           "PROTOCOL_VERSION", "ProtocolError", "RESERVED", "SEARCHING", "SLICED_BOTS", "SOLVE_QUIT_WAIT",
           "Emit", "encode_reply", "parse_request"]
