"""Area 51: loaders check consistency, not only ranges (issue 27): every accepted position's successors load again.

Each test is a finding of the issue or of the fuzzers (the long fuzz run, the round-trip tests):
a document that every range check passed, but whose records contradicted the cards they describe.
Both engines must refuse it, naming the field.
"""

from __future__ import annotations

import random

import aiplay
from aiplay import InvalidStateError
from aiplay.game import sample_chance_outcome
from aiplay.testing.consistency import backends

def test_area51_worlds_exist_for_zeroed_known_records_with_soft_ones_left():
    """The Area 51 finding of issue 27 (tests/test_roundtrip.py's knowledge check): a document whose
    ``known`` records are all zeroed while ``soft`` ones remain passes every record -- the cards it holds
    are one world that fits them -- yet the sampler found no world: it filled the hands' start slots
    from the free cards only, and late in a game (reshuffled deck within its bound) those could not fill
    both the start slots and the deck. A soft card of a start type may stand in a start slot.
    Every such accepted position must give every seat a world, on both engines."""
    from aiplay.testing.fuzzing import check_knowledge
    options = {"players": 3}
    games = [aiplay.load("area51", backend=b, **options) for b in backends("area51")]
    rng = random.Random(0)
    state = games[0].new_initial_state()
    checked = moves = 0
    while not state.is_terminal():
        state.apply_action(sample_chance_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
        moves += 1
        data = state.to_dict()
        if moves % 10 or not any(any(s) for s in data["soft"]) or not any(any(k) for k in data["known"]):
            continue
        data["known"] = [[0] * len(k) for k in data["known"]]
        loaded = []
        for g in games:
            try:
                loaded.append(g.state_from_dict(data))
            except InvalidStateError:
                pass  # more unseen cards beyond anyc than start copies left: refused
        assert len(loaded) in (0, len(games)), "the engines disagree on the document"
        if not loaded:
            continue
        for s in loaded:
            check_knowledge(s, random.Random(moves), f"{s.game.backend} after {moves} moves: ")
        checked += 1
    assert checked > 0
