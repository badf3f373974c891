"""Type stubs of ``aiplay._ext.area51`` (src_ext/area51.pyx): the game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
