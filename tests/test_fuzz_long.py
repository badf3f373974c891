"""benchmarks/fuzz_long.py's case ranges: every registered game by default, and chunks that are the run's own cases."""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import lru_cache
from pathlib import Path

import pytest

import aiplay

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
    games = "area1851,pig,template"  # two option sets, one, one
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
    options = fuzzing.game_specs(games=["pig"])[0][1]
    for index in range(40):
        case = fuzzing.case_from_seed("pig", options, None, fuzzing.case_seed(0, "pig", options, index))
        namespace = {"run_case": lambda c: None}
        code = case.python().replace("from aiplay.testing.fuzzing import case_from_seed, run_case\n", "")
        exec(code, {"case_from_seed": fuzzing.case_from_seed, "run_case": lambda c: None}, namespace)
        again = namespace["case"]
        def text(c):  # a payload may hold a bare object(): compared by type, not address
            return re.sub(r" at 0x[0-9a-f]+", "", repr(c.payload))

        assert (again.kind, text(again)) == (case.kind, text(case)), code


def test_grown_lists_of_deep_nesting_stay_a_few_megabytes():
    """fuzz_long pig case 34231 (at 883e54e) grew a list of deep-nesting markers into a 2.7 GB
    document, which the worker spent its whole 30 s writing: a hang of the generator. The growth
    bound now counts an entry as written out."""
    import random

    from aiplay.testing.fuzzing import case_from_seed, dump_document, mutate_document

    case = case_from_seed("pig", {"players": 3, "winscore": 15, "diceoutcomes": 4}, "json",
                          5681912682849954480, max_steps=40)
    assert len(case.payload) < 5_000_000
    rng = random.Random(3)
    for _ in range(200):
        doc = {"a": ["x"], "b": [1, 2]}
        for _ in range(6):
            doc = mutate_document(doc, rng)
        # Each growth adds at most 400,000 characters (plus one more copy of an entry).
        assert len(dump_document(doc)) < 6 * 1_000_000
