"""``python -m aiplay`` runs the command-line interface."""

import sys

from aiplay.cli import main

sys.exit(main())
