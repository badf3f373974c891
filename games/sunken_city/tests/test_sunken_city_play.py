"""Sunken City: the heuristic bot, the pictures, and a whole game from the command line."""

from __future__ import annotations

import random

import aiplay
from aiplay.cli import main
from aiplay.game import sample_chance_outcome
from aiplay.games.sunken_city import SunkenCityGame
from aiplay.games.sunken_city.render import svg_board, text_board
from aiplay.search import HeuristicBot, RandomBot


def play(game, bots, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state


def test_the_heuristic_bot_beats_the_random_bot():
    game = aiplay.load("sunken_city", backend="reference")
    wins = 0.0
    for seed in range(16):
        seat = seed % 2
        bots = [RandomBot(seed=seed), RandomBot(seed=seed)]
        bots[seat] = HeuristicBot(seed=seed)
        wins += play(game, bots, seed).returns()[seat]
    assert wins >= 13


def test_heuristic_games_between_heuristic_bots_end():
    for players in (3, 4):
        game = aiplay.load("sunken_city", backend="reference", players=players)
        state = play(game, [HeuristicBot(seed=p) for p in range(players)], seed=players)
        assert state.is_terminal() and abs(sum(state.returns()) - 1.0) < 1e-9


def test_heuristic_values_are_the_learned_shares_of_the_win():
    game = aiplay.load("sunken_city", backend="reference")
    state = game.new_initial_state()
    values = state.heuristic_values()
    assert abs(sum(values) - 1.0) < 1e-9 and all(0.0 < v < 1.0 for v in values)
    data = state.to_dict()
    data.update(secured=[[3, 4], []], secured_values=[7, 0])
    values = game.state_from_dict(data).heuristic_values()
    assert values[0] > values[1] and abs(sum(values) - 1.0) < 1e-9


def _mid_game_state():
    game = aiplay.load("sunken_city", backend="reference", players=3)
    rng = random.Random(3)
    bots = [HeuristicBot(seed=p) for p in range(3)]
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state


def test_text_board_shows_the_lake_and_the_players():
    state = _mid_game_state()
    text = str(state)
    assert text == text_board(state)
    data = state.to_dict()
    assert "r8" in text and "c8" in text and "N" in text
    for i, pos in enumerate(data["buildings"]):
        if pos is not None:
            assert f"B{i + 1}" in text
    for p in range(3):
        assert f"player {p}" in text
    assert "<=" in text or " ^ " in text
    assert f"drawing from space {data['draw_pile']}" in text


def test_svg_board_draws_every_piece():
    state = _mid_game_state()
    svg = svg_board(state)
    data = state.to_dict()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count('class="street"') == len(data["streets"])
    assert svg.count('class="building"') == sum(pos is not None for pos in data["buildings"])
    assert svg.count('class="adventurer"') == 3 and 'class="neptune"' in svg
    assert svg.count('class="water"') == 81 and svg.count('class="village"') == 4


def test_the_cli_plays_a_whole_game_and_prints_the_board(capsys):
    code = main(["play", "sunken_city", "--players", "3", "--bots", "heuristic,random,heuristic", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "final state:" in out and "Game over" in out and " r4 " in out
    assert "result: player" in out


def test_the_game_class_offers_its_policy():
    assert SunkenCityGame.heuristic_policy is not None
