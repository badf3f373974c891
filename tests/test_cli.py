"""The ``aiplay`` command line: games, seeded play, version, help and errors."""

from __future__ import annotations

import io
import re

import pytest

import aiplay
from aiplay.cli import main
from aiplay.registry import has_native


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


def test_play_prints_a_seeded_game_and_its_result(capsys):
    argv = ("play", "leduc_poker", "--bots", "ismcts,random", "--seed", "1", "--iterations", "200")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "seats: 0=ismcts, 1=random" in out
    assert re.search(r"^\s+1\. chance: Deal \w+ to player 0$", out, flags=re.M)
    assert re.search(r"^result: (player \d \(\w+\) won|draw)$", out, flags=re.M)
    _, again, _ = run(capsys, *argv)
    assert without_timing(again) == without_timing(out), "the same seed must replay the same game"
    _, other, _ = run(capsys, "play", "leduc_poker", "--bots", "ismcts,random", "--seed", "2", "--iterations", "200")
    assert without_timing(other) != without_timing(out)


def test_play_with_players_options_and_every_bot_kind(capsys):
    code, out, _ = run(capsys, "play", "pig", "--players", "3", "--bots", "mcts,expectimax,random",
                       "--option", "winscore=15", "--iterations", "100", "--depth", "2", "--seed", "4",
                       "--show-state")
    assert code == 0
    assert "'players': 3" in out and "'winscore': 15" in out
    assert "Scores:" in out


def test_reference_backend_gives_the_same_game_as_native(capsys):
    argv = ["play", "pig", "--bots", "random", "--seed", "5", "--option", "winscore=30"]
    _, native, _ = run(capsys, *argv)
    _, reference, _ = run(capsys, *argv, "--backend", "reference")
    strip = lambda text: without_timing(text).replace("native engine", "").replace("reference engine", "")
    assert strip(native) == strip(reference)


@pytest.mark.parametrize("argv,message", [
    (("play", "chess"), "unknown game 'chess'"),
    (("play", "pig", "--bots", "genius"), "unknown bot 'genius'"),
    (("play", "pig", "--bots", "mcts,mcts,mcts"), "names 3 bots for 2 players"),
    (("play", "pig", "--option", "winscore=lots"), "winscore='lots' is invalid"),
    (("play", "pig", "--option", "speed=3"), "unknown option 'speed'"),
    (("play", "pig", "--players", "1"), "players=1 is invalid"),
])
def test_bad_input_gives_a_clear_error(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err


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


def test_play_uses_the_games_bot_presets_unless_plain(capsys):
    argv = ["play", "sunken_city", "--players", "2", "--bots", "mcts,random", "--iterations", "20", "--seed", "2"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert re.search(r"^bots: 0=MCTSBot\(.*rollout=policy\)", out, flags=re.M)
    code, plain, _ = run(capsys, *argv, "--plain")
    assert code == 0
    assert re.search(r"^bots: 0=MCTSBot\(.*rollout=random\)", plain, flags=re.M)


@pytest.mark.parametrize("bots", ["mcts,random", "random,expectimax"])
def test_a_bot_that_reads_hidden_state_is_refused_without_the_flag(capsys, bots):
    assert main(["play", "kuhn_poker", "--bots", bots, "--seed", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "hidden information" in err and "--allow-hidden-information" in err and "ismcts" in err


def test_the_flag_lets_it_play_and_says_which_bots_see_what(capsys):
    argv = ["play", "kuhn_poker", "--bots", "mcts,random", "--seed", "1", "--quiet", "--iterations", "50",
            "--allow-hidden-information"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    notice = [line for line in out.splitlines() if line.startswith("notice:")]
    assert len(notice) == 1 and "seat 0 (mcts)" in notice[0] and "seat 1" not in notice[0]
    # Perfect-information games need no flag and print no notice.
    assert main(["play", "pig", "--bots", "mcts,expectimax", "--seed", "1", "--quiet", "--iterations", "30"]) == 0
    assert "notice:" not in capsys.readouterr().out


def test_a_budget_flag_that_no_seat_takes_is_named_on_stderr(capsys):
    code, _, err = run(capsys, "play", "pig", "--bots", "level", "--level", "2", "--iterations", "50", "--quiet")
    assert code == 0 and "note: --iterations applies to no seat here" in err
    code, _, err = run(capsys, "play", "pig", "--bots", "random", "--depth", "3", "--seconds", "1", "--quiet")
    assert code == 0 and "--seconds and --depth apply to no seat" in err
    # Taken by one seat of two: no note.
    code, _, err = run(capsys, "play", "pig", "--bots", "mcts,random", "--iterations", "20", "--quiet")
    assert code == 0 and "note:" not in err


def test_a_budget_flag_taken_only_by_a_persons_seat_is_named(capsys, monkeypatch):
    # Seat 0 is the person's: its search is a placeholder that never moves, so --iterations reaches no bot.
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, _, err = run(capsys, "play", "pig", "--human", "0", "--bots", "mcts,random", "--iterations", "20")
    assert "note: --iterations applies to no seat here" in err, err
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, _, err = run(capsys, "play", "pig", "--human", "1", "--bots", "mcts,random", "--iterations", "20")
    assert "note:" not in err, err
