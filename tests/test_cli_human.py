"""Human seats in the CLI: `aiplay play ... --human SEATS`, driven by feeding standard input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

import aiplay
from aiplay.cli import main
from aiplay.errors import InvalidOptionError
from aiplay.human import HumanGame, parse_seats
from aiplay.search import make_bot


def _run_cli(args, lines, timeout=300):
    return subprocess.run([sys.executable, "-m", "aiplay", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout)


def test_a_whole_sunken_city_game_with_a_human_seat_fed_on_stdin(tmp_path):
    record = tmp_path / "game.json"
    lines = ["help", "hint", "1", "hint", "1", "undo", f"save {record}", "2", f"load {record}",
             "bogus move", "99", "moves"] + ["1"] * 3000
    done = _run_cli(["play", "sunken_city", "--players", "3", "--human", "0", "--bots", "random", "--seed", "1"],
                    lines)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "seats: 0=you, 1=random, 2=random" in out
    assert "player 0, your move:" in out and "    1. card raise" in out
    assert "hint from random:" in out
    assert "undone: " in out
    assert f"saved to {record}" in out and f"loaded {record}: 1 moves played" in out
    assert "error: illegal action 'bogus move'" in out and "error: no move number 99" in out
    assert "--- turn 1: player 0 (you) ---" in out and "player 1 (random)" in out
    # The game reached its end: returns, scores and the result are printed.
    assert "returns: [" in out and "scores: [" in out and "result: " in out
    saved = json.loads(record.read_text())
    assert saved["format"] == "aiplay-match" and len(saved["moves"]) == 1  # two moves, one undone


def test_moves_by_name_any_case_and_hints_from_a_search_bot():
    game = aiplay.load("sunken_city", players=2)
    bots = [make_bot("mcts", game=game, iterations=60, seed=s) for s in (1, 2)]
    first = game.new_initial_state()
    name = first.action_to_string(first.legal_actions()[-1])
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=3, stdin=io.StringIO(f"hint\n{name.upper()}\nquit\n"), stdout=out)
    assert table.run() == 0
    text = out.getvalue()
    assert "hint from mcts:" in text and "estimated value" in text and "most searched:" in text
    assert table.match.history[0].name == name
    assert "game left unfinished" in text


def test_hidden_information_seat_sees_only_its_own_view():
    names = [n for n in aiplay.games_available() if not aiplay.load(n).perfect_information
             and "players" in aiplay.registry.game_entry(n).reference.option_spec]
    name = names[0]
    game = aiplay.load(name, players=2)
    out = io.StringIO()
    bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
    table = HumanGame(game, bots, {1}, seed=4, stdin=io.StringIO("1\n1\nquit\n"), stdout=out)
    table.run()
    text = out.getvalue()
    assert "player 1, your move:" in text
    # What was shown is the seat's own rendering, never the full position.
    state = table.match.state
    assert str(state) not in text


def test_bad_human_seats_are_refused():
    with pytest.raises(InvalidOptionError, match="seats are 0..2"):
        parse_seats("3", 3)
    with pytest.raises(InvalidOptionError):
        parse_seats("x", 3)
    assert parse_seats("0, 2", 3) == {0, 2}
    assert main(["play", "pig", "--human", "5"]) == 2


def test_end_of_input_leaves_the_game_cleanly():
    done = _run_cli(["play", "pig", "--human", "0,1", "--seed", "2"], ["1", "1"])
    assert done.returncode == 0
    assert "game left unfinished" in done.stdout
