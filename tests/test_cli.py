"""The ``aiplay`` command line: games, seeded play, version, help and errors."""

from __future__ import annotations

import io
import re

import pytest

import aiplay
from aiplay.cli import main
from aiplay.registry import has_native
from aiplay.testing.choose import pick_game

#: Chosen by property (each played with its default options): a short perfect-information game for
#: two, and a short hidden-information game for two.
DICE = pick_game(perfect_information=True, short=True, players=2)
HIDDEN = pick_game(perfect_information=False, short=True, players=2)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def without_timing(text: str) -> str:
    return re.sub(r"\d+ moves in [\d.]+ s", "", text)


def test_games_lists_every_game_with_its_engines(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    for name in aiplay.games_available():
        engines = r"native \+ reference" if has_native(name) else r"reference"
        assert re.search(rf"^{name}\s+{engines}\s", out, flags=re.M)


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert aiplay.__version__ in capsys.readouterr().out
    for argv in (["--help"], ["play", "--help"], ["games", "--help"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 0
        assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize("bots", ["mcts,random", "random,expectimax"])
def test_a_bot_that_reads_hidden_state_is_refused_without_the_flag(capsys, bots):
    assert main(["play", HIDDEN, "--bots", bots, "--seed", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "hidden information" in err and "--allow-hidden-information" in err and "ismcts" in err


def test_the_flag_lets_it_play_and_says_which_bots_see_what(capsys):
    argv = ["play", HIDDEN, "--bots", "mcts,random", "--seed", "1", "--quiet", "--iterations", "50",
            "--allow-hidden-information"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    notice = [line for line in out.splitlines() if line.startswith("notice:")]
    assert len(notice) == 1 and "seat 0 (mcts)" in notice[0] and "seat 1" not in notice[0]
    # Perfect-information games need no flag and print no notice.
    assert main(["play", DICE, "--bots", "mcts,expectimax", "--seed", "1", "--quiet", "--iterations", "30"]) == 0
    assert "notice:" not in capsys.readouterr().out


def test_a_budget_flag_that_no_seat_takes_is_named_on_stderr(capsys):
    code, _, err = run(capsys, "play", DICE, "--bots", "level", "--level", "2", "--iterations", "50", "--quiet")
    assert code == 0 and "note: --iterations applies to no seat here" in err
    code, _, err = run(capsys, "play", DICE, "--bots", "random", "--depth", "3", "--seconds", "1", "--quiet")
    assert code == 0 and "--seconds and --depth apply to no seat" in err
    # Taken by one seat of two: no note.
    code, _, err = run(capsys, "play", DICE, "--bots", "mcts,random", "--iterations", "20", "--quiet")
    assert code == 0 and "note:" not in err


def test_a_budget_flag_taken_only_by_a_persons_seat_is_named(capsys, monkeypatch):
    # Seat 0 is the person's: its search is a placeholder that never moves, so --iterations reaches no bot.
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, _, err = run(capsys, "play", DICE, "--human", "0", "--bots", "mcts,random", "--iterations", "20")
    assert "note: --iterations applies to no seat here" in err, err
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, _, err = run(capsys, "play", DICE, "--human", "1", "--bots", "mcts,random", "--iterations", "20")
    assert "note:" not in err, err
