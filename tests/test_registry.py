"""Loading games: names, options, backends and their error messages."""

from __future__ import annotations

import pytest

import aiplay
from aiplay import InvalidOptionError, UnknownGameError
from aiplay.registry import game_entries, game_entry
from aiplay.testing.choose import pick_game


def test_games_available_lists_the_validation_games():
    names = aiplay.games_available()
    assert names == sorted(names)
    assert names == [e.name for e in game_entries()] and names  # hidden ones as the environment says


def test_unknown_game_lists_the_available_ones():
    with pytest.raises(UnknownGameError) as info:
        aiplay.load("chess")
    message = str(info.value)
    assert "'chess'" in message
    for name in aiplay.games_available():
        assert name in message


def test_unknown_option_names_the_option_and_the_known_ones():
    name = pick_game(short=True, perfect_information=True)
    known = list(game_entry(name).reference.option_spec)
    assert known
    with pytest.raises(InvalidOptionError, match="'colour'.*" + known[-1]):
        aiplay.load(name, colour="red")


def test_bad_backend():
    with pytest.raises(InvalidOptionError, match="backend='gpu'.*reference"):
        aiplay.load(pick_game(short=True), backend="gpu")


# -- the registry entries: every game complete, or its gaps declared ----------------

import importlib  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

from aiplay.registry import BACKENDS, game_entries, game_entry, has_native  # noqa: E402

ENTRIES = game_entries(include_hidden=True)


def _entry_id(entry) -> str:
    return entry.name


@pytest.mark.parametrize("entry", ENTRIES, ids=_entry_id)
def test_every_game_has_a_kernel_or_says_why_not(entry):
    if entry.kernel_module is None:
        assert entry.no_kernel, f"{entry.name!r} registers no kernel_module and gives no no_kernel= reason"
        assert not entry.differential, f"{entry.name!r} has differential cases but no kernel"
        return
    assert not entry.no_kernel, f"{entry.name!r} has a kernel yet declares no_kernel={entry.no_kernel!r}"
    assert has_native(entry.name), (
        f"the kernel of {entry.name!r} ({entry.kernel_module}) is not built: rebuild with "
        f"`python setup.py build_ext --inplace`")
    assert hasattr(importlib.import_module(entry.kernel_module), "make_kernel"), (
        f"{entry.kernel_module} has no make_kernel(reference_game)")
    assert entry.differential, f"{entry.name!r} has a kernel but no differential cases in its registry entry"


@pytest.mark.parametrize("entry", ENTRIES, ids=_entry_id)
def test_every_game_has_a_heuristic_or_says_why_not(entry):
    policy = entry.reference.heuristic_policy
    if policy is None:
        assert entry.no_heuristic, f"{entry.name!r} has no heuristic_policy and gives no no_heuristic= reason"
        return
    assert not entry.no_heuristic, f"{entry.name!r} has a heuristic_policy yet declares no_heuristic"
    if entry.kernel_module is None:
        return
    kernel = aiplay.load(entry.name, backend="native", **entry.contract_options[0]).kernel
    if entry.no_kernel_policy:
        assert not kernel.has_policy, (
            f"{entry.name!r} declares no_kernel_policy but its kernel has a policy_action: drop the declaration")
    else:
        assert kernel.has_policy, (
            f"{entry.name!r} has a heuristic_policy but its kernel's policy_action is the generic random one; "
            f"write it in the kernel or declare no_kernel_policy= with the reason")


@pytest.mark.parametrize("entry", ENTRIES, ids=_entry_id)
def test_every_game_has_a_serializer_and_option_sets(entry):
    assert entry.contract_options, f"{entry.name!r} declares no contract option sets"
    for options in entry.contract_options:
        game = aiplay.load(entry.name, backend="reference", **options)
        state = game.new_initial_state()
        data = state.to_dict()  # raises NotImplementedError/TypeError when it is missing
        assert isinstance(data, dict) and data, f"{entry.name!r}: to_dict() must give the state's fields"
        assert game.state_from_dict(data).to_dict() == data, f"{entry.name!r}: state_from_dict(to_dict()) differs"


