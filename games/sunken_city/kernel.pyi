"""Type stubs of ``aiplay.games.sunken_city.kernel`` (games/sunken_city/kernel.pyx): the game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
