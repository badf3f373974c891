"""A small schema language for the JSON that ``state.view(p)`` returns.

Each game describes the shape of its view once, in ``games/<game>/view.py`` (a module-level
``SCHEMA``, a :class:`ViewSchema`). That one description is used twice:

* :func:`validate` checks a view against it: every field documented, every type and range
  right, no undocumented field (``tests/test_views.py`` runs it over seeded random games, for
  every seat);
* :mod:`aiplay.viewdocs` writes ``games/<game>/view.md`` from it, the reference a frontend
  author reads to draw a game's state without reading Python.

The language has a handful of node types (:class:`Int`, :class:`Num`, :class:`Str`,
:class:`Bool`, :class:`Arr`, :class:`Obj`, :class:`Counts`, :class:`Opt`, :class:`Internal`);
each carries the text that the docs print. A :class:`Field` of an object also says who sees it
(:data:`PUBLIC`, :data:`SEAT`, or a sentence of its own).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from aiplay.errors import AiplayError

#: Visibility of a field every seat sees the same way.
PUBLIC = "everyone"
#: Visibility of a field only the viewing seat sees (others get ``null`` or a redacted form).
SEAT = "this seat only"


class ViewSchemaError(AiplayError, ValueError):
    """A view does not match its game's schema (the message lists every mismatch)."""


class Node:
    """One value's shape. Subclasses implement :meth:`check` and :meth:`type_text`."""

    doc: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:  # pragma: no cover - abstract
        """Append one line per mismatch of ``value`` (found at ``path``) to ``errors``."""
        raise NotImplementedError

    def type_text(self) -> str:  # pragma: no cover - abstract
        """The type as the docs print it (short, Markdown)."""
        raise NotImplementedError


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range_text(minimum: Optional[float], maximum: Optional[float]) -> str:
    if minimum is None and maximum is None:
        return ""
    if maximum is None:
        return f" ≥ {minimum:g}"
    if minimum is None:
        return f" ≤ {maximum:g}"
    return f" {minimum:g}..{maximum:g}"


