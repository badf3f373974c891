"""Issue 38: a Groom Lake seat reads its own role and goal in its view panel and under the terminal board,
every turn, and never another seat's role."""

from __future__ import annotations

import random

from aiplay.match import Match
from aiplay.views.panel import seat_note, view_panel

from aiplay.games.groom_lake.panel import GOALS


def test_each_seat_reads_its_own_role_and_goal_every_turn():
    match = Match("groom_lake", seed=5, players=5)
    rng = random.Random(5)
    checked = 0
    while not match.is_terminal() and match.ply < 400:
        state = match.state
        for seat in range(5):
            role = state.view(seat)["seats"][seat]["role"]
            note = seat_note(state, seat)
            panel = view_panel(state, seat)
            if role is None:
                assert note is None
                continue
            assert note == GOALS[role] and note.startswith(f"You are {'a' if role == 'Human' else 'the'} {role}")
            assert panel[0] == {"title": "Your role", "rows": [["goal", note]]}
            # Only the seat's own goal: no other role's sentence stands in its panel.
            texts = " ".join(text for section in panel for _, text in section["rows"])
            assert [g for r, g in GOALS.items() if r != role and g in texts] == []
            checked += 1
        if state.is_chance_node():
            match.play_chance()
        else:
            legal = state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    assert checked > 100
