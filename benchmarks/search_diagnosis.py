"""Where the top level's search stops scaling (issue 41, Build 1): noise against signal, estimates against results.

For every board game, at the top level's search (the game's ``bot_presets`` for
the kind :func:`aiplay.search.kinds.strongest_kind` picks: MCTS with perfect
information, ISMCTS otherwise; the top level of the level table is that search
at 4,000 iterations with no slips), this script measures two things and
changes nothing:

1. **Noise against signal at the root.** Positions are sampled from seeded
   games of the game's heuristic (every seat; the top level itself is too slow
   to play many games on 2 cores) at three stages, 15 %, 50 % and 85 % of the
   game's decisions (the first decision from there with more than one legal
   move). At each, the search runs at 250, 1,000 and 4,000 iterations (seed A)
   and at 1,000 and 4,000 (seed B), each a fresh bot (no kept tree). From the
   root's per-move statistics (``Analysis.stats``: visits and mean return of
   the searching seat) it reads the *signal*, the gap between the mean values
   of the two most visited moves, and the *noise*, the standard error of that
   difference, ``sqrt(sd1**2 / n1 + sd2**2 / n2)`` (the gap can be negative, the most
   visited move's mean below the runner-up's: counted as unresolved). The searchers do not
   expose the spread of their returns, so each candidate's ``sd`` is measured
   here: the preset's own rollout (policy or random, to its cutoff, then the
   game's static evaluation; to the end without a cutoff) is run ``playouts``
   times from the position after that move, in a world determinized from the
   searching seat's view where information is hidden. This treats a tree
   child's returns as independent playouts, which the tree's deeper selection
   makes only roughly true. It also counts how often the chosen move (most
   visited) changes: 250 -> 1,000, 1,000 -> 4,000 (seed A), and seed A against
   seed B at 1,000 and at 4,000. If two seeds at 4,000 disagree about as often
   as 1,000 and 4,000 do, the extra iterations buy little.
2. **Value estimates against results.** In the same heuristic games, at up to
   ``samples`` decisions a game (evenly spaced), for the seat to move: the
   static evaluation the search uses at its rollout cutoff
   (``heuristic_values``, on the true state), one playout of the preset's
   rollout (to its cutoff, from a determinized world), one playout of the
   game's policy to the end (the kernel's ``playouts``), and, at the positions
   of part 1, the search's root value (the chosen move's mean) at 1,000 and
   4,000 iterations, each against the seat's final return in that game.
   Estimates and results are put on a 0-1 scale by the game's utility bounds
   (``(v - min) / (max - min)``); reported: Pearson r, mean squared error on
   that scale (the Brier score where results are 0/1), and calibration in five
   bins of the estimate, per stage (first, middle and last third of the game).
   The results are those of heuristic play from that position on, not of the
   search's play.

Usage::

    python benchmarks/search_diagnosis.py --quick              # CI: every board game, well under a minute
    python benchmarks/search_diagnosis.py                      # the full profile (see RESULTS.md)
    python benchmarks/search_diagnosis.py --games sunken_city --positions-games 10 --json out.json

Progress goes to stderr; the tables to stdout; ``--json PATH`` writes every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

import aiplay
from aiplay.game import CHANCE, TERMINAL, State, sample_chance_outcome
from aiplay.search import make_bot
from aiplay.search.base import Analysis
from aiplay.search.kinds import build_bot, strongest_kind
from aiplay.search.level import _SEARCHES, NUM_LEVELS, levels_for

#: The board games, and the table each is measured at (the ladder's smallest: Groom Lake starts at 3).
GAMES = ("area51", "area1851", "groom_lake", "sunken_city")
PLAYERS = {"area51": 2, "area1851": 2, "groom_lake": 3, "sunken_city": 2}
#: Search budgets of part 1 (the top level's is the last).
BUDGETS = (250, 1000, 4000)
#: Where in a game a part-1 position is taken: a share of the game's decisions.
STAGES = (("early", 0.15), ("mid", 0.5), ("late", 0.85))
#: The profiles: heuristic games a game, playouts a candidate move, part-2 samples a game.
PROFILES = {"quick": {"games": 2, "playouts": 16, "samples": 10},
            "full": {"games": 80, "playouts": 200, "samples": 30}}


# -- playouts ------------------------------------------------------------------

def rollout_value(state: State, seat: int, kind: str, cutoff: Optional[int], rng: random.Random) -> float:
    """One playout of the search's rollout from ``state`` (a scratch copy is made); ``seat``'s value.

    The same rule as :func:`aiplay.search.rollout.playout`: ``kind`` "policy" moves by the
    kernel's playout policy, "random" uniformly; after ``cutoff`` moves (chance outcomes counted)
    the static evaluation, else the returns at the end.
    """
    if cutoff is None and kind == "policy":  # the whole game in C
        return state.game.kernel.playouts(state, 1, rng.getrandbits(64), True)[seat]
    s = state.clone()
    kernel = s.game.kernel
    steps = 0
    while True:
        player = s.current_player()
        if player == TERMINAL:
            return s.returns()[seat]
        if cutoff is not None and steps >= cutoff:
            return s.heuristic_values()[seat]
        if player == CHANCE:
            s.apply_action(sample_chance_outcome(s, rng))
        elif kind == "policy":
            s.apply_action(kernel.policy_choice(s, rng.getrandbits(64)))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        steps += 1


def world(state: State, seat: int, rng: random.Random) -> State:
    """A world consistent with what ``seat`` knows (the state itself with perfect information)."""
    return state.clone() if state.game.perfect_information else state.determinize(seat, rng)


# -- games ---------------------------------------------------------------------

#: Who plays the sampled games: the heuristic in every seat, or the top level in every seat.
PLAYERS_OF_GAMES = ("heuristic", "top")


def play_game(game: Any, seed: int, play: str = "heuristic") -> Tuple[List[Tuple[State, int, int]], List[float]]:
    """One seeded game of ``play`` bots in every seat: its decisions ``(state, seat, legal moves)`` and the returns."""
    rng = random.Random(seed)
    if play == "top":
        bots = [make_bot("level", level=NUM_LEVELS, seed=rng.getrandbits(62)) for _ in range(game.num_players)]
    else:
        bots = [make_bot("heuristic", seed=rng.getrandbits(62)) for _ in range(game.num_players)]
    state = game.new_initial_state()
    decisions: List[Tuple[State, int, int]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        seat = state.current_player()
        decisions.append((state.clone(), seat, len(state.legal_actions())))
        state.apply_action(bots[seat].choose(state))
    return decisions, list(state.returns())


def top_two(analysis: Analysis) -> List[Any]:
    """The two most visited root moves (ties: higher value), as the search ranks its choice."""
    ranked = sorted((s for s in analysis.stats if (s.visits or 0) > 0),
                    key=lambda s: (-(s.visits or 0), -(s.value if s.value is not None else -math.inf)))
    return ranked[:2]


# -- statistics ----------------------------------------------------------------

def pearson(xs: Sequence[float], ys: Sequence[float]) -> Optional[float]:
    """Pearson's r, or None when either side does not vary."""
    if len(xs) < 3:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return None if sxx <= 0 or syy <= 0 else sxy / math.sqrt(sxx * syy)


