"""Old home of :mod:`aiplay.views.schema`, which it now is (kept for game folders written against it).

Importing ``aiplay.viewschema`` gives the module ``aiplay.views.schema`` itself.
"""

import sys

from aiplay.views import schema as _new

sys.modules[__name__] = _new
