"""The strength ladder and the level calibration, per board game (issue 22).

For every board game, at 2 players (Groom Lake: 3, its smallest table) and at
its most common table size, the ladder plays seat-rotated, seeded games
through :func:`aiplay.arena.run` between the rungs:

* ``random``; the old heuristic (:func:`old_heuristic`, where issue 22
  rewrote the game's policy) and the new one (:data:`NEW_HEURISTIC`);
* the game's tree search (MCTS with perfect information, else ISMCTS, the
  game's presets) at 250, 1,000 and 4,000 iterations, and expectimax where it
  fits (Sunken City, perfect information);
* the difficulty levels 1 to N (``make_bot("level", level=k)``).

Tables: every pair of neighbours along the ladder (rungs in the order
above) and along the levels, plus links (random against level 1, the top
search rung against the top level) that tie the two chains together; at a
table size P > 2 the tables are windows of P neighbours. Every game counts in
one Bradley-Terry fit (:mod:`aiplay.arena.ratings`, 95 % intervals) whose ratings
are shifted so that random = 0 (the intervals are shifted with them: they
are the fit's intervals about the field's mean, not of the difference to
random). Adjacent levels get a head-to-head win share (level k against
level k-1, ties halved) with its 95 % Wilson interval.

``--target`` also plays the Done-means match: the best bot (the top level)
against the new heuristic, 2 players, ``--target-games`` games (200 in the
issue).

``--level-seats`` also plays every level in that seat, on the same deals, and
pairs each level with the one below deal by deal: the calibration of a team
game (Groom Lake), where the tables of neighbouring levels measure the role
deal more than the levels. ``--level-pairs`` plays each level against the one
below at one table whose other seats are the new heuristic (``--target-games``
games a pair): the head-to-head of neighbours at a table of more than two
seats. ``--levels-only`` plays only the tables of the levels (and random
against level 1), after a change of a game's level table. A pilot of a new
table, before it ships: ``--level-table`` plays one game's levels with another
table (never written), ``--pairs`` only some of ``--level-pairs``' pairs.

The level calibration is written to each game's ``games/<game>/levels.json`` (with
``--write-levels``), which ``aiplay levels GAME`` prints.

Profiles::

    python benchmarks/ladder.py --quick                      # CI: seconds to a minute
    python benchmarks/ladder.py --tables small --games 10 --level-games 60 --out-dir runs --write-levels
                                                             # the level calibration RESULTS.md reports
    python benchmarks/ladder.py --games 200 --target --write-levels   # the full run (idle machine, hours)

Everything is seeded (``--seed``); budgets are iterations, so a rerun gives
the same games. One process by default (``--processes N`` for more).
"""

from __future__ import annotations

import argparse
import inspect
import json
import multiprocessing
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import aiplay
from aiplay import registry
from aiplay.arena import GameRecord, MatchResult, parse_bot, run, wilson_interval
from aiplay.search.level import NUM_LEVELS, levels_for, search_kind

#: The board games of the ladder.
GAMES = ("sunken_city", "area51", "area1851", "groom_lake")
#: Smallest table measured (Groom Lake starts at 3 players).
SMALL_TABLE = {"sunken_city": 2, "area51": 2, "area1851": 2, "groom_lake": 3}
#: The most common table size of each game (its default where that is more than 2).
COMMON_TABLE = {"sunken_city": 3, "area51": 4, "area1851": 4, "groom_lake": 5}
#: Games whose heuristic issue 22 rewrote, and the name of the policy kept from before.
OLD_POLICY = {"area1851": "v1", "groom_lake": "v1"}
#: The heuristic after issue 22's rewrite (the game's current policy).
NEW_HEURISTIC = "heuristic(name=heuristic-new)"


def old_heuristic(game: str) -> Optional[str]:
    """The spec of ``game``'s heuristic before the rewrite, or None where there is only one.

    The old policy is selected with ``heuristic(policy=v1)`` once the heuristic
    bot takes a ``policy`` option; until then the current one stands for both
    (and the ladder says so by naming the rung ``heuristic-old-is-new``).
    """
    if game not in OLD_POLICY:
        return None
    from aiplay.search import HeuristicBot

    if "policy" in inspect.signature(HeuristicBot).parameters:
        return f"heuristic(policy={OLD_POLICY[game]},name=heuristic-old)"
    return "heuristic(name=heuristic-old-is-new)"
