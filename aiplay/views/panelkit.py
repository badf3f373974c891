"""Small helpers for the games' ``panel.py`` (:mod:`aiplay.views.panel`): counts, card lists, cells."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence


def count(n: Any, word: str, words: Optional[str] = None) -> str:
    """``"1 card"``, ``"3 cards"``."""
    n = int(n or 0)
    return f"{n} {word if n == 1 else (words or word + 's')}"


def cards(counts: Optional[Mapping[str, int]]) -> str:
    """``{"Water": 2, "Rope": 1}`` -> ``"2x Water, Rope"``; ``"none"`` when empty, ``"hidden"`` for None."""
    if counts is None:
        return "hidden"
    shown = [name if n == 1 else f"{n}x {name}" for name, n in counts.items() if n]
    return ", ".join(shown) or "none"


def items(values: Optional[Sequence[Any]], empty: str = "none") -> str:
    """A list in words, ``empty`` when it has nothing."""
    if values is None:
        return "hidden"
    return ", ".join(str(v) for v in values) or empty


def cell(rc: Optional[Sequence[int]]) -> str:
    """``[4, 2]`` -> ``"r4c2"`` (rows and columns as the moves name them)."""
    return "-" if rc is None else f"r{rc[0]}c{rc[1]}"


def yes(flag: Any) -> str:
    return "yes" if flag else "no"


__all__ = ["cards", "cell", "count", "items", "yes"]
