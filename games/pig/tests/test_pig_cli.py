"""``aiplay play pig``: players and options, both engines alike, and clear errors for bad input."""

from __future__ import annotations

import re

import pytest

from aiplay.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def without_timing(text: str) -> str:
    return re.sub(r"\d+ moves in [\d.]+ s", "", text)


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
