"""Old home of :mod:`aiplay.views.tensors`, which it now is (kept for game folders written against it).

Importing ``aiplay.tensors`` gives the module ``aiplay.views.tensors`` itself.
"""

import sys

from aiplay.views import tensors as _new

if __name__ == "__main__":  # python -m aiplay.tensors: the documented command
    raise SystemExit(_new.main())
sys.modules[__name__] = _new
