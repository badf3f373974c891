"""Type stubs of ``aiplay.games.area1851.kernel`` (games/area1851/kernel.pyx): the Area 1851 kernel."""

from typing import Any, Dict

from aiplay._ext.kernel import Kernel, NativeState

class Area1851Kernel(Kernel):
    def __init__(self, reference_game: Any) -> None: ...
    def load_validated(self, state: NativeState, data: Dict[str, Any]) -> None: ...

def make_kernel(reference_game: Any) -> Kernel: ...
