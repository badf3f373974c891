"""Property-based fuzzing of every registered game on both engines, and of the bots.

Every hostile input must end in a legal result or an :class:`aiplay.AiplayError`
subclass, and a rejected input must leave the state unchanged. The inputs come
from :mod:`aiplay.testing.fuzzing` (shared with ``benchmarks/fuzz_long.py``), driven by
Hypothesis through a shrinkable ``st.randoms()`` generator, plus Hypothesis'
own text, integer and JSON strategies.

Profiles (environment variable ``AIPLAY_FUZZ_PROFILE``):

* ``ci``: derandomized (the same examples every run), a few minutes in all;
* ``dev`` (default): random examples (derandomized when ``CI`` is set), a twentieth of ``ci``;
* ``long``: many times ``ci``, for a night run.

A segfault kills pytest itself, so the profiles stay short; the long fuzzer
runs its cases in worker processes instead. Run this module under the debug
build (``AIPLAY_DEBUG_BUILD=1``, see setup.py) to turn memory errors in the
kernels into sanitizer aborts; ``AIPLAY_FUZZ_REQUIRE_NATIVE=1`` makes sure the
native engines are really the ones under test.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Dict, List, Tuple

import pytest

hypothesis = pytest.importorskip("hypothesis")  # an optional test dependency

from hypothesis import HealthCheck, assume, given, note, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import aiplay  # noqa: E402
from aiplay.testing import fuzzing  # noqa: E402
from aiplay.errors import AiplayError, InvalidStateError  # noqa: E402
from aiplay.registry import game_entry, has_native  # noqa: E402

from aiplay.testing.cases import CONTRACT_OPTIONS  # noqa: E402

_COMMON = dict(deadline=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.filter_too_much])
settings.register_profile("ci", derandomize=True, database=None, **_COMMON)
# dev is also what the plain test command runs; under CI (CI=true) it must not be random.
settings.register_profile("dev", derandomize=bool(os.environ.get("CI")), **_COMMON)
settings.register_profile("long", **_COMMON)
PROFILE = os.environ.get("AIPLAY_FUZZ_PROFILE", "dev")
if PROFILE not in ("ci", "dev", "long"):
    raise ValueError(f"AIPLAY_FUZZ_PROFILE={PROFILE!r}: use ci, dev or long")
settings.load_profile(PROFILE)

#: Examples per test in the ci profile; dev (also the plain test command) runs a
#: twentieth, long twenty times as many.
_SCALE = {"ci": 1.0, "dev": 0.05, "long": 20.0}[PROFILE]


def examples(ci_count: int) -> int:
    """The ``max_examples`` of a test that runs ``ci_count`` examples in the ci profile."""
    return max(5, int(ci_count * _SCALE))


class SeededRandom(random.Random):
    """A plain seeded generator that prints as ``SeededRandom(seed)`` in a falsifying example."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.seed_value = seed

    def __repr__(self) -> str:
        return f"SeededRandom({self.seed_value})"


#: The generator the case builders draw from. Hypothesis' own ``randoms()`` shrink
#: well but favour minimal draws (openings, short sequences); seeded generators
#: give the full distribution of aiplay.testing.fuzzing (the long fuzzer's), so both are used.
rnd_strategy = st.one_of(st.randoms(use_true_random=False),
                         st.builds(SeededRandom, st.integers(0, 2 ** 64 - 1)))

#: ``(name, options)`` for every registered game and its contract option sets.
SPECS: List[Tuple[str, Dict[str, Any]]] = fuzzing.game_specs(CONTRACT_OPTIONS)
spec_strategy = st.sampled_from(SPECS)
#: Every (game, options, backend), for the deterministic tests.
ENGINE_CASES = [(name, opts, backend) for name, opts in SPECS for backend in fuzzing.engines(name)]


def spec_id(case: Tuple) -> str:
    name, opts = case[0], case[1]
    text = ",".join(f"{k}={v}" for k, v in opts.items())
    return f"{name}[{text}]" + (f"-{case[2]}" if len(case) > 2 else "")


def run_noted(case: fuzzing.Case) -> str:
    """Run a case; Hypothesis prints the notes (replay code and payload) when it fails."""
    note(case.python())
    note(f"payload (cut): {fuzzing.describe_payload(case, 2000)}")
    return fuzzing.run_case(case)


def test_engines_under_test():
    """Every game with a kernel has it built when the run asks for it (the debug CI step does),
    and a debug build really carries the bounds sanitizer."""
    if os.environ.get("AIPLAY_FUZZ_REQUIRE_NATIVE") == "1":
        missing = [n for n in aiplay.games_available()
                   if game_entry(n).kernel_module and not has_native(n)]
        assert not missing, f"native kernels not importable: {missing} (aiplay from {aiplay.__file__})"
    if os.environ.get("AIPLAY_DEBUG_BUILD") == "1":
        with open("/proc/self/maps") as maps:
            assert "libubsan" in maps.read(), (
                f"AIPLAY_DEBUG_BUILD=1 but the loaded kernels are not the debug build "
                f"(aiplay from {aiplay.__file__})")


