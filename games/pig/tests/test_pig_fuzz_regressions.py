"""A fuzzing regression found on Pig: the generator's growth bound on deep-nesting markers.

Moved from ``tests/test_fuzz_long.py`` (the case's seed and options are this game's).
"""

from __future__ import annotations


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
