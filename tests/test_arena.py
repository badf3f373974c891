"""Seeded matches between bots (aiplay.arena)."""

from __future__ import annotations

import io
import random

import pytest

import aiplay
from aiplay.arena import GameRecord, play_game, run_match, wilson_interval
from aiplay.errors import InvalidOptionError
from aiplay.search import make_bot


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson_interval(100, 100)
    assert high == pytest.approx(1.0) and low == pytest.approx(0.9630, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_shares_split_ties_and_follow_the_seating():
    record = GameRecord(deal=0, seating=[1, 0], returns=[1.0, 0.0], moves=3, seconds=0.0)
    assert record.shares() == [0.0, 1.0]
    tie = GameRecord(deal=0, seating=[2, 0, 1], returns=[0.5, 0.5, 0.0], moves=3, seconds=0.0)
    assert tie.shares() == [0.5, 0.0, 0.5]


def test_match_rotates_seats_and_is_reproducible():
    options = [{"iterations": 20}, {}]
    out = io.StringIO()
    one = run_match("pig", ["mcts", "random"], deals=3, seed=4, bot_options=options,
                    game_options={"winscore": 20}, progress=out)
    assert one.games == 6
    assert sorted((r.deal, tuple(r.seating)) for r in one.records) == [
        (d, s) for d in range(3) for s in ((0, 1), (1, 0))]
    assert sum(one.wins(i) for i in range(2)) == pytest.approx(6)
    assert "[6/6 games" in out.getvalue()
    two = run_match("pig", ["mcts", "random"], deals=3, seed=4, bot_options=options,
                    game_options={"winscore": 20}, progress=None, processes=2)
    assert [r.returns for r in one.records] == [r.returns for r in two.records]
    assert "bot 0 mcts(iterations=20)" in one.summary()


def test_play_game_checks_the_bot_count_and_runaway_games():
    game = aiplay.load("pig")
    with pytest.raises(InvalidOptionError, match="1 bots for a 2-player game"):
        play_game(game, [make_bot("random")], random.Random(0))
    with pytest.raises(RuntimeError, match="did not end within 3 moves"):
        play_game(game, [make_bot("random", seed=1), make_bot("random", seed=2)], random.Random(0), max_moves=3)


@pytest.mark.parametrize("kwargs, message", [
    (dict(deals=0), "deals must be >= 1"),
    (dict(deals=1, processes=0), "processes must be >= 1"),
    (dict(deals=1, bot_options=[{}]), "1 bot_options for 2 bots"),
    (dict(deals=1, game_options={"players": 3}), "2 bots for players=3"),
    (dict(deals=1, bot_options=[{"depth": 2}, {}]), "unknown option 'depth'"),
])
def test_bad_match_options_are_named(kwargs, message):
    with pytest.raises(InvalidOptionError, match=message):
        run_match("pig", ["mcts", "random"], progress=None, **kwargs)
