"""Levels explained by the coach (issue 39 item 6): each level's average loss per decision and blunder rate.

Each level plays ``--games`` games against the top level (seat 0 the level, seat 1 the top level,
then swapped; the same chance seed per pair), and :func:`aiplay.review` prices every decision of
the level's seat at ``--budget`` iterations (the solver where a position is small enough). Per
level: decisions reviewed, average loss per decision (in the game's units and as a fraction of
its utility span), blunders per decision and per game, and mistakes-or-worse per decision. Writes
``games/<game>/review_levels.json`` (``--write``), which ``aiplay levels GAME`` prints beside the
ratings; ``--note`` adds a caveat that ``aiplay levels`` prints under the table.

Usage::

    python benchmarks/review_levels.py sunken_city --games 4 --budget 1000 --write
    python benchmarks/review_levels.py pig --quick
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import aiplay
from aiplay.arena import wilson_interval
from aiplay.match import Match
from aiplay.registry import game_entry
from aiplay.review import review
from aiplay.search import NUM_LEVELS, make_bot


def play(game: aiplay.Game, level: int, level_seat: int, seed: int) -> Match:
    """One game: ``level`` in ``level_seat``, the top level elsewhere."""
    match = Match(game, seed=seed)
    bots = [make_bot("level", game=game, level=level if p == level_seat else NUM_LEVELS, seed=seed * 7 + p)
            for p in range(game.num_players)]
    while True:
        match.advance_chance()
        if match.is_terminal():
            return match
        match.apply(bots[match.current_player()].choose(match.state))


def mean_interval(per_game: List[List[float]]) -> List[float]:
    """A 95 % interval of the mean loss per decision, clustered by game (a game's decisions are not
    independent: one bad position costs several moves), by the ratio estimator's standard error.

    With fewer than two games no interval can be drawn from the data: ``[nan, nan]`` is not JSON,
    so the point itself is given twice and the reader is warned by the game count.
    """
    sums = [sum(g) for g in per_game]
    counts = [len(g) for g in per_game]
    n, total = sum(counts), sum(sums)
    if n == 0:
        return [0.0, 0.0]
    mean = total / n
    k = len(per_game)
    if k < 2:
        return [mean, mean]
    # Ratio estimator: residuals of each game's sum against its count times the mean.
    resid = [s - mean * c for s, c in zip(sums, counts)]
    var = k / (k - 1) * sum(r * r for r in resid) / (n * n)
    half = 1.96 * var ** 0.5
    return [max(0.0, mean - half), mean + half]


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=4, help="games per level (default 4)")
    parser.add_argument("--budget", type=int, default=1000, help="review iterations per decision (default 1000)")
    parser.add_argument("--levels", default=",".join(str(k) for k in range(1, NUM_LEVELS + 1)))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, help="players (default: the game's)")
    parser.add_argument("--quick", action="store_true", help="CI-sized: one game, levels 1 and the top")
    parser.add_argument("--write", action="store_true", help="write games/<game>/review_levels.json")
    parser.add_argument("--note", help="a caveat on how to read the table, kept in the file and printed "
                                       "under it by `aiplay levels` (a rerun without --note drops it)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.levels, args.budget = 1, f"1,{NUM_LEVELS}", 200
    game = aiplay.load(args.game, **({"players": args.players} if args.players else {}))
    rows = []
    for level in (int(x) for x in args.levels.split(",")):
        started = time.perf_counter()
        losses: List[float] = []
        labels: List[str] = []
        per_game: List[List[float]] = []
        span = 1.0
        for g in range(args.games):
            seat = g % game.num_players
            match = play(game, level, seat, args.seed * 1000 + g)
            result = review(match, seat, budget=args.budget, seed=args.seed)
            span = result.span
            losses.extend(d.loss for d in result.decisions)
            per_game.append([d.loss for d in result.decisions])
            labels.extend(d.label for d in result.decisions)
        n = len(losses)
        rows.append({
            "level": level, "games": args.games, "decisions": n,
            "mean_loss": statistics.fmean(losses) if n else None,
            "mean_loss_span": statistics.fmean(losses) / span if n else None,
            # 95 % intervals: the loss's clustered by game, the blunder rate's Wilson's over decisions.
            "mean_loss_interval": mean_interval(per_game),
            "blunders_per_decision": labels.count("blunder") / n if n else None,
            "blunders_per_decision_interval": list(wilson_interval(labels.count("blunder"), n)) if n else None,
            "blunders_per_game": labels.count("blunder") / args.games,
            "bad_per_decision": (labels.count("blunder") + labels.count("mistake")) / n if n else None,
            "seconds": time.perf_counter() - started,
        })
        r = rows[-1]
        low, high = r["mean_loss_interval"]
        print(f"level {level}: {n} decisions, mean loss {r['mean_loss']:.4f} [{low:.4f}, {high:.4f}] "
              f"({r['mean_loss_span']:.2%} of the span), {r['blunders_per_game']:.1f} blunders a game ({r['blunders_per_decision']:.1%} of "
              f"decisions), mistakes or worse {r['bad_per_decision']:.1%}, {r['seconds']:.0f} s",
              flush=True)
    doc = {"format": 2, "game": args.game, "options": game.options, "opponent": f"level {NUM_LEVELS}",
           "budget": {"iterations": args.budget}, "seed": args.seed, "levels": rows,
           "date": time.strftime("%Y-%m-%d", time.gmtime()), "aiplay": aiplay.__version__,
           "command": "python benchmarks/review_levels.py " + shlex.join(sys.argv[1:] if argv is None else argv)}
    if args.note:
        doc["note"] = args.note
    if args.write:
        folder = game_entry(args.game).package.rsplit(".", 1)[-1]
        target = Path(__file__).resolve().parent.parent / "games" / folder / "review_levels.json"
        target.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
