"""Win rate against budget, with 95 % interval bars: the picture of an arena (``aiplay arena --plot``).

Needs matplotlib (the ``plot`` extra: ``pip install 'aiplay[plot]'``). Bots
with a budget (iterations, depth, nodes or seconds: :meth:`BotSpec.budget`)
are points, one line per kind and budget unit, on a logarithmic axis when
the budgets span a factor of 10 or more; bots without one (random, heuristic)
are dashed horizontal lines at their win rate.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from aiplay.arena import BotSpec, MatchResult
from aiplay.errors import InvalidOptionError
from aiplay.game import Game

try:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt
except ImportError:  # pragma: no cover - said at call time
    plt = None

__all__ = ["plot_budget"]


def plot_budget(result: MatchResult, specs: Sequence[BotSpec], path: str, game: Optional[Game] = None) -> Any:
    """Draw ``result``'s win rates against each bot's budget into ``path`` (SVG, PNG, PDF by suffix).

    ``specs`` are the arena's bots in order; ``game`` lets budgets come from
    the game's presets. Returns the matplotlib figure (closed after saving).
    """
    if plt is None:
        raise InvalidOptionError("--plot needs matplotlib: pip install 'aiplay[plot]'")
    if len(specs) != len(result.bots):
        raise InvalidOptionError(f"{len(specs)} bot specs for a result of {len(result.bots)} bots")
    series: Dict[Tuple[str, str], List[Tuple[float, float, float, float]]] = {}
    flat: List[Tuple[str, float, float, float]] = []
    for i, spec in enumerate(specs):
        rate = result.win_rate(i)
        low, high = result.interval(i)
        budget = spec.budget(game)
        if budget is None:
            flat.append((spec.label, rate, low, high))
        else:
            series.setdefault((spec.kind, budget[0]), []).append((budget[1], rate, low, high))
    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    budgets = [b for points in series.values() for b, _, _, _ in points]
    for (kind, unit), points in sorted(series.items()):
        points.sort()
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        errors = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
        axes.errorbar(xs, ys, yerr=errors, marker="o", capsize=4, label=f"{kind} ({unit})")
    for label, rate, low, high in flat:
        line = axes.axhline(rate, linestyle="--", linewidth=1, label=label)
        axes.axhspan(low, high, alpha=0.12, color=line.get_color())
    if budgets and max(budgets) >= 10 * min(budgets) > 0:
        axes.set_xscale("log")
    axes.set_xlabel("budget per move")
    axes.set_ylabel("win rate (95 % Wilson interval)")
    axes.set_ylim(0.0, 1.0)
    axes.set_title(f"{result.game}: {result.games} games")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return figure
