"""Seeded matches between bots (aiplay.arena)."""

from __future__ import annotations

import io
import random

import pytest

import aiplay
from aiplay.arena import GameRecord, play_game, run_match, wilson_interval
from aiplay.errors import InvalidOptionError
from aiplay.search import make_bot
from aiplay.testing.choose import cli_options, games_with, pick_variant

#: Chosen by property: a short perfect-information game with chance for two that also seats three
#: (every bot kind plays it: MCTS, expectimax, random, levels), and a game with a hand-written policy
#: that seats more than two by default and also seats two.
NAME, OPTIONS = pick_variant(perfect_information=True, chance=True, players=2, short=True, accepts_players=3)
CROWDED = [g for g in games_with(heuristic=True, accepts_players=2) if aiplay.load(g).num_players > 2][0]


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
    one = run_match(NAME, ["mcts", "random"], deals=3, seed=4, bot_options=options,
                    game_options=OPTIONS, progress=out)
    assert one.games == 6
    assert sorted((r.deal, tuple(r.seating)) for r in one.records) == [
        (d, s) for d in range(3) for s in ((0, 1), (1, 0))]
    assert sum(one.wins(i) for i in range(2)) == pytest.approx(6)
    assert "[6/6 games" in out.getvalue()
    two = run_match(NAME, ["mcts", "random"], deals=3, seed=4, bot_options=options,
                    game_options=OPTIONS, progress=None, processes=2)
    assert [r.returns for r in one.records] == [r.returns for r in two.records]
    assert "bot 0 mcts(iterations=20)" in one.summary()


def test_play_game_checks_the_bot_count_and_runaway_games():
    game = aiplay.load(NAME, **OPTIONS)
    with pytest.raises(InvalidOptionError, match="1 bots for a 2-player game"):
        play_game(game, [make_bot("random")], random.Random(0))
    with pytest.raises(RuntimeError, match="did not end within 3 moves"):
        play_game(game, [make_bot("random", seed=1), make_bot("random", seed=2)], random.Random(0), max_moves=3)


@pytest.mark.parametrize("kwargs, message", [
    (dict(deals=0), "deals=0 is invalid"),
    (dict(deals=1, processes=0), "processes=0 is invalid"),
    (dict(deals=1, bot_options=[{}]), "1 bot_options for 2 bots"),
    (dict(deals=1, game_options={"players": 3}), "2 bots for players=3"),
    (dict(deals=1, bot_options=[{"depth": 2}, {}]), "unknown option 'depth'"),
])
def test_bad_match_options_are_named(kwargs, message):
    with pytest.raises(InvalidOptionError, match=message):
        run_match(NAME, ["mcts", "random"], progress=None, **kwargs)


# ---------------------------------------------------------------------------------------------------
# aiplay.arena.run (issue 16): bots, round robin, paired deals, resume, ratings, progress, CLI, plot

import json
import math
import sys

import numpy as np

from aiplay import arena
from aiplay.arena import tournament
from aiplay.arena import BotSpec, parse_bot, parse_bots
from aiplay.cli import main as cli_main
from aiplay.arena.ratings import ELO_PER_NATURAL, bradley_terry, pairwise_counts



def test_bots_are_read_from_kinds_options_and_json(tmp_path):
    assert parse_bot("mcts") == BotSpec("mcts", {}, True, "")
    assert parse_bot("mcts(iterations=300, rollout=policy, uct_c=1.5)") == BotSpec(
        "mcts", {"iterations": 300, "rollout": "policy", "uct_c": 1.5})
    assert parse_bot('{"kind": "expectimax", "depth": 2, "presets": false, "name": "x2"}') == BotSpec(
        "expectimax", {"depth": 2}, False, "x2")
    path = tmp_path / "bot.json"
    path.write_text('{"kind": "ismcts", "iterations": 50}')
    assert parse_bot(f"@{path}") == BotSpec("ismcts", {"iterations": 50})
    bots = parse_bots('mcts(iterations=10,uct_c=2),{"kind": "random", "name": "r, a"},heuristic')
    assert [b.label for b in bots] == ["mcts(iterations=10, uct_c=2)", "r, a", "heuristic"]
    assert parse_bot(parse_bot("random").to_dict()) == parse_bot("random")
    with pytest.raises(InvalidOptionError, match="not valid JSON"):
        parse_bot("{kind: mcts}")
    with pytest.raises(InvalidOptionError, match="needs a \"kind\""):
        parse_bot({"iterations": 5})
    with pytest.raises(InvalidOptionError, match="must look like name=value"):
        parse_bot("mcts(iterations)")