#: Search budgets of the ladder, in iterations.
SEARCH_ITERATIONS = (250, 1000, 4000)
#: The calibration's file name in each game's folder (``games/<game>/levels.json``).
LEVELS_FILE = "levels.json"


def levels_json(game: str) -> Path:
    """Where ``game``'s level calibration is shipped: its own folder."""
    return registry.game_entry(game).folder / LEVELS_FILE


def ladder_rungs(game: str, quick: bool = False) -> List[str]:
    """The ladder's bot specs for ``game``, weakest first (by design, not by measurement)."""
    loaded = aiplay.load(game)
    kind = search_kind(loaded)
    if quick:
        return ["random", NEW_HEURISTIC, f"{kind}(iterations=100,name={kind}-100)"]
    old = old_heuristic(game)
    rungs = ["random"] + ([old] if old else []) + [NEW_HEURISTIC]
    rungs += [f"{kind}(iterations={n},name={kind}-{n})" for n in SEARCH_ITERATIONS]
    if loaded.perfect_information:
        rungs.append("expectimax")  # the game's presets: a time budget, so not reproducible
    return rungs


def level_rungs(quick: bool = False) -> List[str]:
    """The level specs, level 1 first."""
    levels = (1, 2) if quick else range(1, NUM_LEVELS + 1)
    return [f"level(level={k},name=level-{k})" for k in levels]


def windows(chain: Sequence[int], size: int) -> List[Tuple[int, ...]]:
    """Tables of ``size`` neighbours along ``chain`` (every window; the whole chain if shorter)."""
    if len(chain) <= size:
        return [tuple(chain)]
    return [tuple(chain[i:i + size]) for i in range(len(chain) - size + 1)]


def ladder(game: str, players: int, games: int, seed: int, quick: bool = False, processes: int = 1,
           progress: bool = False, out_dir: Optional[str] = None,
           level_games: Optional[int] = None, doubling_games: Optional[int] = None,
           levels_only: bool = False) -> Dict[str, Any]:
    """Play the ladder of ``game`` at ``players`` seats; return ratings and the level calibration.

    ``games`` a table; ``level_games`` (default ``games``) for the tables of
    neighbouring levels, whose head-to-head is the calibration's claim and so
    wants the larger sample; ``doubling_games`` (default ``games``) likewise
    for the tables between two budgets of the tree search (does each doubling
    of search win?). ``out_dir``: keep each table's games in a results
    file there (``aiplay arena``'s format), so that an interrupted ladder
    resumes where it stopped (and a rerun with more games extends it).
    ``levels_only``: the levels and random alone (the tables of neighbouring
    levels and random against level 1): a level table changed, the rungs did not.
    """
    level_games = games if level_games is None else level_games
    doubling_games = games if doubling_games is None else doubling_games
    rungs = ["random"] if levels_only else ladder_rungs(game, quick)
    levels = level_rungs(quick)
    specs = rungs + levels
    labels = [parse_bot(s).label for s in specs]
    ladder_chain = list(range(len(rungs)))
    level_chain = list(range(len(rungs), len(specs)))
    level_tables = windows(level_chain, players)
    searches = [i for i in ladder_chain if rungs[i].startswith(search_kind(aiplay.load(game)) + "(")]
    doubling_tables = [t for t in windows(ladder_chain, players) if all(i in searches for i in t)]
    tables = ([] if levels_only else windows(ladder_chain, players)) + level_tables
    links = [(0, level_chain[0])]  # random against level 1
    if not quick and not levels_only:
        top_search = len(rungs) - (2 if "expectimax" in rungs else 1)
        links.append((top_search, level_chain[-1]))
    for a, b in links:
        if players == 2:
            tables.append((a, b))
        else:  # fill the table with the link's neighbours on the level chain
            extra = [i for i in level_chain if i not in (a, b)][:players - 2]
            tables.append(tuple([a, b] + extra))
    # A chain shorter than the table is filled with the first other bots (random first).
    tables = [t + tuple(i for i in range(len(specs)) if i not in t)[:max(0, players - len(t))] for t in tables]
    records: List[GameRecord] = []
    started = time.perf_counter()
    for t, table in enumerate(tables):
        out = None
        if out_dir is not None:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            out = str(Path(out_dir) / f"{game}-{players}p-{'-'.join(labels[i] for i in table)}.jsonl")
        count = level_games if table in level_tables else doubling_games if table in doubling_tables else games
        result = run(game, [specs[i] for i in table], games=count, seed=seed + 7919 * t,
                     game_options={"players": players}, processes=processes, progress=progress, out=out)
        for r in result.records:
            records.append(GameRecord(r.deal, [table[i] for i in r.seating], r.returns, r.moves, r.seconds))
    merged = MatchResult(game, labels, records, time.perf_counter() - started, {"players": players})
    ratings = merged.ratings()
    anchor = ratings[0].rating  # random
    pairwise = merged.pairwise()
    adjacent = []
    for lower, upper in zip(level_chain, level_chain[1:]):
        won = float(pairwise[upper, lower])
        met = won + float(pairwise[lower, upper])
        low, high = wilson_interval(won, int(round(met)))
        adjacent.append({"level": upper - level_chain[0] + 1, "vs": lower - level_chain[0] + 1,
                         "games": int(round(met)), "win_rate": won / met if met else None,
                         "interval": [low, high]})
    return {
        "game": game, "players": players, "games_per_table": games, "level_games": level_games, "seed": seed,
        "tables": [[labels[i] for i in t] for t in tables],
        "bots": [{"name": labels[i], "spec": specs[i], "games": merged.games_of(i),
                  "rating": ratings[i].rating - anchor, "low": ratings[i].low - anchor,
                  "high": ratings[i].high - anchor} for i in range(len(specs))],
        # Each level's settings go with its rating, so a table changed without a new calibration shows.
        "levels": [{"level": k + 1, **level_settings(game, k + 1), "rating": ratings[i].rating - anchor,
                    "low": ratings[i].low - anchor, "high": ratings[i].high - anchor}
                   for k, i in enumerate(level_chain)],
        "adjacent": adjacent,
        "wall_seconds": merged.wall_seconds,
        "total_games": len(records),
    }


