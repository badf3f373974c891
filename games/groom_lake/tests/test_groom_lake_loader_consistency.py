"""Groom Lake: loaders check consistency, not only ranges (issue 27): every accepted position's successors load again.

Each test is a finding of the issue or of the fuzzers (the long fuzz run, the round-trip tests):
a document that every range check passed, but whose records contradicted the cards they describe.
Both engines must refuse it, naming the field.
"""

from __future__ import annotations

import copy

from aiplay.testing.consistency import accepted, reached, refused

def test_groom_lake_a_known_card_raised_during_the_deal_is_refused():
    """Issue 27: accepted, and 38 moves later the position no longer loaded (native view/names raised)."""
    options = {"players": 4}
    data = reached("groom_lake", options, 1, lambda d: d["step"] == "deal" and any(any(h) for h in d["hands"]))
    accepted("groom_lake", options, data)
    seat = next(p for p, h in enumerate(data["hands"]) if any(h))
    card = next(t for t, c in enumerate(data["hands"][seat]) if c)
    bad = copy.deepcopy(data)
    bad["known"][seat][card] += 1  # within the hand: the range check passed it
    refused("groom_lake", options, bad, f"state.known[{seat}]")


def test_groom_lake_nobody_is_dead_during_the_set_up():
    """Found by the successor-reload property: life 0 while the roles are dealt; three moves on, a dead
    player held cards and the position did not load."""
    options = {"players": 5, "half_win": True}
    data = reached("groom_lake", options, 2, lambda d: d["step"] == "roles")
    bad = copy.deepcopy(data)
    bad["life"][1] = 0
    refused("groom_lake", options, bad, "state.life[1]")
    bad = copy.deepcopy(data)
    bad["deck_known"][3][1] = 4
    refused("groom_lake", options, bad, "state.deck_known[3]")
