"""Observation and information-state tensors: fixed-shape ``float32`` encodings of what a seat knows.

A game that provides tensors declares a :class:`TensorEncoding` in its registry
entry (``register(..., tensors=...)``). The encoding states each tensor as a
list of named :class:`Slice` objects (the one source from which the layout is
computed and documented, :func:`describe`) and fills those slices from the
state's JSON form (``state.to_dict()``) and the seat, reading only what the
seat may know, so that it works alike on both engines. The board games with
hidden information encode the seat's documented view instead
(``state.view(p)``, :mod:`aiplay.viewtensors`): their layouts follow the
view's schema field by field, and the view can be read back from the tensor.

* ``state.information_state_tensor(p)``: everything ``p`` knows (perfect
  recall: the whole history ``p`` saw), shape
  ``game.information_state_tensor_shape()``; two states with the same
  ``information_state_string(p)`` give equal tensors;
* ``state.observation_tensor(p)``: what ``p`` observes now (no history),
  shape ``game.observation_tensor_shape()``.

Both are new NumPy arrays. A kernel may write them itself, straight from
its C state (``fill_tensor(state, seat, information_state, out)``, the poker
kernels do), in the layout the encoding declares. A game without an encoding raises
:class:`~aiplay.errors.UnsupportedError`. The poker games' encodings are
OpenSpiel's, element for element (``tests/test_tensors.py`` compares them).
"""

from __future__ import annotations

import abc
import argparse
import sys
import weakref
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from aiplay.errors import UnsupportedError
from aiplay.game import Game, State, check_player, encoding_of
from aiplay.registry import game_entries, game_entry

__all__ = ["Slice", "TensorEncoding", "describe", "document", "information_state_tensor",
           "information_state_tensor_shape", "observation_tensor", "observation_tensor_shape", "provides", "slices", "bounds"]


@dataclass(frozen=True)
class Slice:
    """One named part of a tensor: ``size`` consecutive entries, what they mean, and their range.

    Every entry lies in ``[0, high]`` (one-hot parts: ``high=1``).
    """

    name: str
    size: int
    doc: str
    high: float = 1.0


class TensorEncoding(abc.ABC):
    """A game's tensors: their layouts (lists of slices) and how a state fills them.

    ``fill_*`` get the state's ``to_dict()`` (or what :meth:`source` returns),
    the seat and one zeroed NumPy view per slice (by name) to write into; they
    must read only what the seat may know.
    """

    #: True when the tensors encode the seat's documented view (``state.view(p)``), as
    #: :class:`aiplay.viewtensors.ViewTensors` does, rather than the state's dict form.
    encodes_view: bool = False

    def source(self, state: State, player: int) -> Mapping[str, Any]:
        """What ``fill_*`` read: the state's dict form (an encoding of the view returns ``state.view(player)``)."""
        return state.to_dict()

    def shape(self, game: Game, kind: str) -> Tuple[int]:
        """The shape of ``game``'s ``kind`` (``"information_state"`` or ``"observation"``) tensor."""
        return (sum(s.size for s in slices(game, kind)),)

    def tensor(self, state: State, player: int, kind: str) -> np.ndarray:
        """``player``'s ``kind`` tensor of ``state`` (a new ``float32`` array)."""
        return _tensor(state, player, kind)

    @abc.abstractmethod
    def information_state_layout(self, game: Game) -> Optional[List[Slice]]:
        """The slices of the information-state tensor of ``game`` (its options fix the sizes); None: none."""

    @abc.abstractmethod
    def observation_layout(self, game: Game) -> Optional[List[Slice]]:
        """The slices of the observation tensor of ``game``; None: the game has no such tensor."""

    @abc.abstractmethod
    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        """Write ``player``'s information state of the position ``data`` into the slices ``out``."""

    @abc.abstractmethod
    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        """Write ``player``'s observation of the position ``data`` into the slices ``out``."""


def _encoding(game: Game) -> TensorEncoding:
    """The encoding ``game`` holds (:attr:`Game.tensor_encoding`); UnsupportedError when none."""
    return encoding_of(game)  # type: ignore[return-value]


#: slices() per game and kind: a game's options never change, and tensors are asked for per move.
_LAYOUTS: "weakref.WeakKeyDictionary[Game, Dict[str, List[Slice]]]" = weakref.WeakKeyDictionary()


def slices(game: Game, kind: str) -> List[Slice]:
    """The slices of ``game``'s ``"information_state"`` or ``"observation"`` tensor."""
    known = _LAYOUTS.setdefault(game, {})
    if kind not in known:
        known[kind] = _layout(game, kind)
    return known[kind]


def _layout(game: Game, kind: str) -> List[Slice]:
    encoding = _encoding(game)
    if kind == "information_state":
        layout = encoding.information_state_layout(game)
    elif kind == "observation":
        layout = encoding.observation_layout(game)
    else:
        raise ValueError(f"kind must be 'information_state' or 'observation', got {kind!r}")
    if layout is None:
        raise UnsupportedError(f"game {game.name!r} provides no {kind.replace('_', ' ')} tensor")
    return layout


def provides(game: Game, kind: str) -> bool:
    """Whether ``game`` has a ``kind`` (``"information_state"`` or ``"observation"``) tensor."""
    try:
        slices(game, kind)
    except UnsupportedError:
        return False
    return True


def information_state_tensor_shape(game: Game) -> Tuple[int]:
    """The shape of ``game``'s information-state tensors."""
    return (sum(s.size for s in slices(game, "information_state")),)