def seat_match(game: str, best: str, games: int, seed: int, processes: int = 1, progress: bool = False,
               out_dir: Optional[str] = None) -> MatchResult:
    """``best`` in one seat against the new heuristic in the others, at the small table, seat-rotated.

    The deals and seats depend on ``seed`` and ``games`` only, so two matches with
    different ``best`` bots play the same deals from the same seats (a paired
    comparison). ``out_dir``: keep the games in a results file there (resumable).
    """
    players = SMALL_TABLE[game]
    bots = [best, NEW_HEURISTIC] + [NEW_HEURISTIC] * (players - 2)
    out = None
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        label = parse_bot(best).label
        suffix = "" if label == "best" else f"-{label}"
        out = str(Path(out_dir) / f"target-{game}-{players}p{suffix}.jsonl")
    return run(game, bots, games=games, seed=seed, game_options={"players": players}, processes=processes,
               progress=progress, out=out)


def target(game: str, games: int, seed: int, processes: int = 1, progress: bool = False,
           out_dir: Optional[str] = None, best: Optional[str] = None) -> Dict[str, Any]:
    """The Done-means match: the top level against the new heuristic at the small table.

    ``out_dir``: keep the games in a results file there, so that a rerun resumes.
    ``best``: another bot spec in the top level's seat (a trial of other search
    options, or the heuristic itself as the baseline of the same seats).
    """
    players = SMALL_TABLE[game]
    best = best or f"level(level={NUM_LEVELS},name=best)"
    result = seat_match(game, best, games, seed, processes, progress, out_dir)
    low, high = result.interval(0)
    out = {"game": game, "players": players, "best": best, "games": result.games,
           "best_win_rate": result.win_rate(0),
           "interval": [low, high], "wall_seconds": result.wall_seconds}
    if game == "groom_lake":
        out["by_role"] = _groom_lake_roles(result, seed, players)
    return out


