"""Old home of :mod:`aiplay.views.docs`, which it now is (kept for game folders written against it).

Importing ``aiplay.viewdocs`` gives the module ``aiplay.views.docs`` itself.
"""

import sys

from aiplay.views import docs as _new

if __name__ == "__main__":  # python -m aiplay.viewdocs: the documented command
    raise SystemExit(_new.main())
sys.modules[__name__] = _new