@dataclass(frozen=True)
class Int(Node):
    """An integer, optionally bounded (inclusive); ``unit`` is printed beside the type."""

    doc: str = ""
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    unit: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if not _is_int(value):
            errors.append(f"{path}: expected an integer, got {value!r}")
        elif (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            errors.append(f"{path}: {value} is outside{_range_text(self.minimum, self.maximum)}")

    def type_text(self) -> str:
        unit = f" ({self.unit})" if self.unit else ""
        return f"integer{_range_text(self.minimum, self.maximum)}{unit}"


@dataclass(frozen=True)
class Num(Node):
    """A finite number (integer or float), optionally bounded (inclusive)."""

    doc: str = ""
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    unit: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            errors.append(f"{path}: expected a number, got {value!r}")
        elif (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            errors.append(f"{path}: {value} is outside{_range_text(self.minimum, self.maximum)}")

    def type_text(self) -> str:
        unit = f" ({self.unit})" if self.unit else ""
        return f"number{_range_text(self.minimum, self.maximum)}{unit}"


@dataclass(frozen=True)
class Str(Node):
    """A string; with ``choices``, one of those exactly (the docs list them)."""

    doc: str = ""
    choices: Optional[Tuple[str, ...]] = None
    vocab: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if not isinstance(value, str):
            errors.append(f"{path}: expected a string, got {value!r}")
        elif self.choices is not None and value not in self.choices:
            errors.append(f"{path}: {value!r} is not one of the documented values")

    def type_text(self) -> str:
        if self.choices is None:
            return "string"
        if self.vocab:
            return f"string: one of the {self.vocab} (listed at the end)"
        return "string: " + ", ".join(f"`{c}`" for c in self.choices)


@dataclass(frozen=True)
class Bool(Node):
    """``true`` or ``false``."""

    doc: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if not isinstance(value, bool):
            errors.append(f"{path}: expected true or false, got {value!r}")

    def type_text(self) -> str:
        return "boolean"


@dataclass(frozen=True)
class Opt(Node):
    """``null`` or ``node``; ``when_null`` says what ``null`` means (printed in the docs)."""

    node: Node = field(default_factory=Bool)
    when_null: str = ""
    doc: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if value is not None:
            self.node.check(value, path, errors)

    def type_text(self) -> str:
        return f"{self.node.type_text()} or null"


@dataclass(frozen=True)
class Arr(Node):
    """A list of ``item``; ``length`` (a sentence) says how long, ``size`` (min, max) checks it."""

    item: Node = field(default_factory=Int)
    length: str = ""
    size: Optional[Tuple[int, int]] = None
    doc: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if not isinstance(value, list):
            errors.append(f"{path}: expected a list, got {value!r}")
            return
        if self.size is not None and not self.size[0] <= len(value) <= self.size[1]:
            errors.append(f"{path}: {len(value)} entries, expected {self.size[0]}..{self.size[1]}")
        for i, item in enumerate(value):
            self.item.check(item, f"{path}[{i}]", errors)

    def type_text(self) -> str:
        inner = self.item.type_text()
        return f"list of ({inner})" if isinstance(self.item, Opt) else f"list of {inner}"


@dataclass(frozen=True)
class Field:
    """One key of an :class:`Obj`: its name, shape, meaning and who sees it."""

    name: str
    node: Node
    doc: str
    visible: str = PUBLIC


@dataclass(frozen=True)
class Obj(Node):
    """An object with exactly the keys ``fields`` (each present, none other).

    ``name`` titles the object's own table in the docs (e.g. ``"seat"``).
    """

    name: str = ""
    fields: Tuple[Field, ...] = ()
    doc: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object, got {value!r}")
            return
        known = {f.name for f in self.fields}
        for key in value:
            if key not in known:
                errors.append(f"{path}.{key}: undocumented field")
        for f in self.fields:
            if f.name not in value:
                errors.append(f"{path}.{f.name}: missing")
            else:
                f.node.check(value[f.name], f"{path}.{f.name}", errors)

    def type_text(self) -> str:
        return f"object ({self.name}, below)" if self.name else "object"


@dataclass(frozen=True)
class Counts(Node):
    """An object from names (one of ``keys``) to positive counts: only the names present appear."""

    keys: Tuple[str, ...] = ()
    doc: str = ""
    what: str = "card"
    vocab: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object of counts, got {value!r}")
            return
        for key, count in value.items():
            if key not in self.keys:
                errors.append(f"{path}.{key}: not a documented {self.what} name")
            if not _is_int(count) or count < 1:
                errors.append(f"{path}.{key}: count must be an integer ≥ 1, got {count!r}")

    def type_text(self) -> str:
        where = f" (the {self.vocab}, listed at the end)" if self.vocab else ": " + ", ".join(
            f"`{k}`" for k in self.keys)
        return f"object {{{self.what} name: count ≥ 1}}, names{where}"


@dataclass(frozen=True)
class Internal(Node):
    """Engine bookkeeping, any JSON: documented as unstable; frontends must not rely on it."""

    doc: str = ""

    def check(self, value: Any, path: str, errors: List[str]) -> None:
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object, got {value!r}")

    def type_text(self) -> str:
        return "object (engine internals, unstable)"


@dataclass(frozen=True)
class ViewSchema:
    """A game's whole view: its registry name, an introduction for the docs and the root object.

    Long vocabularies (card names, tile names, ...) are given to :class:`Str` and :class:`Counts`
    with a ``vocab`` title; the docs list each one once, at the end. ``simultaneous`` is True for
    a game with simultaneous phases (played as a sequence whose choices stay hidden from the
    phase's other seats until it ends); the protocol's ``hello`` announces it.
    """

    game: str
    intro: str
    root: Obj
    simultaneous: bool = False


def errors_of(view: Any, schema: ViewSchema) -> List[str]:
    """Every way ``view`` departs from ``schema`` (one line each; ``[]`` when it matches)."""
    errors: List[str] = []
    schema.root.check(view, "view", errors)
    return errors


def validate(view: Any, schema: ViewSchema) -> None:
    """Raise :class:`ViewSchemaError` listing every mismatch of ``view`` against ``schema``."""
    errors = errors_of(view, schema)
    if errors:
        shown = "; ".join(errors[:20]) + (f"; ... {len(errors) - 20} more" if len(errors) > 20 else "")
        raise ViewSchemaError(f"{schema.game} view does not match its schema: {shown}")


def named_counts(counts: Sequence[int], names: Sequence[str]) -> Dict[str, int]:
    """A count vector indexed by type id as ``{name: count}`` (positive counts only, in id order)."""
    return {names[i]: c for i, c in enumerate(counts) if c}
