"""Type stubs of ``aiplay._ext.area1851`` (src_ext/area1851.pyx): the Area 1851 kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

class Area1851Kernel(Kernel):
    def __init__(self, reference_game: Any) -> None: ...

def make_kernel(reference_game: Any) -> Kernel: ...
