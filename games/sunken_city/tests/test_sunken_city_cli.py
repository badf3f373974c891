"""``aiplay play sunken_city`` uses the game's bot presets unless ``--plain``."""

from __future__ import annotations

import re


from aiplay.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_uses_the_games_bot_presets_unless_plain(capsys):
    argv = ["play", "sunken_city", "--players", "2", "--bots", "mcts,random", "--iterations", "20", "--seed", "2"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert re.search(r"^bots: 0=MCTSBot\(.*rollout=policy, cutoff=20\)", out, flags=re.M)
    code, plain, _ = run(capsys, *argv, "--plain")
    assert code == 0
    assert re.search(r"^bots: 0=MCTSBot\(.*rollout=random\)", plain, flags=re.M)
