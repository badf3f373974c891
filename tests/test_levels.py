"""Difficulty levels: every level on every listed game, choices among near-best moves, seeds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import NUM_LEVELS, make_bot
from aiplay.search.base import ActionStats
from aiplay.search.level import (LEVELS, choose_among, format_levels, levels_for, levels_info, order_ties, search_kind,
                                 tied_best)
from aiplay.testing.choose import cli_options, games_with, pick_variant

#: Chosen by property: the listed games with their own level table (OWN) and with the library's
#: (DEFAULT, also seating two), the long hidden-information board games (HIDDEN, where a level searches
#: with ISMCTS) and a short perfect-information game for two (SHORT, for the CLI).
OWN = [g for g in aiplay.games_available() if levels_for(aiplay.load(g)) != LEVELS][0]
DEFAULT = [g for g in games_with(listed=True, accepts_players=2) if levels_for(aiplay.load(g)) == LEVELS][0]
HIDDEN = [g for g in games_with(listed=True, perfect_information=False, board=True, short=False)
          if levels_for(aiplay.load(g)) == LEVELS]
SHORT, SHORT_OPTIONS = pick_variant(listed=True, perfect_information=True, players=2, short=True)


def _position(game, seed=2, skip=6):
    """A decision position with several moves, a few decisions into a seeded random game."""
    rng = random.Random(seed)
    seen = 0
    for state in aiplay.random_walk(game.new_initial_state(), rng):
        if not (state.is_terminal() or state.is_chance_node()) and len(state.legal_actions()) > 1:
            seen += 1
            if seen > skip:
                return state.clone()
    return None


@pytest.mark.parametrize("table", [LEVELS] + [levels_for(aiplay.load(name)) for name in aiplay.games_available()])
def test_every_level_table_grows_and_ends_with_the_best_bot(table):
    assert len(table) == NUM_LEVELS
    assert [s.iterations for s in table] == sorted(s.iterations for s in table)
    assert [s.mistake_rate for s in table] == sorted((s.mistake_rate for s in table), reverse=True)
    assert all(0 < s.mistake_rate < 1 and s.width >= 2 for s in table[:-1])
    assert table[-1].mistake_rate == 0 and table[-1].width == 1


def test_a_game_may_bring_its_own_table_and_a_malformed_one_is_refused():
    sunken = aiplay.load(OWN)
    assert levels_for(sunken) != LEVELS and levels_for(aiplay.load(DEFAULT)) == LEVELS
    assert levels_info(sunken)[0]["iterations"] == levels_for(sunken)[0].iterations
    bot = make_bot("level", game=sunken, level=1, seed=1)
    analysis = bot.analyse(aiplay.skip_chance(sunken.new_initial_state(), random.Random(0)))
    assert analysis.counters["iterations"] == levels_for(sunken)[0].iterations
    assert analysis.counters["mistake_rate"] == levels_for(sunken)[0].mistake_rate

    class Broken:
        name = "broken"
        difficulty_levels = ((10, 0.5, 3),)

    with pytest.raises(InvalidOptionError, match="difficulty_levels"):
        levels_for(Broken)
    Broken.difficulty_levels = tuple((10, 0.1, 2) for _ in range(NUM_LEVELS))  # the top one slips
    with pytest.raises(InvalidOptionError, match="no mistakes"):
        levels_for(Broken)
    Broken.difficulty_levels = (("many", 0.1, 2),) * NUM_LEVELS
    with pytest.raises(InvalidOptionError, match="malformed"):
        levels_for(Broken)


def test_there_are_at_least_six_levels_and_they_grow():
    assert NUM_LEVELS >= 6
    assert [s.iterations for s in LEVELS] == sorted(s.iterations for s in LEVELS)
    assert [s.mistake_rate for s in LEVELS] == sorted((s.mistake_rate for s in LEVELS), reverse=True)
    assert all(0 < s.mistake_rate < 1 and s.width >= 2 for s in LEVELS[:-1])  # every weaker level slips
    assert LEVELS[-1].mistake_rate == 0
    assert [d["level"] for d in levels_info()] == list(range(1, NUM_LEVELS + 1))


@pytest.mark.parametrize("name", aiplay.games_available())
def test_every_level_plays_a_legal_move_on_every_listed_game(name):
    game = aiplay.load(name)
    state = _position(game) or _position(game, skip=0)
    assert state is not None
    for level in range(1, NUM_LEVELS + 1):
        bot = make_bot("level", game=game, level=level, seed=level)
        analysis = bot.analyse(state)
        assert analysis.action in state.legal_actions()
        assert analysis.bot == "level"
        assert analysis.counters["level"] == level
        assert analysis.counters["search"] == search_kind(game)
        assert analysis.counters["iterations"] == levels_for(game)[level - 1].iterations


def test_a_level_chooses_among_the_near_best_moves_only():
    game = aiplay.load(HIDDEN[0])
    state = _position(game)
    level = 1
    spec = LEVELS[level - 1]
    for seed in range(6):
        analysis = make_bot("level", game=game, level=level, seed=seed).analyse(state)
        ranked = sorted(analysis.stats, key=lambda s: -(s.visits or 0))
        cutoff = ranked[min(spec.width, len(ranked)) - 1].visits
        chosen = analysis.stats_for(analysis.action)
        # Among the `width` most visited (ties at the edge allowed), never an unvisited move.
        assert chosen.visits >= cutoff and chosen.visits > 0


def test_the_choice_slips_at_its_rate_to_the_other_near_best_moves():
    stats = [ActionStats(0, visits=100, value=0.5), ActionStats(1, visits=50, value=0.4),
             ActionStats(2, visits=10, value=0.1), ActionStats(3, visits=1, value=0.0),
             ActionStats(4, visits=0, value=None)]
    rng = random.Random(0)
    n = 20_000
    draws = Counter(choose_among(stats, 0.3, 3, rng).action for _ in range(n))
    assert set(draws) == {0, 1, 2}  # the 4th candidate is beyond the width; unvisited never
    assert abs(draws[0] / n - 0.7) < 0.015
    # A slip goes to the other candidates in proportion to their visits: 50 to 10.
    assert abs(draws[1] / n - 0.3 * 50 / 60) < 0.015 and abs(draws[2] / n - 0.3 * 10 / 60) < 0.01
    other = random.Random(1)
    rare = Counter(choose_among(stats, 0.05, 3, other).action for _ in range(4_000))
    assert 0.93 < rare[0] / 4_000 < 0.97
    assert all(choose_among(stats, 0.0, 3, rng).action == 0 for _ in range(50))
    assert all(choose_among(stats, 0.9, 1, rng).action == 0 for _ in range(50))  # one candidate: no slip
    # Ties on visits: the higher value is the best move.
    tied = [ActionStats(0, visits=10, value=0.1), ActionStats(1, visits=10, value=0.9)]
    assert choose_among(tied, 0.0, 2, rng).action == 1


def test_the_top_level_is_the_best_bot_and_deterministic_for_a_seed():
    game = aiplay.load(HIDDEN[-1])
    state = _position(game)
    top = [make_bot("level", game=game, level=NUM_LEVELS, seed=5).analyse(state) for _ in range(2)]
    assert top[0].action == top[1].action and top[0].stats == top[1].stats
    # The top level plays its search's most visited move: the search's own choice.
    assert top[0].stats_for(top[0].action).visits == max(s.visits or 0 for s in top[0].stats)
    assert top[0].counters["mistake_rate"] == 0


def test_same_seed_same_moves_at_a_weak_level():
    game = aiplay.load(HIDDEN[1 % len(HIDDEN)])
    state = _position(game)
    runs = [make_bot("level", game=game, level=2, seed=8).analyse(state) for _ in range(2)]
    assert runs[0].action == runs[1].action and runs[0].stats == runs[1].stats


@pytest.mark.parametrize("level", [0, NUM_LEVELS + 1, 2.0, True, "3"])
def test_bad_levels_raise(level):
    with pytest.raises(InvalidOptionError, match="level"):
        make_bot("level", level=level)


def test_the_top_level_takes_seconds_instead_of_its_iterations_and_the_others_refuse_it():
    game = aiplay.load(HIDDEN[0])
    state = _position(game)
    top = make_bot("level", game=game, level=NUM_LEVELS, seed=3, seconds=0.02)
    assert "seconds=0.02" in repr(top)
    asked = []
    top.analyse(state)  # builds the inner search
    inner = top._search
    original = inner.analyse

    def spy(s, **budget):
        asked.append(budget)
        return original(s, **budget)
    inner.analyse = spy
    assert top.choose(state) in state.legal_actions()
    assert top.choose(state, seconds=0.01) in state.legal_actions()  # a call's own time budget
    assert asked == [{"seconds": 0.02}, {"seconds": 0.01}]
    # A call's iterations or nodes are refused, and the bot is left as it was.
    for budget in ({"iterations": 5}, {"nodes": 100}):
        with pytest.raises(InvalidOptionError, match="own budget"):
            top.choose(state, **budget)
    assert top.choose(state) in state.legal_actions() and asked[-1] == {"seconds": 0.02}
    # Below the top level a level is its own budget: at build time and per call.
    with pytest.raises(InvalidOptionError, match="own budget.*top level"):
        make_bot("level", game=game, level=NUM_LEVELS - 1, seconds=0.5)
    weak = make_bot("level", game=game, level=2, seed=3)
    with pytest.raises(InvalidOptionError, match="own budget"):
        weak.choose(state, seconds=0.01)
    assert weak.choose(state) in state.legal_actions()
    for bad in (0, -1.0, float("nan"), "1", True):
        with pytest.raises(InvalidOptionError, match="seconds"):
            make_bot("level", level=NUM_LEVELS, seconds=bad)


def test_unknown_option_is_refused():
    with pytest.raises(InvalidOptionError, match="iterations"):
        make_bot("level", level=2, iterations=5)


# -- the protocol and the CLI ------------------------------------------------------

def _server():
    import queue

    from aiplay.protocol import Server

    lines: "queue.Queue[dict]" = queue.Queue()
    return Server(lines.put), lines


def _final(lines, request_id, timeout=60):
    while True:
        line = lines.get(timeout=timeout)
        if line.get("type") != "info" and line.get("id") == request_id:
            return line


def test_protocol_go_with_a_level_and_hello_lists_the_levels():
    import json

    server, lines = _server()
    server.handle_line(json.dumps({"id": 1, "cmd": "hello"}))
    hello = _final(lines, 1)
    assert [d["level"] for d in hello["levels"]] == list(range(1, NUM_LEVELS + 1))
    by_game = {g["name"]: g["levels"] for g in hello["games"]}
    assert by_game[OWN] == levels_info(aiplay.load(OWN)) != hello["levels"]
    assert by_game[DEFAULT] == hello["levels"]
    server.handle_line(json.dumps({"id": 2, "cmd": "new", "game": DEFAULT, "players": 2, "seed": 1,
                                   "auto_chance": True, "viewer": "all"}))
    game_id = _final(lines, 2)["game_id"]
    server.handle_line(json.dumps({"id": 3, "cmd": "go", "game_id": game_id, "level": 2, "seed": 4}))
    best = _final(lines, 3)
    assert best["ok"] and best["type"] == "bestmove", best
    assert best["analysis"]["bot"] == "level" and best["analysis"]["counters"]["level"] == 2
    for request in ({"level": NUM_LEVELS + 1}, {"level": 2, "bot": "mcts"}, {"level": 2, "iterations": 50}):
        server.handle_line(json.dumps({"id": 4, "cmd": "go", "game_id": game_id, **request}))
        refused = _final(lines, 4)
        assert not refused["ok"] and "level" in refused["error"], refused
    server.shutdown()


def test_cli_plays_levels_and_prints_them(capsys):
    from aiplay.cli import main

    assert main(["play", SHORT, *cli_options(SHORT_OPTIONS), "--bots", "level,random", "--level", "1", "--quiet"]) == 0
    assert "won" in capsys.readouterr().out
    assert main(["play", SHORT, "--bots", "mcts", "--level", "1", "--quiet"]) == 2
    assert "--level" in capsys.readouterr().err
    # --seconds reaches the top level (a time budget), not a level below it, which says so.
    assert main(["play", SHORT, *cli_options(SHORT_OPTIONS), "--bots", "level,random", "--level", str(NUM_LEVELS),
                 "--seconds", "0.01", "--quiet"]) == 0
    assert "applies to no seat" not in capsys.readouterr().err
    assert main(["play", SHORT, *cli_options(SHORT_OPTIONS), "--bots", "level,random", "--level", "2",
                 "--seconds", "0.01", "--quiet"]) == 0
    assert "--seconds applies to no seat" in capsys.readouterr().err
    assert main(["levels", DEFAULT]) == 0
    out = capsys.readouterr().out
    assert f"{NUM_LEVELS:>5}" in out and "mistakes" in out


def _stats(*rows):
    return [ActionStats(action=a, visits=v, value=q) for a, v, q in rows]


def test_order_ties_puts_the_preferred_move_first_among_the_tied_best_only():
    stats = _stats((0, 1, 1.0), (1, 1, 0.0), (2, 1, 1.0), (3, 1, 1.0), (4, 0, None))
    ordered = order_ties(stats, preferred=3, rng=random.Random(1))
    assert ordered[0].action == 3 and {s.action for s in ordered[:3]} == {0, 2, 3}
    assert [s.action for s in ordered[3:]] == [1, 4]  # the rest keep their order
    assert choose_among(ordered, 0.0, 3, random.Random(2)).action == 3  # no slip: the preferred move
    # A preferred move outside the tie (rated lower, or never visited) is not played.
    for preferred in (1, 4, 99):
        ordered = order_ties(stats, preferred=preferred, rng=random.Random(1))
        assert ordered[0].action in (0, 2, 3)
    # The draw among the other tied moves is seeded and not legal order every time.
    firsts = Counter(order_ties(stats, None, random.Random(seed))[0].action for seed in range(60))
    assert set(firsts) == {0, 2, 3}
    # Without a tie nothing moves: the most visited stays first.
    clear = _stats((0, 5, 0.2), (1, 9, 0.1), (2, 9, 0.0))
    assert order_ties(clear, preferred=2, rng=random.Random(1)) == clear
    assert tied_best(clear) == [clear[1]]


def test_a_heuristic_tie_rule_needs_perfect_information_and_a_known_rule():
    class Hidden:
        name = "hidden"
        difficulty_levels = None
        level_ties = "heuristic"
        perfect_information = False
        heuristic_policy = staticmethod(lambda state, rng: 0)

    with pytest.raises(InvalidOptionError, match="perfect information"):
        levels_for(Hidden())
    Hidden.level_ties = "coin"
    with pytest.raises(InvalidOptionError, match="level_ties must be one of order, heuristic"):
        levels_for(Hidden())


@pytest.mark.parametrize("name", aiplay.games_available())
def test_every_level_breaks_ties_by_its_games_rule_and_says_so(name):
    """A game's levels break ties by its ``level_ties`` (legal order unless it says otherwise), and
    ``aiplay levels`` mentions the heuristic move exactly when that is the rule."""
    game = aiplay.load(name)
    rule = getattr(game, "level_ties", "order")
    assert [lv.ties for lv in levels_for(game)] == [rule] * NUM_LEVELS
    text = format_levels(name)
    if rule == "heuristic":
        assert "plays the game's heuristic move if that is one of them" in text
    else:
        assert "heuristic move" not in text


def test_both_tie_rules_are_played_by_some_listed_game():
    rules = {getattr(aiplay.load(name), "level_ties", "order") for name in aiplay.games_available()}
    assert rules == {"order", "heuristic"}



def test_a_calibration_note_is_printed_with_the_table(monkeypatch):
    """A table's "note" (e.g. the search changed since it was measured) reaches `aiplay levels`."""
    import copy

    from aiplay.search import level as level_module

    calibrated = {}
    for game in aiplay.games_available():
        try:
            calibrated[game] = level_module.level_ratings(game)
        except InvalidOptionError:
            continue
    game, tables = next((g, t) for g, t in calibrated.items() if t)
    noted = copy.deepcopy(tables)
    size = sorted(noted, key=int)[0]
    noted[size]["note"] = "measured before the preset changed"
    assert "note:" not in format_levels(game) or any(t.get("note") for t in tables.values())
    monkeypatch.setattr(level_module, "level_ratings", lambda name: noted)
    assert f"{size} players, note: measured before the preset changed" in format_levels(game)