def observation_tensor_shape(game: Game) -> Tuple[int]:
    """The shape of ``game``'s observation tensors."""
    return (sum(s.size for s in slices(game, "observation")),)


def _tensor(state: State, player: Any, kind: str, native: bool = True) -> np.ndarray:
    game = state.game
    seat = check_player(player, game.num_players)
    layout = slices(game, kind)
    tensor = np.zeros(sum(part.size for part in layout), np.float32)
    # A native state whose kernel writes the tensor itself (same layout) skips the dict form.
    fill_native = getattr(getattr(state, "kernel", None), "fill_tensor", None) if native else None
    if fill_native is not None:
        fill_native(state, seat, kind == "information_state", tensor)
        return tensor
    views, start = {}, 0
    for part in layout:
        views[part.name] = tensor[start:start + part.size]
        start += part.size
    encoding = _encoding(game)
    fill = encoding.fill_information_state if kind == "information_state" else encoding.fill_observation
    fill(game, encoding.source(state, seat), seat, views)
    return tensor


def information_state_tensor(state: State, player: Any) -> np.ndarray:
    """``player``'s information-state tensor of ``state`` (a new ``float32`` array)."""
    return _tensor(state, player, "information_state")


def observation_tensor(state: State, player: Any) -> np.ndarray:
    """``player``'s observation tensor of ``state`` (a new ``float32`` array)."""
    return _tensor(state, player, "observation")


def bounds(game: Game, kind: str) -> Any:
    """The upper bound of every entry of ``game``'s ``kind`` tensor (a ``float32`` array; the lower is 0)."""
    return np.concatenate([np.full(part.size, part.high, np.float32) for part in slices(game, kind)])


def describe(game: Game) -> str:
    """The layout of ``game``'s tensors as Markdown tables (offsets, sizes, meanings)."""
    lines: List[str] = []
    for kind in ("information_state", "observation"):
        if not provides(game, kind):
            lines += [f"{kind.replace('_', ' ')} tensor of {game.name} {game.options}: none", ""]
            continue
        parts: Sequence[Slice] = slices(game, kind)
        if kind == "observation" and provides(game, "information_state") and parts == slices(game, "information_state"):
            lines += [f"observation tensor of {game.name} {game.options}: the information state tensor's layout", ""]
            continue
        lines += [f"{kind.replace('_', ' ')} tensor of {game.name} {game.options}: "
                  f"{sum(p.size for p in parts)} floats", "",
                  "| offset | size | slice | range | meaning |", "|---|---|---|---|---|"]
        offset = 0
        for part in parts:
            lines.append(f"| {offset} | {part.size} | `{part.name}` | 0..{part.high:g} | {part.doc} |")
            offset += part.size
        lines.append("")
    return "\n".join(lines)


#: The generated file's name inside each game's folder: that game's tensor layouts.
DOC_NAME = "tensors.md"


def document() -> str:
    """``docs/tensors.md``: how the layouts are written and read; each game's own are in its folder."""
    return "\n".join([
        "# Tensors", "",
        "Generated by `python -m aiplay.tensors --write` (`aiplay.views.tensors`); `tests/test_tensors.py`",
        "checks that it is current. Each game that provides tensors documents its layouts, for its",
        "contract option sets, in its own folder: `games/<game>/tensors.md`, written by the same command.",
        "Offsets are into the flat `float32` array.", "",
        "A game whose tensors encode the seat's view (`encodes_view`: `aiplay.views.viewtensors`) has a",
        "slice per field of its `games/<game>/view.md`, named by its path, where `[]` stands for the items",
        "of a list (a slot per item up to the list's bound, field-major), `#len` for a list's length and",
        "`#set` for an optional field (1: not null). Its information state is the view (not a move",
        "history), so its two tensors are the same.", ""])


def game_document(name: str) -> str:
    """``games/<game>/tensors.md``: the tensor layouts of game ``name`` for its contract option sets."""
    entry = game_entry(name)
    if entry.tensors is None:
        raise UnsupportedError(f"game {name!r} provides no tensors")
    lines = [f"# Tensors of {name}", "",
             "Generated by `python -m aiplay.tensors --write` from the game's encoding; the general rules",
             "are in the project's `docs/tensors.md`. Offsets are into the flat `float32` array.", ""]
    if getattr(entry.tensors, "encodes_view", False):
        lines += ["This game's tensors encode the seat's view: a slice per field of `view.md` beside this file.",
                  ""]
    for options in entry.contract_options:
        lines.append(describe(entry.reference(**options)))
    return "\n".join(lines)


def game_document_path(name: str) -> Optional[Path]:
    """Where game ``name``'s tensor layouts are written (its folder's ``tensors.md``), or None without a folder."""
    folder = game_entry(name).folder
    return None if folder is None else folder / DOC_NAME


def main(argv: Optional[List[str]] = None) -> int:
    """Print the tensor documents, or write them: ``--write [PATH]`` writes the general page (default
    docs/tensors.md) and every game's ``games/<game>/tensors.md``."""
    parser = argparse.ArgumentParser(description="The tensor layouts: docs/tensors.md and each games/<game>/tensors.md.")
    parser.add_argument("--write", nargs="?", const="docs/tensors.md", metavar="PATH")
    args = parser.parse_args(argv)
    names = [e.name for e in game_entries(include_hidden=True) if e.tensors is not None]
    if not args.write:
        sys.stdout.write("\n".join([document(), *(game_document(name) for name in names)]))
        return 0
    with open(args.write, "w", encoding="utf-8") as handle:
        handle.write(document())
    for name in names:
        path = game_document_path(name)
        if path is not None:
            path.write_text(game_document(name), encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
