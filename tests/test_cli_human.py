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
from aiplay.cli.human import HumanGame, parse_seats
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
    assert "hint from level 7:" in out  # the best bot, not the seat's random one
    assert "undone: " in out
    assert f"saved to {record}" in out and f"loaded {record}: 1 moves played" in out
    assert "error: 'bogus move' is not a legal move here" in out and "error: no move number 99" in out
    assert "--- player 0 (you) to play ---" in out and "player 1 (random)" in out
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
    assert "hint from level 7:" in text and "estimated value" in text and "most searched:" in text
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


def test_without_bots_a_human_meets_the_best_bot():
    done = _run_cli(["play", "sunken_city", "--players", "3", "--human", "0", "--seed", "1"], ["quit"])
    assert done.returncode == 0, done.stderr
    assert "seats: 0=you, 1=level 7, 2=level 7" in done.stdout  # the top level, with Sunken City's tie rule
    done = _run_cli(["play", "leduc_poker", "--human", "1", "--seed", "1"], ["quit"])
    assert "seats: 0=level 7, 1=you" in done.stdout


def test_a_budget_flag_without_bots_seats_the_preset_search_at_that_budget():
    # A level is its own budget, so --iterations would be ignored by it: the search takes it instead.
    done = _run_cli(["play", "sunken_city", "--players", "2", "--human", "0", "--seed", "1", "--iterations", "50"],
                    ["quit"])
    assert done.returncode == 0, done.stderr
    assert "seats: 0=you, 1=mcts" in done.stdout
    done = _run_cli(["play", "leduc_poker", "--human", "1", "--seed", "1", "--seconds", "0.1"], ["quit"])
    assert "seats: 0=ismcts, 1=you" in done.stdout  # hidden information: the seat-honest search


def _table_with_many_moves(typed: str):
    """A Sunken City table whose seat 0 is at a position with more moves than the full menu shows."""
    from aiplay.cli.human import FULL_MENU
    from aiplay.match import Match
    import random as _random

    game = aiplay.load("sunken_city", players=2)
    rng = _random.Random(5)
    for _ in range(200):
        match = Match(game, seed=_random.Random(1))
        while not match.is_terminal() and not (match.current_player() == 0
                                               and len(match.legal_moves()) > FULL_MENU):
            if match.state.is_chance_node():
                match.play_chance()
            else:
                match.apply(rng.choice(match.state.legal_actions()))
        if not match.is_terminal():
            break
    out = io.StringIO()
    bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
    table = HumanGame(game, bots, {0}, seed=4, stdin=io.StringIO(typed), stdout=out)
    table.match = match
    return table, out


def test_a_long_move_list_is_a_short_grouped_menu_and_list_shows_every_move():
    table, out = _table_with_many_moves("list\nquit\n")
    moves = table.match.legal_moves()
    table.run()
    text = out.getvalue()
    menu = text.split("your move:\n", 1)[1].split("player 0> ", 1)[0]
    assert len(menu.splitlines()) < len(moves)
    assert "type list (or ?) to see every one" in menu
    listed = text.split("player 0> ", 1)[1]
    for number, (_, name) in enumerate(moves, 1):
        assert f"{number:3d}. {name}" in listed


def test_a_mistyped_move_gets_the_nearest_names_in_two_lines():
    table, out = _table_with_many_moves("")
    name = table.match.legal_moves()[-1][1]
    typo = name[:-1] + ("x" if name[-1] != "x" else "y")
    table.stdin = io.StringIO(typo + "\nquit\n")
    table.run()
    text = out.getvalue()
    error = text.split("player 0> ", 1)[1].split("player 0> ", 1)[0]
    assert error.startswith("error: ") and "did you mean: " in error and name in error
    assert len(error.strip().splitlines()) <= 2


def test_lives_lost_are_announced_and_the_set_up_has_no_player_minus_one():
    import re

    game = aiplay.load("groom_lake")
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=7, stdin=io.StringIO("1\n" * 5000), stdout=out)
    start = [seat["life"] for seat in table.match.state.view(0)["seats"]]
    table.run()
    text = out.getvalue()
    assert "turn of player -1" not in text and "set-up, before the first turn" in text
    end = [seat["life"] for seat in table.match.state.view(0)["seats"]]
    announced = 0
    for change, amount in re.findall(r"  ! (?:you|player \d) (lost|gained) (\d+) li", text):
        announced += int(amount) if change == "lost" else -int(amount)
    assert sum(start) - sum(end) > 0  # a whole game loses lives: the test below is not vacuous
    assert announced == sum(start) - sum(end)


@pytest.mark.parametrize("name", ["sunken_city", "area51", "area1851", "groom_lake"])
def test_the_board_is_shown_before_every_move_of_a_human_seat(name):
    """A human seat's screen through many moves of each board game: its board, then its prompt, every time."""
    from aiplay.views.text import render_state

    game = aiplay.load(name)
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=11, stdin=io.StringIO("1\n" * 40), stdout=out)
    table.run()
    text = out.getvalue()
    # Replay the game: at each of seat 0's decisions, its board must come next on the screen, then the prompt.
    state = game.new_initial_state()
    at = 0
    decisions = 0
    for move in table.match.history:
        if move.player == 0:
            board = render_state(state, 0, "text")
            found = text.find(board, at)
            assert found >= 0, f"{name}: the board before move {move.ply} is not on the screen"
            prompt = text.find("player 0> ", found)
            assert prompt > found
            at = prompt
            decisions += 1
        state.apply_action(move.action)
    assert decisions == 40 or table.match.is_terminal()


