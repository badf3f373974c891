"""The arena on Dask (issue 16): the same games, game by game, on 1 worker, a local cluster or a remote one."""

from __future__ import annotations

import pytest
from dask.distributed import LocalCluster

from aiplay import arena
from aiplay.testing.choose import pick_variant

BOTS = ["mcts(iterations=30)", "expectimax(depth=2)", "random"]
#: A short perfect-information game with chance (expectimax searches perfect information).
GAME, OPTIONS = pick_variant(perfect_information=True, chance=True, short=True)


def _games(result):
    return [(r.index, r.deal, r.seating, r.returns, r.moves) for r in result.records]


@pytest.fixture(scope="module")
def one_worker():
    return arena.run(GAME, BOTS, games=4, seed=11, game_options=OPTIONS, progress=False)


def test_a_two_process_cluster_plays_the_same_games_as_one_worker(one_worker, tmp_path):
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://")
        out = str(tmp_path / "dask.jsonl")
        remote = arena.run(GAME, BOTS, games=4, seed=11, game_options=OPTIONS, progress=False,
                           scheduler=address, out=out)
        # Two worker processes, each game its own task.
        workers = cluster.scheduler.workers.values()
        assert len(workers) == 2
    assert one_worker.games == 12
    assert _games(remote) == _games(one_worker)
    # The results file holds them in completion order; read back, they are the same games.
    header, records, _ = arena.read_results(out)
    assert header["bots"] == [arena.parse_bot(b).to_dict() for b in BOTS]
    assert sorted(_games(arena.MatchResult(GAME, BOTS, records))) == _games(one_worker)


def test_workers_option_starts_a_local_cluster_with_the_same_results(one_worker):
    local = arena.run(GAME, BOTS, games=4, seed=11, game_options=OPTIONS, progress=False, workers=2)
    assert _games(local) == _games(one_worker)