def level_seats(game: str, games: int, seed: int, processes: int = 1, progress: bool = False,
                out_dir: Optional[str] = None) -> Dict[str, Any]:
    """Every level in one seat against the new heuristic, on the same deals: the calibration of a team game.

    In Groom Lake the tables of neighbouring levels measure the role deal more than the
    levels (a Human's result is the Team's, and weak Teams never escape), so each level is
    also measured against a fixed field: level k in the seat of :func:`target`'s best bot,
    ``games`` deals, the same deals and seats for every level (the top level's match *is*
    the target). ``win_rate`` is the level's mean win share with its Wilson interval;
    ``adjacent`` pairs level k with level k-1 deal by deal: ``better`` deals where k's
    share was the larger, ``worse`` the smaller, and ``win_rate`` = ``better / (better +
    worse)`` with its Wilson interval (the deals both won or both lost tell nothing about
    which is stronger); ``share`` counts every deal, those ties halved (with ``share_interval``).
    """
    outcomes: List[Dict[Tuple[int, Tuple[int, ...]], float]] = []
    levels = []
    for k in range(1, NUM_LEVELS + 1):
        best = f"level(level={NUM_LEVELS},name=best)" if k == NUM_LEVELS else f"level(level={k},name=L{k})"
        result = seat_match(game, best, games, seed, processes, progress, out_dir)
        outcomes.append({(r.deal, tuple(r.seating)): r.shares(len(result.bots))[0] for r in result.records})
        low, high = result.interval(0)
        entry: Dict[str, Any] = {"level": k, "games": result.games, "win_rate": result.win_rate(0),
                                 "interval": [low, high]}
        if game == "groom_lake":
            entry["by_role"] = _groom_lake_roles(result, seed, SMALL_TABLE[game])
        levels.append(entry)
    adjacent = []
    for k in range(2, NUM_LEVELS + 1):
        upper, lower = outcomes[k - 1], outcomes[k - 2]
        both = [key for key in upper if key in lower]
        better = sum(1 for key in both if upper[key] > lower[key])
        worse = sum(1 for key in both if upper[key] < lower[key])
        low, high = wilson_interval(better, better + worse)
        scored = better + (len(both) - better - worse) / 2
        share_low, share_high = wilson_interval(scored, len(both))
        adjacent.append({"level": k, "vs": k - 1, "deals": len(both), "better": better, "worse": worse,
                         "win_rate": better / (better + worse) if better + worse else None,
                         "interval": [low, high], "share": scored / len(both) if both else None,
                         "share_interval": [share_low, share_high]})
    return {"game": game, "players": SMALL_TABLE[game], "games": games, "seed": seed,
            "opponents": NEW_HEURISTIC, "levels": levels, "adjacent": adjacent}


def level_pairs(game: str, games: int, seed: int, processes: int = 1, progress: bool = False,
                out_dir: Optional[str] = None, upper_levels: Optional[Sequence[int]] = None) -> Dict[str, Any]:
    """Each level against the one below at one table, the other seats the new heuristic.

    The head-to-head of neighbouring levels at a table with more seats than two
    (Groom Lake's 3): level k and level k-1 meet in ``games`` seat-rotated games
    (the same deals for every pair), the remaining seats a fixed player, so a
    weaker level is not the third seat of its own comparison. ``adjacent``: games
    k ``won`` (its win share above k-1's), ``lost`` and ``tied`` (both won or both
    lost), ``win_rate`` with ties halved and its Wilson interval, and ``decided``
    (won / (won + lost)). ``upper_levels``: only the pairs whose upper level is
    one of these (default every pair), for a pilot of a few low levels.
    """
    players = SMALL_TABLE[game]
    adjacent = []
    for k in range(2, NUM_LEVELS + 1):
        if upper_levels is not None and k not in upper_levels:
            continue
        bots = [f"level(level={k},name=level-{k})", f"level(level={k - 1},name=level-{k - 1})"]
        bots += [NEW_HEURISTIC] * (players - 2)
        out = None
        if out_dir is not None:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            out = str(Path(out_dir) / f"pair-{game}-{players}p-level-{k}-level-{k - 1}.jsonl")
        result = run(game, bots, games=games, seed=seed, game_options={"players": players}, processes=processes,
                     progress=progress, out=out)
        won = lost = 0
        for r in result.records:
            upper, lower = r.returns[r.seating.index(0)], r.returns[r.seating.index(1)]
            won += upper > lower
            lost += upper < lower
        n = len(result.records)
        tied = n - won - lost
        low, high = wilson_interval(won + tied / 2, n)
        adjacent.append({"level": k, "vs": k - 1, "games": n, "won": won, "lost": lost, "tied": tied,
                         "win_rate": (won + tied / 2) / n if n else None, "interval": [low, high],
                         "decided": won / (won + lost) if won + lost else None})
    return {"game": game, "players": players, "games": games, "seed": seed, "others": NEW_HEURISTIC,
            "adjacent": adjacent}