def _area1851_seat0_decisions(seeds=range(12)):
    """Seeded 2-player Area 1851 matches that favour building (so that paying, placing and delivering
    happen): yields each match stopped at seat 0's decisions."""
    import random as _random

    from aiplay.match import Match

    game = aiplay.load("area1851", players=2)
    for seed in seeds:
        rng = _random.Random(seed)
        match = Match(game, seed=_random.Random(seed))
        while not match.is_terminal():
            if match.state.is_chance_node():
                match.play_chance()
                continue
            if match.current_player() == 0:
                yield match
            legal = match.legal_moves()
            keen = [a for a, name in legal if name.startswith(("hand:", "die", "gadget", "activate"))]
            match.apply(rng.choice(keen) if keen and rng.random() < 0.8 else rng.choice(legal)[0])


def test_area1851_screen_says_what_each_decision_asks():
    from aiplay.views.text import render_state

    steps = set()
    forced = 0
    for match in _area1851_seat0_decisions():
        state = match.state
        view = state.view(0)
        text = render_state(state, 0, "text")
        step, ctx, me = view["decision"], view["internal"]["ctx"], view["seats"][0]
        steps.add(step)
        ask = text.splitlines()[3]  # after the banner, the events and the decks: what is asked
        assert ask and not ask.startswith("p0"), (step, text)
        if len(match.legal_moves()) == 1:
            forced += 1
        if step == "pay":
            assert f"{ctx['owed']} still owed" in ask
        if step == "deliver":
            for g, gadget in enumerate(me["gadgets"]):
                assert f"gadget {g} = {gadget['gadget']}" in ask
                assert f"    gadget {g}: {gadget['gadget']} [" in text
        if view["turn"] == 0:
            assert "dice not rolled yet" in text and "dice 1 1 1" not in text
        elif view["phase"] == "action":
            dice = " ".join(f"{d['value']}{'*' if d['used'] else ''}" for d in me["dice"])
            assert f"dice {dice}," in text
    # The walk met the decisions the issue names, and forced ones.
    assert {"place", "main", "pay", "deliver", "skip"} <= steps and forced > 0


def test_area1851_menu_and_log_name_the_gadget_behind_its_number():
    for match in _area1851_seat0_decisions():
        if match.state.view(0)["decision"] == "deliver" and match.state.view(0)["seats"][0]["gadgets"]:
            break
    else:
        raise AssertionError("no delivery of seat 0 in the seeded games")
    gadgets = match.state.view(0)["seats"][0]["gadgets"]
    moves = match.legal_moves()
    number = next(i for i, (_, name) in enumerate(moves, 1) if name == "gadget 0")
    out = io.StringIO()
    bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
    table = HumanGame(match.game, bots, {0}, seed=4, stdin=io.StringIO(f"{number}\nquit\n"), stdout=out)
    table.match = match
    table.run()
    text = out.getvalue()
    assert f"{number:3d}. gadget 0  ({gadgets[0]['gadget']} [" in text  # the menu
    assert f"player 0 (you): gadget 0 ({gadgets[0]['gadget']} [" in text  # the move log


def _own_hand(state, seat):
    return dict(state.view(seat)["seats"][seat]["hand"])


@pytest.mark.parametrize("name,moves", [("area1851", 60), ("groom_lake", 400)])
def test_own_cards_leaving_the_hand_through_others_moves_are_announced(name, moves):
    """Cards that leave a human seat's hand (or come into it) by a move it did not make are named, once each."""
    game = aiplay.load(name)
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=7, stdin=io.StringIO("1\n" * moves), stdout=out)
    table.run()
    text = out.getvalue()
    expected = expected_in = 0
    state = game.new_initial_state()
    for move in table.match.history:
        before = _own_hand(state, 0)
        state.apply_action(move.action)
        after = _own_hand(state, 0)
        lost = any(before[k] > after.get(k, 0) for k in before)
        got = sum(max(0, after[k] - before.get(k, 0)) for k in after)
        if move.player != 0 and lost:
            expected += 1
        # A single card drawn at a chance move is named by the move itself; anything else is announced.
        if move.player != 0 and got and (move.player != aiplay.CHANCE or lost or got > 1):
            expected_in += 1
    assert text.count("left your hand") == expected
    assert text.count("came into your hand") == expected_in
    if name == "area1851":
        assert expected > 0  # the rotation passes cards on: the check above is not vacuous


def test_groom_lake_status_names_the_cards_one_put_on_the_refresh_stack():
    from aiplay.views.text import render_state

    game = aiplay.load("groom_lake")
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=7, stdin=io.StringIO("1\n" * 60), stdout=out)
    table.run()
    text = out.getvalue()
    refreshed = [m.name.split(" ", 1)[1] for m in table.match.history if m.player == 0 and m.name.startswith("refresh ")]
    assert refreshed, "seat 0 refreshed no card in 60 moves"
    assert f"(yours: {refreshed[0]})" in text
    assert "hand limit: you hold" in text or "end of your turn: you took the top of the Discard Stack" in text
    # (What another seat's screen shows is checked between twin games by tests/test_seat_transcripts.py.)
