"""Arenas: seeded round robins between bots, with intervals, ratings, a resumable log and Dask.

:func:`run` plays a round robin: every table of ``players`` distinct bots
out of the list (all of them when there are as many bots as seats), each
*deal* (one chance seed) once per seat rotation, so every bot sits in every
seat on the same chance sequence (for two players: seats swapped, the
"paired deals" of duplicate play). Results are win shares: a game won alone
counts 1, a win shared by k players 1/k each. Each bot's win rate is over
the games it played, with the 95 % Wilson interval (slightly conservative for
shares in {0, 1/2, 1}); with 3 or more bots :mod:`aiplay.arena.ratings` fits
Bradley–Terry ratings with intervals.

Every game is an independent task. Its chance sequence depends only on the
match seed and its deal, each bot's seed only on the match seed, the deal and
the seat (the formulas of the first arena, so old matches replay), so a game
is the same whether it runs here, on ``workers=N`` local Dask processes or on
a remote cluster (``scheduler="tcp://host:port"``); only ``seconds`` budgets
and multi-threaded native searches (``workers=`` in a bot's options) are not
reproducible anywhere.

With ``out=FILE`` every finished game is appended to a JSON-lines file (a
header line describing the match, then one line a game); running the same
match again skips the games already there, so a long run resumes after a
crash or can be extended with more games. The header also records what the
bots take from the game (its presets, a level's settings), so a rerun after
those changed is refused rather than mixed with the old games.

Example::

    from aiplay import arena
    result = arena.run("my_game", ["mcts(iterations=200)", "expectimax", "random"], games=20,
                       game_options={"players": 3}, seed=1)
    print(result.summary())

:func:`run_match` (one table, bot kinds and options apart) is the older
interface, kept for scripts; it calls :func:`run`.
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, TextIO, Tuple, Union

from aiplay import registry
from aiplay.errors import GameTooLongError, InvalidOptionError
from aiplay.exits import Interrupted, sigint_ignored
from aiplay.limits import (
    check_any_int, check_choice, check_list, check_mapping, check_positive_int, check_text, shown,
)
from aiplay.jsonio import parse_json
from aiplay.game import CHANCE, Game
from aiplay.play import play
from aiplay.arena.ratings import Rating, bradley_terry, pairwise_counts
from aiplay.search import make_bot
from aiplay.search.spec import BUDGET_KEYS, BotSpec, _literal, parse_bot, parse_bots  # noqa: F401 - re-exported

__all__ = ["BotSpec", "GameRecord", "MatchResult", "parse_bot", "parse_bots", "play_game", "replay_lines", "run",
           "run_match", "wilson_interval"]

#: Version of the results file's header; a file of another version is refused, not mixed.
RESULTS_FORMAT = 1


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple:
    """The Wilson score interval ``(low, high)`` for a proportion (95 % by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# Bots (kind, options, presets) are read by aiplay.search.spec, shared with play, serve and the demo.


# ---------------------------------------------------------------------------------------------------
# Games and results


@dataclass
class GameRecord:
    """One finished game: who sat where, the returns, the length.

    A game is identified by its ``deal`` and ``seating`` (which bots, in
    which seats); ``index`` is its place in the match's schedule.
    """

    deal: int
    seating: List[int]  # seating[seat] = index of the bot in the match's bot list
    returns: List[float]
    moves: int
    seconds: float
    index: int = -1
    #: Every action of the game in order, chance outcomes included (``aiplay replay`` shows them).
    actions: Optional[List[int]] = None

    @property
    def key(self) -> Tuple[int, Tuple[int, ...]]:
        """``(deal, seating)``: what the results file matches games by when it resumes."""
        return self.deal, tuple(self.seating)

    def shares(self, num_bots: Optional[int] = None) -> List[float]:
        """Win share per *bot index* (1 alone, 1/k for a k-way tie, 0 otherwise).

        The list has ``num_bots`` entries (by default enough for the bots seated).
        """
        best = max(self.returns)
        winners = [seat for seat, r in enumerate(self.returns) if r == best]
        size = num_bots if num_bots is not None else max(len(self.seating), max(self.seating) + 1)
        out = [0.0] * size
        for seat in winners:
            out[self.seating[seat]] += 1.0 / len(winners)
        return out

    def to_dict(self) -> Dict[str, Any]:
        """The record as one line of the results file."""
        data = {"index": self.index, "deal": self.deal, "seating": list(self.seating),
                "returns": list(self.returns), "moves": self.moves, "seconds": round(self.seconds, 6)}
        if self.actions is not None:
            data["actions"] = list(self.actions)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "GameRecord":
        """A record read back from the results file."""
        return cls(int(data["deal"]), [int(b) for b in data["seating"]], [float(r) for r in data["returns"]],
                   int(data["moves"]), float(data["seconds"]), int(data.get("index", -1)),
                   None if data.get("actions") is None else [int(a) for a in data["actions"]])


@dataclass
class MatchResult:
    """All the games of a match (or arena) and their summary per bot."""

    game: str
    bots: List[str]
    records: List[GameRecord] = field(default_factory=list)
    wall_seconds: float = 0.0
    game_options: Dict[str, Any] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Number of games played."""
        return len(self.records)

    def games_of(self, bot: int) -> int:
        """Number of games bot index ``bot`` played."""
        return sum(1 for r in self.records if bot in r.seating)

    def wins(self, bot: int) -> float:
        """Total win share of bot index ``bot``."""
        return sum(r.shares(len(self.bots))[bot] for r in self.records)

    def win_rate(self, bot: int) -> float:
        """Mean win share of bot ``bot`` over the games it played."""
        played = self.games_of(bot)
        return self.wins(bot) / played if played else 0.0

    def interval(self, bot: int, z: float = 1.96) -> tuple:
        """The Wilson interval of bot ``bot``'s win rate (95 % by default)."""
        return wilson_interval(self.wins(bot), self.games_of(bot), z)

    def pairwise(self) -> Any:
        """``wins[i, j]``: how often bot ``i`` finished ahead of bot ``j`` (numpy array; ties halved)."""
        return pairwise_counts(len(self.bots), [(r.seating, r.returns) for r in self.records])

    def ratings(self, z: float = 1.96) -> List[Rating]:
        """Bradley–Terry ratings on the Elo scale with intervals (see :mod:`aiplay.arena.ratings`)."""
        return bradley_terry(self.pairwise(), z=z)

    def summary(self) -> str:
        """A text table: win rates with intervals, ratings for 3 or more bots, lengths and time."""
        lines = [f"{self.game}: {self.games} games"]
        ratings = self.ratings() if len(self.bots) >= 3 and self.records else None
        width = max(28, max(len(b) for b in self.bots))
        for i, name in enumerate(self.bots):
            low, high = self.interval(i)
            line = (f"  bot {i} {name:<{width}} wins {self.wins(i):7.1f}  rate {self.win_rate(i):6.1%}"
                    f"  95% interval [{low:.1%}, {high:.1%}]")
            if ratings is not None:
                line += f"  rating {ratings[i].rating:+6.0f} ± {ratings[i].half_width:.0f}"
            lines.append(line)
        moves = sum(r.moves for r in self.records) / max(1, self.games)
        seconds = sum(r.seconds for r in self.records)
        lines.append(f"  mean length {moves:.0f} moves; {seconds:.0f} s of play in all")
        return "\n".join(lines)

    def to_dict(self) -> Dict[str, Any]:
        """The summary as data (what ``aiplay arena --json`` prints)."""
        ratings = self.ratings() if len(self.bots) >= 3 and self.records else None
        bots = []
        for i, name in enumerate(self.bots):
            low, high = self.interval(i)
            row: Dict[str, Any] = {"bot": i, "name": name, "games": self.games_of(i), "wins": self.wins(i),
                                   "win_rate": self.win_rate(i), "interval": [low, high]}
            if ratings is not None:
                row["rating"] = ratings[i].rating
                row["rating_interval"] = [ratings[i].low, ratings[i].high]
            bots.append(row)
        return {"game": self.game, "games": self.games, "bots": bots,
                "pairwise_wins": self.pairwise().tolist(), "wall_seconds": self.wall_seconds}


def play_game(game: Game, bots: Sequence[Any], rng: random.Random, max_moves: Optional[int] = None,
              actions: Optional[List[int]] = None) -> tuple:
    """Play one game of ``game`` with ``bots[seat]`` in each seat; chance from ``rng``.

    Returns ``(returns, moves)``. ``max_moves`` guards against a runaway
    game: exceeding it raises :class:`~aiplay.errors.GameTooLongError`, a ``RuntimeError`` (the engines end every game
    themselves, so this is a bug detector, not a rule). ``actions``, when
    given, receives every action played (chance outcomes included).
    """
    if len(bots) != game.num_players:
        raise InvalidOptionError(f"{len(bots)} bots for a {game.num_players}-player game")
    state = game.new_initial_state()
    record = None if actions is None else (lambda player, action: actions.append(int(action)))
    # One move past max_moves: the game ran away (the engines end every game themselves).
    moves = play(state, rng, bots=bots, max_steps=None if max_moves is None else max_moves + 1, on_move=record)
    if max_moves is not None and moves > max_moves:
        raise GameTooLongError(f"game did not end within {max_moves} moves (max_moves)")
    return list(state.returns()), moves


def _rotations(num_players: int) -> List[List[int]]:
    """Seatings that put every bot in every seat once: cyclic shifts."""
    return [[(seat + shift) % num_players for seat in range(num_players)] for shift in range(num_players)]


def chance_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal``'s chance sequence (the same for every seating: paired deals)."""
    return seed * 1_000_003 + deal


def bot_seed(seed: int, deal: int, seat: int) -> int:
    """The seed of the bot in ``seat`` at deal ``deal``."""
    return seed * 1_000_003 + deal * 101 + seat * 7 + 1


def schedule(num_bots: int, players: int, deals: int) -> List[Tuple[int, List[int]]]:
    """The round robin as ``(deal, seating)`` pairs, in the order of their game index.

    Tables are the combinations of ``players`` bots out of ``num_bots``; each
    deal of each table is played once per cyclic rotation of its seats. The
    order is deal by deal, so that more deals extend the schedule without
    renumbering the games already in it.
    """
    out = []
    tables = list(itertools.combinations(range(num_bots), players))
    # Deal by deal: a longer match (more --games) only appends games, so indices stay unique on resume.
    for deal in range(deals):
        for table in tables:
            for rotation in _rotations(players):
                out.append((deal, [table[r] for r in rotation]))
    return out


def play_task(job: Mapping[str, Any]) -> GameRecord:
    """Play one game of an arena: the task sent to a worker (plain data in, plain data out).

    ``job`` holds the game name, backend and options, the bots' configurations
    (``BotSpec.to_dict()``), the seating, the deal, the match seed, the game
    index and ``max_moves``.
    """
    game = registry.load(job["game"], backend=job["backend"], **job["game_options"])
    specs = [parse_bot(b) for b in job["bots"]]
    bots = [specs[bot_index].make(game, bot_seed(job["seed"], job["deal"], seat))
            for seat, bot_index in enumerate(job["seating"])]
    rng = random.Random(chance_seed(job["seed"], job["deal"]))
    started = time.perf_counter()
    actions: List[int] = []
    returns, moves = play_game(game, bots, rng, job.get("max_moves"), actions)
    return GameRecord(job["deal"], list(job["seating"]), returns, moves, time.perf_counter() - started,
                      job.get("index", -1), actions)


# The first arena's name for the task (pickled jobs of old scripts still resolve).
_play_one = play_task


# ---------------------------------------------------------------------------------------------------
# Progress


class _Progress:
    """Games done, games per second, time left: a tqdm bar when it is installed, else text lines."""

    def __init__(self, target: Union[bool, TextIO, None], total: int, done: int, label: str,
                 rates: Callable[[], str]):
        self.total, self.done, self.rates = total, done, rates
        self.started = time.perf_counter()
        self.bar: Any = None
        self.stream: Optional[TextIO] = None
        self.every = max(1, total // 20)
        if target is True:
            try:
                from tqdm.auto import tqdm  # type: ignore  # optional (the "progress" extra): a live bar
            except ImportError:
                self.stream = sys.stderr
            else:
                self.bar = tqdm(total=total, initial=done, unit="game", desc=label, file=sys.stderr,
                                dynamic_ncols=True, smoothing=0.1)
        elif target not in (False, None):
            self.stream = target  # type: ignore[assignment]
        self.fresh = 0  # games played in this run (the rate ignores resumed ones)

    def update(self) -> None:
        self.done += 1
        self.fresh += 1
        if self.bar is not None:
            self.bar.set_postfix_str("win rates " + self.rates(), refresh=False)
            self.bar.update(1)
        elif self.stream is not None and (self.done % self.every == 0 or self.done == self.total):
            elapsed = time.perf_counter() - self.started
            rate = self.fresh / elapsed if elapsed > 0 else 0.0
            left = (self.total - self.done) / rate if rate > 0 else 0.0
            print(f"  [{self.done}/{self.total} games, {rate:.2f} games/s, {elapsed:.0f} s, "
                  f"{left:.0f} s left] win rates {self.rates()}", file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------------------------------
# The results file


def _header(game: str, game_options: Mapping[str, Any], backend: str, specs: Sequence[BotSpec],
            seed: int, loaded: Any) -> Dict[str, Any]:
    # "settings" (the game's presets and level tables as the bots use them) lets a rerun tell a
    # match whose bots changed with the package from the same match: same specs, other play.
    return {"aiplay_arena": RESULTS_FORMAT, "game": game, "game_options": dict(game_options),
            "backend": backend, "bots": [s.to_dict() for s in specs], "seed": seed,
            "settings": [s.settings(loaded) for s in specs]}


def read_results(path: str) -> Tuple[Optional[Dict[str, Any]], List[GameRecord], int]:
    """``(header, records, good_bytes)`` of a results file (``(None, [], 0)`` when absent or empty).

    A last line cut short (a run killed while writing) is left out, and
    ``good_bytes`` says where the complete lines end.
    """
    if not os.path.exists(path):
        return None, [], 0
    header: Optional[Dict[str, Any]] = None
    records: List[GameRecord] = []
    good = 0
    with open(path, "rb") as f:
        data = f.read()
    for raw in data.splitlines(keepends=True):
        if not raw.endswith(b"\n"):
            break  # cut short: dropped, rewritten by this run
        line = parse_json(raw, lambda message: InvalidOptionError(f"results file {path}: {message}"),
                          f"line {raw[:80]!r}")
        if header is None:
            if not isinstance(line, dict) or line.get("aiplay_arena") != RESULTS_FORMAT:
                raise InvalidOptionError(f"results file {path} is not an aiplay arena file "
                                         f"(format {RESULTS_FORMAT}); choose another --out")
            header = line
        else:
            records.append(GameRecord.from_dict(line))
        good += len(raw)
    return header, records, good


# ---------------------------------------------------------------------------------------------------
# Executors: here, local processes, Dask


def _execute_here(jobs: Sequence[Mapping[str, Any]]) -> Iterator[GameRecord]:
    for job in jobs:
        yield play_task(job)


def _execute_processes(jobs: Sequence[Mapping[str, Any]], processes: int) -> Iterator[GameRecord]:
    pool = ProcessPoolExecutor(max_workers=processes)
    try:
        with sigint_ignored():  # the workers start here (on submit) and leave Ctrl-C to this process
            results = pool.map(play_task, jobs, chunksize=1)
        yield from results
    except BaseException:
        # Interrupted (or the consumer stopped): do not wait for the queued games; end the running ones.
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _execute_dask(jobs: Sequence[Mapping[str, Any]], workers: int, scheduler: Optional[str]) -> Iterator[GameRecord]:
    """Each job a Dask task, results as they finish (the ``dask`` extra: ``dask[distributed]``)."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed  # type: ignore
    except ImportError:
        raise InvalidOptionError("--workers/--scheduler need Dask: pip install 'aiplay[dask]'") from None
    cluster = None
    if scheduler is not None:
        try:
            client = Client(scheduler)
        except (ValueError, OSError) as exc:  # a malformed address, or nobody there (TimeoutError is an OSError)
            raise InvalidOptionError(f"scheduler {scheduler!r}: cannot connect: {exc}") from None
    else:
        # One single-threaded process per worker: the games are CPU-bound Python and C code.
        # silence_logs: Dask's own chatter (a worker's heartbeat racing the shutdown is logged as an
        # error); a failing game still raises here, through its future.
        with sigint_ignored():  # worker processes leave Ctrl-C to this process
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=logging.CRITICAL)
        client = Client(cluster)
    try:
        futures = client.map(play_task, list(jobs), pure=False)
        for future in as_completed(futures):
            yield future.result()
            future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ---------------------------------------------------------------------------------------------------
# The arena


def run(game: str, bots: Sequence[Union[str, Mapping[str, Any], BotSpec]], *, games: int, seed: int = 0,
        game_options: Optional[Mapping[str, Any]] = None, backend: str = "auto", out: Optional[str] = None,
        workers: int = 1, scheduler: Optional[str] = None, processes: int = 1,
        progress: Union[bool, TextIO, None] = True, max_moves: Optional[int] = 100_000) -> MatchResult:
    """Play a seeded round robin of ``game`` between ``bots``; see the module docstring.

    ``bots``: two or more, each as :func:`parse_bot` reads it. ``games``: games
    per table, rounded up to whole deals (a multiple of the number of seats);
    with as many bots as seats there is one table. ``game_options`` are the
    game's options; ``players`` defaults to the number of bots when the game
    takes it (with more bots than seats, every table of ``players`` bots plays).

    ``out``: the JSON-lines results file; games already in it are not played
    again (its header must describe the same match). ``workers=N`` runs the
    games on a local Dask cluster of N processes, ``scheduler`` on an existing
    Dask cluster, ``processes=N`` on a plain process pool (no Dask); the
    results are the same game by game. ``progress``: True for a bar on stderr
    (tqdm when installed, text lines otherwise), a stream for text lines,
    False/None for silence. The result's records are in schedule order.
    """
    _check_arena(game, bots, games, seed, game_options, backend, out, workers, scheduler, processes, progress,
                 max_moves)
    specs = [parse_bot(b) for b in bots]
    if len(specs) < 2:
        raise InvalidOptionError(f"an arena needs 2 or more bots, not {len(specs)}")
    if scheduler is not None and workers > 1:
        raise InvalidOptionError("give --workers (a local cluster) or --scheduler (an existing one), not both")
    if processes > 1 and (workers > 1 or scheduler is not None):
        raise InvalidOptionError("processes runs without Dask; do not combine it with workers or scheduler")
    game_options = dict(game_options or {})
    spec = registry.game_entry(game).reference.option_spec
    if "players" in spec and "players" not in game_options and len(specs) < spec["players"].default:
        game_options["players"] = len(specs)  # fewer bots than the game's usual seats: one table of them all
    loaded = registry.load(game, backend=backend, **game_options)  # fails early on a bad name or option
    players = loaded.num_players
    if len(specs) < players:
        raise InvalidOptionError(f"{len(specs)} bots for players={players}; give at least one bot per seat")
    for s in specs:  # fail early on a bad kind or option
        s.make(loaded, seed=0)
    deals = -(-games // players)
    plan = schedule(len(specs), players, deals)
    header = _header(game, game_options, backend, specs, seed, loaded)
    result = MatchResult(game, [s.label for s in specs], game_options=dict(loaded.options))
    done: Dict[Tuple[int, Tuple[int, ...]], GameRecord] = {}
    writer: Optional[TextIO] = None
    if out is not None:
        old_header, old_records, good = read_results(out)
        if old_header is not None and old_header != json.loads(json.dumps(header)):
            raise InvalidOptionError(f"results file {out} holds another match ({_difference(old_header, header)}); "
                                     f"choose another --out or delete it")
        wanted = {(deal, tuple(seating)) for deal, seating in plan}
        done = {r.key: r for r in old_records if r.key in wanted}
        if os.path.exists(out):
            with open(out, "r+b") as f:
                f.truncate(good)
        writer = open(out, "a", encoding="utf-8")
        if old_header is None:
            writer.write(json.dumps(header) + "\n")
            writer.flush()
    jobs = [dict(game=game, backend=backend, game_options=game_options, bots=header["bots"], seating=seating,
                 deal=deal, seed=seed, max_moves=max_moves, index=index)
            for index, (deal, seating) in enumerate(plan) if (deal, tuple(seating)) not in done]
    for index, (deal, seating) in enumerate(plan):
        if (deal, tuple(seating)) in done:
            done[(deal, tuple(seating))].index = index
    result.records.extend(done.values())

    def rates() -> str:
        return " ".join(f"{result.win_rate(i):.0%}" for i in range(len(specs)))

    bar = _Progress(progress, len(plan), len(done), game, rates)
    started = time.perf_counter()
    if scheduler is not None or workers > 1:
        records: Iterable[GameRecord] = _execute_dask(jobs, workers, scheduler)
    elif processes > 1:
        records = _execute_processes(jobs, processes)
    else:
        records = _execute_here(jobs)
    try:
        for record in records:
            result.records.append(record)
            if writer is not None:
                writer.write(json.dumps(record.to_dict()) + "\n")
                writer.flush()
            bar.update()
    except KeyboardInterrupt:
        where = f"; they are in {out}: the same command resumes" if out is not None else ""
        raise Interrupted(f"{len(result.records)} of {len(plan)} games played{where}") from None
    finally:
        close = getattr(records, "close", None)
        if close is not None:
            close()  # a generator's pool or cluster is shut down now, not when it is collected
        bar.close()
        if writer is not None:
            writer.close()
    result.wall_seconds = time.perf_counter() - started
    result.records.sort(key=lambda r: r.index)
    return result


#: The most games one arena plays (its schedule is built in memory first).
MAX_GAMES = 1_000_000
#: The most worker processes (``workers``, ``processes``) an arena starts: four per CPU of this machine
#: (at least 8). More processes than that only share the same cores, and a few hundred exhaust the
#: machine's memory and process table before the first game is played.
MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))


def _check_arena(game: Any, bots: Any, games: Any, seed: Any, game_options: Any, backend: Any, out: Any,
                 workers: Any, scheduler: Any, processes: Any, progress: Any, max_moves: Any) -> None:
    """Raise :class:`InvalidOptionError` naming the first argument of :func:`run` of a wrong type or range."""
    check_text("game", game)
    for i, bot in enumerate(check_list("bots", bots)):
        if not isinstance(bot, (str, Mapping, BotSpec)):
            raise InvalidOptionError(f"bots[{i}]={shown(bot)} is invalid; a bot is a spec string "
                                     f"(\"mcts(iterations=100)\"), a mapping like its JSON, or a BotSpec")
    check_positive_int("games", games, allow_none=False, maximum=MAX_GAMES)
    check_any_int("seed", seed)
    check_mapping("game_options", game_options)
    check_choice("backend", backend, registry.BACKENDS)
    if out is not None and not isinstance(out, (str, os.PathLike)):  # an int would be taken for a file descriptor
        raise InvalidOptionError(f"option out={shown(out)} is invalid; it accepts a file name or None")
    check_positive_int("workers", workers, allow_none=False, maximum=MAX_WORKERS)
    check_positive_int("processes", processes, allow_none=False, maximum=MAX_WORKERS)
    check_text("scheduler", scheduler, allow_none=True)
    if not (progress is None or isinstance(progress, bool) or callable(getattr(progress, "write", None))):
        raise InvalidOptionError(f"option progress={shown(progress)} is invalid; it accepts true, false, None "
                                 f"or a text stream")
    check_positive_int("max_moves", max_moves)


def _difference(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return "; ".join(f"{k}: the file does not record them (an older aiplay wrote it), now {new.get(k)!r}"
                     if k == "settings" and k not in old else f"{k}: file {old.get(k)!r}, now {new.get(k)!r}"
                     for k in keys)


def run_match(game: str, bots: Sequence[str], *, deals: int, seed: int = 0,
              bot_options: Optional[Sequence[Mapping[str, Any]]] = None,
              game_options: Optional[Mapping[str, Any]] = None, backend: str = "auto",
              processes: int = 1, progress: Union[bool, TextIO, None] = sys.stderr,
              max_moves: Optional[int] = 100_000) -> MatchResult:
    """Play ``deals`` deals of ``game``, each once per seat rotation (one bot per seat).

    ``bots`` names one bot kind per seat (see :func:`aiplay.search.make_bot`)
    and ``bot_options`` their options (budgets, ``uct_c``...), without the
    game's presets. The number of players is ``len(bots)`` unless
    ``game_options`` says ``players``. A thin form of :func:`run`; the results
    do not depend on ``processes``.
    """
    check_positive_int("deals", deals, allow_none=False, maximum=MAX_GAMES)
    check_positive_int("processes", processes, allow_none=False, maximum=MAX_WORKERS)
    bots = check_list("bots", bots)
    for i, kind in enumerate(bots):
        check_text(f"bots[{i}]", kind)
    options = check_list("bot_options", bot_options) if bot_options is not None else [{} for _ in bots]
    for i, opts in enumerate(options):
        check_mapping(f"bot_options[{i}]", opts, allow_none=False)
    game_options = dict(check_mapping("game_options", game_options))
    if len(options) != len(bots):
        raise InvalidOptionError(f"{len(options)} bot_options for {len(bots)} bots")
    game_options.setdefault("players", len(bots))
    if game_options["players"] != len(bots):
        raise InvalidOptionError(f"{len(bots)} bots for players={game_options['players']}")
    specs = [BotSpec(kind, dict(opts), presets=False) for kind, opts in zip(bots, options)]
    return run(game, specs, games=deals * len(bots), seed=seed, game_options=game_options, backend=backend,
               processes=processes, progress=progress, max_moves=max_moves)


# ---------------------------------------------------------------------------------------------------
# The command line: aiplay arena






def replay_lines(path: str, index: Optional[int] = None, show_state: bool = False) -> Iterator[str]:
    """The lines ``aiplay replay`` prints for game ``index`` of the results file ``path``."""
    header, records, _ = read_results(path)
    if header is None:
        raise InvalidOptionError(f"{path} holds no arena results")
    if not records:
        raise InvalidOptionError(f"{path} holds no finished game yet")
    by_index = {r.index: r for r in records}
    record = records[0] if index is None else by_index.get(index)
    if record is None:
        known = sorted(by_index)
        raise InvalidOptionError(f"{path} has no game of index {index}; its games are {known[0]}..{known[-1]}"
                                 if known else f"{path} has no indexed games")
    if record.actions is None:
        raise InvalidOptionError(f"game {record.index} of {path} was recorded without its moves "
                                 f"(an older aiplay); play it again to replay it")
    game = registry.load(header["game"], backend=header.get("backend", "auto"), **header.get("game_options", {}))
    names = [parse_bot(b).label for b in header["bots"]]
    yield f"{game.name}, options {game.options}: game {record.index} (deal {record.deal}, match seed {header['seed']})"
    yield "seats: " + ", ".join(f"{seat}={names[b]}" for seat, b in enumerate(record.seating))
    state = game.new_initial_state()
    for number, action in enumerate(record.actions, 1):
        player = state.current_player()
        who = "chance" if player == CHANCE else f"player {player} ({names[record.seating[player]]})"
        yield f"{number:4d}. {who}: {state.action_to_string(action)}"
        state.apply_action(action)
        if show_state:
            yield "      " + str(state).replace("\n", "\n      ")
    yield f"final state:\n{state}"
    yield f"returns: {list(state.returns())}"
    if list(state.returns()) != list(record.returns):
        yield f"note: the file says returns {record.returns}: it was played by another version of the game"





