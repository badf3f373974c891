"""Type stubs of ``aiplay.games.liars_dice.kernel`` (games/liars_dice/kernel.pyx): the game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