def agreement(estimates: Sequence[float], results: Sequence[float]) -> Dict[str, Any]:
    """r, MSE (0-1 scale), the MSE of always guessing the mean result, and five calibration bins."""
    n = len(estimates)
    if n == 0:
        return {"n": 0}
    mse = statistics.fmean((e - r) ** 2 for e, r in zip(estimates, results))
    base = statistics.fmean(results)
    bins = []
    for b in range(5):
        lo, hi = b / 5, (b + 1) / 5
        members = [(e, r) for e, r in zip(estimates, results) if lo <= e < hi or (b == 4 and e == 1.0)]
        if members:
            bins.append({"bin": [lo, hi], "n": len(members), "estimate": statistics.fmean(e for e, _ in members),
                         "result": statistics.fmean(r for _, r in members)})
    return {"n": n, "r": pearson(estimates, results), "mse": mse,
            "mse_constant": statistics.fmean((base - r) ** 2 for r in results), "bins": bins}


def stage_of(share: float) -> str:
    """Which third of the game a decision at ``share`` of its decisions lies in."""
    return "early" if share < 1 / 3 else "mid" if share < 2 / 3 else "late"


def median(xs: Sequence[float]) -> Optional[float]:
    """The median, or None for no values."""
    return statistics.median(xs) if xs else None


