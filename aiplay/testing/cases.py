"""The cases of the generic tests: every registered game, on every engine it has, over its option sets.

The games and their option sets come from the registry (each game folder's
``register(...)`` call); nothing here names a game. The generic tests in
``tests/`` parametrize over these, and a game author's own tests can too.
"""

from __future__ import annotations

from typing import List, Mapping, Tuple

import aiplay
from aiplay.registry import LiveTable, contract_options, has_native

#: Each game's option sets of the generic tests. A live view of the registry (not a dict
#: built once), so that a game registered at run time is seen by every test that reads it.
CONTRACT_OPTIONS: Mapping[str, List[dict]] = LiveTable(lambda: contract_options(include_hidden=True))


def game_variants() -> List[Tuple[str, str, dict]]:
    """(name, backend, options) for every registered game, engine and option set."""
    cases = []
    for name in aiplay.games_available():
        backends = ["reference"] + (["native"] if has_native(name) else [])
        for options in CONTRACT_OPTIONS.get(name, [{}]):
            for backend in backends:
                cases.append((name, backend, options))
    return cases


def variant_id(case: Tuple[str, str, dict]) -> str:
    """A readable test id for a case of :func:`game_variants`: ``name[options]-backend``."""
    name, backend, options = case
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}[{opts}]-{backend}"
