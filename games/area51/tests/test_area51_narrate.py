"""Area 51's texts for people at two players: the bunker moves' meanings and summaries, and the outcome's rule."""

from __future__ import annotations

import random

import aiplay
from aiplay.games.area51 import guide, narrate
from aiplay.views.narrate import outcome


def _play(players: int, seed: int, max_turns: int = 60):
    game = aiplay.load("area51", players=players, max_turns=max_turns)
    state, rng = game.new_initial_state(), random.Random(seed)
    names = set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            names.update(state.action_to_string(a) for a in legal)
            state.apply_action(rng.choice(legal))
    return state, names


def test_two_player_moves_have_their_own_meaning_and_summary_phrase():
    _, names = _play(2, seed=3)
    creates = [n for n in names if n.startswith("create ")]
    assert creates and all(" for " in n for n in creates)  # two players: the bunker's colour is named
    for name in creates:
        meaning = guide.move_meaning(name, {})
        assert meaning and not meaning.startswith('play "'), (name, meaning)
        assert " a orange" not in meaning and " a orange" not in narrate.past_tense(name)
        assert narrate.past_tense(name).startswith("created a")
    assert guide.move_meaning("create orange bunker in R0 for black", {}).startswith("create an orange bunker")


def test_the_two_player_outcome_names_the_lower_of_two_colours_rule():
    told = 0
    for seed in range(6):
        state, _ = _play(2, seed)
        text = outcome(state, 0)["text"]
        if len(set(state.returns())) > 1:
            assert "scores the lower of their two totals" in text, text
            told += 1
    assert told
    state, _ = _play(3, seed=1)
    assert "two totals" not in outcome(state, 0)["text"]
