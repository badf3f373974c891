"""How often a difficulty level's move is settled by legal order, not by its search.

A level plays the most visited root move, then the one of highest value, then
the first in legal order (:func:`aiplay.search.base.most_visited`,
:func:`aiplay.search.level.choose_among`). Where a decision has hundreds of
legal moves and the search a few hundred iterations (Sunken City's raises:
about 356 moves), many moves share one or two visits and the same value, so
the last rule decides: the lowest action id, whatever the position. This
script plays seeded games between copies of one level and counts, over the
decisions with more than one legal move:

* ``tied``: the best move shared its visits and value with another move;
* ``tied, values differ``: that, while the search did rate other moves
  differently (so the position was not simply won or lost whatever the move);
* ``tied by 5+``: five or more moves tied so, values differing.

The counts are of the search's ties, whatever breaks them; the line printed
also names the game's rule for that level (``Game.level_ties``): ``order``
(legal order decides) or ``heuristic`` (the heuristic's move, see
:func:`aiplay.search.level.order_ties`).

Examples::

    python benchmarks/level_ties.py --game sunken_city --level 2 --games 2     # RESULTS.md, 2026-11-27
    python benchmarks/level_ties.py --quick                                     # CI: one short game
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from typing import Dict, Optional, Sequence

import aiplay
from aiplay.game import CHANCE, sample_chance_outcome
from aiplay.search import NUM_LEVELS, make_bot
from aiplay.search.level import levels_for


def count_ties(game_name: str, level: int, games: int, players: int, seed: int,
               progress: bool = True) -> Dict[str, int]:
    """Play ``games`` games of ``level`` against itself and count its tied decisions (see the module)."""
    game = aiplay.load(game_name, players=players)
    tally: Counter = Counter()
    for index in range(games):
        bots = [make_bot("level", game=game, level=level, seed=seed * 1000 + 10 * index + p) for p in range(players)]
        chance = random.Random(seed * 1000 + index)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance_outcome(state, chance))
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            analysis = bots[player].analyse(state)
            visited = [s for s in analysis.stats if s.visits]
            top = max(s.visits or 0 for s in visited)
            best_value = max(s.value for s in visited if s.visits == top and s.value is not None)
            tied = [s for s in visited if s.visits == top and s.value == best_value]
            values = [s.value for s in visited if s.value is not None]
            differ = max(values) > min(values)
            tally["decisions"] += 1
            tally["tied"] += len(tied) > 1
            tally["tied, values differ"] += len(tied) > 1 and differ
            tally["tied by 5+"] += len(tied) >= 5 and differ
            state.apply_action(analysis.action)
        if progress:
            print(f"  game {index + 1}/{games}: {dict(tally)}", file=sys.stderr, flush=True)
    return dict(tally)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="sunken_city")
    parser.add_argument("--level", type=int, default=2, choices=range(1, NUM_LEVELS + 1))
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="the CI profile: one game of level 1")
    args = parser.parse_args(argv)
    if args.quick:
        args.level, args.games = 1, 1
    tally = count_ties(args.game, args.level, args.games, args.players, args.seed)
    rule = levels_for(aiplay.load(args.game, players=args.players))[args.level - 1].ties
    decisions = tally.get("decisions", 0)
    share = tally.get("tied, values differ", 0) / decisions if decisions else 0.0
    print(f"{args.game}, level {args.level}, {args.games} games at {args.players} players (seed {args.seed}): "
          f"{decisions} decisions; tied {tally.get('tied', 0)}; tied while values differ "
          f"{tally.get('tied, values differ', 0)} ({share:.0%}); of them by 5 or more moves {tally.get('tied by 5+', 0)}; "
          f"ties broken by {rule}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
