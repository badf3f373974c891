"""Shared fixtures: every registered game, on every engine it has."""

from __future__ import annotations

from typing import Dict, List, Tuple

import aiplay
from aiplay.registry import has_native

# Small option sets keep the generic tests fast while still exercising variants.
CONTRACT_OPTIONS: Dict[str, List[dict]] = {
    "pig": [{"winscore": 20}, {"players": 3, "winscore": 15, "diceoutcomes": 4}, {"piglet": True, "winscore": 8}],
    "kuhn_poker": [{}, {"players": 3}],
    "leduc_poker": [{}, {"players": 3}],
    "area51": [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 6}],
    "sunken_city": [{"players": 2}, {"players": 3}, {"players": 4, "short": True},
                    {"players": 2, "no_neptune_chips": True}],
}


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
