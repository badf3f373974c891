"""Bounds on the options that size memory: transposition tables, search trees, depths.

An option that reserves memory (``tt_bits``, ``max_nodes``, ``max_plies``...)
is checked twice before anything is allocated:

* against a documented cap (:data:`MAX_TT_BITS`...), the same on every
  machine, so a typo fails the same way everywhere; and
* against the memory this machine has: a request for more than
  :data:`MEMORY_FRACTION` of the physical memory is refused, since it would
  swap the machine to a halt or be killed by the kernel's OOM killer.

Both raise :class:`~aiplay.errors.InvalidOptionError` naming the option, its
value and what it would need. The native classes call these checks from
their constructors, so a private import cannot bypass them either.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from aiplay.errors import InvalidOptionError

#: The largest transposition table, in bits of index (2**28 entries: several GB).
MAX_TT_BITS = 28
#: The smallest transposition table, in bits of index.
MIN_TT_BITS = 4
#: The share of the physical memory one table or tree may reserve.
MEMORY_FRACTION = 0.5
#: Environment variable that overrides the memory budget, in bytes (tests, containers).
MEMORY_ENV = "AIPLAY_MEMORY_LIMIT"


def physical_memory() -> Optional[int]:
    """The machine's physical memory in bytes, or None where the system does not tell."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # not POSIX (Windows): no check but the caps
        return None
    if pages <= 0 or size <= 0:
        return None
    return int(pages) * int(size)


def memory_budget() -> Optional[int]:
    """The bytes one option may reserve: ``AIPLAY_MEMORY_LIMIT``, else a fraction of the physical memory."""
    text = os.environ.get(MEMORY_ENV)
    if text:
        try:
            value = int(text)
        except ValueError:
            raise InvalidOptionError(f"{MEMORY_ENV}={text!r} is invalid; it accepts a number of bytes") from None
        if value < 1:
            raise InvalidOptionError(f"{MEMORY_ENV}={text!r} is invalid; it accepts a number of bytes >= 1")
        return value
    total = physical_memory()
    return None if total is None else int(total * MEMORY_FRACTION)


def _size(n: int) -> str:
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def check_memory(option: str, value: Any, needed: int) -> None:
    """Raise :class:`InvalidOptionError` when ``option=value`` would reserve more than :func:`memory_budget`."""
    budget = memory_budget()
    if budget is not None and needed > budget:
        raise InvalidOptionError(
            f"option {option}={value!r} would reserve {_size(needed)}, more than this machine allows one "
            f"search ({_size(budget)}: {MEMORY_FRACTION:.0%} of its memory, or {MEMORY_ENV}); give a smaller value")


def check_tt_bits(value: Any, entry_bytes: int, option: str = "tt_bits") -> int:
    """``value`` if it is an int in ``MIN_TT_BITS..MAX_TT_BITS`` whose table (``entry_bytes`` each) fits."""
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_TT_BITS <= value <= MAX_TT_BITS:
        raise InvalidOptionError(
            f"option {option}={value!r} is invalid; it accepts an integer from {MIN_TT_BITS} to {MAX_TT_BITS}")
    check_memory(option, value, (1 << value) * int(entry_bytes))
    return int(value)


def check_count(option: str, value: Any, minimum: int, maximum: int, item_bytes: int = 0) -> int:
    """``value`` if it is an int in ``minimum..maximum`` and ``value * item_bytes`` fits in memory."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise InvalidOptionError(
            f"option {option}={value!r} is invalid; it accepts an integer from {minimum} to {maximum}")
    if item_bytes:
        check_memory(option, value, int(value) * int(item_bytes))
    return int(value)


__all__ = ["MAX_TT_BITS", "MEMORY_ENV", "MEMORY_FRACTION", "MIN_TT_BITS", "check_count", "check_memory",
           "check_tt_bits", "memory_budget", "physical_memory"]
