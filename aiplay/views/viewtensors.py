"""Tensors of a documented view: a fixed-size ``float32`` encoding of ``state.view(p)``, derived from its schema.

A game whose view has a schema (:mod:`aiplay.viewschema`, ``games/<g>/view.py``)
gets its tensors from that one description: :class:`ViewTensors` walks the
schema and gives every leaf field one slice, so the layout in
``docs/tensors.md`` names the view's own fields. Since the tensor is built from
``view(p)`` alone (of its ``internal`` part only what a game adds, below), it
holds only what the seat may see, twins give equal tensors, and :func:`decode`
reads the view back from it (``tests/test_tensors.py`` checks both on random
games, and that different information states give different tensors).

How each schema node is encoded (field-major: a field inside arrays is one
slice holding that field for every array slot, slots in row-major order):

* ``Int``: one entry, the value minus its lower bound;
* ``Bool``: one entry, 0 or 1;
* ``Str`` with choices: a one-hot over the choices;
* ``Counts``: one entry per name, its count (absent names: 0);
* ``Opt``: a ``#set`` flag (1 when not null) and the inner node (zeros when null);
* ``Arr``: a ``#len`` entry (unless its length is fixed) and its items, in slots
  up to the maximum length (unused slots stay zero);
* ``Obj``: its fields in order; ``Internal``: left out, but for the parts a
  game adds (``ViewTensors(internal=..., context=...)``: the decision in
  progress, which the seat's information state holds and the documented
  fields do not show).

The schema does not bound every integer or array (scores, deck sizes, the
cards in a hangar); the game supplies those bounds (``limits``, keyed by the
field's path such as ``"seats[].hand_size"``), derived from its rules and
player count. A value beyond a declared bound raises
:class:`~aiplay.errors.InvalidStateError` rather than being clipped, so an
entry never silently loses what it encodes.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from aiplay.errors import InvalidStateError, UnsupportedError
from aiplay.game import Game, State, encoding_of
from aiplay.views.tensors import Slice, TensorEncoding, slices
from aiplay.views.schema import Arr, Bool, Counts, Field, Int, Internal, Obj, Opt, Str, ViewSchema

__all__ = ["ViewTensors", "decode"]

#: ``limits(game)``: per field path, (lowest, highest) of an integer or a count, or (shortest, longest) of a list.
Limits = Mapping[str, Tuple[int, int]]


class _Part:
    """One compiled schema node: its slices, and how it writes and reads a value at a slot."""

    def slices(self) -> List[Slice]:
        raise NotImplementedError

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        raise NotImplementedError


class _Scalar(_Part):
    def __init__(self, name: str, slots: int, lo: int, hi: int, doc: str, boolean: bool = False) -> None:
        self.name, self.slots, self.lo, self.hi, self.doc, self.boolean = name, slots, lo, hi, doc, boolean

    def slices(self) -> List[Slice]:
        return [Slice(self.name, self.slots, self.doc, high=self.hi - self.lo)]

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        if self.boolean:
            out[self.name][slot] = 1 if value else 0
            return
        if not self.lo <= value <= self.hi:
            raise InvalidStateError(f"view.{self.name}",
                                    f"{value!r} is outside the tensor's bounds {self.lo}..{self.hi}")
        out[self.name][slot] = value - self.lo

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        value = int(parts[self.name][slot])
        return bool(value) if self.boolean else value + self.lo


class _OneHot(_Part):
    def __init__(self, name: str, slots: int, choices: Sequence[str], doc: str) -> None:
        self.name, self.slots, self.choices, self.doc = name, slots, tuple(choices), doc
        self.index = {c: i for i, c in enumerate(self.choices)}

    def slices(self) -> List[Slice]:
        return [Slice(self.name, self.slots * len(self.choices), self.doc)]

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        if value not in self.index:
            raise InvalidStateError(f"view.{self.name}", f"{value!r} is none of its {len(self.choices)} choices")
        out[self.name][slot * len(self.choices) + self.index[value]] = 1

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        width = len(self.choices)
        hot = np.flatnonzero(parts[self.name][slot * width:(slot + 1) * width])
        if len(hot) != 1:
            raise InvalidStateError(f"tensor.{self.name}", f"slot {slot} is not one-hot")
        return self.choices[int(hot[0])]


class _Counts(_Part):
    def __init__(self, name: str, slots: int, keys: Sequence[str], cap: int, doc: str) -> None:
        self.name, self.slots, self.keys, self.cap, self.doc = name, slots, tuple(keys), cap, doc
        self.index = {k: i for i, k in enumerate(self.keys)}

    def slices(self) -> List[Slice]:
        return [Slice(self.name, self.slots * len(self.keys), self.doc, high=self.cap)]

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        base = slot * len(self.keys)
        for key, count in value.items():
            if key not in self.index or not 0 <= count <= self.cap:
                raise InvalidStateError(f"view.{self.name}", f"{key!r}: {count!r} is outside the tensor's names "
                                                                 f"or its bound 0..{self.cap}")
            out[self.name][base + self.index[key]] = count

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        width = len(self.keys)
        counts = parts[self.name][slot * width:(slot + 1) * width]
        return {self.keys[i]: int(c) for i, c in enumerate(counts) if c}


class _Optional(_Part):
    def __init__(self, flag: _Scalar, inner: _Part) -> None:
        self.flag, self.inner = flag, inner

    def slices(self) -> List[Slice]:
        return self.flag.slices() + self.inner.slices()

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        if value is not None:
            self.flag.fill(True, slot, out)
            self.inner.fill(value, slot, out)

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        return self.inner.read(slot, parts) if self.flag.read(slot, parts) else None


class _List(_Part):
    def __init__(self, name: str, length: Optional[_Scalar], shortest: int, longest: int, item: _Part) -> None:
        self.name, self.length, self.shortest, self.longest, self.item = name, length, shortest, longest, item

    def slices(self) -> List[Slice]:
        return (self.length.slices() if self.length else []) + self.item.slices()

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        if not self.shortest <= len(value) <= self.longest:
            raise InvalidStateError(f"view.{self.name}", f"{len(value)} items, outside the tensor's bounds "
                                                             f"{self.shortest}..{self.longest}")
        if self.length is not None:
            self.length.fill(len(value), slot, out)
        for j, item in enumerate(value):
            self.item.fill(item, slot * self.longest + j, out)

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        size = self.length.read(slot, parts) if self.length is not None else self.longest
        return [self.item.read(slot * self.longest + j, parts) for j in range(size)]


class _Object(_Part):
    def __init__(self, fields: List[Tuple[str, _Part]]) -> None:
        self.fields = fields

    def slices(self) -> List[Slice]:
        return [s for _, part in self.fields for s in part.slices()]

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        for name, part in self.fields:
            part.fill(value[name], slot, out)

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        return {name: part.read(slot, parts) for name, part in self.fields}


class _Context(_Part):
    """The engine's decision context (a dict of small integers whose keys vary by step): per known key a
    ``#set`` flag and the value; a key the encoding does not know is refused."""

    def __init__(self, path: str, keys: Sequence[Tuple[str, int, int, str]]) -> None:
        self.path = path
        self.parts = {}
        for key, lo, hi, doc in keys:
            flag = _Scalar(f"{path}.{key}#set", 1, 0, 1, f"1 when the context has {key}", boolean=True)
            shift = f" (the value minus {lo})" if lo else ""
            self.parts[key] = _Optional(flag, _Scalar(f"{path}.{key}", 1, lo, hi, doc + shift))

    def slices(self) -> List[Slice]:
        return [s for part in self.parts.values() for s in part.slices()]

    def fill(self, value: Any, slot: int, out: Dict[str, np.ndarray]) -> None:
        for key, item in value.items():
            if key not in self.parts:
                raise InvalidStateError(f"view.{self.path}", f"the key {key!r} has no place in the tensor")
            self.parts[key].fill(item, slot, out)

    def read(self, slot: int, parts: Mapping[str, np.ndarray]) -> Any:
        found = {key: part.read(slot, parts) for key, part in self.parts.items()}
        return {key: value for key, value in found.items() if value is not None}


