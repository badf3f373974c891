"""Long fuzz run: 100,000+ hostile inputs per game, in worker processes that may crash.

Usage::

    python benchmarks/fuzz_long.py                       # 100,000 cases per game, all games
    python benchmarks/fuzz_long.py --games area51 --cases 20000 --seed 7 --workers 2
    python benchmarks/fuzz_long.py --quick               # CI smoke run: a few seconds
    python benchmarks/fuzz_long.py --games area1851 --start 20000 --cases 20000   # cases 20000..39999

Every registered game is fuzzed by default, the hidden example game (``template``)
included. ``--start N --cases M`` runs cases ``N .. N+M-1`` of the run: exactly the
cases a run of ``N+M`` cases has at those indices (same seeds, same option set for each
index), so a 100,000-case run split into chunks run at different times sums to the
same cases, each counted once (e.g. ``--start 0/25000/50000/75000 --cases 25000``).

Cases come from :mod:`aiplay.testing.fuzzing` (the same generators and checks as
``tests/test_fuzz.py``): mutated JSON positions, random documents, action
sequences with ill-typed and illegal values, bot option combinations, and seat
arguments, weighted by :data:`aiplay.testing.fuzzing.CASE_KINDS`. Case ``i`` of a game
has the seed ``case_seed(--seed, game, options, i)``, so any case is replayed
alone with ``aiplay.testing.fuzzing.case_from_seed`` whatever the worker count.

Workers run batches of cases; each publishes the index of the case it is on in
shared memory, so when a worker dies (segfault, sanitizer abort under the
debug build) or overruns the per-case timeout (a hang), the parent knows the
exact case, writes a reproducer, starts a fresh worker and goes on with the
rest of the batch. Exceptions other than :class:`aiplay.AiplayError` (and
broken properties, :class:`aiplay.testing.fuzzing.FuzzFailure`) are reproducers too,
one file per distinct error. An accepted document is played on with every
successor reloaded on every engine, and every seat's knowledge checked
(:func:`aiplay.testing.fuzzing.check_reloads`, :func:`aiplay.testing.fuzzing.check_knowledge`):
the ``unloadable`` column counts successors that no longer load (they are
among ``other`` too). Exit status: 0 when there was no crash, hang or
other exception, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from aiplay.testing import fuzzing

COLUMNS = ("cases", "accepted", "rejected", "other", "unloadable", "crashes", "hangs")
# Shared per-worker slots: the case index in progress, then counts within the current batch.
SLOT_INDEX, SLOT_DONE, SLOT_ACCEPTED, SLOT_REJECTED, SLOT_OTHER = range(5)


@dataclass
class Task:
    """A batch: cases ``start .. start+count-1`` of one game and option set."""

    game: str
    options: Dict[str, Any]
    start: int
    count: int
    step: int = 1  # case indices go start, start+step, ... (option sets interleave)

    def indices(self) -> List[int]:
        return [self.start + k * self.step for k in range(self.count)]


def worker_main(conn: Connection, slots: Any, clock: Any, seed: int, max_steps: int,
                stderr_path: str) -> None:
    """Run batches sent on ``conn``; report progress in ``slots``/``clock`` and errors on ``conn``."""
    # Ctrl-C is the parent's to handle: it stops the workers and prints what was done.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Sanitizer reports and warnings go to a file the parent quotes in crash reports.
    err = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(err, 2)
    import warnings
    warnings.simplefilter("ignore")
    while True:
        task = conn.recv()
        if task is None:
            return
        for i in range(5):
            slots[i] = 0
        started = time.perf_counter()
        for index in task.indices():
            slots[SLOT_INDEX] = index
            clock.value = time.monotonic()
            try:
                case = fuzzing.case_from_seed(task.game, task.options, None,
                                              fuzzing.case_seed(seed, task.game, task.options, index),
                                              max_steps=max_steps)
                outcome = fuzzing.run_case(case)
                slots[SLOT_ACCEPTED if outcome == "accepted" else SLOT_REJECTED] += 1
            except Exception as exc:  # noqa: BLE001 - every other exception is a finding
                slots[SLOT_OTHER] += 1
                conn.send(("error", task.game, task.options, index, type(exc).__name__,
                           str(exc)[:2000], traceback.format_exc()[-6000:]))
            slots[SLOT_DONE] += 1
        clock.value = 0.0
        conn.send(("done", time.perf_counter() - started))


@dataclass
class Worker:
    """The parent's handle on one worker process and the batch it is running."""

    wid: int
    process: Any = None
    conn: Any = None
    slots: Any = None
    clock: Any = None
    task: Optional[Task] = None