def test_round_robin_pairs_every_two_bots_on_every_deal_in_both_seats():
    result = arena.run(NAME, ["mcts(iterations=20)", "expectimax(depth=1)", "random"], games=4, seed=3,
                       game_options=OPTIONS, progress=False)
    # 3 tables of 2 bots, 2 deals each, each deal in both seatings.
    assert result.games == 12
    assert sorted((r.deal, tuple(r.seating)) for r in result.records) == sorted(
        (d, s) for t in ((0, 1), (0, 2), (1, 2)) for d in range(2) for s in (t, t[::-1]))
    assert [r.index for r in result.records] == list(range(12))
    assert all(result.games_of(b) == 8 for b in range(3))
    assert sum(result.wins(b) for b in range(3)) == pytest.approx(12)
    assert result.win_rate(2) == pytest.approx(result.wins(2) / 8)


def test_paired_deals_give_the_same_chance_and_seat_seeds_to_every_seating():
    # Two bots of the same kind: only the labels differ, so a deal played with the seats swapped
    # is the same game seat by seat (same chance sequence, same seat seeds).
    result = arena.run(NAME, ["random(name=a)", "random(name=b)"], games=10, seed=5, game_options=OPTIONS,
                       progress=False)
    by_deal = {}
    for r in result.records:
        by_deal.setdefault(r.deal, []).append(r)
    assert len(by_deal) == 5
    for first, second in by_deal.values():
        assert first.seating == second.seating[::-1]
        assert first.returns == second.returns and first.moves == second.moves
    # ... and the deals differ from each other.
    assert len({tuple(v[0].returns) + (v[0].moves,) for v in by_deal.values()}) > 1


def test_run_match_is_a_thin_form_of_run_with_the_same_games():
    old = run_match(NAME, ["mcts", "random"], deals=2, seed=4, bot_options=[{"iterations": 20}, {}],
                    game_options=OPTIONS, progress=None)
    new = arena.run(NAME, ["mcts(iterations=20,presets=false)", "random(presets=false)"], games=4, seed=4,
                    game_options=OPTIONS, progress=False)
    assert [(r.deal, r.seating, r.returns, r.moves) for r in old.records] == [
        (r.deal, r.seating, r.returns, r.moves) for r in new.records]


def _counting(monkeypatch):
    played = []
    real = tournament.play_task

    def counted(job):
        played.append((job["deal"], tuple(job["seating"])))
        return real(job)

    monkeypatch.setattr(tournament, "play_task", counted)
    return played


def _games(result):
    return [(r.index, r.deal, r.seating, r.returns, r.moves) for r in result.records]


def test_results_file_resumes_and_extends(tmp_path, monkeypatch):
    out = str(tmp_path / "match.jsonl")
    bots = ["mcts(iterations=15)", "random"]
    fresh = arena.run(NAME, bots, games=6, seed=2, game_options=OPTIONS, progress=False)
    played = _counting(monkeypatch)
    first = arena.run(NAME, bots, games=6, seed=2, game_options=OPTIONS, progress=False, out=out)
    assert len(played) == 6 and _games(first) == _games(fresh)
    lines = open(out).read().splitlines()
    assert json.loads(lines[0])["aiplay_arena"] == 1 and len(lines) == 7
    assert {json.loads(line)["index"] for line in lines[1:]} == set(range(6))
    # A run killed mid-write: two games lost, the last line cut short.
    with open(out, "w") as f:
        f.write("\n".join(lines[:5]) + "\n" + lines[5][:20])
    played.clear()
    again = arena.run(NAME, bots, games=6, seed=2, game_options=OPTIONS, progress=False, out=out)
    assert len(played) == 2 and _games(again) == _games(fresh)
    assert len(open(out).read().splitlines()) == 7
    played.clear()
    arena.run(NAME, bots, games=6, seed=2, game_options=OPTIONS, progress=False, out=out)
    assert played == []  # nothing left to play
    more = arena.run(NAME, bots, games=10, seed=2, game_options=OPTIONS, progress=False, out=out)
    assert sorted(played) == [(d, s) for d in (3, 4) for s in ((0, 1), (1, 0))]
    assert _games(more)[:6] == _games(fresh)
    with pytest.raises(InvalidOptionError, match="holds another match.*seed"):
        arena.run(NAME, bots, games=6, seed=3, game_options=OPTIONS, progress=False, out=out)
    other = tmp_path / "other.txt"
    other.write_text('{"something": "else"}\n')
    with pytest.raises(InvalidOptionError, match="not an aiplay arena file"):
        arena.run(NAME, bots, games=2, game_options=OPTIONS, progress=False, out=str(other))


