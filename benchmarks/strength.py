"""Strength matches: seeded games between bots, seats rotated, win rates with intervals.

Each named match plays ``--deals`` deals, each once per seat rotation (for
two players: seats swapped), so ``--deals 100`` is 200 two-player games.
The figures in ``benchmarks/RESULTS.md`` ("Strength") come from::

    python benchmarks/strength.py sunken_city-mcts-random --deals 100 --processes 2
    python benchmarks/strength.py all --deals 100 --processes 2     # every match below
    python benchmarks/strength.py area1851-ismcts-3heuristics --deals 50 --processes 2  # 200 games

``--list`` shows the matches. Results do not depend on ``--processes``; the
time does (about a minute per 100 games of Sunken City MCTS on one core).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

from aiplay.arena import run_match

MCTS_SC = {"iterations": 2000, "rollout": "policy"}
EXPECTIMAX_SC = {"depth": 2, "leaf_playout": 60}
ISMCTS_A51 = {"iterations": 2000, "rollout": "policy", "rollout_cutoff": 60}
#: Area 1851's preset: random playouts cut after 40 moves, scored by the static evaluation.
ISMCTS_1851 = {"iterations": 2000, "rollout_cutoff": 40}

#: Issue 41 Build 2: MCTS with playouts cut after ``rollout_cutoff`` moves and scored by the learned
#: evaluation (games/sunken_city/value_model.json), against the preset before it (policy playouts to
#: the end: ``rollout_cutoff`` None, which overrides the preset's cutoff), at equal time per move.
SC_CUTOFFS = (20, 60)
SC_SECONDS = (0.05, 0.2)


def _sc_time(seconds: float, cutoff: Optional[int] = None) -> Dict[str, Any]:
    return {"seconds": seconds, "rollout": "policy", "rollout_cutoff": cutoff}


def _top(seconds: float) -> Dict[str, Any]:
    """The top level with a time budget (issue 41, Build 5)."""
    return {"level": 7, "seconds": seconds}


#: Issue 41's yardstick: the top level of b50f1ca (before issue 41), as a plain search with that commit's
#: presets, at a time budget (``seconds`` is added per match) so that both sides get equal time a move.
#: Sunken City's preset then played out with the policy to the end of the game (``rollout_cutoff`` None
#: overrides today's preset cutoff of 20); Area 51's cut its policy playouts at 60 moves with ``uct_c`` 2.0
#: (the tuning of Build 4 made them 80 and 0.3).
B50F1CA_TOP: Dict[str, Tuple[str, Dict[str, Any]]] = {
    "sunken_city": ("mcts", {"rollout": "policy", "rollout_cutoff": None}),
    "area51": ("ismcts", {"rollout": "policy", "rollout_cutoff": 60, "uct_c": 2.0}),
}
#: The time budgets a move of the "new top level against b50f1ca's" matches.
B50F1CA_SECONDS = (0.05, 0.1, 0.4)


#: Issue 41 (fourth session): single changes to Area 1851's ISMCTS preset, each against the preset, at equal
#: time a move, looking for a top level stronger than b50f1ca's (whose Area 1851 top level is the preset).
#: ``A1851_PRESET`` is that preset; ``uct_c`` 2.0 is the default it leaves in place, written out so that
#: these matches stay the same search if the preset changes.
A1851_PRESET: Dict[str, Any] = {"rollout_cutoff": 40, "uct_c": 2.0}
A1851_AT_002S = {**A1851_PRESET, "seconds": 0.02}
A1851_VARIANTS: Dict[str, Dict[str, Any]] = {
    "mo": {"variant": "mo"},
    "opponents-policy": {"opponents": "policy"},
    "smooth": {"smooth": True},
    "mo-selfdet": {"variant": "mo", "self_determinize": 0.25, "reuse_tree": False},
    # Sixth session: the playout itself. Longer random playouts (a game is about 630 moves, chance
    # included), to the end, and the playout policy with random moves mixed in.
    "cutoff80": {"rollout_cutoff": 80},
    "cutoff160": {"rollout_cutoff": 160},
    "to-end": {"rollout_cutoff": None},
    "policy-eps0.3": {"rollout": "policy", "rollout_epsilon": 0.3},
    "policy-eps0.3-to-end": {"rollout": "policy", "rollout_epsilon": 0.3, "rollout_cutoff": None},
    # Seventh session: with the learned evaluation at two players, shorter playouts (0: the model
    # scores the leaf itself), which buy more iterations and a deeper tree for the same time.
    "cutoff0": {"rollout_cutoff": 0},
    "cutoff10": {"rollout_cutoff": 10},
    "cutoff20": {"rollout_cutoff": 20},
}

#: Issue 41 (fifth session): does Area 1851's search get stronger with time, at the preset and at the
#: tuner's best constants (Build 4: ``uct_c`` 0.3, cutoff 80)? Each setting at four times the time
#: against itself, and the two against each other at equal time.
A1851_SCALING: Dict[str, Dict[str, Any]] = {
    "preset": A1851_PRESET,
    "tuned": {"uct_c": 0.3, "rollout_cutoff": 80},
    # Seventh session: does a shorter playout scored by the learned evaluation gain from time?
    "cutoff0": {**A1851_PRESET, "rollout_cutoff": 0},
    "cutoff10": {**A1851_PRESET, "rollout_cutoff": 10},
    # Eighth session: MO-ISMCTS (a tree per seat, each seat's moves chosen by what it sees) needs more
    # iterations than one tree to settle; does it use more time where the preset does not?
    "mo": {**A1851_PRESET, "variant": "mo"},
}
A1851_SCALING_SECONDS = ((0.02, 0.005), (0.1, 0.025), (0.4, 0.1))


#: The first heuristic of a game, kept as a baseline (``heuristic(policy=v1)``).
V1 = {"policy": "v1"}

#: name -> (game, bots, bot options, game options). The first bot is the one measured.
MATCHES: Dict[str, Tuple[str, List[str], List[Dict[str, Any]], Dict[str, Any]]] = {
    "sunken_city-mcts-random": ("sunken_city", ["mcts", "random"], [MCTS_SC, {}], {}),
    "sunken_city-mcts-heuristic": ("sunken_city", ["mcts", "heuristic"], [MCTS_SC, {}], {}),
    **{f"sunken_city-cutoff{c}-preset-{t}s": ("sunken_city", ["mcts", "mcts"], [_sc_time(t, c), _sc_time(t)], {})
       for c in SC_CUTOFFS for t in SC_SECONDS},
    # The top two levels (their MCTS with the game's presets), for the scaling at the top (issue 41).
    "sunken_city-level7-level6": ("sunken_city", ["level", "level"], [{"level": 7}, {"level": 6}], {}),
    "sunken_city-expectimax-heuristic": ("sunken_city", ["expectimax", "heuristic"], [EXPECTIMAX_SC, {}], {}),
    "area51-ismcts-random": ("area51", ["ismcts", "random"], [ISMCTS_A51, {}], {}),
    "area51-ismcts-heuristic": ("area51", ["ismcts", "heuristic"], [ISMCTS_A51, {}], {}),
    "area51-ismcts-3heuristics": ("area51", ["ismcts", "heuristic", "heuristic", "heuristic"],
                                  [ISMCTS_A51, {}, {}, {}], {}),
    "area1851-ismcts-random": ("area1851", ["ismcts", "random"], [ISMCTS_1851, {}], {}),
    "area1851-ismcts-heuristic": ("area1851", ["ismcts", "heuristic"], [ISMCTS_1851, {}], {}),
    "area1851-ismcts-3heuristics": ("area1851", ["ismcts", "heuristic", "heuristic", "heuristic"],
                                    [ISMCTS_1851, {}, {}, {}], {}),
    # The heuristic against its first version (issue 22): one new seat, the others v1.
    "area1851-heuristic-v1": ("area1851", ["heuristic", "heuristic"], [{}, V1], {}),
    "area1851-heuristic-2v1": ("area1851", ["heuristic"] * 3, [{}, V1, V1], {}),
    # The third policy against the Town Hall one (issue 41, Build 3).
    "area1851-heuristic-v2": ("area1851", ["heuristic", "heuristic"], [{}, {"policy": "v2"}], {}),
    "area1851-heuristic-2v2": ("area1851", ["heuristic"] * 3, [{}, {"policy": "v2"}, {"policy": "v2"}], {}),
    **{f"groom_lake-heuristic-{n - 1}v1": ("groom_lake", ["heuristic"] * n, [{}] + [V1] * (n - 1), {})
       for n in (3, 4, 5, 6)},
    # Time as the budget (issue 41, Build 5): the top level at a longer time a move against a shorter
    # one; Groom Lake seats a heuristic third (the game needs three).
    **{f"{g}-top-{long}s-{short}s": (g, ["level"] * n, [_top(long), _top(short)] + [{}] * (n - 2), {})
       for g, n in (("sunken_city", 2), ("area51", 2), ("area1851", 2)) for long, short in ((0.4, 0.1), (1.6, 0.4))},
    **{f"groom_lake-top-{long}s-{short}s": ("groom_lake", ["level", "level", "heuristic"],
                                             [_top(long), _top(short), {}], {})
       for long, short in ((0.4, 0.1), (1.6, 0.4))},
    **{f"area1851-{name}-preset-0.02s": ("area1851", ["ismcts", "ismcts"], [{**A1851_AT_002S, **change}, A1851_AT_002S], {})
       for name, change in A1851_VARIANTS.items()},
    # The tuner's constants against the preset at equal time a move (issue 41's first line).
    **{f"area1851-tuned-preset-{t}s": ("area1851", ["ismcts", "ismcts"],
                                        [{**A1851_SCALING["tuned"], "seconds": t}, {**A1851_PRESET, "seconds": t}], {})
       for t in (0.1, 0.4)},
    **{f"area1851-{name}-{long}s-{short}s": ("area1851", ["ismcts", "ismcts"],
                                              [{**change, "seconds": long}, {**change, "seconds": short}], {})
       for name, change in A1851_SCALING.items() for long, short in A1851_SCALING_SECONDS},
    # Issue 41's Done means: today's top level against b50f1ca's, equal time a move.
    **{f"{g}-top-b50f1ca-{t}s": (g, ["level", kind], [_top(t), {**old, "seconds": t}], {})
       for g, (kind, old) in B50F1CA_TOP.items() if g != "groom_lake" for t in B50F1CA_SECONDS},
}


def head_to_head(result: Any) -> str:
    """How often bot 0 finished ahead of each other seat (ties halved), and among decided pairs."""
    wins = result.pairwise()
    ahead = float(wins[0, 1:].sum())
    behind = float(wins[1:, 0].sum())
    records = [(r.seating, r.returns) for r in result.records]
    ties = sum(1 for seating, returns in records for a in range(len(seating)) for b in range(len(seating))
               if seating[a] == 0 and seating[b] != 0 and returns[a] == returns[b])
    total = ahead + behind
    decided = total - ties
    return (f"bot 0 ahead of another seat in {ahead / total:.1%} of {total:.0f} pairings (ties halved); "
            f"{(ahead - ties / 2) / decided:.1%} of the {decided:.0f} decided ones")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matches", nargs="*", help="match names (see --list), or 'all'")
    parser.add_argument("--deals", type=int, default=100, help="deals per match (games = deals x players)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=1, help="worker processes (results do not change)")
    parser.add_argument("--list", action="store_true", help="list the matches and exit")
    args = parser.parse_args(argv)
    if args.list or not args.matches:
        for name, (game, bots, options, _) in MATCHES.items():
            print(f"{name:<36} {game}: " + " vs ".join(f"{b}{o or ''}" for b, o in zip(bots, options)))
        return 0
    names = list(MATCHES) if args.matches == ["all"] else args.matches
    unknown = [n for n in names if n not in MATCHES]
    if unknown:
        parser.error(f"unknown match(es) {unknown}; see --list")
    for name in names:
        game, bots, options, game_options = MATCHES[name]
        print(f"== {name}: {args.deals} deals x {len(bots)} seatings, seed {args.seed}", flush=True)
        started = time.perf_counter()
        result = run_match(game, bots, deals=args.deals, seed=args.seed, bot_options=options,
                           game_options=game_options, processes=args.processes)
        print(result.summary())
        low, high = result.interval(0)
        baseline = 1.0 / len(bots)
        print(f"RESULT {name}: {result.win_rate(0):.1%} of {result.games} games, 95% interval "
              f"[{low:.1%}, {high:.1%}] (even share {baseline:.0%}); "
              f"{time.perf_counter() - started:.0f} s wall", flush=True)
        if len(bots) > 2:
            print(f"HEAD-TO-HEAD {name}: " + head_to_head(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
