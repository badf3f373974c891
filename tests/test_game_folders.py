"""Game discovery (issue 36): extra folders from ``AIPLAY_GAMES_PATH``, and a broken folder skipped by name.

A half-written game folder (here one whose ``__init__.py`` imports a
``tensors`` module that is not there yet) must not break every ``aiplay``
command: it is reported with its folder and error, and the other games load.
Each check runs in a subprocess, since discovery happens once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from aiplay.registry import game_entry
from aiplay.testing.choose import pick_game

#: A listed game and a hidden example game (AIPLAY_SHOW_HIDDEN_GAMES lists it too), chosen by property.
LISTED = pick_game(listed=True)
HIDDEN = pick_game(listed=False)
#: The hidden example game's rules class, which a game in an extra folder subclasses.
HIDDEN_CLASS = game_entry(HIDDEN).reference


def run(args, games_path: Path, cwd: Path):
    env = {**os.environ, "AIPLAY_GAMES_PATH": str(games_path), "AIPLAY_SHOW_HIDDEN_GAMES": "1"}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def plant(tmp_path: Path) -> Path:
    games = tmp_path / "my_games"
    (games / "half_written").mkdir(parents=True)
    (games / "half_written" / "__init__.py").write_text("from .tensors import HalfTensors\n")
    return games


def test_a_broken_folder_is_named_and_skipped_by_aiplay_games(tmp_path):
    games = plant(tmp_path)
    result = run([sys.executable, "-m", "aiplay", "games"], games, tmp_path)
    assert result.returncode == 0, result.stderr
    assert LISTED in result.stdout and HIDDEN in result.stdout  # the other games are listed
    assert "half_written" not in result.stdout
    assert "game folder 'half_written' is broken" in result.stderr
    assert "ModuleNotFoundError" in result.stderr and "tensors" in result.stderr
    assert "internal error" not in result.stderr


def test_a_broken_folder_is_recorded_warned_and_refused_by_load(tmp_path):
    games = plant(tmp_path)
    code = textwrap.dedent(f"""
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import aiplay
            from aiplay.registry import broken_games
            broken = broken_games()
        assert list(broken) == ["half_written"], broken
        assert "ModuleNotFoundError" in broken["half_written"] and "tensors" in broken["half_written"]
        assert any("half_written" in str(w.message) and "ModuleNotFoundError" in str(w.message) for w in caught)
        from aiplay.errors import SetupError
        try:
            aiplay.load("half_written")
        except SetupError as exc:
            assert "half_written" in str(exc) and "tensors" in str(exc), exc
        else:
            raise SystemExit("load of a broken folder did not raise SetupError")
        assert aiplay.load({LISTED!r}).name == {LISTED!r}
        assert "half_written" not in aiplay.games_available(include_hidden=True)
        print("OK")
    """)
    result = run([sys.executable, "-c", code], games, tmp_path)
    assert result.returncode == 0 and "OK" in result.stdout, result.stdout + result.stderr


def test_extra_folders_add_games_and_a_missing_directory_is_ignored(tmp_path):
    games = tmp_path / "more"
    (games / "tiny_copy").mkdir(parents=True)
    # A game defined in an extra folder: a renamed copy of the template's rules, registered there.
    (games / "tiny_copy" / "__init__.py").write_text(textwrap.dedent(f"""
        from {HIDDEN_CLASS.__module__} import {HIDDEN_CLASS.__qualname__}
        from aiplay.registry import register

        class TinyCopy({HIDDEN_CLASS.__qualname__}):
            name = "tiny_copy"

        register(TinyCopy, no_kernel="a copy", no_heuristic="a copy")
    """))
    path = os.pathsep.join([str(tmp_path / "missing"), str(games)])
    result = run([sys.executable, "-m", "aiplay", "games"], Path(path), tmp_path)
    assert result.returncode == 0, result.stderr
    assert "tiny_copy" in result.stdout and LISTED in result.stdout
    assert "is not a directory" in result.stderr
