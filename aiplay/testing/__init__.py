"""The game author's kit: everything that checks a game rather than plays it.

Like ``pettingzoo.test``, this subpackage gathers the tools that a new game
(``docs/adding_a_game.md``) is checked with:

* :func:`check_game` (:mod:`aiplay.testing.contract`): the generic contract on
  one game in one call (``aiplay.testing.check_game("my_game")``);
* :mod:`aiplay.testing.simulate`: random walks and playouts (``random_walk``,
  ``play_out``, ``random_action``, ``skip_chance``; also exported by
  :mod:`aiplay` itself, since users of games need them too);
* :mod:`aiplay.testing.differential`: the reference engine and the kernel
  played in lockstep (``compare_engines``, ``compare_states``);
* :mod:`aiplay.testing.fuzzing`: the structured fuzzers of the JSON loaders
  and the action API;
* :mod:`aiplay.testing.playthrough`: golden playthrough files (regenerate
  them with ``python -m aiplay.testing.playthrough --update``);
* :mod:`aiplay.testing.kernel_rng`: ``KernelRandom``, a ``random.Random``
  that replays a kernel's random stream, for policy-agreement tests.

Only :mod:`~aiplay.testing.simulate` is imported with this package (``import
aiplay`` needs it); the other modules load on first use, so that importing
:mod:`aiplay` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

from aiplay.testing.simulate import play_out, random_action, random_walk, skip_chance

#: Names served lazily: name -> the submodule that defines it.
_LAZY = {
    "check_game": "contract", "ContractFailure": "contract", "ContractReport": "contract",
    "compare_engines": "differential", "compare_states": "differential", "EngineMismatch": "differential",
    "KernelRandom": "kernel_rng",
    "playthrough": "playthrough", "playthrough_cases": "playthrough",
}
_SUBMODULES = ("contract", "differential", "fuzzing", "kernel_rng", "playthrough", "simulate")

__all__ = sorted([*_LAZY, *_SUBMODULES, "play_out", "random_action", "random_walk", "skip_chance"])


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"aiplay.testing.{name}")
    if name in _LAZY:
        return getattr(importlib.import_module(f"aiplay.testing.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'aiplay.testing' has no attribute {name!r}")


def __dir__() -> list:
    return __all__
