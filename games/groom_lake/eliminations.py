"""Documents whose turn player is dead, for the generic successor-reload test (issue 37).

A game whose players can die gives the generic tests a way to write such a
document from any reachable one: ``dead_turn_player(data)``, found by
:func:`aiplay.testing.fuzzing.dead_turn_document` in the game package's
``eliminations`` module. ``tests/test_roundtrip.py`` loads every document it
writes on both engines: refused alike, or accepted with every successor
loading again. (A Groom Lake document at a scout's tile draw with a dead scout
was accepted, and two of its successors refused.)
"""

from __future__ import annotations

import copy
from typing import Any, Dict, Mapping, Optional


def dead_turn_player(data: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """``data`` (a state's ``to_dict()``, not modified) with the turn player dead, as the rules leave a
    dead player: life 0 and every card of its hand face down on the Refresh stack (``_lose_life``).

    ``None`` when nobody has the turn (the set-up), the game is over, or the turn player is dead already.
    """
    turn = data["turn"]
    if turn < 0 or data["step"] == "over" or data["life"][turn] == 0:
        return None
    out = copy.deepcopy(dict(data))
    hand = out["hands"][turn]
    for t, count in enumerate(hand):
        out["refresh"][t] += count
        out["refresh_known"][turn][t] += count
    out["hands"][turn] = [0] * len(hand)
    out["known"][turn] = [0] * len(hand)
    out["life"][turn] = 0
    return out


__all__ = ["dead_turn_player"]