# -- action sequences -------------------------------------------------------------

@settings(max_examples=examples(3600))
@given(spec=spec_strategy, rnd=rnd_strategy)
def test_action_sequences(spec, rnd):
    """Legal, illegal and ill-typed actions, names and parses, on both engines alike."""
    case = fuzzing.generate_case(spec[0], spec[1], "actions", rnd)
    assert run_noted(case) in ("accepted", "rejected")


_hostile_text = st.one_of(
    st.text(max_size=30), st.sampled_from(["²", "", " ", "\x00", "-0", "٣", "1" * 5000, "x" * 100_000]),
    st.none(), st.integers(), st.binary(max_size=8), st.floats(allow_nan=True))


@settings(max_examples=examples(1500))
@given(spec=spec_strategy, depth=st.integers(0, 60), seed=st.integers(0, 2 ** 32), text=_hostile_text,
       action=st.one_of(st.integers(), st.floats(), st.none(), st.text(max_size=5), st.booleans()))
def test_action_text(spec, depth, seed, text, action):
    """``string_to_action`` of any text and ``action_to_string`` of any value: a legal action,
    a string, or an AiplayError, and the state unchanged."""
    name, options = spec
    start = fuzzing.play_random(fuzzing.load_game(name, options, "reference").new_initial_state(),
                                random.Random(seed), depth).to_json()
    case = fuzzing.Case(name, options, "actions", seed,
                        payload={"start": start, "steps": [("parse", text), ("name", action), ("roundtrip", seed)]})
    assert run_noted(case) in ("accepted", "rejected")


# -- JSON positions ---------------------------------------------------------------

@settings(max_examples=examples(6000))
@given(spec=spec_strategy, rnd=rnd_strategy)
def test_mutated_json(spec, rnd):
    """A mutated position loads the same on both engines or is rejected with InvalidStateError;
    an accepted one plays on to the end and round-trips."""
    case = fuzzing.generate_case(spec[0], spec[1], "json", rnd)
    assert run_noted(case) in ("accepted", "rejected")


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=examples(1500))
@given(spec=spec_strategy, rnd=rnd_strategy,
       state=_json_values, text=st.text(max_size=200))
def test_random_json(spec, rnd, state, text):
    """Random documents: garbage text, any JSON as ``"state"``, and the generator's own shapes."""
    name, options = spec
    envelope = json.dumps({"format": "aiplay-state", "version": 1, "game": name,
                           "options": fuzzing.load_game(name, options, "reference").options, "state": state})
    for payload in (envelope, text, fuzzing.random_json(rnd)):
        case = fuzzing.Case(name, options, "random_json", 0, payload=payload)
        assert run_noted(case) in ("accepted", "rejected")


@pytest.mark.parametrize("case", ENGINE_CASES, ids=spec_id)
@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deep_nesting_is_invalid_state(case, depth):
    """Thousands of nesting levels, in ``"state"`` or as the whole document: InvalidStateError."""
    name, options, backend = case
    game = fuzzing.load_game(name, options, backend)
    doc = json.loads(game.new_initial_state().to_json())
    for text in ("[" * depth + "]" * depth,
                 json.dumps(doc)[:-1] + ', "extra": ' + "[" * depth + "]" * depth + "}"):
        with pytest.raises(InvalidStateError):
            game.state_from_json(text)


# -- bots -------------------------------------------------------------------------

@settings(max_examples=examples(2400))
@given(spec=spec_strategy, rnd=rnd_strategy)
def test_bot_options(spec, rnd):
    """Any bot kind with random (valid, edge and invalid) options on a random position:
    a legal action or an AiplayError, the state untouched."""
    case = fuzzing.generate_case(spec[0], spec[1], "bot", rnd)
    assert run_noted(case) in ("accepted", "rejected")


# -- hostile numbers at every entry point (issue 37) ----------------------------------------

@settings(max_examples=examples(900))
@given(spec=spec_strategy, rnd=rnd_strategy)
def test_api_calls(spec, rnd):
    """solve, bot specs, per-call budgets, load, Match, the arena and the level bot, each with one
    huge, non-finite or ill-typed argument: a result or an AiplayError, the state untouched."""
    case = fuzzing.generate_case(spec[0], spec[1], "api", rnd)
    assert run_noted(case) in ("accepted", "rejected")


#: Hypothesis' own numbers and wrong types, beside the library's list of hostile ones.
hostile_values = st.one_of(
    st.sampled_from(fuzzing.HOSTILE_NUMBERS), st.integers(), st.integers(min_value=2 ** 62),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(), st.text(max_size=4),
    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=1))