def test_bradley_terry_two_bots_matches_the_closed_form():
    wins = np.array([[0.0, 30.0], [10.0, 0.0]])
    a, b = bradley_terry(wins)
    # With the prior (one drawn game) the fit is p = 30.5 / 41 exactly.
    p = 30.5 / 41
    assert a.rating - b.rating == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)
    assert a.rating == pytest.approx(-b.rating)
    # Information n p (1-p) on the difference; each rating carries half of it (mean fixed at 0).
    se = ELO_PER_NATURAL / (2 * math.sqrt(41 * p * (1 - p)))
    assert a.half_width == pytest.approx(1.96 * se, rel=1e-6)
    # A bot that never lost keeps a finite rating; a bot that met no one has no interval.
    top, bottom, alone = bradley_terry(np.array([[0, 5, 0], [0, 0, 0], [0, 0, 0]], dtype=float))
    assert math.isfinite(top.rating) and top.rating > bottom.rating
    assert alone.rating == 0 and alone.low == -math.inf and alone.high == math.inf


def test_bradley_terry_orders_a_transitive_ladder_and_reads_multiplayer_games():
    wins = np.array([[0, 80, 95], [20, 0, 80], [5, 20, 0]], dtype=float)
    ratings = bradley_terry(wins)
    assert ratings[0].low > ratings[1].high and ratings[1].low > ratings[2].high
    assert sum(r.rating for r in ratings) == pytest.approx(0, abs=1e-6)
    # A 3-player game: seat 1 (bot 2) first, seats 0 and 2 (bots 0 and 1) tied.
    counts = pairwise_counts(3, [([0, 2, 1], [0.0, 1.0, 0.0])])
    assert counts.tolist() == [[0, 0.5, 0], [0.5, 0, 0], [1, 1, 0]]


def test_summary_and_json_give_intervals_and_ratings_for_three_bots():
    result = arena.run(NAME, ["expectimax(depth=2)", "mcts(iterations=30)", "random"], games=6, seed=1,
                       game_options=OPTIONS, progress=False)
    text = result.summary()
    assert f"{NAME}: 18 games" in text and text.count("rating") == 3 and "95% interval" in text
    data = result.to_dict()
    assert [b["games"] for b in data["bots"]] == [12, 12, 12]
    for row, rating in zip(data["bots"], result.ratings()):
        assert row["rating"] == rating.rating and row["rating_interval"] == [rating.low, rating.high]
        assert row["interval"][0] <= row["win_rate"] <= row["interval"][1]
    assert np.array(data["pairwise_wins"]).sum() == 18
    two = arena.run(NAME, ["random", "random"], games=2, game_options=OPTIONS, progress=False)
    assert "rating" not in two.summary() and "rating" not in two.to_dict()["bots"][0]


def test_fewer_bots_than_the_usual_seats_play_at_one_table_and_bad_arenas_are_named():
    result = arena.run(CROWDED, ["random", "heuristic"], games=2, progress=False)  # more than 2 seats by default
    assert result.game_options["players"] == 2 and result.games == 2
    for kwargs, message in [
        (dict(bots=["random"], games=2), "2 or more bots"),
        (dict(bots=["random", "random"], games=0), "games=0 is invalid"),
        (dict(bots=["random", "random"], games=2, workers=0), "workers=0 is invalid"),
        (dict(bots=["random", "random"], games=2, workers=2, scheduler="tcp://127.0.0.1:1"), "not both"),
        (dict(bots=["random", "random"], games=2, game_options={"players": 3}), "2 bots for players=3"),
        (dict(bots=["random", "mcts(depth=2)"], games=2), "unknown option 'depth'"),
        (dict(bots=["random", "wizard"], games=2), "unknown bot 'wizard'"),
    ]:
        with pytest.raises(InvalidOptionError, match=message):
            arena.run(NAME, progress=False, **kwargs)


