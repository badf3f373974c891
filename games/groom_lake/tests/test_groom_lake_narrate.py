"""Groom Lake's narration tells causes before their effects (a game played in the demo read
"player 1 dies / the Alien wins / player 1 loses 4 lives")."""

from __future__ import annotations

import random

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.views.narrate import narrate


def test_a_seat_loses_its_lives_before_it_dies_and_the_end_comes_last():
    game = aiplay.load("groom_lake", players=3)
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_chance_outcome(state, rng)
            else:
                action = rng.choice(state.legal_actions())
            before = state.clone()
            state.apply_action(action)
            lines = narrate(before, action, state, 0)
            for i, line in enumerate(lines):
                if line.endswith(" dies"):
                    who = line[: -len(" dies")]
                    lost = [j for j, earlier in enumerate(lines) if earlier.startswith(f"{who} loses ")]
                    assert lost and lost[0] < i, lines
                    checked += 1
            if state.is_terminal():
                assert lines[-1] in ("the Team escapes!", "the Alien wins"), lines
        if checked >= 3:
            break
    assert checked >= 3
