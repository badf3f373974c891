"""benchmarks/tune_presets.py: the NTBEA's bookkeeping, its seeding, and one tiny tuning run on a real game."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from aiplay.errors import InvalidOptionError
from aiplay.testing.choose import games_with

TUNER = Path(__file__).resolve().parent.parent / "benchmarks" / "tune_presets.py"


@pytest.fixture(scope="module")
def tuner():
    spec = importlib.util.spec_from_file_location("tune_presets", TUNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SIZES = (4, 3, 2)
TARGET = (2, 0, 1)


def _noisy(seed):
    """A seeded Bernoulli reward whose chance grows with the dimensions set as in TARGET."""
    rng = random.Random(seed)

    def evaluate(batch):
        rewards = []
        for _, point in batch:
            hits = sum(p == t for p, t in zip(point, TARGET))
            rewards.append(1.0 if rng.random() < 0.1 + 0.8 * hits / len(TARGET) else 0.0)
        return rewards
    return evaluate


def _search(tuner, seed, evaluations=60, batch=3):
    search = tuner.NTBEA(SIZES, seed, neighbours=20)
    search.run(_noisy(seed), evaluations, batch)
    return search


def test_same_seed_same_search_and_another_seed_another(tuner):
    a, b, c = _search(tuner, 5), _search(tuner, 5), _search(tuner, 6)
    assert a.history == b.history and a.recommend(2) == b.recommend(2)
    assert a.history != c.history
    assert [i for i, _, _ in a.history] == list(range(60))


def test_every_tuple_counts_every_evaluation(tuner):
    search = _search(tuner, 7, evaluations=31, batch=4)  # 31: the last round is a partial batch
    model = search.model
    total = sum(r for _, _, r in search.history)
    assert model.evaluations == len(search.history) == 31
    assert model.tuples == [(0,), (1,), (2,), (0, 1, 2)]
    for stats in model.stats:
        assert sum(n for n, _ in stats.values()) == 31
        assert sum(s for _, s in stats.values()) == pytest.approx(total)
    # The full tuple's entries are the settings played, with their own counts.
    for point, (n, s) in model.stats[-1].items():
        played = [r for _, p, r in search.history if p == point]
        assert n == len(played) and s == pytest.approx(sum(played))
    # A 1-tuple's entry sums the settings that share its value.
    first = {}
    for _, p, r in search.history:
        first.setdefault((p[0],), [0, 0.0])
        first[(p[0],)][0] += 1
        first[(p[0],)][1] += r
    assert {k: (n, pytest.approx(s)) for k, (n, s) in first.items()} == \
        {k: (n, s) for k, (n, s) in model.stats[0].items()}


def test_the_model_finds_a_clear_optimum(tuner):
    search = _search(tuner, 11, evaluations=300, batch=2)
    assert search.recommend(3) == TARGET


def test_bad_points_and_rewards_are_refused(tuner):
    model = tuner.NTupleModel(SIZES)
    with pytest.raises(InvalidOptionError, match="outside the space"):
        model.add((4, 0, 0), 1.0)
    with pytest.raises(InvalidOptionError, match="outside the space"):
        model.score((0, 0))
    assert model.evaluations == 0 and all(not s for s in model.stats)
    search = tuner.NTBEA(SIZES, 1)
    with pytest.raises(InvalidOptionError, match="outside"):
        search.run(lambda batch: [2.0] * len(batch), 4, 2)
    with pytest.raises(InvalidOptionError, match="sizes"):
        tuner.NTupleModel([3, 0])


def test_space_options_must_exist(tuner):
    with pytest.raises(InvalidOptionError, match="no option 'exploration'"):
        tuner.check_space("ismcts", {"exploration": [0.5, 1.0]})
    with pytest.raises(InvalidOptionError, match="non-empty"):
        tuner.check_space("mcts", {"uct_c": []})
    tuner.check_space("ismcts", {"uct_c": [0.5], "rollout_cutoff": [None, 10], "rollout": ["random"]})


def test_a_tiny_run_on_a_real_game_repeats_for_a_seed(tuner):
    game = games_with(short=True, accepts_players=2)[0]
    space = tuner.default_space(game)
    assert set(space) >= {"uct_c", "rollout_cutoff"}
    kwargs = dict(evaluations=6, seed=3, budget={"iterations": 10}, processes=1, batch=2, min_visits=1)
    first, again = tuner.tune(game, **kwargs), tuner.tune(game, **kwargs)
    def played(result):  # the games without their wall time
        return [{k: v for k, v in g.items() if k != "seconds"} for g in result["games"]]
    assert played(first) == played(again) and first["recommended"] == again["recommended"]
    assert [g["seat"] for g in first["games"]] == [i % first["players"] for i in range(6)]
    assert all(0 <= g["reward"] <= 1 for g in first["games"])
    assert first["recommended"] in [g["options"] for g in first["games"]]
    per_option = {}
    for row in first["statistics"]:
        key = tuple(sorted(row["options"]))
        per_option[key] = per_option.get(key, 0) + row["visits"]
    assert set(per_option.values()) == {6}
