"""benchmarks/fuzz_long.py's case ranges: every registered game by default, and chunks that are the run's own cases."""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import lru_cache
from pathlib import Path

import pytest

import aiplay
from aiplay.testing.choose import pick_game

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def fuzz_long():
    """The script as a module (registered first: its dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location("fuzz_long", ROOT / "benchmarks" / "fuzz_long.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fuzz_long", module)
    spec.loader.exec_module(module)
    return module


def cases_of(module, argv):
    """(game, case index) -> option set, for the tasks a command line builds; no case twice."""
    out = {}
    for task in module.build_tasks(module.parse_args(argv)):
        for index in task.indices():
            assert (task.game, index) not in out, f"case {index} of {task.game} scheduled twice"
            out[(task.game, index)] = task.options
    return out


def test_every_registered_game_is_fuzzed_by_default():
    assert fuzz_long().parse_args([]).games == aiplay.games_available(include_hidden=True)


def test_chunks_with_start_are_the_cases_of_the_whole_run():
    module = fuzz_long()
    games = ",".join(aiplay.games_available(include_hidden=True)[:3])  # the first three, their option sets
    whole = cases_of(module, ["--games", games, "--cases", "1003", "--batch", "7"])
    chunks = {}
    for start, count in ((0, 250), (250, 251), (501, 2), (503, 500)):
        part = cases_of(module, ["--games", games, "--start", str(start), "--cases", str(count), "--batch", "50"])
        assert {i for _, i in part} == set(range(start, start + count))
        assert not set(part) & set(chunks)
        chunks.update(part)
    assert chunks == whole


def test_a_negative_start_is_refused():
    with pytest.raises(SystemExit):
        fuzz_long().parse_args(["--start", "-1"])


def test_a_reproducer_replays_the_case_it_names():
    """Found by this branch's check run: a case whose kind was drawn from its seed was replayed with the
    kind given, which skips that draw, so the replay built another case (a random bot for an expectimax)."""
    from aiplay.testing import fuzzing
    name = pick_game(short=True, perfect_information=True, chance=True)
    options = fuzzing.game_specs(games=[name])[0][1]
    for index in range(40):
        case = fuzzing.case_from_seed(name, options, None, fuzzing.case_seed(0, name, options, index))
        namespace = {"run_case": lambda c: None}
        code = case.python().replace("from aiplay.testing.fuzzing import case_from_seed, run_case\n", "")
        exec(code, {"case_from_seed": fuzzing.case_from_seed, "run_case": lambda c: None}, namespace)
        again = namespace["case"]
        def text(c):  # a payload may hold a bare object(): compared by type, not address
            return re.sub(r" at 0x[0-9a-f]+", "", repr(c.payload))

        assert (again.kind, text(again)) == (case.kind, text(case)), code
