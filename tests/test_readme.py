"""The README must stay true: its set-up commands, and every example, run from where a user types them.

The examples run in fresh Python processes whose working directory is the
repository root, as a newcomer who just cloned the repository would run them
(the checkout's ``aiplay/`` folder is then first on ``sys.path``).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from aiplay.testing.choose import games_with, pick_game

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"
BIN = Path(sys.executable).parent


def code_blocks(text: str, language: str = r"\w*"):
    return re.findall(rf"```(?:{language})\n(.*?)```", text, flags=re.S)


def python_examples():
    return code_blocks(README.read_text(), "python")


def cli_examples():
    """The ``aiplay ...`` lines of the README's command-line section."""
    section = README.read_text().split("## Command line", 1)[1]
    block = code_blocks(section)[0]
    return [line.split("#")[0].strip() for line in block.splitlines() if line.startswith("aiplay")]


def test_ci_runs_the_readme_test_command_verbatim():
    blocks = [b.strip() for b in code_blocks(README.read_text())]
    test_commands = [b for b in blocks if b.startswith("python3 -m venv") and "pytest" in b]
    assert len(test_commands) == 1, "the README must show exactly one test command"
    assert test_commands[0] in CI.read_text().splitlines()


def test_readme_main_job_plays_a_board_game():
    blocks = [b.strip() for b in code_blocks(README.read_text())]
    main = [b for b in blocks if b.startswith("python3 -m venv") and "aiplay play" in b]
    assert len(main) == 1
    game = main[0].split("aiplay play", 1)[1].split()[0]
    assert game in games_with(board=True, listed=True)
    # The command it runs is one of the tested CLI examples below.
    assert "aiplay play" + main[0].split("aiplay play", 1)[1] in cli_examples()


@pytest.mark.parametrize("index", range(len(python_examples())))
def test_python_example_runs_from_the_repository_root(index):
    code = python_examples()[index]
    created = {p for p in ROOT.iterdir()}
    try:
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                timeout=300)
    finally:
        # Files the example wrote (board.svg); only those it names: tests running in
        # parallel may create other entries here (.hypothesis/) meanwhile.
        for path in set(ROOT.iterdir()) - created:
            if path.is_file() and path.name in code:
                path.unlink()
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize("command", cli_examples())
def test_cli_example_runs_from_the_repository_root(command):
    argv = shlex.split(command)
    result = subprocess.run([str(BIN / argv[0])] + argv[1:], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip()


def test_python_from_the_repository_root_imports_the_games():
    """`python -c "import aiplay; aiplay.load(NAME)"` in the checkout (the editable install), for a board game."""
    name = pick_game(board=True, listed=True)
    result = subprocess.run([sys.executable, "-c", f"import aiplay; print(aiplay.load({name!r}))"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert name in result.stdout