def report_level_pairs(entry: Dict[str, Any]) -> str:
    """A text block for :func:`level_pairs`."""
    lines = [f"{entry['game']} at {entry['players']} players: each level against the one below, the other seats "
             f"{entry['others']}, {entry['games']} games a pair"]
    for adj in entry["adjacent"]:
        decided = "none" if adj["decided"] is None else f"{adj['decided']:.1%}"
        lines.append(f"  level {adj['level']} vs {adj['vs']}: won {adj['won']}, lost {adj['lost']}, tied "
                     f"{adj['tied']}: {adj['win_rate']:.1%} ties halved [{adj['interval'][0]:.1%}, "
                     f"{adj['interval'][1]:.1%}]; decided games {decided}")
    return "\n".join(lines)


def report_level_seats(entry: Dict[str, Any]) -> str:
    """A text block for :func:`level_seats`."""
    lines = [f"{entry['game']} at {entry['players']} players: each level in one seat against the new heuristic, "
             f"{entry['games']} deals"]
    for lv in entry["levels"]:
        line = (f"  level {lv['level']}: {lv['win_rate']:.1%} [{lv['interval'][0]:.1%}, {lv['interval'][1]:.1%}]")
        for role, split in lv.get("by_role", {}).items():
            if split["games"]:
                line += f"; as {role} {split['win_rate']:.1%} of {split['games']}"
        lines.append(line)
    for adj in entry["adjacent"]:
        rate = "n/a" if adj["win_rate"] is None else f"{adj['win_rate']:.1%}"
        lines.append(f"  level {adj['level']} vs {adj['vs']}, deal by deal: better in {adj['better']}, worse in "
                     f"{adj['worse']} of {adj['deals']}: {rate} [{adj['interval'][0]:.1%}, {adj['interval'][1]:.1%}]"
                     f"; all deals, ties halved {adj['share']:.1%} [{adj['share_interval'][0]:.1%}, "
                     f"{adj['share_interval'][1]:.1%}]")
    return "\n".join(lines)


def _groom_lake_roles(result: MatchResult, seed: int, players: int) -> Dict[str, Any]:
    """How often the best bot's (bot 0's) side won, split by its role: the Alien's seat or a Human's.

    The roles are the game's first chance outcomes (the Alien's seat first), drawn
    before any decision from the deal's chance generator, so they are replayed
    here without replaying the game.
    """
    import random

    from aiplay.arena import chance_seed
    from aiplay.game import sample_chance_outcome
    from aiplay.games.groom_lake.components import ALIEN

    ref = aiplay.load("groom_lake", backend="reference", players=players)
    tally = {"alien": [0.0, 0], "human": [0.0, 0]}
    for r in result.records:
        state = ref.new_initial_state()
        rng = random.Random(chance_seed(seed, r.deal))
        while ALIEN not in state.roles:
            state.apply_action(sample_chance_outcome(state, rng))
        seat = r.seating.index(0)
        role = "alien" if state.roles[seat] == ALIEN else "human"
        tally[role][0] += 1.0 if r.returns[seat] == max(r.returns) else 0.0  # its side won
        tally[role][1] += 1
    return {role: {"games": n, "win_rate": won / n if n else None,
                   "interval": list(wilson_interval(won, n))} for role, (won, n) in tally.items()}


def report(entry: Dict[str, Any]) -> str:
    """A text block for one ladder."""
    lines = [f"{entry['game']} at {entry['players']} players: {entry['total_games']} games "
             f"({entry['games_per_table']} a table), {entry['wall_seconds']:.0f} s"]
    for bot in sorted(entry["bots"], key=lambda b: b["rating"]):
        lines.append(f"  {bot['name']:<22} {bot['rating']:+7.0f}  [{bot['low']:+.0f}, {bot['high']:+.0f}]"
                     f"  ({bot['games']} games)")
    for adj in entry["adjacent"]:
        rate = "n/a" if adj["win_rate"] is None else f"{adj['win_rate']:.1%}"
        lines.append(f"  level {adj['level']} vs {adj['vs']}: {rate} of {adj['games']} "
                     f"[{adj['interval'][0]:.1%}, {adj['interval'][1]:.1%}]")
    return "\n".join(lines)


