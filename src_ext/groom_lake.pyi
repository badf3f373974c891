"""Type stubs of ``aiplay._ext.groom_lake`` (src_ext/groom_lake.pyx): the game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
