"""Bradley–Terry ratings with 95 % intervals, from the games of an arena.

Every game is read as pairwise results between the bots that sat at it: for
each pair of seats, the bot with the higher return beat the other, equal
returns are half a win each (for two players this is just the game's result).
The Bradley–Terry model says bot ``i`` beats bot ``j`` with probability
``1 / (1 + exp(theta_j - theta_i))``; the strengths ``theta`` are fitted by
maximum likelihood with Hunter's MM iteration ("MM algorithms for generalized
Bradley-Terry models", Ann. Statist. 2004).

Two choices keep the fit finite and honest:

* a weak prior: one virtual game, drawn (half a win each), between every pair
  of bots that met. Without it a bot that never lost (or never won) would get
  an infinite rating;
* intervals from the observed Fisher information, with the ratings' mean fixed
  at 0 (the ratings say nothing about an absolute level, only differences):
  the covariance is the pseudo-inverse of the information matrix, whose null
  space is exactly that common shift.

Ratings are reported on the Elo scale (400 points = odds of 10 to 1), so
``rating_i - rating_j = 400 * log10(odds that i beats j)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Sequence

import numpy as np

__all__ = ["Rating", "bradley_terry", "pairwise_counts"]

#: Elo points per unit of Bradley–Terry log-strength.
ELO_PER_NATURAL = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Rating:
    """One bot's rating on the Elo scale (mean 0 over the bots) and its 95 % interval."""

    bot: int
    rating: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """Half the width of the interval (the ``±`` figure)."""
        return (self.high - self.low) / 2


def pairwise_counts(num_bots: int, games: Sequence[tuple]) -> np.ndarray:
    """``wins[i, j]``: how often bot ``i`` beat bot ``j`` (halves for ties).

    ``games`` holds ``(seating, returns)`` pairs: ``seating[seat]`` is the
    bot index in that seat and ``returns[seat]`` its return.
    """
    wins = np.zeros((num_bots, num_bots))
    for seating, returns in games:
        for a in range(len(seating)):
            for b in range(a + 1, len(seating)):
                i, j = seating[a], seating[b]
                if i == j:
                    continue  # the same bot in two seats: no information about its strength
                if returns[a] > returns[b]:
                    wins[i, j] += 1.0
                elif returns[a] < returns[b]:
                    wins[j, i] += 1.0
                else:
                    wins[i, j] += 0.5
                    wins[j, i] += 0.5
    return wins


def bradley_terry(wins: np.ndarray, z: float = 1.96, prior_games: float = 1.0,
                  iterations: int = 10_000, tolerance: float = 1e-10) -> List[Rating]:
    """Fit Bradley–Terry strengths to ``wins`` (see :func:`pairwise_counts`); Elo-scale ratings.

    ``prior_games`` virtual drawn games are added between every pair that met
    (see the module docstring); ``z`` sets the interval (1.96: 95 %). A bot
    that met no one gets rating 0 and an infinite interval.
    """
    wins = np.asarray(wins, dtype=float)
    n = wins.shape[0]
    met = (wins + wins.T) > 0
    wins = wins + np.where(met, prior_games / 2.0, 0.0)
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    strength = np.ones(n)
    active = games.sum(axis=1) > 0
    for _ in range(iterations):
        # Hunter's MM step: p_i <- W_i / sum_j n_ij / (p_i + p_j).
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(active, total_wins / np.where(denom > 0, denom, 1.0), 1.0)
        new = new / math.exp(np.log(new[active]).mean()) if active.any() else new
        done = np.max(np.abs(new - strength)) < tolerance
        strength = new
        if done:
            break
    theta = np.log(strength)
    theta = theta - (theta[active].mean() if active.any() else 0.0)
    # Observed information of the log-strengths: I_ij = -n_ij p_ij (1 - p_ij), I_ii = -sum_j I_ij.
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    info = -games * p * (1.0 - p)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    cov = np.linalg.pinv(info[np.ix_(active, active)])
    out = []
    index = {int(bot): k for k, bot in enumerate(np.flatnonzero(active))}
    variances = np.diag(cov)
    for bot in range(n):
        rating = float(theta[bot] * ELO_PER_NATURAL)
        if bot not in index:
            out.append(Rating(bot, 0.0, -math.inf, math.inf))
            continue
        se = math.sqrt(max(0.0, float(variances[index[bot]]))) * ELO_PER_NATURAL
        out.append(Rating(bot, rating, rating - z * se, rating + z * se))
    return out
