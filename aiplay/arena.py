"""Matches between bots: play seeded games and report win rates with intervals.

A match is a list of *deals* (one seed each). Each deal is played once per
seat rotation, so every bot sits in every seat on the same chance sequence
(for two players: seats swapped). Results are win shares: a game won alone
counts 1, a win shared by k players counts 1/k each.

The interval is the Wilson score interval on the mean share, which for
shares in {0, 1/2, 1} is slightly conservative. Games are independent, so
``processes > 1`` spreads them over worker processes with the same results.

Example::

    from aiplay.arena import run_match
    result = run_match("sunken_city", ["mcts", "heuristic"], deals=100,
                       bot_options=[{"iterations": 2000}, {}], seed=1)
    print(result.summary())
"""

from __future__ import annotations

import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, TextIO

from aiplay import registry
from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, Game
from aiplay.game import sample_chance_outcome
from aiplay.search import make_bot

__all__ = ["GameRecord", "MatchResult", "play_game", "run_match", "wilson_interval"]


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple:
    """The Wilson score interval ``(low, high)`` for a proportion (95 % by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class GameRecord:
    """One finished game: who sat where, the returns, the length."""

    deal: int
    seating: List[int]  # seating[seat] = index of the bot in the match's bot list
    returns: List[float]
    moves: int
    seconds: float

    def shares(self) -> List[float]:
        """Win share per *bot index* (1 alone, 1/k for a k-way tie, 0 otherwise)."""
        best = max(self.returns)
        winners = [seat for seat, r in enumerate(self.returns) if r == best]
        out = [0.0] * len(self.seating)
        for seat in winners:
            out[self.seating[seat]] += 1.0 / len(winners)
        return out


@dataclass
class MatchResult:
    """All the games of a match and their summary per bot."""

    game: str
    bots: List[str]
    records: List[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    def wins(self, bot: int) -> float:
        """Total win share of bot index ``bot``."""
        return sum(r.shares()[bot] for r in self.records)

    def win_rate(self, bot: int) -> float:
        return self.wins(bot) / self.games if self.games else 0.0

    def interval(self, bot: int, z: float = 1.96) -> tuple:
        return wilson_interval(self.wins(bot), self.games, z)

    def summary(self) -> str:
        lines = [f"{self.game}: {self.games} games"]
        for i, name in enumerate(self.bots):
            low, high = self.interval(i)
            lines.append(f"  bot {i} {name:<28} wins {self.wins(i):7.1f}  rate {self.win_rate(i):6.1%}"
                         f"  95% interval [{low:.1%}, {high:.1%}]")
        moves = sum(r.moves for r in self.records) / max(1, self.games)
        seconds = sum(r.seconds for r in self.records)
        lines.append(f"  mean length {moves:.0f} moves; {seconds:.0f} s of play in all")
        return "\n".join(lines)


def play_game(game: Game, bots: Sequence[Any], rng: random.Random, max_moves: Optional[int] = None) -> tuple:
    """Play one game of ``game`` with ``bots[seat]`` in each seat; chance from ``rng``.

    Returns ``(returns, moves)``. ``max_moves`` guards against a runaway
    game: exceeding it raises ``RuntimeError`` (the engines end every game
    themselves, so this is a bug detector, not a rule).
    """
    if len(bots) != game.num_players:
        raise InvalidOptionError(f"{len(bots)} bots for a {game.num_players}-player game")
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance_outcome(state, rng)
        else:
            action = bots[player].choose(state)
        state.apply_action(action)
        moves += 1
        if max_moves is not None and moves > max_moves:
            raise RuntimeError(f"game did not end within {max_moves} moves")
    return list(state.returns()), moves


def _rotations(num_players: int) -> List[List[int]]:
    """Seatings that put every bot in every seat once: cyclic shifts."""
    return [[(seat + shift) % num_players for seat in range(num_players)] for shift in range(num_players)]


def _play_one(job: Dict[str, Any]) -> GameRecord:
    game = registry.load(job["game"], backend=job["backend"], **job["game_options"])
    bots = []
    for seat, bot_index in enumerate(job["seating"]):
        seed = job["seed"] * 1_000_003 + job["deal"] * 101 + seat * 7 + 1
        bots.append(make_bot(job["bots"][bot_index], seed=seed, **job["bot_options"][bot_index]))
    rng = random.Random(job["seed"] * 1_000_003 + job["deal"])
    started = time.perf_counter()
    returns, moves = play_game(game, bots, rng, job.get("max_moves"))
    return GameRecord(job["deal"], list(job["seating"]), returns, moves, time.perf_counter() - started)


def run_match(game: str, bots: Sequence[str], *, deals: int, seed: int = 0,
              bot_options: Optional[Sequence[Mapping[str, Any]]] = None,
              game_options: Optional[Mapping[str, Any]] = None, backend: str = "auto",
              processes: int = 1, progress: Optional[TextIO] = sys.stderr,
              max_moves: Optional[int] = 100_000) -> MatchResult:
    """Play ``deals`` deals of ``game``, each once per seat rotation.

    ``bots`` names one bot kind per seat (see :func:`aiplay.search.make_bot`)
    and ``bot_options`` their options (budgets, ``uct_c``...). The number of
    players is ``len(bots)`` unless ``game_options`` says ``players``. A
    deal's chance sequence and the bots' seeds depend only on ``seed``, the
    deal and the seat, so results do not depend on ``processes``. Progress
    goes to ``progress`` (``None`` for silence) every few games.
    """
    if deals < 1:
        raise InvalidOptionError(f"deals must be >= 1, not {deals}")
    if processes < 1:
        raise InvalidOptionError(f"processes must be >= 1, not {processes}")
    bots = list(bots)
    options = list(bot_options) if bot_options is not None else [{} for _ in bots]
    if len(options) != len(bots):
        raise InvalidOptionError(f"{len(options)} bot_options for {len(bots)} bots")
    game_options = dict(game_options or {})
    game_options.setdefault("players", len(bots))
    if game_options["players"] != len(bots):
        raise InvalidOptionError(f"{len(bots)} bots for players={game_options['players']}")
    registry.load(game, backend=backend, **game_options)  # fail early on a bad name or option
    for kind, opts in zip(bots, options):
        make_bot(kind, **opts)
    jobs = [dict(game=game, backend=backend, game_options=game_options, bots=bots, bot_options=options,
                 seating=seating, deal=deal, seed=seed, max_moves=max_moves)
            for deal in range(deals) for seating in _rotations(len(bots))]
    result = MatchResult(game, [_describe(k, o) for k, o in zip(bots, options)])
    started = time.perf_counter()
    every = max(1, len(jobs) // 20)

    def record(rec: GameRecord) -> None:
        result.records.append(rec)
        if progress is not None and (result.games % every == 0 or result.games == len(jobs)):
            rates = ", ".join(f"{result.win_rate(i):.0%}" for i in range(len(bots)))
            print(f"  [{result.games}/{len(jobs)} games, {time.perf_counter() - started:.0f} s] "
                  f"win rates {rates}", file=progress, flush=True)

    if processes == 1:
        for job in jobs:
            record(_play_one(job))
    else:
        with ProcessPoolExecutor(max_workers=processes) as pool:
            for rec in pool.map(_play_one, jobs, chunksize=1):
                record(rec)
    result.records.sort(key=lambda r: (r.deal, r.seating))
    return result


def _describe(kind: str, options: Mapping[str, Any]) -> str:
    if not options:
        return kind
    return kind + "(" + ", ".join(f"{k}={v}" for k, v in sorted(options.items())) + ")"
