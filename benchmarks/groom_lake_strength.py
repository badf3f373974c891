"""Groom Lake strength by role: ISMCTS in one seat among heuristic bots, against the heuristic in that seat.

Issue 13 asks whether native ISMCTS, playing one seat among heuristic bots,
wins more often than the heuristic bot playing the same seat and role, for
the Alien and for a Human separately. Roles are dealt by chance, so a plain
arena would give the Alien's seat to the measured bot in only 1 game of n.
This script instead *conditions the deal*: at the set-up's role draws it
picks the outcome that gives the measured seat the wanted role (the other
role draws stay uniform, from the deal's seeded generator), and every other
chance outcome is drawn as usual.

Each deal is played twice, once with ISMCTS and once with the heuristic in
the measured seat, from the same chance seed and with the same bots in the
other seats (a paired comparison). The measured seat rotates with the deal
number. A game is a win for the seat when its return is positive (a Human
shares the Team's win). The script prints both win rates with 95% Wilson
intervals and the paired difference with its 95% normal interval::

    python benchmarks/groom_lake_strength.py --deals 200 --processes 2       # RESULTS.md figures
    python benchmarks/groom_lake_strength.py --quick                         # CI's short profile

Two searches can be compared the same way (issue 41 Build 2): ``--measured`` and
``--baseline`` take a bot as JSON (``{"kind": "ismcts", "seconds": 0.1,
"rollout_cutoff": 20}``; the kind's options as ``make_bot`` takes them, the
game's presets for the rest), and ``--measured-weights`` / ``--baseline-weights`` make
that side's kernel as it ships (``shipped``, the default: at three players the
searching seat's role picks the model), with the model of ``value_model.json``
for every seat (``learned``), all its weights at zero (``zero``, a control: every
cut playout scored as an even chance of an escape, split evenly), the
hand-fitted evaluation from before issue 41 (``static``, b50f1ca's), a model file,
or one of these per role (``alien=NAME,human=NAME``)::

    python benchmarks/groom_lake_strength.py --players 3 --deals 50 --processes 2 \
        --measured '{"kind": "ismcts", "seconds": 0.1, "rollout_cutoff": 20}' --baseline '{"kind": "ismcts", "seconds": 0.1}' --baseline-weights static

Results do not depend on ``--processes`` (with ``seconds`` budgets they do depend on the machine's load).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from typing import Any, Dict, List, Sequence, Tuple

from aiplay import registry
from aiplay.arena import bot_seed, chance_seed
from aiplay.game import CHANCE, sample_chance_outcome
from aiplay.games.groom_lake import value_model
from aiplay.search import make_bot

GAME = "groom_lake"
ROLES = ("Alien", "Human")
KINDS = ("measured", "baseline")
#: The evaluations a side's kernel can be made with, besides ``shipped`` (the kernel as it ships: at three
#: players each searching seat's role has its own model, ``value_model.SEARCHER_WEIGHTS``): the model of
#: ``value_model.json`` for every seat, all weights zero (an even chance of an escape, split evenly over the
#: living Team), and the hand-fitted static evaluation from before issue 41 (``heuristic.static_values``, as
#: weights of the model: b50f1ca's evaluation). Each of these is used whoever searches.
SHIPPED = "shipped"
WEIGHT_SETS = {"learned": lambda: value_model.WEIGHTS, "zero": lambda: tuple(0.0 for _ in value_model.FEATURES),
               "static": lambda: value_model.STATIC_WEIGHTS}


def weight_set(name: str) -> str:
    """``--measured-weights`` / ``--baseline-weights``: a name of ``WEIGHT_SETS``, a model file (``*.json``),
    or one of those per role, ``alien=NAME,human=NAME`` (the side's kernel then gets the Alien's weights in
    the deals where its seat is the Alien, a Human's in the others: an evaluation by the searching seat's
    role, which is all a one-searcher match can tell apart)."""
    if "=" in name:
        parts = dict(part.split("=", 1) for part in name.split(",") if "=" in part)
        if sorted(parts) != ["alien", "human"] or name.count("=") != 2:
            raise argparse.ArgumentTypeError(f"{name!r}: a weight set per role is written alien=NAME,human=NAME")
        for part in parts.values():
            weight_set(part)
        return name
    if name in WEIGHT_SETS or name == SHIPPED:
        return name
    if name.endswith(".json"):
        try:
            value_model.weights_of(value_model.load_model(name))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise argparse.ArgumentTypeError(f"cannot read a Groom Lake value model from {name}: {error}")
        return name
    raise argparse.ArgumentTypeError(f"{name!r} is neither one of {', '.join(sorted([*WEIGHT_SETS, SHIPPED]))} "
                                     "nor a .json model file")


def weights_for_role(name: str, role: str) -> str:
    """The weight set a side's ``weight_set`` gives a seat holding ``role`` ("Alien" or "Human")."""
    if "=" not in name:
        return name
    return dict(part.split("=", 1) for part in name.split(","))[role.lower()]


