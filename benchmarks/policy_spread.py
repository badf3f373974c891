"""Rollout-policy collapse check (issue 41, Build 3): where a game's heuristic policy plays, against its top search.

For every board game, seeded games are played twice: every seat the heuristic
policy (the ``heuristic`` bot, also the playouts' ``rollout="policy"``), and
every seat the game's strongest search (``strongest_kind``: ISMCTS where
information is hidden, else MCTS) with the game's presets at ``--iterations``
iterations, a stand-in for the top level at a small budget. Each real choice
(a decision with more than one legal move) is put in a category made from
its action name: the words without digits (so "activate 1 at Town Hall" and
"activate 2 at Town Hall" are one category, "activate at Town Hall"), and
for a name like "hand: Pioneer PF gadget" the part before the colon and the
last word ("hand: gadget"). The two columns are each category's share of
the side's choices; ``COLLAPSE`` marks a category the policy never chose
while the search chose it at least ``--min-share`` of its time.

Usage::

    python benchmarks/policy_spread.py                 # 4 games a side per board game, 200 iterations
    python benchmarks/policy_spread.py --quick         # CI: 1 game a side, 30 iterations (under a minute)
    python benchmarks/policy_spread.py --games 10 --iterations 400 --only area1851

Deterministic for a seed (bots and chance are seeded per game).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence, Tuple

import aiplay
from aiplay.game import CHANCE
from aiplay.play import play
from aiplay.search import make_bot, strongest_kind
from aiplay.testing.choose import games_with


def category(name: str) -> str:
    """The category of an action name: its words without digits (see the module docstring)."""
    words = [w for w in name.replace("->", " ").split() if not any(c.isdigit() for c in w)]
    if words and words[0].endswith(":"):
        return " ".join(words[:1] + words[-1:]) if len(words) > 1 else words[0]
    return " ".join(words[:5]) or "(numbers)"


def tally(game: Any, kind: str, options: Dict[str, Any], games: int, seed: int) -> Tuple[Counter, float]:
    """Category counts of the real choices in ``games`` seeded games with ``kind`` in every seat; seconds."""
    counts: Counter = Counter()
    start = time.perf_counter()
    for g in range(games):
        bots = [make_bot(kind, game=game, seed=seed * 1000 + 10 * g + seat, **options)
                for seat in range(game.num_players)]
        state = game.new_initial_state()

        def seen(player: int, action: int) -> None:
            if player != CHANCE and len(state.legal_actions()) > 1:
                counts[category(state.action_to_string(action))] += 1

        play(state, random.Random(seed * 1000 + g), bots=bots, on_move=seen)
    return counts, time.perf_counter() - start


def table(name: str, policy: Counter, search: Counter, min_share: float) -> Tuple[List[str], List[str]]:
    """The side-by-side lines and the collapsed categories."""
    pt, st = max(1, sum(policy.values())), max(1, sum(search.values()))
    lines = [f"{'category':44s} {'policy':>8s} {'search':>8s}"]
    collapsed = []
    for cat in sorted(set(policy) | set(search), key=lambda c: (-(policy[c] / pt + search[c] / st), c)):
        flag = ""
        if policy[cat] == 0 and search[cat] / st >= min_share:
            flag = "  COLLAPSE"
            collapsed.append(cat)
        lines.append(f"{cat[:44]:44s} {100 * policy[cat] / pt:7.1f}% {100 * search[cat] / st:7.1f}%{flag}")
    lines.append(f"{'choices':44s} {pt:8d} {st:8d}")
    return lines, collapsed


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="seeded games a side per board game")
    parser.add_argument("--iterations", type=int, default=200, help="the search's iterations a move")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--min-share", type=float, default=0.01,
                        help="a category the search uses this often and the policy never is a collapse")
    parser.add_argument("--only", default="", help="one game (default: every board game)")
    parser.add_argument("--quick", action="store_true", help="1 game a side, 30 iterations (CI)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.iterations = 1, 30
    names = [args.only] if args.only else games_with(board=True, include_hidden=False)
    print(f"policy spread: {args.games} game(s) a side, search {args.iterations} iterations, seed {args.seed}")
    for name in names:
        game = aiplay.load(name)
        kind = strongest_kind(game)
        policy, pt = tally(game, "heuristic", {}, args.games, args.seed)
        search, stime = tally(game, kind, {"iterations": args.iterations}, args.games, args.seed)
        lines, collapsed = table(name, policy, search, args.min_share)
        print(f"\n== {name} ({game.num_players} players; heuristic {pt:.1f} s, {kind} {stime:.1f} s)")
        print("\n".join(lines))
        print(f"collapse: {', '.join(collapsed) if collapsed else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