@dataclass
class Totals:
    """Per-game counters of the summary table."""

    counts: Dict[str, int] = field(default_factory=lambda: {c: 0 for c in COLUMNS})
    seconds: float = 0.0  # worker time spent on the game (for cases per second per worker)


class Runner:
    """Distributes batches over worker processes and watches them for deaths and hangs."""

    def __init__(self, args: argparse.Namespace, tasks: List[Task]):
        self.args = args
        self.tasks = tasks
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.ctx = mp.get_context("fork")
        self.workers = [Worker(i) for i in range(args.workers)]
        self.totals: Dict[str, Totals] = {}
        self.signatures: Dict[str, int] = {}
        self.reproducers: List[Path] = []
        self.total_cases = sum(t.count for t in tasks)
        self.done = 0

    # -- worker lifecycle --------------------------------------------------------
    def start(self, w: Worker) -> None:
        parent, child = self.ctx.Pipe()
        w.slots = self.ctx.Array("q", 5, lock=False)
        w.clock = self.ctx.Value("d", 0.0, lock=False)
        w.process = self.ctx.Process(
            target=worker_main, daemon=True,
            args=(child, w.slots, w.clock, self.args.seed, self.args.max_steps,
                  str(self.out / f"worker-{w.wid}.stderr")))
        w.process.start()
        child.close()
        w.conn = parent
        w.task = None

    def stop(self, w: Worker) -> None:
        if w.process is not None and w.process.is_alive():
            w.process.kill()
        if w.process is not None:
            w.process.join(5)
        if w.conn is not None:
            w.conn.close()

    def game_totals(self, game: str) -> Totals:
        return self.totals.setdefault(game, Totals())

    def account(self, w: Worker, done: int, seconds: float) -> None:
        """Add the finished part of ``w``'s batch (its first ``done`` cases) to the totals."""
        t = self.game_totals(w.task.game)
        t.counts["cases"] += done
        t.counts["accepted"] += w.slots[SLOT_ACCEPTED]
        t.counts["rejected"] += w.slots[SLOT_REJECTED]
        t.counts["other"] += w.slots[SLOT_OTHER]
        t.seconds += seconds
        self.done += done

    # -- findings -----------------------------------------------------------------
    def write_reproducer(self, kind: str, game: str, options: Dict[str, Any], index: int,
                         detail: str, signature: str) -> None:
        """One file per distinct failure signature (the first case that showed it)."""
        self.signatures[signature] = self.signatures.get(signature, 0) + 1
        if self.signatures[signature] > 1 or len(self.reproducers) >= self.args.max_reproducers:
            return
        seed = fuzzing.case_seed(self.args.seed, game, options, index)
        try:
            case = fuzzing.case_from_seed(game, options, None, seed, max_steps=self.args.max_steps)
            replay, payload, case_kind = case.python(), fuzzing.describe_payload(case), case.kind
        except Exception as exc:  # noqa: BLE001 - still write what we know
            replay, payload, case_kind = f"# case regeneration failed: {exc!r}", "", "?"
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{kind}-{game}-{case_kind}-{index}")[:120]
        path = self.out / f"{name}.md"
        path.write_text(
            f"# {kind}: {game} {json.dumps(options)}, case {index} ({case_kind})\n\n"
            f"Run seed {self.args.seed}; case seed {seed}.\n\n"
            f"## Replay\n\n```python\n{replay}\n```\n\n"
            f"## What happened\n\n```\n{detail}\n```\n\n## Input\n\n```\n{payload}\n```\n",
            encoding="utf-8")
        self.reproducers.append(path)

    def worker_died(self, w: Worker, hang: bool) -> None:
        """Record the case ``w`` was on as a crash or hang, restart it, requeue the rest of its batch."""
        task = w.task
        index = w.slots[SLOT_INDEX]
        done = w.slots[SLOT_DONE]
        if hang:
            self.stop(w)
        else:
            w.process.join(1)
        code = w.process.exitcode
        self.account(w, done, 0.0)
        t = self.game_totals(task.game)
        t.counts["cases"] += 1
        t.counts["hangs" if hang else "crashes"] += 1
        self.done += 1
        stderr_file = self.out / f"worker-{w.wid}.stderr"
        tail = stderr_file.read_text(errors="replace")[-3000:] if stderr_file.exists() else ""
        what = "hang" if hang else "crash"
        detail = (f"worker exit code {code}" if not hang else
                  f"no result after {self.args.timeout} s") + f"\nworker stderr (tail):\n{tail}"
        self.write_reproducer(what, task.game, task.options, index, detail,
                              f"{what}:{task.game}:{index if hang else code}")
        print(f"  {what.upper()}: {task.game} {task.options} case {index} (exit code {code})", flush=True)
        rest = task.count - done - 1
        if stderr_file.exists():
            stderr_file.unlink()  # the next worker's report must not repeat this one
        self.stop(w)
        self.start(w)
        if rest > 0:
            self.tasks.insert(0, Task(task.game, task.options, index + task.step, rest, task.step))

    def handle(self, w: Worker, message: Tuple) -> None:
        if message[0] == "error":
            _, game, options, index, exc_type, text, tb = message
            if exc_type == "FuzzFailure" and "does not load again" in text:
                # The successor-reload property (issue 27): an accepted position led to one the loader refuses.
                self.game_totals(game).counts["unloadable"] += 1
            # One reproducer per bug, not per value: a broken property by its message's
            # start, an exception by its type and the deepest frame it came from.
            if exc_type == "FuzzFailure":
                signature = "FuzzFailure:" + re.sub(r"\d+", "N", re.split(r"[({\[]", text[:80])[0])
            else:
                frames = re.findall(r'File "([^"]+)", line \d+, in (\w+)', tb)
                where = f"{Path(frames[-1][0]).name}:{frames[-1][1]}" if frames else ""
                signature = f"{exc_type}:{where}"
            self.write_reproducer(f"error-{exc_type}", game, options, index,
                                  f"{exc_type}: {text}\n\n{tb}", f"{game}:{signature}")
        elif message[0] == "done":
            self.account(w, w.slots[SLOT_DONE], message[1])
            w.task = None

    # -- main loop -------------------------------------------------------------------
    def progress(self, started: float) -> None:
        elapsed = time.monotonic() - started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total_cases - self.done) / rate if rate > 0 else float("inf")
        crashes = sum(t.counts["crashes"] for t in self.totals.values())
        hangs = sum(t.counts["hangs"] for t in self.totals.values())
        other = sum(t.counts["other"] for t in self.totals.values())
        print(f"[{elapsed:7.1f}s] {self.done}/{self.total_cases} cases, {rate:.0f} cases/s, "
              f"{crashes} crashes, {hangs} hangs, {other} other exceptions, "
              f"{len(self.signatures)} distinct findings, ETA {eta:.0f}s", flush=True)

    def run(self) -> None:
        for w in self.workers:
            self.start(w)
        started = last = time.monotonic()
        try:
            while self.tasks or any(w.task is not None for w in self.workers):
                for w in self.workers:
                    if w.task is None and self.tasks:
                        w.task = self.tasks.pop(0)
                        w.conn.send(w.task)
                busy = [w for w in self.workers if w.task is not None]
                ready = wait([w.conn for w in busy], timeout=0.2)
                for w in busy:
                    if w.conn in ready:
                        try:
                            while w.conn.poll():
                                self.handle(w, w.conn.recv())
                        except (EOFError, OSError):
                            pass  # the worker died mid-message: seen below
                    if w.task is not None and not w.process.is_alive():
                        self.worker_died(w, hang=False)
                    elif w.task is not None and w.clock.value and \
                            time.monotonic() - w.clock.value > self.args.timeout:
                        self.worker_died(w, hang=True)
                now = time.monotonic()
                if now - last >= self.args.progress_every:
                    self.progress(started)
                    last = now
        finally:
            for w in self.workers:
                try:
                    w.conn.send(None)
                except OSError:
                    pass
                self.stop(w)
        self.progress(started)


