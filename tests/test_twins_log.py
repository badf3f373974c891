"""Twin tests for the log a person reads over spans of moves (issue 38): chance steps grouped into
sentences, another seat's hidden choices counted while their phase lasts and told by what became
public once it ended, identical lines counted, the turn summaries, and the seat's own note.

The per-move channels (each move's narration, the protocol's log one move at a time) are compared
in test_twins_every_option_set.py; here the whole log of a twin pair, and its tail from several
plies, which group moves together, are compared for every option set of every hidden-information
game: a seat reads the same bytes in two games it cannot tell apart.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

import aiplay
from aiplay.match import Match
from aiplay.views.narrate import hidden_names, match_log, match_summaries, phase_ended
from aiplay.views.panel import seat_note

import test_twins_every_option_set as grid
from test_twins_every_option_set import CASES, SEEDS, twin_moves

#: Moves per twin pair: long enough that a simultaneous phase ends inside it (its reveal is then compared).
PLIES = 160

#: Only the reference engine: the texts read views, which both engines give alike (the other file checks it).
REFERENCE_CASES = [c for c in CASES if c.values[2] == "reference"]


def _told(game: aiplay.Game, moves: List[int], viewer: int) -> List[Any]:
    match = Match(game, seed=0)
    out: List[Any] = []
    for ply, action in enumerate(moves):
        match.apply(action)
        if ply % 7 == 6:  # a client that asks now and then reads the moves since its last look, grouped
            out.append(match_log(match, max(0, match.ply - 7), viewer))
        out.append(seat_note(match.state, viewer))
    out.append(match_log(match, 0, viewer))
    for since in (0, len(moves) // 3, 2 * len(moves) // 3):
        out.append(match_summaries(match, since, viewer))
    return out


@pytest.mark.parametrize("name,options,backend", REFERENCE_CASES)
def test_the_log_over_spans_of_moves_is_the_same_in_twins(name: str, options: Dict[str, Any], backend: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grid, "PLIES", max(PLIES, grid.PLIES))
    game = aiplay.load(name, backend=backend, **options)
    differing = 0
    ended = 0
    for viewer in range(game.num_players):
        for seed in range(SEEDS):
            moves_a, moves_b, _ = twin_moves(game, viewer, seed)
            differing += moves_a != moves_b
            told_a, told_b = _told(game, moves_a, viewer), _told(game, moves_b, viewer)
            for i, (x, y) in enumerate(zip(told_a, told_b)):
                assert x == y, f"{name} {options}, seat {viewer}, seed {seed}, item {i}:\n  A: {x}\n  B: {y}"
            assert len(told_a) == len(told_b)
            ended += _phases_ended(game, moves_a, viewer)
    assert differing > 0, f"{name} {options}: the twins never differed"
    if hidden_names(game):  # the reveal at a phase's end was among the texts compared
        assert ended > 0, f"{name} {options}: no phase of hidden choices ended in the twin games"


def _phases_ended(game: aiplay.Game, moves: List[int], viewer: int) -> int:
    state = game.new_initial_state()
    count = 0
    for action in moves:
        before = state.view(viewer)
        state.apply_action(action)
        count += phase_ended(game, before, state.view(viewer))
    return count
