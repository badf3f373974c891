"""What the value-model fitting scripts share: a ridge logistic regression, its scores, the provenance commit.

``sunken_city_value_fit.py``, ``area1851_value_fit.py`` and ``groom_lake_value_fit.py``
(issue 41, Build 2) import these; they run as scripts from this folder, so it is on their path.
"""

from __future__ import annotations

import subprocess
from typing import Iterator, Tuple

import numpy as np


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1.0, rounds: int = 40) -> np.ndarray:
    """Weights of a logistic regression of ``y`` on ``x`` (Newton's method, an L2 ridge but on the bias)."""
    w = np.zeros(x.shape[1])
    penalty = ridge * np.eye(len(w))
    penalty[0, 0] = 0.0
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        grad = x.T @ (y - p) - penalty @ w
        hess = -(x.T * (p * (1 - p))) @ x - penalty - 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def position_rows(ids: np.ndarray) -> Iterator[Tuple[int, int]]:
    """The ``(start, end)`` row ranges of each position: runs of equal ``ids`` (one row per seat)."""
    start = 0
    while start < len(ids):
        end = start
        while end < len(ids) and ids[end] == ids[start]:
            end += 1
        yield start, end
        start = end


def normalised(values: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``values`` divided by their sum over the seats of the same position (rows of one position are adjacent)."""
    out = values.copy()
    for start, end in position_rows(ids):
        out[start:end] = values[start:end] / values[start:end].sum()
    return out


def scores(prob: np.ndarray, y: np.ndarray, ids: np.ndarray) -> Tuple[float, float]:
    """Mean log loss per seat row, and the share of positions whose most likely seat won (or shared the win)."""
    p = np.clip(prob, 1e-6, 1 - 1e-6)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    right = total = 0
    for start, end in position_rows(ids):
        best = start + int(np.argmax(prob[start:end]))
        right += y[best] > 0
        total += 1
    return loss, right / max(1, total)


def commit() -> str:
    """The repository's commit (and "+dirty" with uncommitted changes), for the provenance."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, check=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