def level_settings(game: str, level: int) -> Dict[str, Any]:
    """``iterations``, ``mistake_rate``, ``width`` and ``ties`` of ``level`` in ``game``'s level table."""
    return asdict(levels_for(aiplay.load(game))[level - 1])


def calibration(entries: List[Dict[str, Any]], command: str, previous: Optional[Dict[str, Any]] = None,
                seats: Sequence[Dict[str, Any]] = (), pairs: Sequence[Dict[str, Any]] = ()) -> Dict[str, Any]:
    """The ``levels.json`` document from ladder entries, over ``previous`` (other games and tables kept).

    ``seats``: :func:`level_seats` entries, kept per game under ``"in_one_seat"`` of
    their table size, beside that table's ratings (so only for a table size the ladder
    has calibrated, in this run or before); ``pairs``: :func:`level_pairs` entries,
    likewise under ``"in_pairs"``.
    """
    out: Dict[str, Any] = {"format": 1, "anchor": "random = 0 (Bradley-Terry, Elo scale)",
                           "games": dict((previous or {}).get("games", {}))}
    for e in entries:
        tables = out["games"][e["game"]] = dict(out["games"].get(e["game"], {}))
        tables[str(e["players"])] = {
            "players": e["players"], "games_per_table": e["games_per_table"],
            "level_games": e.get("level_games", e["games_per_table"]), "seed": e["seed"],
            "total_games": e["total_games"], "levels": e["levels"], "adjacent": e["adjacent"], "command": command}
    for key, extra in (("in_one_seat", seats), ("in_pairs", pairs)):
        for e in extra:
            tables = out["games"][e["game"]] = dict(out["games"].get(e["game"], {}))
            size = str(e["players"])
            if size in tables:
                tables[size] = dict(tables[size], **{key: dict(e, command=command)})
    return out