def test_progress_text_lines_and_the_tqdm_bar(capsys, monkeypatch):
    stream = io.StringIO()
    arena.run(NAME, ["random", "random"], games=4, game_options=OPTIONS, progress=stream)
    last = stream.getvalue().strip().splitlines()[-1]
    assert "[4/4 games" in last and "games/s" in last and "s left]" in last and "win rates" in last
    arena.run(NAME, ["random", "random"], games=4, game_options=OPTIONS, progress=True)
    err = capsys.readouterr().err
    assert "4/4" in err and ("game/s" in err or "s/game" in err)  # tqdm's bar: done/total, rate, time left
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # tqdm not installed: text lines on stderr
    arena.run(NAME, ["random", "random"], games=4, game_options=OPTIONS, progress=True)
    assert "[4/4 games" in capsys.readouterr().err
    arena.run(NAME, ["random", "random"], games=4, game_options=OPTIONS, progress=False)
    assert capsys.readouterr().err == ""


def test_cli_arena_prints_the_table_json_and_a_plot(tmp_path, capsys):
    out, plot = tmp_path / "a.jsonl", tmp_path / "a.svg"
    argv = ["arena", NAME, "--bots", "mcts(iterations=10),mcts(iterations=40),random", "--games", "2",
            *cli_options(OPTIONS), "--seed", "1", "--out", str(out), "--no-progress"]
    assert cli_main(argv + ["--plot", str(plot)]) == 0
    text = capsys.readouterr().out
    assert f"{NAME}: 6 games" in text and "rating" in text and f"results: {out}" in text
    svg = plot.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "win rate" in svg and "iterations per move" in svg
    assert len(out.read_text().splitlines()) == 7
    assert cli_main(argv + ["--json"]) == 0  # resumed: nothing replayed, the same summary
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6 and [b["name"] for b in data["bots"]] == [
        "mcts(iterations=10)", "mcts(iterations=40)", "random"]
    assert cli_main(["arena", NAME, "--bots", "random", "--games", "2", "--no-progress"]) == 2
    assert "2 or more bots" in capsys.readouterr().err


def test_results_file_refuses_games_of_another_level_table_or_presets(tmp_path, monkeypatch):
    """A rerun after the package changed what the bots take from the game does not resume."""
    out = str(tmp_path / "levels.jsonl")
    bots = ["level(level=1)", "mcts(iterations=10)"]
    arena.run(NAME, bots, games=2, seed=1, game_options=OPTIONS, progress=False, out=out)
    header = json.loads(open(out).readline())
    first = aiplay.search.level.LEVELS[0]
    assert header["settings"][0]["level"] == {"iterations": first.iterations, "mistake_rate": first.mistake_rate,
                                              "width": first.width, "ties": "order"}
    assert header["settings"][0]["search"]["kind"] == "mcts"
    reference = type(aiplay.load(NAME, backend="reference", **OPTIONS))
    table = ((30, 0.5, 3),) + ((100, 0.1, 3),) * 5 + ((200, 0.0, 1),)
    with monkeypatch.context() as patch:
        patch.setattr(reference, "difficulty_levels", table)
        with pytest.raises(InvalidOptionError, match="holds another match.*settings.*'iterations': 30"):
            arena.run(NAME, bots, games=2, seed=1, game_options=OPTIONS, progress=False, out=out)
    with monkeypatch.context() as patch:
        patch.setattr(reference, "bot_presets", {"mcts": {"uct_c": 2.5}})
        with pytest.raises(InvalidOptionError, match="holds another match.*settings.*uct_c"):
            arena.run(NAME, bots, games=2, seed=1, game_options=OPTIONS, progress=False, out=out)
    arena.run(NAME, bots, games=2, seed=1, game_options=OPTIONS, progress=False, out=out)  # unchanged: resumes
    lines = open(out).read().splitlines()
    assert len(lines) == 3
    old = json.loads(lines[0])
    del old["settings"]  # a file from before the settings were recorded
    with open(out, "w") as f:
        f.write("\n".join([json.dumps(old)] + lines[1:]) + "\n")
    with pytest.raises(InvalidOptionError, match="does not record them"):
        arena.run(NAME, bots, games=2, seed=1, game_options=OPTIONS, progress=False, out=out)
