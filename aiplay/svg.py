"""Old home of :mod:`aiplay.views.svg`, which it now is (kept for game folders written against it).

Importing ``aiplay.svg`` gives the module ``aiplay.views.svg`` itself.
"""

import sys

from aiplay.views import svg as _new

sys.modules[__name__] = _new