def use_level_table(game: str, text: str, parser: argparse.ArgumentParser) -> None:
    """Give ``game`` the level table ``text`` for this run (``--level-table``), checked as a game's own.

    The table is set on the game's reference class, which the worker processes
    inherit (they fork). A results file records each level's settings, and the
    arena refuses to resume one written with another table, so an ``--out-dir``
    never mixes a pilot's games with the shipped table's.
    """
    reference = registry.game_entry(game).reference
    previous = reference.difficulty_levels
    try:
        reference.difficulty_levels = tuple(tuple(float(x) if i == 1 else int(x) for i, x in enumerate(row.split(",")))
                                            for row in text.split(";"))
        levels_for(reference)  # raises InvalidOptionError for a malformed table
    except (ValueError, aiplay.AiplayError) as exc:
        reference.difficulty_levels = previous
        parser.error(f"--level-table: {exc}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default all four)")
    parser.add_argument("--games", type=int, default=20, help="games per table (rounded up to seat rotations)")
    parser.add_argument("--level-games", type=int,
                        help="games per table of neighbouring levels (default: --games)")
    parser.add_argument("--doubling-games", type=int,
                        help="games per table between two budgets of the tree search (default: --games)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--tables", choices=["small", "common", "both", "none"], default="both",
                        help="table sizes: 2 players (Groom Lake 3), the common size, both, or none (--target alone)")
    parser.add_argument("--quick", action="store_true", help="the CI profile: few rungs, 2 games a table")
    parser.add_argument("--target", action="store_true", help="also play the top level against the new heuristic")
    parser.add_argument("--target-games", type=int, default=200)
    parser.add_argument("--best", help="with --target: this bot spec instead of the top level (give it a name=)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--write-levels", action="store_true", help="write the calibration to each game's games/<game>/levels.json")
    parser.add_argument("--json", help="write every result to this JSON file")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--out-dir", help="keep every table's games here; a rerun resumes from them")
    parser.add_argument("--level-seats", action="store_true",
                        help="also play every level in one seat against the new heuristic on the same "
                             "--target-games deals (the calibration of Groom Lake, a team game)")
    parser.add_argument("--level-pairs", action="store_true",
                        help="also play each level against the one below, the other seats the new heuristic, "
                             "--target-games games a pair (tables of more than two seats: Groom Lake)")
    parser.add_argument("--levels-only", action="store_true",
                        help="only the levels and random (after a change of a level table; the rungs are unchanged)")
    parser.add_argument("--level-table",
                        help="a pilot's level table for the one --game: seven 'iterations,mistake_rate,width' "
                             "separated by ';', weakest first (not with --write-levels)")
    parser.add_argument("--pairs", help="with --level-pairs: only the pairs whose upper level is one of these "
                                        "(comma-separated, e.g. 2,3)")
    args = parser.parse_args(argv)
    games = list(args.game or GAMES)
    upper_levels = None
    if args.pairs is not None:
        try:
            upper_levels = sorted({int(k) for k in args.pairs.split(",")})
        except ValueError:
            parser.error(f"--pairs takes levels separated by commas, got {args.pairs!r}")
        if not args.level_pairs or not all(2 <= k <= NUM_LEVELS for k in upper_levels):
            parser.error(f"--pairs needs --level-pairs and upper levels from 2 to {NUM_LEVELS}, got {args.pairs!r}")
    if args.level_table is not None:
        if len(games) != 1 or args.write_levels:
            parser.error("--level-table is a pilot: give exactly one --game, and no --write-levels")
        if args.processes > 1 and multiprocessing.get_start_method() != "fork":
            parser.error("--level-table with --processes > 1 needs worker processes that fork")
        use_level_table(games[0], args.level_table, parser)
    per_table = 2 if args.quick and args.games == 20 else args.games
    entries = []
    for game in games:
        sizes = []
        if args.tables in ("small", "both"):
            sizes.append(SMALL_TABLE[game])
        if args.tables in ("common", "both") and not args.quick:
            sizes.append(COMMON_TABLE[game])
        for players in sizes:
            entry = ladder(game, players, per_table, args.seed, quick=args.quick, processes=args.processes,
                           progress=args.progress, out_dir=args.out_dir, level_games=args.level_games,
                           doubling_games=args.doubling_games, levels_only=args.levels_only)
            entries.append(entry)
            print(report(entry), flush=True)
    targets = []
    if args.target:
        for game in games:
            t = target(game, args.target_games, args.seed, args.processes, args.progress, args.out_dir, args.best)
            targets.append(t)
            print(f"target {game}: best {t['best_win_rate']:.1%} of {t['games']} against the new heuristic "
                  f"[{t['interval'][0]:.1%}, {t['interval'][1]:.1%}]", flush=True)
            for role, split in t.get("by_role", {}).items():
                if split["games"]:
                    print(f"  as {role}: {split['win_rate']:.1%} of {split['games']} "
                          f"[{split['interval'][0]:.1%}, {split['interval'][1]:.1%}]", flush=True)
    seats = []
    if args.level_seats:
        for game in games:
            seat_entry = level_seats(game, args.target_games, args.seed, args.processes, args.progress,
                                     args.out_dir)
            seats.append(seat_entry)
            print(report_level_seats(seat_entry), flush=True)
    pairs = []
    if args.level_pairs:
        for game in games:
            pair_entry = level_pairs(game, args.target_games, args.seed, args.processes, args.progress,
                                     args.out_dir, upper_levels)
            pairs.append(pair_entry)
            print(report_level_pairs(pair_entry), flush=True)
    command = "python benchmarks/ladder.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.json:
        Path(args.json).write_text(json.dumps({"ladders": entries, "targets": targets, "level_seats": seats,
                                               "level_pairs": pairs, "command": command},
                                              indent=1) + "\n", encoding="utf-8")
    if args.write_levels:
        if args.quick:
            parser.error("--write-levels needs a real run, not --quick")
        from aiplay.search.level import _load_calibration

        document = calibration(entries, command, _load_calibration(), seats, pairs)
        for game in sorted({e["game"] for e in [*entries, *seats, *pairs]}):
            levels_json(game).write_text(json.dumps({"format": document["format"], "anchor": document["anchor"],
                                                     "levels": document["games"][game]}, indent=1) + "\n",
                                         encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
