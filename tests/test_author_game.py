"""A game written against the old recipe works when copied into a folder of ``AIPLAY_GAMES_PATH`` (issue 36).

The fixture ``tests/fixtures/author_games/bluff_dice/`` is a small two-player
Liar's Dice written the way the first recipe of docs/adding_a_game.md said
(rules, view, text picture, register with ``no_kernel=``; no kernel, no
tensors), with its golden playthrough where the folder layout keeps it. Each
check runs in a subprocess whose ``AIPLAY_GAMES_PATH`` points at the fixture's
parent, so the game is discovered exactly as a user's own game would be,
without editing the installed package: ``aiplay games`` lists it, bots play
it, ``check_game`` passes on it and fails on a peeking variant, and the
generic test files that take their games from the registry pass for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import aiplay

FIXTURES = Path(__file__).parent / "fixtures" / "author_games"
REPO = Path(__file__).resolve().parent.parent

#: The generic test files that take their games from the registry, run with ``-k bluff_dice``.
GENERIC = ["test_contract.py", "test_roundtrip.py", "test_determinize.py", "test_views.py",
           "test_playthroughs.py", "test_fuzz.py", "test_hidden_info_twins.py", "test_seat_transcripts.py",
           "test_match.py", "test_search_api.py", "test_registry.py"]


def run(args, cwd=None, timeout=300):
    env = {**os.environ, "AIPLAY_GAMES_PATH": str(FIXTURES), "AIPLAY_SHOW_HIDDEN_GAMES": "1",
           "AIPLAY_FUZZ_PROFILE": "ci"}
    return subprocess.run(args, cwd=cwd or FIXTURES.parent, env=env, capture_output=True, text=True,
                          timeout=timeout)


def python(code: str):
    return run([sys.executable, "-c", textwrap.dedent(code)])


def test_the_game_is_listed_and_bots_play_it():
    listed = run([sys.executable, "-m", "aiplay", "games"])
    assert listed.returncode == 0, listed.stderr
    assert "bluff_dice" in listed.stdout and "reference" in listed.stdout
    assert all(name in listed.stdout for name in aiplay.games_available())  # the shipped games are still there
    for bots in ("random,heuristic", "ismcts,heuristic"):
        played = run([sys.executable, "-m", "aiplay", "play", "bluff_dice", "--bots", bots, "--seed", "1"])
        assert played.returncode == 0, played.stderr
        assert "result:" in played.stdout


def test_check_game_passes_and_a_peeking_variant_fails():
    result = python("""
        import random
        import aiplay
        from aiplay.game import _with_seat_check
        from aiplay.games.bluff_dice import BluffDiceState
        from aiplay.protocol import render_state
        from aiplay.registry import game_entry
        from aiplay.testing import ContractFailure, check_game

        entry = game_entry("bluff_dice")
        assert entry.kernel_module is None and entry.no_kernel
        assert str(entry.folder).endswith("author_games/bluff_dice"), entry.folder
        print(check_game("bluff_dice"))
        # The text picture: the human seat and the protocol's view show the position, hiding the other dice.
        state = aiplay.play_out(aiplay.load("bluff_dice").new_initial_state(), random.Random(2), max_steps=5)
        picture = render_state(state, 0, "text")
        assert picture and "?" in picture.splitlines()[2], picture
        # The options of the native search path are refused with the reason: the game has no kernel.
        from aiplay.search import make_bot
        for option in ({"workers": 2}, {"max_nodes": 1000}):
            try:
                make_bot("ismcts", iterations=5, **option).choose(state if not state.is_chance_node() else
                    aiplay.play_out(aiplay.load("bluff_dice").new_initial_state(), random.Random(2), max_steps=4))
            except aiplay.InvalidOptionError as exc:
                assert "has no native kernel" in str(exc) and "reference-only" in str(exc), exc
            else:
                raise SystemExit(f"{option} was accepted on a reference-only game")
        # MO-ISMCTS and tree reuse run on the reference loop too.
        mo_state = state if not state.is_chance_node() else aiplay.play_out(
            aiplay.load("bluff_dice").new_initial_state(), random.Random(2), max_steps=4)
        assert make_bot("ismcts", iterations=50, variant="mo", seed=1).choose(mo_state) in mo_state.legal_actions()
        assert make_bot("ismcts", iterations=50, reuse_tree=True, seed=1).choose(mo_state) in mo_state.legal_actions()
        # A determinize that peeks (returns the true state) is reported.
        BluffDiceState.determinize = _with_seat_check(lambda self, observer, rng: self.clone())
        try:
            check_game("bluff_dice", games=2)
        except ContractFailure as exc:
            print("CAUGHT", exc)
        else:
            raise SystemExit("the peeking determinize passed check_game")
    """)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "bluff_dice: contract kept" in result.stdout
    assert "CAUGHT" in result.stdout and "determinize varies" in result.stdout


def test_the_generic_tests_pass_for_it():
    files = [str(REPO / "tests" / name) for name in GENERIC]
    result = run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
                  "-k", "bluff_dice", *files], cwd=REPO, timeout=600)
    tail = result.stdout[-3000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    assert " passed" in result.stdout and "failed" not in result.stdout, tail
