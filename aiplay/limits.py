"""The checks of every option value, and the bounds on the options that size memory.

Every public entry point (``aiplay.load``, ``aiplay.solve``, the bots and their
specs, ``Match``, the arena, the protocol) checks its numeric, boolean and
name options with the functions here, so that a bad value always ends in an
:class:`~aiplay.errors.InvalidOptionError` naming the option, whatever it is:
a wrong type (a list, a dict, a string, a bool where a number goes), a
number that is not finite (``inf``, ``nan``), or an integer too large for the
machine (``2**63``, ``10**400``: a float conversion would raise
``OverflowError``, a C counter would wrap). :func:`finite_number` is the one
place that turns an int or a float into a finite float without overflowing.

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

import math
import os
import random
from typing import Any, Collection, Literal, Mapping, Optional, overload

from aiplay.errors import InvalidOptionError
from aiplay.rng import make_rng

#: The largest transposition table, in bits of index (2**28 entries: several GB).
MAX_TT_BITS = 28
#: The smallest transposition table, in bits of index.
MIN_TT_BITS = 4
#: The share of the physical memory one table or tree may reserve.
MEMORY_FRACTION = 0.5
#: Environment variable that overrides the memory budget, in bytes (tests, containers).
MEMORY_ENV = "AIPLAY_MEMORY_LIMIT"
#: The largest count a budget accepts (iterations, nodes, games...): far beyond any real
#: search, and small enough for the native searchers' 64-bit counters.
MAX_COUNT = 2 ** 62
#: The largest value of an option that the native searchers hold in a C int.
MAX_C_INT = 2 ** 31 - 1


# -- option values ------------------------------------------------------------------------

def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters (``10**400`` has 401 digits)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit // 2]}...{text[-8:]} ({len(text)} characters)"


def is_int(value: Any) -> bool:
    """True for a Python int that is not a bool (``True`` is not 1 in an option: typos must not pass)."""
    return isinstance(value, int) and not isinstance(value, bool)


def finite_number(value: Any) -> Optional[float]:
    """``float(value)`` for an int or float (not a bool) that is finite as a float; else ``None``.

    ``None`` for ``inf``, ``nan``, an int beyond the float range (``10**400``,
    whose conversion raises ``OverflowError``) and every other type.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


@overload
def check_positive_int(name: str, value: Any, allow_none: Literal[False], maximum: int = ...) -> int: ...


@overload
def check_positive_int(name: str, value: Any, allow_none: bool = ..., maximum: int = ...) -> Optional[int]: ...


def check_positive_int(name: str, value: Any, allow_none: bool = True,
                       maximum: int = MAX_COUNT) -> Optional[int]:
    """``value`` if it is an int from 1 to ``maximum`` (or ``None`` when allowed); else raise."""
    if value is None and allow_none:
        return None
    if not is_int(value) or not 1 <= value <= maximum:
        accepts = f"an integer from 1 to {maximum}" + (" or None" if allow_none else "")
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts {accepts}")
    return int(value)


def check_int(name: str, value: Any, minimum: int, maximum: int, allow_none: bool = False) -> Optional[int]:
    """``value`` if it is an int in ``minimum..maximum`` (or ``None`` when allowed); else raise."""
    if value is None and allow_none:
        return None
    if not is_int(value) or not minimum <= value <= maximum:
        accepts = f"an integer from {minimum} to {maximum}" + (" or None" if allow_none else "")
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts {accepts}")
    return int(value)


def check_any_int(name: str, value: Any) -> int:
    """``value`` if it is an int of any size (a seed); else raise."""
    if not is_int(value):
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts an integer")
    return int(value)


def check_nonnegative_float(name: str, value: Any) -> float:
    """``float(value)`` if it is a finite number >= 0; else raise."""
    number = finite_number(value)
    if number is None or number < 0:
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts a finite number >= 0")
    return number


def check_fraction(name: str, value: Any, below_one: bool = False) -> float:
    """``float(value)`` if it is a number in [0, 1] (in [0, 1) with ``below_one``); else raise."""
    number = finite_number(value)
    if number is None or not (0.0 <= number < 1.0 if below_one else 0.0 <= number <= 1.0):
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts a number in "
                                 f"[0, {'1)' if below_one else '1]'}")
    return number


def check_seconds(name: str, value: Any, allow_none: bool = True) -> Optional[float]:
    """``float(value)`` if it is a finite number of seconds > 0 (or ``None`` when allowed); else raise."""
    if value is None and allow_none:
        return None
    number = finite_number(value)
    if number is None or number <= 0:
        accepts = "a finite number above 0" + (" or None" if allow_none else "")
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts {accepts}")
    return number


def check_bool(name: str, value: Any) -> bool:
    """``value`` if it is a bool; else raise (``1`` is not ``True`` here: typos must not pass)."""
    if not isinstance(value, bool):
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts true or false")
    return value


def check_text(name: str, value: Any, allow_none: bool = False) -> Optional[str]:
    """``value`` if it is a str (or ``None`` when allowed); else raise."""
    if value is None and allow_none:
        return None
    if not isinstance(value, str):
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts a string"
                                 + (" or None" if allow_none else ""))
    return value


def check_choice(name: str, value: Any, choices: Collection[str]) -> str:
    """``value`` if it is one of the strings ``choices``; else raise (an unhashable value too)."""
    if not isinstance(value, str) or value not in choices:
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts one of {list(choices)}")
    return value


def check_mapping(name: str, value: Any, allow_none: bool = True) -> Mapping[str, Any]:
    """``value`` if it is a mapping with string keys (``None``, when allowed, as ``{}``); else raise."""
    if value is None and allow_none:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts a mapping of names to values")
    return value


def check_list(name: str, value: Any) -> list:
    """``list(value)`` if it is a list or tuple; else raise (a str or a mapping is not a list of items here)."""
    if not isinstance(value, (list, tuple)):
        raise InvalidOptionError(f"option {name}={shown(value)} is invalid; it accepts a list")
    return list(value)


def check_seed(value: Any, name: str = "seed") -> random.Random:
    """The generator for a ``seed`` option (see :func:`aiplay.rng.make_rng`)."""
    try:
        return make_rng(value)
    except (TypeError, ValueError):
        raise InvalidOptionError(
            f"option {name}={shown(value)} is invalid; it accepts an int, a random.Random or None") from None


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
    if not is_int(value) or not MIN_TT_BITS <= value <= MAX_TT_BITS:
        raise InvalidOptionError(
            f"option {option}={shown(value)} is invalid; it accepts an integer from {MIN_TT_BITS} to {MAX_TT_BITS}")
    check_memory(option, value, (1 << value) * int(entry_bytes))
    return int(value)


def check_count(option: str, value: Any, minimum: int, maximum: int, item_bytes: int = 0) -> int:
    """``value`` if it is an int in ``minimum..maximum`` and ``value * item_bytes`` fits in memory."""
    check_int(option, value, minimum, maximum)
    if item_bytes:
        check_memory(option, value, int(value) * int(item_bytes))
    return int(value)


__all__ = ["MAX_COUNT", "MAX_C_INT", "MAX_TT_BITS", "MEMORY_ENV", "MEMORY_FRACTION", "MIN_TT_BITS", "check_any_int",
           "check_bool", "check_choice", "check_count", "check_fraction", "check_int", "check_list", "check_mapping",
           "check_memory", "check_nonnegative_float", "check_positive_int", "check_seconds", "check_seed",
           "check_text", "check_tt_bits", "finite_number", "is_int", "memory_budget", "physical_memory", "shown"]