def weights_named(name: str) -> Tuple[float, ...]:
    """The weights a ``weight_set`` names (a model file is read in the worker)."""
    if name in WEIGHT_SETS:
        return tuple(WEIGHT_SETS[name]())
    return value_model.weights_of(value_model.load_model(name))


def role_outcome(outcomes: Sequence[Tuple[int, float]], names: Sequence[str], seat: int, role: str,
                 rng: random.Random) -> int:
    """The role-draw outcome that keeps ``seat`` on ``role``, uniform among the others that do.

    ``names`` are the outcomes' names, "Alien is player 3" or "Hunter is player 1".
    """
    drawn_role = names[0].split(" is player ")[0]
    wanted = [a for (a, _), name in zip(outcomes, names) if (int(name.rsplit(" ", 1)[1]) == seat) == (drawn_role == role)]
    if not wanted:  # the seat already has its role (a Human seat at the Hunter's draw)
        wanted = [a for a, _ in outcomes]
    return rng.choice(sorted(wanted))


def conditioned_chance(state: Any, seat: int, role: str, rng: random.Random) -> int:
    """The chance outcome to play at ``state``: at a role draw the one that keeps ``seat`` on ``role``
    (:func:`role_outcome`), elsewhere one drawn with its probability."""
    outcomes = state.chance_outcomes()
    if " is player " in state.action_to_string(outcomes[0][0]):
        return role_outcome(outcomes, [state.action_to_string(a) for a, _ in outcomes], seat, role, rng)
    return sample_chance_outcome(state, rng)


def play_one(task: Tuple[int, int, str, str, int, Dict[str, Any], int, str]) -> Tuple[int, str, str, bool, int]:
    """Play deal ``deal`` with bot ``spec`` (``kind`` names the side) in ``seat`` holding ``role``; the others
    are heuristic bots. The game's kernel is made with the evaluation ``weights`` names (``weight_set``).

    Returns ``(deal, role, kind, won, moves)``.
    """
    deal, seat, role, kind, players, spec, seed, weights = task
    if weights == SHIPPED:
        game = registry.load(GAME, backend="native", players=players)
    else:
        shipped, by_role = value_model.WEIGHTS, value_model.SEARCHER_WEIGHTS
        # The kernel copies value_model.WEIGHTS (and, by role, SEARCHER_WEIGHTS, which falls back to WEIGHTS)
        # when it is made: only this game's kernel gets these, whoever searches.
        value_model.WEIGHTS, value_model.SEARCHER_WEIGHTS = weights_named(weights), {}
        try:
            game = registry.load(GAME, backend="native", players=players)
        finally:
            value_model.WEIGHTS, value_model.SEARCHER_WEIGHTS = shipped, by_role
    bots = []
    for p in range(players):
        if p == seat:
            options = {k: v for k, v in spec.items() if k != "kind"}
            bots.append(make_bot(spec["kind"], game=game, seed=bot_seed(seed, deal, p), **options))
        else:
            bots.append(make_bot("heuristic", game=game, seed=bot_seed(seed, deal, p)))
    rng = random.Random(chance_seed(seed, deal))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = conditioned_chance(state, seat, role, rng)
        else:
            action = bots[player].choose(state)
        state.apply_action(action)
        moves += 1
    return deal, role, kind, state.returns()[seat] > 0, moves


