"""The ``aiplay`` command line: :func:`main` and every subcommand, one module each.

:mod:`aiplay.cli.main` (the parser, ``games`` and ``play``), :mod:`aiplay.cli.human`
(people at the table), :mod:`aiplay.cli.serve`, :mod:`aiplay.cli.demo`,
:mod:`aiplay.cli.arena` (``arena``, ``replay``), :mod:`aiplay.cli.bench`,
:mod:`aiplay.cli.solve`, :mod:`aiplay.cli.render`, :mod:`aiplay.cli.levels`.
"""

from aiplay.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
