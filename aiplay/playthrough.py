"""The old entry point of the golden playthroughs, kept so that ``python -m aiplay.playthrough`` still works.

The module is now :mod:`aiplay.testing.playthrough`; use
``python -m aiplay.testing.playthrough --update`` (same arguments).
"""

from __future__ import annotations

import sys

from aiplay.testing.playthrough import main

if __name__ == "__main__":
    sys.exit(main())