def build_tasks(args: argparse.Namespace) -> List[Task]:
    """Batches of cases ``start .. start+cases-1`` of every game; a game's option sets take turns
    (case i: set i % n, whatever the chunk, so chunks of a run are the run's own cases)."""
    tasks = []
    end = args.start + args.cases
    for game in args.games:
        specs = fuzzing.game_specs(games=[game])
        for k, (_, options) in enumerate(specs):
            first_index = args.start + (k - args.start) % len(specs)  # the first i >= start with i % n == k
            count = len(range(first_index, end, len(specs)))
            for first in range(0, count, args.batch):
                n = min(args.batch, count - first)
                tasks.append(Task(game, options, first_index + first * len(specs), n, len(specs)))
    return tasks


def summary(runner: Runner) -> str:
    """The per-game table: counts and cases per second per worker."""
    lines = [f"{'game':<14}" + "".join(f"{c:>11}" for c in COLUMNS) + f"{'cases/s':>10}"]
    grand = {c: 0 for c in COLUMNS}
    for game, t in runner.totals.items():
        rate = t.counts["cases"] / t.seconds if t.seconds else 0.0
        lines.append(f"{game:<14}" + "".join(f"{t.counts[c]:>11}" for c in COLUMNS) + f"{rate:>10.0f}")
        for c in COLUMNS:
            grand[c] += t.counts[c]
    lines.append(f"{'all':<14}" + "".join(f"{grand[c]:>11}" for c in COLUMNS))
    lines.append("(cases/s: per worker process, from the time its batches took)")
    return "\n".join(lines)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    import aiplay

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    every_game = aiplay.games_available(include_hidden=True)
    parser.add_argument("--games", default=",".join(every_game),
                        help="comma-separated games (default: every registered game, the template included)")
    parser.add_argument("--cases", type=int, default=100_000, help="cases per game (default 100000)")
    parser.add_argument("--start", type=int, default=0,
                        help="index of the first case (default 0): run cases start .. start+cases-1")
    parser.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--batch", type=int, default=250, help="cases per batch sent to a worker")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds one case may take before it is a hang")
    parser.add_argument("--max-steps", type=int, default=40,
                        help="random moves played after an accepted JSON load (default 40: cheap cases)")
    parser.add_argument("--out", default="fuzz_out", help="directory for reproducers (default fuzz_out)")
    parser.add_argument("--max-reproducers", type=int, default=300)
    parser.add_argument("--progress-every", type=float, default=5.0, help="seconds between progress lines")
    parser.add_argument("--quick", action="store_true",
                        help="CI smoke profile: 300 cases per game, 2 workers, progress every second")
    args = parser.parse_args(argv)
    if args.quick:
        args.cases = min(args.cases, 300)
        args.batch = 50
        args.workers = min(args.workers, 2)
        args.progress_every = 1.0
    args.games = [g for g in args.games.split(",") if g]
    unknown = sorted(set(args.games) - set(every_game))
    if unknown:
        parser.error(f"unknown games {unknown}; available: {every_game}")
    if args.cases < 1 or args.workers < 1 or args.batch < 1:
        parser.error("--cases, --workers and --batch must be positive")
    if args.start < 0:
        parser.error("--start must be 0 or more")
    return args


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    tasks = build_tasks(args)
    print(f"fuzz_long: {len(args.games)} games x {args.cases} cases (cases {args.start}.."
          f"{args.start + args.cases - 1}), seed {args.seed}, "
          f"{args.workers} workers, reproducers in {args.out}/", flush=True)
    runner = Runner(args, tasks)
    try:
        runner.run()
    except KeyboardInterrupt:
        # The workers are stopped by run()'s cleanup; what they finished still counts.
        print(f"interrupted after {runner.done} of {runner.total_cases} cases", flush=True)
        print(summary(runner), flush=True)
        return 130
    print(summary(runner), flush=True)
    bad = sum(t.counts[c] for t in runner.totals.values() for c in ("other", "crashes", "hangs"))
    if runner.reproducers:
        print(f"{len(runner.signatures)} distinct findings; reproducers:", flush=True)
        for path in runner.reproducers:
            print(f"  {path}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
