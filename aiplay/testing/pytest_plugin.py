"""The pytest plugin of aiplay's own test suite (``-p aiplay.testing.pytest_plugin`` in pyproject.toml).

It serves the generic tests in ``tests/`` and every game's own tests in
``games/<game>/tests/`` alike, wherever pytest is started:

* hidden example games (the template game) are made visible before anything
  asks the registry, so that every generic test covers them too;
* with pytest-xdist installed (the ``test`` extra), the suite runs on every
  core (``-n auto``) unless the command line chooses (``-n``, ``-p no:xdist``);
  without it the suite runs in one process instead of stopping on an
  unknown ``-n`` option;
* the game folders are collected as plain directories, not as Python
  packages: pytest would otherwise import ``games/<game>/__init__.py`` a
  second time under the name ``games.<game>`` (for its module-level setup
  hooks), and that copy's ``register`` call would replace the game's entry
  with classes of another module.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any, List, Optional

import pytest

#: Set before the registry is first read: hidden games take part in every generic test.
os.environ.setdefault("AIPLAY_SHOW_HIDDEN_GAMES", "1")


def _xdist_chosen(args: List[str]) -> bool:
    """True when the command line already says how to use xdist (or not to)."""
    for i, arg in enumerate(args):
        if arg in ("-n", "--numprocesses", "--dist") or arg.startswith(("-n", "--numprocesses=", "--dist=")):
            return True
        if arg == "-p" and i + 1 < len(args) and args[i + 1] in ("no:xdist", "xdist"):
            return True
        if arg in ("-pno:xdist", "-p=no:xdist"):
            return True
    return False


def pytest_load_initial_conftests(early_config: Any, parser: Any, args: List[str]) -> None:
    """Run on every core when pytest-xdist is there and the command line does not choose."""
    if importlib.util.find_spec("xdist") is not None and not _xdist_chosen(args):
        args[:0] = ["-n", "auto"]


def _games_folder() -> Optional[Path]:
    """The folder that holds the game packages (``games/``, installed as ``aiplay.games``)."""
    spec = importlib.util.find_spec("aiplay.games")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]).resolve() if locations else None


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: Any) -> Optional[Any]:
    """A game folder (or the games folder) is a plain directory to collect tests from."""
    games = _games_folder()
    resolved = path.resolve()
    if games is not None and (resolved == games or games in resolved.parents):
        return pytest.Dir.from_parent(parent, path=path)
    return None
