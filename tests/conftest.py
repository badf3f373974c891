"""Shared helpers of the generic tests: every registered game, on every engine it has.

They live in :mod:`aiplay.testing.cases` (a game's own tests in ``games/<game>/tests/`` import
them from there); hidden example games are made visible by the suite's plugin,
:mod:`aiplay.testing.pytest_plugin`.
"""

from aiplay.testing.cases import CONTRACT_OPTIONS, game_variants, variant_id  # noqa: F401 - re-exported
