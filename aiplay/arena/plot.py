"""Win rate against budget, with 95 % interval bars: the picture of an arena (``aiplay arena --plot``).

Needs matplotlib (the ``plot`` extra: ``pip install 'aiplay[plot]'``). Bots
with a budget (iterations, depth, nodes or seconds: :meth:`BotSpec.budget`)
are points, one line per kind, one panel per budget unit, on a logarithmic
axis when the budgets span a factor of 10 or more; bots without one (random,
heuristic) are dashed grey lines at their win rate, their interval shaded.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from aiplay.arena import BotSpec, MatchResult
from aiplay.errors import InvalidOptionError
from aiplay.game import Game

try:
    import matplotlib  # type: ignore

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt  # type: ignore
except ImportError:  # pragma: no cover - said at call time
    plt = None  # type: ignore

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
    units = sorted({unit for _, unit in series}) or ["budget"]
    figure, panels = plt.subplots(1, len(units), figsize=(5.2 * len(units) + 1.2, 4.2), sharey=True,
                                  squeeze=False)
    grey = ["0.35", "0.6", "0.15", "0.8"]
    for axes, unit in zip(panels[0], units):  # one panel per budget unit: iterations and depth do not share an axis
        budgets = []
        for (kind, kind_unit), points in sorted(series.items()):
            if kind_unit != unit:
                continue
            points.sort()
            budgets += [p[0] for p in points]
            errors = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
            axes.errorbar([p[0] for p in points], [p[1] for p in points], yerr=errors, marker="o", capsize=4,
                          label=kind)
        for k, (label, rate, low, high) in enumerate(flat):
            colour = grey[k % len(grey)]
            axes.axhline(rate, linestyle="--", linewidth=1, color=colour, label=label)
            axes.axhspan(low, high, alpha=0.10, color=colour)
        if budgets and max(budgets) >= 10 * min(budgets) > 0:
            axes.set_xscale("log")
        axes.set_xlabel(f"{unit} per move")
        axes.grid(True, alpha=0.3)
        axes.legend(fontsize="small")
    panels[0][0].set_ylabel("win rate (95 % Wilson interval)")
    panels[0][0].set_ylim(0.0, 1.0)
    figure.suptitle(f"{result.game}: {result.games} games")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return figure