def only_aiplay_errors(call, *args, **kwargs):
    """Run ``call``; an AiplayError is a refusal, anything else escapes (and fails the test)."""
    try:
        call(*args, **kwargs)
    except AiplayError:
        return "rejected"
    return "accepted"


@settings(max_examples=examples(1500))
@given(spec=spec_strategy, option=st.sampled_from(fuzzing.BOT_NUMBER_OPTIONS + ("level",)), value=hostile_values,
       kind=st.sampled_from(fuzzing.BOT_KINDS + ("level",)))
def test_every_numeric_bot_option(spec, option, value, kind):
    """make_bot with one numeric option of any value, then a move at the start (a small node budget
    alongside): a legal move or an AiplayError."""
    name, options = spec
    game = fuzzing.load_game(name, options, fuzzing.engines(name)[-1])
    state = fuzzing.play_random(game.new_initial_state(), random.Random(1), 2)
    guard = {"seconds": 0.01} if option == "nodes" else {"nodes": 30}
    if kind == "level":  # the weakest level (25 iterations), within a hundredth of a second unless that is the value
        guard = {"level": 1} if option == "seconds" else {"level": 1, "seconds": 0.01}

    def build_and_choose():
        bot = aiplay.search.make_bot(kind, **{"seed": 1, **guard, option: value})
        if state.current_player() >= 0:
            assert bot.choose(state) in state.legal_actions()
    only_aiplay_errors(build_and_choose)


@settings(max_examples=examples(1500))
@given(spec=spec_strategy, option=st.sampled_from(fuzzing.SOLVE_OPTIONS), value=hostile_values)
def test_every_solve_option(spec, option, value):
    """aiplay.solve with one option of any value (a small node budget alongside): an AiplayError or a solution."""
    name, options = spec
    game = fuzzing.load_game(name, options, fuzzing.engines(name)[-1])
    state = fuzzing.play_random(game.new_initial_state(), random.Random(2), 3)
    guard = {"seconds": 0.05} if option == "nodes" else {"nodes": 100}
    only_aiplay_errors(aiplay.solve, state, **{**guard, option: value})


@settings(max_examples=examples(600))
@given(spec=spec_strategy, argument=st.sampled_from(fuzzing.ARENA_ARGUMENTS + ("deals",)), value=hostile_values)
def test_every_arena_argument(spec, argument, value):
    """aiplay.arena.run (and run_match's deals) with one argument of any value: results or an AiplayError."""
    from aiplay.arena import tournament
    name, options = spec
    players = fuzzing.load_game(name, options, "reference").num_players
    if argument == "deals":
        only_aiplay_errors(tournament.run_match, name, ["random"] * players, deals=value,
                           game_options={**options, "players": players} if "players" in options else options,
                           progress=None)
        return
    # A valid number of worker processes starts that many (a local Dask cluster or a process pool): up to
    # tournament.MAX_WORKERS on this machine. More than two add nothing to the check and would only load it.
    assume(not (argument in ("workers", "processes") and isinstance(value, int) and not isinstance(value, bool)
                and value > 2))
    arguments = dict(bots=["random"] * players, games=players, seed=1, game_options=options, progress=False)
    arguments[argument] = value
    game_name = arguments.pop("game", name)
    only_aiplay_errors(tournament.run, game_name, **arguments)


# -- seats --------------------------------------------------------------------------

@settings(max_examples=examples(1200))
@given(spec=spec_strategy, rnd=rnd_strategy)
def test_seats(spec, rnd):
    """Observation calls with valid and invalid seats at random positions."""
    case = fuzzing.generate_case(spec[0], spec[1], "seats", rnd)
    assert run_noted(case) in ("accepted", "rejected")


@pytest.mark.parametrize("case", ENGINE_CASES, ids=spec_id)
def test_out_of_range_seats_raise(case):
    """Seats -1, n, 2**70, None and "0" are refused with an AiplayError by every seat method."""
    name, options, backend = case
    game = fuzzing.load_game(name, options, backend)
    state = fuzzing.play_random(game.new_initial_state(), random.Random(1), 3)
    calls = {
        "view": state.view,
        "information_state_key": state.information_state_key,
        "information_state_string": state.information_state_string,
        "determinize": lambda seat: state.determinize(seat, random.Random(0)),
    }
    failures = []
    for seat in (-1, game.num_players, 2 ** 70, None, "0"):
        for method, call in calls.items():
            try:
                call(seat)
            except AiplayError:
                continue
            except Exception as exc:  # noqa: BLE001 - the point is to report which
                failures.append(f"{method}({seat!r}) raised {type(exc).__name__}: {exc}")
            else:
                failures.append(f"{method}({seat!r}) was accepted")
    assert not failures, "\n".join(failures)
