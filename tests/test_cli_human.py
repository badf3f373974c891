"""Human seats in the CLI: `aiplay play ... --human SEATS`, driven by feeding standard input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

import aiplay
from aiplay.cli import main
from aiplay.errors import InvalidOptionError
from aiplay.cli.human import HumanGame, parse_seats
from aiplay.search import make_bot
from aiplay.testing.choose import cli_options, games_with, pick_variant

#: Chosen by property: a short perfect-information game for two (SHORT), perfect-information board games
#: for two and three (BOARD2, BOARD3; BOARD2 the one with the most moves, for the long menus), a short
#: listed hidden-information game for two (HIDDEN) and every listed board game (BOARDS).
SHORT, SHORT_OPTIONS = pick_variant(perfect_information=True, players=2, short=True, listed=True)
BOARD2, BOARD2_OPTIONS = pick_variant(perfect_information=True, board=True, players=2, prefer="large")
BOARD3, BOARD3_OPTIONS = pick_variant(perfect_information=True, board=True, players=3)
HIDDEN, HIDDEN_OPTIONS = pick_variant(perfect_information=False, players=2, short=True, listed=True)
BOARDS = games_with(board=True, listed=True)


def _play(name, options):
    """``aiplay play`` arguments for ``name`` with ``options`` (the seat count as ``--players``)."""
    options = dict(options)
    players = ["--players", str(options.pop("players"))] if "players" in options else []
    return [name, *players, *cli_options(options)]


def _run_cli(args, lines, timeout=300):
    return subprocess.run([sys.executable, "-m", "aiplay", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout)


def test_moves_by_name_any_case_and_hints_from_a_search_bot():
    game = aiplay.load(BOARD2, **BOARD2_OPTIONS)
    bots = [make_bot("mcts", game=game, iterations=60, seed=s) for s in (1, 2)]
    first = game.new_initial_state()
    name = first.action_to_string(first.legal_actions()[-1])
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=3, stdin=io.StringIO(f"hint\n{name.upper()}\nquit\n"), stdout=out)
    assert table.run() == 0
    text = out.getvalue()
    assert "hint from the best bot (level 7, no deliberate mistakes):" in text and "your chances:" in text and "most searched:" in text
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
    assert main(["play", SHORT, "--human", "5"]) == 2


def test_end_of_input_leaves_the_game_cleanly():
    done = _run_cli(["play", *_play(SHORT, SHORT_OPTIONS), "--human", "0,1", "--seed", "2"], ["1", "1"])
    assert done.returncode == 0
    assert "game left unfinished" in done.stdout


def test_without_bots_a_human_meets_the_best_bot():
    done = _run_cli(["play", *_play(BOARD3, BOARD3_OPTIONS), "--human", "0", "--seed", "1"], ["quit"])
    assert done.returncode == 0, done.stderr
    assert "seats: 0=you, 1=level 7, 2=level 7" in done.stdout  # the top level
    done = _run_cli(["play", *_play(HIDDEN, HIDDEN_OPTIONS), "--human", "1", "--seed", "1"], ["quit"])
    assert "seats: 0=level 7, 1=you" in done.stdout


def test_a_budget_flag_without_bots_seats_the_preset_search_at_that_budget():
    # A level is its own budget, so --iterations would be ignored by it: the search takes it instead.
    done = _run_cli(["play", *_play(BOARD2, BOARD2_OPTIONS), "--human", "0", "--seed", "1", "--iterations", "50"],
                    ["quit"])
    assert done.returncode == 0, done.stderr
    assert "seats: 0=you, 1=mcts" in done.stdout
    done = _run_cli(["play", *_play(HIDDEN, HIDDEN_OPTIONS), "--human", "1", "--seed", "1", "--seconds", "0.1"],
                    ["quit"])
    assert "seats: 0=ismcts, 1=you" in done.stdout  # hidden information: the seat-honest search


def _table_with_many_moves(typed: str):
    """A table of BOARD2 whose seat 0 is at a position with more moves than the full menu shows."""
    from aiplay.cli.human import FULL_MENU
    from aiplay.match import Match
    import random as _random

    game = aiplay.load(BOARD2, **BOARD2_OPTIONS)
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


@pytest.mark.parametrize("name", BOARDS)
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
        if move.player == 0 and move.ply in table._forced:
            # The seat's only legal move is played for it with a notice, no board and no prompt.
            notice = text.find(f"player 0 (you): {move.name}  (your only legal move: played for you)", at)
            assert notice >= 0, f"{name}: the forced move {move.ply} has no notice"
            at = notice
        elif move.player == 0:
            board = render_state(state, 0, "text")
            found = text.find(board, at)
            assert found >= 0, f"{name}: the board before move {move.ply} is not on the screen"
            prompt = text.find("player 0> ", found)
            assert prompt > found
            at = prompt
            decisions += 1
        state.apply_action(move.action)
    assert decisions == 40 or table.match.is_terminal()


def test_a_forced_move_is_played_with_a_notice_and_undo_goes_past_it():
    """A seat with one legal move is not asked; undo takes it back to the seat's last real choice."""
    game = aiplay.load(BOARD2, **BOARD2_OPTIONS)
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=11, stdin=io.StringIO("1\n" * 30), stdout=out)
    table.run()
    assert table._forced, "no forced move came up in 30 choices; pick another seed"
    assert "your only legal move: played for you" in out.getvalue()


