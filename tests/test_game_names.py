"""Nothing outside a game's folder names the game (issue 36, point 4).

A game lives in ``games/<folder>/``: its rules, kernel, tests, playthroughs,
positions and docs. Everything else (the library, the generic tests, the
tools) reaches games through the registry, choosing them by property
(:mod:`aiplay.testing.choose`), so that adding, renaming or removing a game
touches one folder. This test walks the repository's tracked files and fails
on any whole-word occurrence of a registered game's name (or its folder's
name) outside that folder, in a file's text or in its path.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import pytest

from aiplay.registry import game_entries

ROOT = Path(__file__).resolve().parents[1]

#: Places that may name any game.
ALLOWED_PREFIXES: Tuple[str, ...] = (
    # The documentation describes the games by name: that is its job.
    "docs/",
    # The benchmarks measure and report named games (RESULTS.md records which game a number is about).
    "benchmarks/",
    # CI scripts run named jobs (a seeded game of the README, the long fuzz and differential runs).
    ".ci/",
)
ALLOWED_FILES: Tuple[str, ...] = (
    # The README introduces the games and shows commands that play them.
    "README.md",
    # The licence text (third-party notices may cite the games' publishers).
    "LICENSE",
    # This checker itself: it must write the names it treats specially (COMMON_WORDS).
    "tests/test_game_names.py",
)

#: Game names that are also ordinary words of code and prose ("template" strings, doc
#: templates, C++ templates...). For them only a quoted occurrence, ``"template"`` or
#: ``'template'``, counts: that is how code names a game (``aiplay.load("template")``),
#: while the bare word is everyday English. Their folder names (``_template``) are not
#: ordinary words and are checked in full.
COMMON_WORDS = frozenset({"template"})

def _tracked_files(root: Path) -> List[str]:
    """The repository's tracked files (``git ls-files``), or a directory walk when git is not there."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True, timeout=60)
        files = [f for f in out.stdout.decode("utf-8", "surrogateescape").split("\0") if f]
        if files:
            return [f for f in files if (root / f).is_file()]
    except (OSError, subprocess.SubprocessError):
        pass
    skip = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".mypy_cache"}
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            found.append(Path(dirpath, name).relative_to(root).as_posix())
    return found


def _pattern(word: str, common: Iterable[str] = COMMON_WORDS) -> "re.Pattern[str]":
    """``word`` as a whole identifier word; a common word only when quoted (see COMMON_WORDS)."""
    if word in common:
        return re.compile(r"""(["'])""" + re.escape(word) + r"\1")
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(word) + r"(?![A-Za-z0-9_])")


def _allowed(path: str) -> bool:
    return path in ALLOWED_FILES or path.startswith(ALLOWED_PREFIXES)


def find_name_hits(root: Path, games: Sequence[Tuple[Sequence[str], str]],
                   files: Optional[Iterable[str]] = None,
                   pending: Iterable[str] = (), common: Iterable[str] = COMMON_WORDS) -> List[str]:
    """``path:line: name`` for every occurrence of a game's names outside its folder.

    ``games`` holds, per game, its names (registry name, folder name) and its
    folder relative to ``root`` (``games/mygame``). A path match is reported as
    ``path: name (in the path)``.
    """
    files = sorted(_tracked_files(root) if files is None else files)
    pending = set(pending)
    common = frozenset(common)
    hits = []
    for path in files:
        if _allowed(path) or path in pending:
            continue
        owners = [(names, folder) for names, folder in games if not path.startswith(folder.rstrip("/") + "/")]
        if not owners:
            continue
        patterns = [(name, _pattern(name, common)) for names, _ in owners for name in names]
        for name, pattern in patterns:
            if name not in common and pattern.search(path):
                hits.append(f"{path}: {name} (in the path)")
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary files (images, compiled kernels) name nothing a reader sees
        for lineno, line in enumerate(text.splitlines(), 1):
            for name, pattern in patterns:
                if pattern.search(line):
                    hits.append(f"{path}:{lineno}: {name}")
    return hits


def _registered_games() -> List[Tuple[List[str], str]]:
    games = []
    for entry in game_entries(include_hidden=True):
        folder = entry.folder
        assert folder is not None, f"{entry.name} has no folder"
        names = sorted({entry.name, folder.name})
        games.append((names, f"games/{folder.name}"))
    return games


def test_no_game_is_named_outside_its_folder():
    hits = find_name_hits(ROOT, _registered_games())
    assert not hits, ("games named outside their folders (choose games by property with "
                      "aiplay.testing.choose, or move the test into games/<game>/tests/):\n  "
                      + "\n  ".join(hits))


def test_the_check_catches_a_planted_name(tmp_path):
    games = [(["mygame"], "games/mygame"), (["_example", "example"], "games/_example")]
    (tmp_path / "games" / "mygame").mkdir(parents=True)
    (tmp_path / "games" / "mygame" / "rules.py").write_text('NAME = "mygame"\n')  # its own folder: fine
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text('import aiplay\n\nG = aiplay.load("mygame")\n')
    (tmp_path / "tests" / "test_mygame_rules.py").write_text("x = 1\n")
    (tmp_path / "tests" / "test_words.py").write_text(
        "# an example of a mygames plural and my_game_x are other words\n"
        "# the example word in prose is fine\n"
        "G = load('example')\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "games.md").write_text("mygame is a game\n")  # docs may name games
    (tmp_path / "README.md").write_text("aiplay play mygame\n")
    (tmp_path / "aiplay").mkdir()
    (tmp_path / "aiplay" / "pending.py").write_text("mygame\n")
    files = ["games/mygame/rules.py", "tests/test_x.py", "tests/test_mygame_rules.py", "tests/test_words.py",
             "docs/games.md", "README.md", "aiplay/pending.py"]
    hits = find_name_hits(tmp_path, games, files=files, pending=["aiplay/pending.py"], common={"example"})
    assert hits == ["tests/test_words.py:3: example", "tests/test_x.py:3: mygame"], hits
    assert find_name_hits(tmp_path, games, files=["aiplay/pending.py"]) == ["aiplay/pending.py:1: mygame"]
    # a path that names a game (with identifier boundaries: test_mygame_rules.py is one word)
    (tmp_path / "tests" / "mygame").mkdir()
    (tmp_path / "tests" / "mygame" / "t.py").write_text("x = 1\n")
    assert find_name_hits(tmp_path, games, files=["tests/mygame/t.py"]) == ["tests/mygame/t.py: mygame (in the path)"]


@pytest.mark.parametrize("word,line,hit", [
    ("dice", "aiplay.load('dice')", True), ("dice", "dices and dicey", False), ("dice", "games/dice/x", True),
    ("template", "a template string", False), ("template", 'load("template")', True),
    ("_template", "games/_template/rules.py", True), ("card_game", "card_game_3p", False),
])
def test_word_boundaries(word, line, hit):
    assert bool(_pattern(word).search(line)) is hit
