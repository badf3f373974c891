"""``aiplay play leduc_poker``: a seeded game prints its deals and result, and replays."""

from __future__ import annotations

import re


from aiplay.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def without_timing(text: str) -> str:
    return re.sub(r"\d+ moves in [\d.]+ s", "", text)


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