@pytest.mark.parametrize("name", BOARDS)
def test_undo_and_replay_draws_the_same_chance_in_the_terminal(name):
    """Undo cannot fish for luck at the terminal: the same moves after an undo meet the same chance."""
    game = aiplay.load(name)
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    first = HumanGame(game, bots, {0}, seed=5, stdin=io.StringIO("1\n" * 40), stdout=io.StringIO())
    first.run()
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    again = HumanGame(game, bots, {0}, seed=5, stdin=io.StringIO("1\n" * 3 + "undo\n" + "1\n" * 37),
                      stdout=io.StringIO())
    again.run()
    # Along the common line of play (the bots' random choices part once the undo re-asks them), every chance
    # outcome is the same: the one drawn after the undo too.
    compared = 0
    for a, b in zip(first.match.history, again.match.history):
        if a.player < 0 and b.player < 0:
            assert a.action == b.action, f"{name}: ply {a.ply} drew {a.name!r}, then {b.name!r} after the undo"
            compared += 1
        elif (a.player, a.action) != (b.player, b.action):
            break
    assert compared, name


def test_the_running_counter_counts_the_steps_of_a_block_not_its_opening_move():
    """`` (face-down 2 of this turn)``: a run of one kind of choice is counted, and a block's opening
    move of the same word ("neptune", then "neptune to ...") is not one of its steps."""
    def counter(names, legal):
        history = [SimpleNamespace(player=0, name=n) for n in names]
        fake = SimpleNamespace(match=SimpleNamespace(history=history))
        return HumanGame.running_counter(fake, 0, [(i, n) for i, n in enumerate(legal)])

    steps = ["neptune stops", "neptune to r2c4"]
    assert counter(["card raise 0 move 7", "neptune"], steps) == ""
    assert counter(["card raise 0 move 7", "neptune", "neptune to r3c4"], steps) == " (neptune 2 of this turn)"
    cards = ["face-down blue 1 to hangar 1", "face-down green 2 to hangar 2"]
    assert counter(["build", "face-up green 3 to hangar 1", "face-down blue 4 to hangar 1"], cards) == \
        " (face-down 2 of this turn)"
    assert counter(["build"], ["take a feat", "done"]) == ""  # no shared first word: no counter


def test_a_move_typed_at_the_wrong_step_is_told_what_this_step_offers():
    """A newcomer types a street while the turn first asks which block comes next: the error lists the
    few moves of this step instead of leaving them guessing (issue 38, from a game played by hand)."""
    def unknown(text, legal):
        fake = SimpleNamespace(match=SimpleNamespace(legal_moves=lambda: list(enumerate(legal))))
        return HumanGame.unknown_move(fake, text)

    told = unknown("street r1c0-r2c0", ["raise", "move", "end turn"])
    assert "is not a legal move here; the moves now are: raise | move | end turn" in told
    assert "did you mean: raise" in unknown("rise", ["raise", "move", "end turn"])
    many = [f"street r{i}c0-r{i}c1" for i in range(9)]
    assert "the moves now are" not in unknown("building 9 at r0c4", many)  # a long list stays behind `list`