def _all_option_sets(entry):
    """The contract option sets and the differential ones, without repeats."""
    seen, out = set(), []
    for options in list(entry.contract_options) + [case.options for case in entry.differential]:
        key = repr(sorted(options.items()))
        if key not in seen:
            seen.add(key)
            out.append(dict(options))
    return out


METADATA_CASES = [(e.name, o) for e in ENTRIES if e.kernel_module for o in _all_option_sets(e)]
LENGTH_CASES = [(e.name, o) for e in ENTRIES for o in e.contract_options]


def _case_id(case) -> str:
    name, options = case
    return f"{name}[{','.join(f'{k}={v}' for k, v in options.items())}]"


@pytest.mark.parametrize("case", METADATA_CASES, ids=_case_id)
def test_kernel_metadata_matches_the_reference(case):
    # NativeGame answers these from the reference game, so a kernel constructed
    # with different figures would go unnoticed until a searcher sized a buffer
    # or a bound with them: compare the kernel's own attributes.
    name, options = case
    reference = aiplay.load(name, backend="reference", **options)
    kernel = aiplay.load(name, backend="native", **options).kernel
    for attribute in ("num_players", "num_distinct_actions", "max_chance_outcomes",
                      "min_utility", "max_utility", "perfect_information"):
        assert getattr(kernel, attribute) == getattr(reference, attribute), (
            f"{name} {options}: kernel {attribute}={getattr(kernel, attribute)!r}, "
            f"reference {getattr(reference, attribute)!r}")
    assert kernel.max_legal == max(reference.num_distinct_actions, reference.max_chance_outcomes)


#: Random games per option set for the length check (native engine where built).
LENGTH_GAMES = 40


@pytest.mark.parametrize("case", LENGTH_CASES, ids=_case_id)
def test_random_games_stay_within_the_declared_length(case):
    name, options = case
    entry = game_entry(name)
    game = aiplay.load(name, **options)
    bound = entry.max_game_length(entry.reference(**options)) if entry.max_game_length else None
    # Without a declared bound the check is only that random games end (a cap far
    # above any real game, so a loop would fail rather than hang).
    cap = bound if bound is not None else 100_000
    longest = 0
    for seed in range(LENGTH_GAMES):
        moves = -1  # the walk yields the start, then the state after each move
        for moves, state in enumerate(aiplay.random_walk(game.new_initial_state(), random.Random(seed),
                                                         max_steps=cap)):
            pass
        assert state.is_terminal(), f"{name} {options} seed {seed}: over {cap} moves" + (
            " (its declared max_game_length)" if bound is not None else "")
        longest = max(longest, moves)
    assert longest > 0


def test_backends_are_defined_once():
    # Every module that offers a backend option uses the registry's tuple.
    root = Path(aiplay.__file__).parent
    defining = [str(p.relative_to(root)) for p in root.rglob("*.py")
                if p.name != "registry.py" and re.search(r"^BACKENDS\s*=", p.read_text(), flags=re.M)]
    assert not defining, f"BACKENDS is defined again in {defining}; import it from aiplay.registry"
    assert BACKENDS == ("auto", "native", "reference")


def test_hidden_games_are_listed_only_when_asked(monkeypatch):
    hidden = [e.name for e in ENTRIES if not e.listed]
    assert hidden, "the example game is registered hidden"
    example = hidden[0]
    assert not set(hidden) & set(aiplay.games_available(include_hidden=False))
    assert set(hidden) <= set(aiplay.games_available(include_hidden=True))
    monkeypatch.setenv("AIPLAY_SHOW_HIDDEN_GAMES", "0")
    assert example not in aiplay.games_available()
    monkeypatch.setenv("AIPLAY_SHOW_HIDDEN_GAMES", "1")
    assert example in aiplay.games_available()
    # Hidden, not unknown: it loads by name.
    assert aiplay.load(example).name == example
