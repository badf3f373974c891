"""One guarded way to read JSON that comes from outside: files named on the command line, request lines.

Python's ``json.loads`` accepts ``NaN``, ``Infinity`` and numbers too large
for a double (``1e400`` becomes ``inf``), none of which is JSON, and raises
``RecursionError`` on a few thousand nested brackets. :func:`parse_json`
refuses all of these with one clear message, and :func:`read_json_file` adds
the file's errors (missing, unreadable, too large, not UTF-8). The caller
chooses the :class:`~aiplay.errors.AiplayError` it raises, through ``fail``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable, Union

#: The largest JSON file read from the command line, in bytes (a position is a few kB).
MAX_FILE_BYTES = 64 * 2 ** 20

Fail = Callable[[str], Exception]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is out of range (larger than a double)")
    return value


def strict_loads(text: Union[str, bytes]) -> Any:
    """``json.loads`` that refuses ``NaN``, ``Infinity`` and numbers too large for a double with a
    ``ValueError`` (``RecursionError`` when nested too deeply); callers word the error for their reader."""
    return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)


def parse_json(text: Union[str, bytes], fail: Fail, source: str = "the input") -> Any:
    """``text`` as strict JSON; ``fail(message)`` is raised when it is not (too deep, NaN, 1e400, bad syntax)."""
    try:
        return strict_loads(text)
    except RecursionError:
        raise fail(f"{source} is nested too deeply to be read") from None
    except (TypeError, ValueError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise fail(f"{source} is not valid JSON: {exc}") from None


def read_json_file(path: Union[str, Path], fail: Fail, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The JSON document in the file ``path``, through :func:`parse_json`; ``fail(message)`` on any problem."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise fail(f"{path} is too large ({size} bytes; the limit is {max_bytes})")
        data = path.read_bytes()
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_json(data, fail, str(path))


__all__ = ["MAX_FILE_BYTES", "parse_json", "read_json_file", "strict_loads"]
