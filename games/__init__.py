"""The games shipped with aiplay, one folder each (installed as ``aiplay.games``).

Importing this package imports every game folder (every subpackage, found on
disk, in name order); each folder's ``__init__.py`` registers its game with
:func:`aiplay.registry.register`. No list of games is kept here: adding a
folder adds the game (see docs/adding_a_game.md).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import List


def _discover() -> List[str]:
    """Import every game folder of this package; return their module names."""
    names = sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names


GAME_PACKAGES: List[str] = _discover()
