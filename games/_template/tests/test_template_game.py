"""The template game (games/_template/) and the one-recipe promise of docs/adding_a_game.md.

* The template's kernel policy is its reference heuristic, action for action.
* It is hidden from the user-facing lists, yet loadable and playable by name.
* A copy registered at run time under another name, with nothing else edited,
  appears in every generic test list (contract, differential, roundtrip,
  determinize, fuzz, playthroughs, metadata), in the benchmarks' list and in
  the CLI, and passes the engine checks those lists drive.
* A game registered with pieces missing fails the registry tests with a
  message that names the missing piece.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Iterator

import pytest

import aiplay
from aiplay.testing import fuzzing
from aiplay.cli import main
from aiplay.testing.differential import compare_engines
from aiplay.game import sample_chance_outcome
from aiplay.games._template import ENTRY, TemplateRaceGame
from aiplay.testing.playthrough import playthrough, playthrough_cases
from aiplay.registry import DifferentialCase, PlaythroughSpec, game_entry, register, unregister

from aiplay.testing import cases

ROOT = Path(__file__).resolve().parents[3]  # the repository root


def _module(name: str, path: Path):
    """Import a test or benchmark module by path (the same object if already imported)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _decision_states(game, games: int) -> Iterator:
    """Every decision state of ``games`` seeded random games."""
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            yield state
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("options", [{}, {"players": 3, "goal": 8}, {"players": 4, "goal": 30, "horizon": 200}])
def test_kernel_policy_is_the_reference_heuristic(options):
    native = aiplay.load("template", backend="native", **options)
    assert native.kernel.has_policy
    policy = native.heuristic_policy
    checked = 0
    chosen = set()
    for state in _decision_states(native, 150):
        expected = policy(state.to_reference(), random.Random(0))
        assert policy(state, random.Random(0)) == expected, "the heuristic plays the same on both engines"
        for seed in (0, 1, 2**63):  # the kernel policy is deterministic: any seed
            assert native.kernel.policy_choice(state, seed) == expected, state.to_json()
        chosen.add(expected)
        checked += 1
    assert checked > 1000 and chosen == {0, 1, 2}, "every branch of the policy was compared"


