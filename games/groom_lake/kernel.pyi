"""Type stubs of ``aiplay.games.groom_lake.kernel`` (games/groom_lake/kernel.pyx): the game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
