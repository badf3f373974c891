"""Old home of :mod:`aiplay.cli.render` (``aiplay render``), which it now is.

Importing ``aiplay.render`` gives the module ``aiplay.cli.render`` itself.
"""

import sys

from aiplay.cli import render as _new

sys.modules[__name__] = _new