def test_policy_playouts_finish_and_win_against_random():
    # The heuristic is a real baseline: with it seat 0 beats random seat 1 more often than not.
    game = aiplay.load("template", backend="native")
    wins = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            elif state.current_player() == 0:
                state.apply_action(game.heuristic_policy(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[0] > 0
    assert wins > 180


def test_template_is_hidden_but_playable(capsys, monkeypatch):
    monkeypatch.setenv("AIPLAY_SHOW_HIDDEN_GAMES", "0")
    assert "template" not in aiplay.games_available()
    assert main(["games"]) == 0
    assert "template" not in capsys.readouterr().out
    assert main(["games", "--all"]) == 0
    assert "[example]" in next(line for line in capsys.readouterr().out.splitlines() if line.startswith("template"))
    assert main(["play", "template", "--bots", "heuristic,random", "--seed", "3", "--quiet"]) == 0
    assert "result:" in capsys.readouterr().out
    # The test session shows hidden games: the generic tests run over it.
    monkeypatch.setenv("AIPLAY_SHOW_HIDDEN_GAMES", "1")
    assert "template" in [name for name, _, _ in cases.game_variants()]


# -- a copy registered at run time ---------------------------------------------------

COPY = "template_copy"


class CopiedRaceGame(TemplateRaceGame):
    """The template under another name, as a newcomer's first copy would be."""

    name = COPY
    title = "Copied race"


@pytest.fixture
def copy_registered():
    register(CopiedRaceGame, kernel_module=ENTRY.kernel_module,
             contract_options=[{"players": 3}], differential=[DifferentialCase({"players": 3}, 60)],
             playthroughs=[PlaythroughSpec("template_copy", {"players": 3}, 11)],
             benchmark={"players": 2}, max_game_length=lambda game: game.max_game_length)
    try:
        yield game_entry(COPY)
    finally:
        unregister(COPY)
    assert COPY not in aiplay.games_available(include_hidden=True)


def test_a_registered_copy_is_in_every_generic_list(copy_registered, capsys):
    test_differential = _module("test_differential", ROOT / "tests" / "test_differential.py")
    test_roundtrip = _module("test_roundtrip", ROOT / "tests" / "test_roundtrip.py")
    test_registry = _module("test_registry", ROOT / "tests" / "test_registry.py")
    board_games = _module("board_games", ROOT / "benchmarks" / "board_games.py")

    assert COPY in aiplay.games_available(include_hidden=False), "listed by default"
    # Contract and determinize (game_variants), roundtrip, fuzz: the option sets of its entry.
    assert {(b, tuple(o.items())) for n, b, o in cases.game_variants() if n == COPY} == {
        ("reference", (("players", 3),)), ("native", (("players", 3),))}
    assert cases.CONTRACT_OPTIONS[COPY] == [{"players": 3}]
    assert (COPY, {"players": 3}) in test_roundtrip.cases()
    assert (COPY, {"players": 3}) in fuzzing.game_specs(cases.CONTRACT_OPTIONS)
    # Differential, playthroughs, benchmarks.
    assert (COPY, {"players": 3}, 60) in test_differential.differential_cases()
    assert (COPY, copy_registered.playthroughs[0]) in playthrough_cases()
    assert dict(board_games.BOARD_GAMES)[COPY] == {"players": 2}
    # The CLI.
    assert main(["games"]) == 0
    assert any(line.startswith(COPY) and "native + reference" in line for line in capsys.readouterr().out.splitlines())
    assert main(["play", COPY, "--players", "3", "--bots", "heuristic", "--seed", "2", "--quiet"]) == 0
    assert "result:" in capsys.readouterr().out

    # The checks those lists drive, run on the copy: registry completeness and metadata ...
    test_registry.test_every_game_has_a_kernel_or_says_why_not(copy_registered)
    test_registry.test_every_game_has_a_heuristic_or_says_why_not(copy_registered)
    test_registry.test_every_game_has_a_serializer_and_option_sets(copy_registered)
    test_registry.test_kernel_metadata_matches_the_reference((COPY, {"players": 3}))
    test_registry.test_random_games_stay_within_the_declared_length((COPY, {"players": 3}))
    # ... the lockstep differential test, and a playthrough that both engines write alike.
    reference = aiplay.load(COPY, backend="reference", players=3)
    native = aiplay.load(COPY, backend="native", players=3)
    report = compare_engines(reference, native, range(60))
    assert report.terminal_games == 60
    text = playthrough(COPY, {"players": 3}, 11)
    assert text.startswith(f"game: {COPY}") and text == playthrough(COPY, {"players": 3}, 11, backend="native")


def test_missing_pieces_fail_with_their_names():
    test_registry = _module("test_registry", ROOT / "tests" / "test_registry.py")
    test_playthroughs = _module("test_playthroughs", ROOT / "tests" / "test_playthroughs.py")

    class Bare(TemplateRaceGame):
        name = "template_bare"
        heuristic_policy = None

    entry = register(Bare, listed=False)  # no kernel, no heuristic, no playthrough, no reasons
    try:
        with pytest.raises(AssertionError, match="no kernel_module and gives no no_kernel= reason"):
            test_registry.test_every_game_has_a_kernel_or_says_why_not(entry)
        with pytest.raises(AssertionError, match="no heuristic_policy and gives no no_heuristic= reason"):
            test_registry.test_every_game_has_a_heuristic_or_says_why_not(entry)
        with pytest.raises(AssertionError, match="declares no golden playthrough"):
            test_playthroughs.test_every_game_declares_a_playthrough(entry)
        # Declared gaps pass, and the declaration is what is checked.
        declared = register(Bare, no_kernel="an example", no_heuristic="an example", listed=False)
        test_registry.test_every_game_has_a_kernel_or_says_why_not(declared)
        test_registry.test_every_game_has_a_heuristic_or_says_why_not(declared)
        # A heuristic that its kernel does not mirror (a registered game that declares
        # no_kernel_policy, registered again without that declaration).
        from aiplay.registry import game_entries

        donor = next(e for e in game_entries(include_hidden=True)
                     if e.no_heuristic is None and e.no_kernel_policy is not None and e.kernel_module is not None)

        class PolicyCopy(donor.reference):
            name = "template_bare"

        policy_less = register(PolicyCopy, kernel_module=donor.kernel_module, differential=[DifferentialCase({}, 1)],
                               contract_options=list(donor.contract_options[:1]), listed=False)
        with pytest.raises(AssertionError, match="declare no_kernel_policy"):
            test_registry.test_every_game_has_a_heuristic_or_says_why_not(policy_less)
        # A declared maximum length that random games exceed.
        too_short = register(Bare, no_kernel="an example", no_heuristic="an example", listed=False,
                             max_game_length=lambda game: 6)
        assert too_short.max_game_length is not None
        with pytest.raises(AssertionError, match="declared max_game_length"):
            test_registry.test_random_games_stay_within_the_declared_length(("template_bare", {}))
    finally:
        unregister("template_bare")
