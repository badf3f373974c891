"""Old home of :mod:`aiplay.views.viewtensors`, which it now is (kept for game folders written against it).

Importing ``aiplay.viewtensors`` gives the module ``aiplay.views.viewtensors`` itself.
"""

import sys

from aiplay.views import viewtensors as _new

sys.modules[__name__] = _new