def wilson(wins: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_difference(a: Sequence[bool], b: Sequence[bool], z: float = 1.96) -> Tuple[float, float, float]:
    """Mean of ``a - b`` over paired deals, with its 95% normal interval."""
    diffs = [int(x) - int(y) for x, y in zip(a, b)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def report_discordant(label: str, measured: Sequence[bool], baseline: Sequence[bool]) -> None:
    """Head to head on the deals only one side won: the measured side's share, with its Wilson interval.

    Deals both sides win (or both lose) say nothing about which is stronger; this share is the
    head-to-head figure a paired comparison gives (a sign test).
    """
    only_measured = sum(1 for a, b in zip(measured, baseline) if a and not b)
    only_baseline = sum(1 for a, b in zip(measured, baseline) if b and not a)
    split = only_measured + only_baseline
    if split:
        low, high = wilson(only_measured, split)
        print(f"  {label}: of the {split} deals only one side won, measured won {only_measured} "
              f"({only_measured / split:.1%}, 95% interval [{low:.1%}, {high:.1%}])", flush=True)
    else:
        print(f"  {label}: no deal was won by one side only", flush=True)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per role (each played twice)")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=2000, help="ISMCTS iterations per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=1, help="worker processes (results do not change)")
    parser.add_argument("--quick", action="store_true", help="a short profile: 4 deals per role, 200 iterations")
    parser.add_argument("--measured", default=None, help='the measured bot as JSON (default: ISMCTS at --iterations)')
    parser.add_argument("--baseline", default='{"kind": "heuristic"}', help="the bot it is compared with, as JSON")
    parser.add_argument("--zero-weights", action="store_true", help="the same as --measured-weights zero")
    parser.add_argument("--measured-weights", type=weight_set, default=SHIPPED,
                        help="the evaluation of the measured side's kernel: shipped (the default), learned, zero, "
                             "static or a model .json, or one per role: alien=NAME,human=NAME")
    parser.add_argument("--baseline-weights", type=weight_set, default=SHIPPED,
                        help="the evaluation of the baseline side's kernel (static: the one before issue 41)")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.iterations = 4, 200
    if args.deals < 2:
        parser.error("--deals must be >= 2")
    specs = {"measured": json.loads(args.measured) if args.measured else {"kind": "ismcts", "iterations": args.iterations},
             "baseline": json.loads(args.baseline)}
    if args.quick:
        for spec in specs.values():
            if spec["kind"] != "heuristic" and "seconds" not in spec:
                spec["iterations"] = 200
    if args.zero_weights:
        args.measured_weights = "zero"
    weights = {"measured": args.measured_weights, "baseline": args.baseline_weights}
    labels = {k: f"{k} {json.dumps(v, sort_keys=True)} ({weights[k]} evaluation)" for k, v in specs.items()}
    registry.load(GAME, backend="native", players=args.players)  # fails early without the kernel
    tasks = [(deal, deal % args.players, role, kind, args.players, specs[kind], args.seed + index,
              weights_for_role(weights[kind], role))
             for index, role in enumerate(ROLES) for deal in range(args.deals) for kind in KINDS]
    print(f"== {GAME}, {args.players} players: {args.deals} deals per role, each with {labels['measured']} "
          f"and with {labels['baseline']} in the measured seat, the other seats heuristic", flush=True)
    started = time.perf_counter()
    results: Dict[Tuple[str, str], Dict[int, bool]] = {(r, k): {} for r in ROLES for k in KINDS}
    moves = 0
    every = max(1, len(tasks) // 20)
    with multiprocessing.Pool(args.processes) as pool:
        for done, (deal, role, kind, won, length) in enumerate(pool.imap_unordered(play_one, tasks), 1):
            results[(role, kind)][deal] = won
            moves += length
            if done % every == 0 or done == len(tasks):
                print(f"  [{done}/{len(tasks)} games, {time.perf_counter() - started:.0f} s]", flush=True)
    pooled: Dict[str, List[bool]] = {k: [] for k in KINDS}
    for role in ROLES:
        measured = [results[(role, "measured")][d] for d in range(args.deals)]
        baseline = [results[(role, "baseline")][d] for d in range(args.deals)]
        pooled["measured"] += measured
        pooled["baseline"] += baseline
        for kind, wins in (("measured", measured), ("baseline", baseline)):
            low, high = wilson(sum(wins), len(wins))
            print(f"  {role:<6} {kind:<10} wins {sum(wins):4d}/{len(wins)} = {sum(wins) / len(wins):6.1%}  "
                  f"95% interval [{low:.1%}, {high:.1%}]")
        report_discordant(role, measured, baseline)
        mean, low, high = paired_difference(measured, baseline)
        verdict = "measured better" if low > 0 else ("baseline better" if high < 0 else "no clear difference")
        print(f"RESULT {GAME} {role}: measured - baseline = {mean:+.1%}, 95% interval [{low:+.1%}, {high:+.1%}] "
              f"over {args.deals} paired deals ({verdict})", flush=True)
    report_discordant("both roles", pooled["measured"], pooled["baseline"])
    mean, low, high = paired_difference(pooled["measured"], pooled["baseline"])
    print(f"RESULT {GAME} both roles: measured {sum(pooled['measured'])}/{len(pooled['measured'])}, baseline "
          f"{sum(pooled['baseline'])}/{len(pooled['baseline'])}; measured - baseline = {mean:+.1%}, "
          f"95% interval [{low:+.1%}, {high:+.1%}]", flush=True)
    print(f"  {len(tasks)} games, mean length {moves / len(tasks):.0f} moves, "
          f"{time.perf_counter() - started:.0f} s wall", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
