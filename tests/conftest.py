"""Shared fixtures: every registered game, on every engine it has.

The games and their option sets come from the registry (each game folder's
``register(...)`` call); nothing here names a game. Hidden example games (the
``template`` game) are made visible for the whole test session, so that every
generic test that iterates ``aiplay.games_available()`` covers them too.
"""

from __future__ import annotations

import os
from typing import List, Mapping, Tuple

# Before anything asks the registry: hidden games are part of every generic test.
os.environ.setdefault("AIPLAY_SHOW_HIDDEN_GAMES", "1")

import aiplay  # noqa: E402
from aiplay.registry import LiveTable, contract_options, has_native  # noqa: E402


#: Small option sets keep the generic tests fast while still exercising variants.
#: A live view of the registry (not a dict built once), so that a game registered at
#: run time (tests/test_template_game.py does) is seen by every test that reads it.
CONTRACT_OPTIONS: Mapping[str, List[dict]] = LiveTable(lambda: contract_options(include_hidden=True))


def game_variants() -> List[Tuple[str, str, dict]]:
    """(name, backend, options) for every registered game and engine."""
    cases = []
    for name in aiplay.games_available():
        backends = ["reference"] + (["native"] if has_native(name) else [])
        for options in CONTRACT_OPTIONS.get(name, [{}]):
            for backend in backends:
                cases.append((name, backend, options))
    return cases


def variant_id(case: Tuple[str, str, dict]) -> str:
    name, backend, options = case
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}[{opts}]-{backend}"