# -- the measurement -----------------------------------------------------------

def diagnose(name: str, seed: int, games: int, playouts: int, samples: int, play: str = "heuristic") -> Dict[str, Any]:
    """Parts 1 and 2 for one game (see the module docstring); every figure as data."""
    game = aiplay.load(name, players=PLAYERS[name])
    kind = strongest_kind(game)
    presets = dict(game.bot_presets.get(kind, {}))
    rollout_kind = presets.get("rollout", "random")
    cutoff = presets.get("rollout_cutoff")
    lo_u, hi_u = game.min_utility, game.max_utility

    def unit(v: float) -> float:  # the utility bounds to 0-1, so that MSE reads as a Brier score
        return (v - lo_u) / (hi_u - lo_u)

    def search(state: State, iterations: int, bot_seed: int) -> Analysis:
        bot = build_bot(kind, _SEARCHES[kind], game=game, seed=bot_seed, iterations=iterations)
        return bot.analyse(state)

    rng = random.Random(f"{seed}-{name}")
    positions: List[Dict[str, Any]] = []
    samples_out: Dict[str, List[Tuple[float, float]]] = {k: [] for k in ("static", "rollout", "policy_end")}
    sample_stage: List[str] = []
    search_values: Dict[str, List[Tuple[float, float, str]]] = {"1000": [], "4000": []}
    lengths = []
    started = time.perf_counter()
    for g in range(games):
        decisions, returns = play_game(game, rng.getrandbits(62), play)
        lengths.append(len(decisions))
        # Part 2: evenly spaced decisions of this game.
        step = max(1, len(decisions) // samples)
        for i in range(0, len(decisions), step)[:samples]:
            state, seat, _ = decisions[i]
            result = unit(returns[seat])
            sample_stage.append(stage_of(i / len(decisions)))
            samples_out["static"].append((unit(state.heuristic_values()[seat]), result))
            samples_out["rollout"].append(
                (unit(rollout_value(world(state, seat, rng), seat, rollout_kind, cutoff, rng)), result))
            samples_out["policy_end"].append(
                (unit(rollout_value(world(state, seat, rng), seat, "policy", None, rng)), result))
        # Part 1: one position a stage.
        for stage, share in STAGES:
            i = int(share * (len(decisions) - 1))
            while i < len(decisions) - 1 and decisions[i][2] < 2:
                i += 1
            state, seat, n_legal = decisions[i]
            if n_legal < 2:
                continue
            seed_a, seed_b = rng.getrandbits(62), rng.getrandbits(62)
            runs = {f"A{n}": search(state, n, seed_a) for n in BUDGETS}
            runs.update({f"B{n}": search(state, n, seed_b) for n in BUDGETS[1:]})
            # The spread of one candidate's playout returns, measured once per move.
            spread: Dict[int, Tuple[float, float]] = {}
            for analysis in runs.values():
                for s in top_two(analysis):
                    if s.action in spread:
                        continue
                    values = []
                    for _ in range(playouts):
                        w = world(state, seat, rng)
                        w.apply_action(s.action)
                        values.append(rollout_value(w, seat, rollout_kind, cutoff, rng))
                    spread[s.action] = (statistics.fmean(values), statistics.stdev(values))
            budgets: Dict[str, Any] = {}
            for key, analysis in runs.items():
                two = top_two(analysis)
                if len(two) < 2:
                    continue
                (a, b) = two
                gap = (a.value or 0.0) - (b.value or 0.0)
                noise = math.sqrt(spread[a.action][1] ** 2 / a.visits + spread[b.action][1] ** 2 / b.visits)
                # Both candidates' playouts all return the same value: the gap is resolved if it is
                # not zero (z infinite), and there is nothing to tell apart if it is (z = 0).
                z = gap / noise if noise > 0 else (math.inf if gap > 0 else 0.0)
                budgets[key] = {"action": analysis.action, "value": analysis.value, "visits": [a.visits, b.visits],
                                "gap": gap, "noise": noise, "z": z,
                                "sd": [spread[a.action][1], spread[b.action][1]]}
            positions.append({"game_index": g, "stage": stage, "decision": i, "legal": n_legal, "seat": seat,
                              "result": returns[seat], "budgets": budgets,
                              "flips": {"250->1000": runs["A250"].action != runs["A1000"].action,
                                        "1000->4000": runs["A1000"].action != runs["A4000"].action,
                                        "seeds@1000": runs["A1000"].action != runs["B1000"].action,
                                        "seeds@4000": runs["A4000"].action != runs["B4000"].action}})
            for n in ("1000", "4000"):
                if runs[f"A{n}"].value is not None:
                    search_values[n].append((unit(runs[f"A{n}"].value), unit(returns[seat]), stage))
        print(f"  {name}: game {g + 1}/{games} done, {time.perf_counter() - started:.0f} s", file=sys.stderr)

    # Summaries.
    noise_table: Dict[str, Any] = {}
    for stage in [s for s, _ in STAGES] + ["all"]:
        chosen = [p for p in positions if stage in ("all", p["stage"])]
        row: Dict[str, Any] = {"positions": len(chosen)}
        for key in ("A250", "A1000", "A4000"):
            entries = [p["budgets"][key] for p in chosen if key in p["budgets"]]
            ratios = [e["noise"] / e["gap"] for e in entries if e["gap"] > 0]
            row[key] = {"median_gap": median([e["gap"] for e in entries]),
                        "median_noise": median([e["noise"] for e in entries]),
                        "median_noise_over_gap": median(ratios + [math.inf] * sum(e["gap"] <= 0 for e in entries)),
                        "share_z_below_1": (sum(1 for e in entries if e["z"] < 1) / len(entries)
                                            if entries else None),
                        "share_z_below_2": (sum(1 for e in entries if e["z"] < 2) / len(entries)
                                            if entries else None),
                        "median_sd": median([sd for e in entries for sd in e["sd"]]),
                        # Both candidates' playouts return one value every time (a position the
                        # rollout policy has already decided) and, of those, the ones where the
                        # search's means of the two are equal too: nothing there tells them apart.
                        "share_decided": (sum(1 for e in entries if max(e["sd"]) == 0) / len(entries)
                                          if entries else None),
                        "share_flat": (sum(1 for e in entries if max(e["sd"]) == 0 and e["gap"] == 0) / len(entries)
                                       if entries else None)}
        row["flips"] = {k: (sum(p["flips"][k] for p in chosen) / len(chosen) if chosen else None)
                        for k in ("250->1000", "1000->4000", "seeds@1000", "seeds@4000")}
        row["flip_counts"] = {k: sum(p["flips"][k] for p in chosen)
                              for k in ("250->1000", "1000->4000", "seeds@1000", "seeds@4000")}
        noise_table[stage] = row
    value_table: Dict[str, Any] = {}
    for what, pairs in samples_out.items():
        value_table[what] = {stage: agreement([e for (e, _), st in zip(pairs, sample_stage) if stage in ("all", st)],
                                              [r for (_, r), st in zip(pairs, sample_stage) if stage in ("all", st)])
                             for stage in ("early", "mid", "late", "all")}
    for n, triples in search_values.items():
        value_table[f"search_{n}"] = {stage: agreement([e for e, _, st in triples if stage in ("all", st)],
                                                       [r for _, r, st in triples if stage in ("all", st)])
                                      for stage in ("early", "mid", "late", "all")}
    top = levels_for(game)[-1]
    return {"game": name, "players": game.num_players, "kind": kind, "presets": presets,
            "top_level_iterations": top.iterations, "games": games, "play": play, "playouts": playouts,
            "samples_per_game": samples, "mean_decisions": statistics.fmean(lengths) if lengths else None,
            "positions": positions, "noise": noise_table, "values": value_table,
            "seconds": time.perf_counter() - started}


# -- report --------------------------------------------------------------------

def _f(x: Optional[float], fmt: str = ".3f") -> str:
    """``x`` formatted, "-" for no value and "inf" for an infinite ratio."""
    if x is None:
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return format(x, fmt)


def report(entry: Dict[str, Any]) -> str:
    """The tables of one game as text."""
    lines = [f"{entry['game']} ({entry['players']} players): {entry['kind']} {entry['presets']}, top level "
             f"{entry['top_level_iterations']} iterations; {entry['games']} games of {entry['play']} bots "
             f"({entry['mean_decisions']:.0f} decisions on average), {entry['playouts']} playouts a candidate, "
             f"{entry['seconds']:.0f} s",
             "  part 1, root of the search: gap = mean(best) - mean(2nd best by visits); noise = its standard error;"
             " medians over positions, z = gap / noise;",
             "  sd = one playout's spread; sd=0: both candidates' playouts always return one value; flat: that, and"
             " gap 0",
             f"  {'stage':<6} {'n':>3} {'iters':>6} {'gap':>7} {'noise':>7} {'noise/gap':>9} {'z<1':>5} {'z<2':>5}"
             f" {'sd':>6} {'sd=0':>5} {'flat':>5}"]
    for stage, row in entry["noise"].items():
        for key in ("A250", "A1000", "A4000"):
            c = row[key]
            lines.append(f"  {stage:<6} {row['positions']:>3} {key[1:]:>6} {_f(c['median_gap']):>7} "
                         f"{_f(c['median_noise']):>7} {_f(c['median_noise_over_gap'], '.1f'):>9} "
                         f"{_f(c['share_z_below_1'], '.0%'):>5} {_f(c['share_z_below_2'], '.0%'):>5} "
                         f"{_f(c['median_sd']):>6} {_f(c['share_decided'], '.0%'):>5} {_f(c['share_flat'], '.0%'):>5}")
        fl, fc, n = row["flips"], row["flip_counts"], row["positions"]
        lines.append(f"  {stage:<6} chosen move changes: 250->1000 {_f(fl['250->1000'], '.0%')} "
                     f"({fc['250->1000']}/{n}), 1000->4000 {_f(fl['1000->4000'], '.0%')} ({fc['1000->4000']}/{n}), "
                     f"two seeds at 1000 {_f(fl['seeds@1000'], '.0%')} ({fc['seeds@1000']}/{n}), "
                     f"at 4000 {_f(fl['seeds@4000'], '.0%')} ({fc['seeds@4000']}/{n})")
    lines.append("  part 2, estimate against the seat's final return (0-1 scale): r, MSE (constant guess's MSE), n")
    for what, table in entry["values"].items():
        cells = []
        for stage in ("early", "mid", "late", "all"):
            a = table[stage]
            cells.append(f"{stage} r={_f(a.get('r'), '.2f')} mse={_f(a.get('mse'))} ({_f(a.get('mse_constant'))})"
                         f" n={a['n']}")
        lines.append(f"  {what:<11} " + "; ".join(cells))
        bins = table["all"].get("bins", [])
        if bins:
            lines.append("  " + " " * 11 + " calibration: " + ", ".join(
                f"[{b['bin'][0]:.1f},{b['bin'][1]:.1f}) n={b['n']} est {b['estimate']:.2f} got {b['result']:.2f}"
                for b in bins))
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Parse the command line, measure the chosen games, print the tables (and write the JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the CI profile: 2 games a board game, 16 playouts")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated board games (default: all)")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--positions-games", type=int, default=None, help="heuristic games a board game")
    parser.add_argument("--playouts", type=int, default=None, help="playouts a candidate move (noise estimate)")
    parser.add_argument("--samples", type=int, default=None, help="part-2 decisions sampled a game")
    parser.add_argument("--play", choices=PLAYERS_OF_GAMES, default="heuristic",
                        help="who plays the sampled games in every seat (top: the top level, much slower)")
    parser.add_argument("--json", default=None, help="write every figure to this file")
    args = parser.parse_args(argv)
    profile = dict(PROFILES["quick" if args.quick else "full"])
    for key, value in (("games", args.positions_games), ("playouts", args.playouts), ("samples", args.samples)):
        if value is not None:
            profile[key] = value
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in names if g not in GAMES]
    if unknown:
        parser.error(f"unknown board game(s) {', '.join(unknown)}; choose from {', '.join(GAMES)}")
    load = os.getloadavg()
    print(f"search_diagnosis: seed {args.seed}, {profile}, games played by {args.play}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    entries = []
    for name in names:
        print(f"{name} ...", file=sys.stderr)
        entry = diagnose(name, args.seed, profile["games"], profile["playouts"], profile["samples"], args.play)
        entries.append(entry)
        print(report(entry), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"seed": args.seed, "profile": profile, "play": args.play, "load": load, "games": entries}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
