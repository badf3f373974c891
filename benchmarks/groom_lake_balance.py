"""Groom Lake role balance: how often the Alien wins all-heuristic games, per player count.

Every seat plays the same policy (the current heuristic, or ``--policy v1`` for the first one);
roles are dealt at random by the seeded chance sequence. The figures in ``benchmarks/RESULTS.md``
("Groom Lake heuristic balance") come from::

    python benchmarks/groom_lake_balance.py --games 400
    python benchmarks/groom_lake_balance.py --games 400 --policy v1

Each game also counts the votes called (and how many named the Alien), the Hunter's strikes (and
hits), and the life tokens lost to class-C placements, from the public record of the game.

``--versus v1`` measures the current heuristic against the first one side against side: every
deal is played twice from the same chance seed, once with the current policy on the Team's side
(the Humans and the Hunter) and v1 as the Alien, once the other way round. The current policy
wins a game when its side wins (the Team escapes, or the Alien wins)::

    python benchmarks/groom_lake_balance.py --games 200 --versus v1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any, List, Optional

import aiplay
from aiplay.arena import wilson_interval
from aiplay.game import sample_chance_outcome
from aiplay.games.groom_lake import actions as A
from aiplay.games.groom_lake.components import ALIEN
from aiplay.games.groom_lake.rules import ALIEN_WINS


def _policy(game: Any, name: str) -> Any:
    return game.heuristic_policy if name == "new" else game.heuristic_policies[name]


def play(players: int, seed: int, policy_name: str, tally: Counter, alien_policy: Optional[str] = None) -> bool:
    """One game on the reference engine, every seat on ``policy_name`` (the Alien on
    ``alien_policy`` when given); True when the Alien wins."""
    game = aiplay.load("groom_lake", players=players, backend="reference")
    team = _policy(game, policy_name)
    alien = _policy(game, alien_policy or policy_name)
    state: Any = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        seat = state.current_player()
        action = (alien if state.roles[seat] == ALIEN else team)(state, rng)
        block, arg = A.decode(action)
        if block == "vote":
            tally["votes"] += 1
            tally["votes on the Alien"] += state.roles[arg] == ALIEN
        elif block == "strike":
            tally["strikes"] += 1
            tally["strikes on the Alien"] += state.roles[arg] == ALIEN
        life = state.life[seat]
        state.apply_action(action)
        if block == "place" and state.life[seat] < life:
            side = "Alien" if state.roles[seat] == ALIEN else "Team"
            tally[f"class-C lives ({side})"] += 1
            tally[f"class-C deaths ({side})"] += state.life[seat] == 0
    return state.result == ALIEN_WINS


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", default="3,4,5,6", help="player counts, comma-separated")
    parser.add_argument("--policy", default="new", help="'new' (the current heuristic) or an earlier one, e.g. v1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--versus", default=None, help="an earlier policy (v1) to play side against side")
    args = parser.parse_args(argv)
    if args.versus:
        return versus(args)
    for players in (int(p) for p in args.players.split(",")):
        started = time.perf_counter()
        tally: Counter = Counter()
        alien = sum(play(players, args.seed * 1_000_003 + g, args.policy, tally) for g in range(args.games))
        low, high = wilson_interval(alien, args.games)
        per_game = ", ".join(f"{k} {v / args.games:.2f}" for k, v in sorted(tally.items()))
        print(f"{args.policy} {players} players: Alien wins {alien}/{args.games} = {alien / args.games:.1%} "
              f"[{low:.1%}, {high:.1%}]; per game: {per_game}; {time.perf_counter() - started:.0f} s", flush=True)
    return 0


def versus(args: argparse.Namespace) -> int:
    """The current policy against ``args.versus``, side against side, on paired deals."""
    total_wins = total = 0
    for players in (int(p) for p in args.players.split(",")):
        started = time.perf_counter()
        tally: Counter = Counter()
        team_wins = alien_wins = 0
        for g in range(args.games):
            seed = args.seed * 1_000_003 + g
            team_wins += not play(players, seed, "new", tally, alien_policy=args.versus)
            alien_wins += play(players, seed, args.versus, tally, alien_policy="new")
        wins = team_wins + alien_wins
        low, high = wilson_interval(wins, 2 * args.games)
        total_wins += wins
        total += 2 * args.games
        print(f"new vs {args.versus}, {players} players: new wins {wins}/{2 * args.games} = "
              f"{wins / (2 * args.games):.1%} [{low:.1%}, {high:.1%}] (as the Team {team_wins}/{args.games}, "
              f"as the Alien {alien_wins}/{args.games}); {time.perf_counter() - started:.0f} s", flush=True)
    low, high = wilson_interval(total_wins, total)
    print(f"new vs {args.versus}, all: {total_wins}/{total} = {total_wins / total:.1%} [{low:.1%}, {high:.1%}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