class _Compiler:
    """Turns a schema and the game's limits into parts; ``dims`` are the enclosing lists (name, longest)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = dict(limits)
        self.used: set = set()

    def limit(self, path: str, lo: Optional[int], hi: Optional[int]) -> Tuple[int, int]:
        if path in self.limits:
            self.used.add(path)
            return self.limits[path]
        if lo is None or hi is None:
            raise ValueError(f"the view schema leaves {path} unbounded: the game's tensor limits must bound it")
        return lo, hi

    @staticmethod
    def _where(dims: Sequence[Tuple[str, int]]) -> str:
        if not dims:
            return ""
        return "per " + " x ".join(f"{name} ({size})" for name, size in dims) + ": "

    def compile(self, node: Any, path: str, doc: str, dims: List[Tuple[str, int]]) -> Optional[_Part]:
        slots = int(np.prod([size for _, size in dims])) if dims else 1
        where = self._where(dims)
        if isinstance(node, Internal):
            return None
        if isinstance(node, Obj):
            fields = []
            for f in node.fields:
                part = self.compile(f.node, f"{path}.{f.name}" if path else f.name, f.doc.strip(), dims)
                if part is not None:
                    fields.append((f.name, part))
            return _Object(fields)
        if isinstance(node, Opt):
            flag = _Scalar(f"{path}#set", slots, 0, 1, f"{where}1 when {path} is not null", boolean=True)
            inner = self.compile(node.node, path, doc, dims)
            assert inner is not None
            return _Optional(flag, inner)
        if isinstance(node, Arr):
            lo, hi = node.size if node.size is not None else (None, None)
            shortest, longest = self.limit(path, lo, hi)
            length = None if shortest == longest else _Scalar(
                f"{path}#len", slots, 0, longest, f"{where}items in {path}")
            label = path.rsplit(".", 1)[-1].rstrip("[]") or path
            item = self.compile(node.item, path + "[]", doc, dims + [(label, longest)])
            assert item is not None
            return _List(path, length, shortest, longest, item)
        if isinstance(node, Bool):
            return _Scalar(path, slots, 0, 1, f"{where}{doc} (1: true)", boolean=True)
        if isinstance(node, Int):
            lo, hi = self.limit(path, node.minimum, node.maximum)
            shift = f" (the value minus {lo})" if lo else ""
            return _Scalar(path, slots, lo, hi, f"{where}{doc}{shift}")
        if isinstance(node, Str):
            if not node.choices:
                raise ValueError(f"view field {path} is a string without a list of choices: it cannot be one-hot")
            return _OneHot(path, slots, node.choices,
                           f"{where}{doc} (one-hot, {len(node.choices)} choices in schema order)")
        if isinstance(node, Counts):
            _, cap = self.limit(path, None, None)
            return _Counts(path, slots, node.keys,
                           cap, f"{where}{doc} (a count per {node.what} name, {len(node.keys)} in schema order)")
        raise ValueError(f"view field {path}: schema node {type(node).__name__} has no tensor encoding")


class ViewTensors(TensorEncoding):
    """Both tensors of a game as the encoding of ``view(p)`` (less ``internal``), laid out by its schema.

    ``internal`` and ``context`` add parts of the view's ``internal`` arrays that the documented
    fields leave out but the seat's information state holds (the decision in progress: a die
    selection, the bunkers already loaded this action): ``internal`` as schema fields read from
    ``view["internal"][name]``, ``context`` as ``(name, keys)``, a dict of small integers under
    ``view["internal"][name]`` with the bounds and meaning of each key it may hold.

    For a game whose information state is its view (the information-state
    string encodes the view, not a move history), the information-state and
    the observation tensors are the same.
    """

    encodes_view = True

    def __init__(self, schema: ViewSchema, limits: Callable[[Game], Limits], internal: Sequence[Field] = (),
                 context: Optional[Tuple[str, Sequence[Tuple[str, int, int, str]]]] = None) -> None:
        self.schema = schema
        self.limits = limits
        self.internal = tuple(internal)
        self.context = context
        self._compiled: Dict[Tuple[str, Tuple[Tuple[str, Any], ...]], _Part] = {}

    def compiled(self, game: Game) -> _Part:
        """The schema compiled for ``game``'s options (cached per game)."""
        cache = self._compiled
        key = (game.name, tuple(sorted(game.options.items())))
        if key not in cache:
            compiler = _Compiler(self.limits(game))
            part = compiler.compile(self.schema.root, "", "", [])
            assert isinstance(part, _Object)
            extra: List[Tuple[str, _Part]] = []
            for f in self.internal:
                compiled = compiler.compile(f.node, f"internal.{f.name}", f.doc, [])
                assert compiled is not None
                extra.append((f.name, compiled))
            if self.context is not None:
                name, keys = self.context
                extra.append((name, _Context(f"internal.{name}", keys)))
            if extra:
                part = _Object(part.fields + [("internal", _Object(extra))])
            unused = set(compiler.limits) - compiler.used
            if unused:
                raise ValueError(f"tensor limits name fields the view schema does not bound by them: {sorted(unused)}")
            assert part is not None
            cache[key] = part
        return cache[key]

    def source(self, state: State, player: int) -> Mapping[str, Any]:
        """The seat's view: all the tensor reads."""
        return state.view(player)

    def information_state_layout(self, game: Game) -> Optional[List[Slice]]:
        return self.compiled(game).slices()

    def observation_layout(self, game: Game) -> Optional[List[Slice]]:
        return self.compiled(game).slices()

    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        self.compiled(game).fill(data, 0, out)

    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        self.compiled(game).fill(data, 0, out)


def decode(game: Game, tensor: Any, kind: str = "observation") -> Dict[str, Any]:
    """The view a :class:`ViewTensors` tensor encodes: every documented field, and under ``internal``
    only the parts the encoding adds (its ``internal`` fields and ``context``)."""
    encoding = encoding_of(game)
    if not isinstance(encoding, ViewTensors):
        raise UnsupportedError(f"game {game.name!r}'s tensors do not encode its view")
    parts, start = {}, 0
    for part in slices(game, kind):
        parts[part.name] = tensor[start:start + part.size]
        start += part.size
    if start != len(tensor):
        raise InvalidStateError("tensor", f"{len(tensor)} entries, where a {kind} tensor of {game.name} has {start}")
    return encoding.compiled(game).read(0, parts)
