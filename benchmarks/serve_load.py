"""Load test of the engine as a service (issue 37): many tables at once, on loopback only.

Starts ``aiplay serve --websocket 0`` on 127.0.0.1 and plays tables against it over WebSocket,
each a browser seen from the server: one connection, one game, a person and a bot. The person
plays a random legal move after a seeded pause of 1 to 3 seconds (human pace); the bot plays
with ``go`` at a difficulty level, the tables' levels going round 1, 4 and 7. A finished game
starts the next one. Reported:

* the reply latency (p50/p95/p99) of the person's moves (``apply``) and of the bot's turns
  (``go`` with ``"level": k, "play": true``, from the request to its ``bestmove``, including any
  wait for a search slot: what the person waits for), per level and over all;
* throughput: final replies per second (refusals for want of a search slot left out: they are
  counted as ``slot_waits``), bot turns per second;
* the server's memory (RSS, sampled every second) over the whole run;
* the ramp: the table count is raised step by step; the largest count whose bot-turn p95 stays
  under 1 s is "tables served";
* hostile clients, side by side: at one table count, a phase without and a phase with hostile
  clients (idle WebSocket clients, half-open TCP connections that never send, oversized
  messages, clients reconnecting in a loop), and the change of every figure in percent (the
  target: within 10 %).

Profiles (all bounded in count and time; the server gets short timeouts so that hostile clients
cycle within a run):

    python benchmarks/serve_load.py --quick      # < 60 s: ramp 2, 4 tables; hostile phases at 4 (CI)
    python benchmarks/serve_load.py --medium     # a few minutes: ramp 3..18, hostile at 6, 2-min soak
    python benchmarks/serve_load.py              # the full profile: ramp up to 48, 30-min soak
    python benchmarks/serve_load.py --soak-only 1800 --tables 6   # only the soak: 30 min at 6 tables
    python benchmarks/serve_load.py --game NAME --options '{"players": 2}'

No timing is asserted: the figures are printed (``--json FILE`` writes them too).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from aiplay.testing.choose import pick_variant

LEVELS = (1, 4, 7)
PROFILES: Dict[str, Dict[str, Any]] = {
    # ramp: table counts; step: seconds per count; hostile_at: tables of the side-by-side phases
    # (None: the ramp's largest passing count, at most hostile_cap); hostile: seconds per phase.
    "quick": {"ramp": [2, 4], "step": 8.0, "hostile_at": 4, "hostile": 10.0, "soak": 0.0},
    "medium": {"ramp": [3, 6, 12, 18], "step": 30.0, "hostile_at": 6, "hostile": 45.0, "soak": 120.0},
    "full": {"ramp": [3, 6, 12, 18, 24, 36, 48], "step": 60.0, "hostile_at": None, "hostile_cap": 24,
             "hostile": 120.0, "soak": 1800.0},
}
#: The bot-turn p95 a table count must keep to count as served, in seconds.
TARGET_P95 = 1.0
#: Seconds between two tries of a bot turn refused for want of a search slot, and the longest wait
#: before the turn is given up (an error): the run stays bounded even on an overloaded server.
SLOT_RETRY = 0.1
SLOT_WAIT_LIMIT = 60.0
#: Hostile clients of the "with" phase.
HOSTILE = {"idle": 4, "half_open": 16, "oversized": 1, "reconnect": 2}


def percentile(values: List[float], q: float) -> Optional[float]:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(q / 100 * (len(ordered) - 1)))))
    return ordered[k]


class Stats:
    """Latencies and counts of one phase."""

    def __init__(self) -> None:
        self.moves: List[float] = []
        self.bots: Dict[int, List[float]] = {k: [] for k in LEVELS}
        self.replies = 0
        self.slot_waits = 0  # go refused with "too many searches" and asked again (not counted as replies)
        self.errors: Dict[str, int] = {}
        self.games = 0
        self.started = time.monotonic()
        self.ended: Optional[float] = None

    def error(self, text: str) -> None:
        key = text[:60]
        self.errors[key] = self.errors.get(key, 0) + 1

    def summary(self) -> Dict[str, Any]:
        seconds = (self.ended or time.monotonic()) - self.started
        bots = [x for v in self.bots.values() for x in v]

        def lat(xs: List[float]) -> Dict[str, Any]:
            return {"n": len(xs), **{f"p{q}": percentile(xs, q) for q in (50, 95, 99)}}

        return {"seconds": seconds, "moves": lat(self.moves), "bot": lat(bots),
                "bot_by_level": {str(k): lat(v) for k, v in self.bots.items()},
                "replies_per_s": self.replies / seconds if seconds else None,
                "bot_turns_per_s": len(bots) / seconds if seconds else None,
                "slot_waits": self.slot_waits, "games_finished": self.games, "errors": dict(self.errors)}


async def request(ws: Any, stats: Stats, rid: int, msg: Dict[str, Any]) -> Dict[str, Any]:
    """Send one request and read until its final reply (info lines skipped)."""
    await ws.send(json.dumps({"id": rid, **msg}))
    while True:
        reply = json.loads(await ws.recv())
        if reply.get("id") == rid and reply.get("type") != "info":
            stats.replies += 1
            return reply


async def table(url: str, index: int, seed: int, game: str, options: Dict[str, Any], holder: Dict[str, Stats],
                stop_at: float) -> None:
    """One table until ``stop_at``: a person (human pace) against a bot at a level."""
    rng = random.Random(seed * 1009 + index)
    level = LEVELS[index % len(LEVELS)]
    rid = 0
    while time.monotonic() < stop_at:
        try:
            async with connect(url, open_timeout=30, max_size=None) as ws:
                rid += 1
                new = await request(ws, holder["stats"], rid, {"cmd": "new", "game": game, "options": options,
                                                               "seed": rng.randrange(10 ** 6), "auto_chance": True})
                if not new["ok"]:
                    holder["stats"].error("new: " + new["error"])
                    await asyncio.sleep(1.0)
                    continue
                person = rng.randrange(2)
                status = new
                while time.monotonic() < stop_at:
                    if status["terminal"]:
                        holder["stats"].games += 1
                        rid += 1
                        await request(ws, holder["stats"], rid, {"cmd": "close", "game_id": status["game_id"]})
                        rid += 1
                        status = await request(ws, holder["stats"], rid, {
                            "cmd": "new", "game": game, "options": options, "seed": rng.randrange(10 ** 6),
                            "auto_chance": True})
                        person = rng.randrange(2)
                        continue
                    if status["to_move"] == person:
                        think = rng.uniform(1.0, 3.0)  # the person thinks
                        if time.monotonic() + think >= stop_at:
                            break
                        await asyncio.sleep(think)
                        rid += 1
                        legal = await request(ws, holder["stats"], rid, {"cmd": "legal", "game_id": status["game_id"]})
                        action = rng.choice(legal["actions"])["id"]
                        rid += 1
                        began = time.monotonic()
                        reply = await request(ws, holder["stats"], rid, {"cmd": "apply", "game_id": status["game_id"],
                                                                         "action": action})
                        holder["stats"].moves.append(time.monotonic() - began)
                        if not reply["ok"]:
                            holder["stats"].error("apply: " + reply["error"])
                            break
                        status = reply
                        continue
                    began = time.monotonic()
                    while True:  # the person waits for the bot, a wait for a search slot included
                        rid += 1
                        reply = await request(ws, holder["stats"], rid, {"cmd": "go", "game_id": status["game_id"],
                                                                         "level": level, "play": True})
                        if reply["ok"] or "too many searches" not in reply.get("error", ""):
                            break
                        holder["stats"].replies -= 1  # a refusal: the throughput counts served requests
                        holder["stats"].slot_waits += 1
                        if time.monotonic() - began > SLOT_WAIT_LIMIT:
                            break
                        await asyncio.sleep(SLOT_RETRY)
                    if not reply["ok"]:
                        holder["stats"].error("go: " + reply["error"])
                        break
                    holder["stats"].bots[level].append(time.monotonic() - began)
                    status = reply["status"]
        except (ConnectionClosed, InvalidStatus, OSError, asyncio.TimeoutError) as exc:
            holder["stats"].error(f"table connection: {type(exc).__name__}")
            await asyncio.sleep(0.5)


# -- hostile clients ---------------------------------------------------------------------------

async def hostile_idle(url: str, stop_at: float, counts: Dict[str, int]) -> None:
    """A WebSocket client that never sends; reconnects once the server closes it (--idle-timeout)."""
    while time.monotonic() < stop_at:
        try:
            async with connect(url, open_timeout=30) as ws:
                counts["idle_connects"] += 1
                try:
                    await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - time.monotonic()))
                except asyncio.TimeoutError:
                    return
        except (ConnectionClosed, InvalidStatus, OSError, asyncio.TimeoutError):
            counts["idle_closed"] += 1
            await asyncio.sleep(0.2)


async def hostile_half_open(port: int, stop_at: float, counts: Dict[str, int]) -> None:
    """A TCP connection that never sends a byte; reopened once the server closes it (--handshake-timeout)."""
    while time.monotonic() < stop_at:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.2)
            continue
        counts["half_open_connects"] += 1
        try:
            await asyncio.wait_for(reader.read(), timeout=max(0.1, stop_at - time.monotonic()))
            counts["half_open_closed"] += 1
        except (asyncio.TimeoutError, OSError):
            pass
        finally:
            writer.close()
        await asyncio.sleep(0.2)


async def hostile_oversized(url: str, stop_at: float, counts: Dict[str, int]) -> None:
    """Sends a 2 MB message (past the 1 MB limit: closed with 1009) once a second."""
    payload = json.dumps({"id": 1, "cmd": "hello", "pad": "x" * 2_000_000})
    while time.monotonic() < stop_at:
        try:
            async with connect(url, open_timeout=30, max_size=None) as ws:
                await ws.send(payload)
                await asyncio.wait_for(ws.recv(), timeout=10)
        except (ConnectionClosed, InvalidStatus, OSError, asyncio.TimeoutError):
            pass
        counts["oversized_sent"] += 1
        await asyncio.sleep(1.0)


async def hostile_reconnect(url: str, stop_at: float, counts: Dict[str, int]) -> None:
    """Connects, asks one short request, hangs up, and again (about 5 times a second)."""
    while time.monotonic() < stop_at:
        try:
            async with connect(url, open_timeout=30) as ws:
                await ws.send(json.dumps({"id": 1, "cmd": "games"}))
                await asyncio.wait_for(ws.recv(), timeout=10)
                counts["reconnects"] += 1
        except (ConnectionClosed, InvalidStatus, OSError, asyncio.TimeoutError):
            counts["reconnect_refused"] += 1
        await asyncio.sleep(0.2)


# -- the server and its memory ------------------------------------------------------------------

def rss_mib(pid: int) -> Optional[float]:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def sample_rss(pid: int, samples: List[Tuple[float, float]], t0: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        value = rss_mib(pid)
        if value is not None:
            samples.append((time.monotonic() - t0, value))
        try:
            await asyncio.wait_for(stop.wait(), timeout=1.0)
        except asyncio.TimeoutError:
            pass


def start_server(args: argparse.Namespace, tables: int) -> Tuple[subprocess.Popen, int, List[str]]:
    hostile = sum(HOSTILE.values())
    command = [sys.executable, "-m", "aiplay", "serve", "--websocket", "0", "--host", "127.0.0.1",
               "--max-connections", str(tables + hostile + 4), "--max-games", str(2 * tables + 8),
               "--max-searches", str(args.max_searches), "--max-handshakes", str(args.max_handshakes),
               "--idle-timeout", str(args.idle_timeout), "--handshake-timeout", str(args.handshake_timeout)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    match = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, int(match.group(1)), command


async def phase(url: str, port: int, tables: int, seconds: float, args: argparse.Namespace, hostile: bool,
                label: str) -> Dict[str, Any]:
    holder = {"stats": Stats()}
    stop_at = time.monotonic() + seconds
    warm = min(3.0, seconds / 4)  # the first seconds (connections, first moves) are not measured
    tasks = [asyncio.create_task(table(url, i, args.seed, args.game, args.game_options, holder, stop_at))
             for i in range(tables)]
    counts: Dict[str, int] = {k: 0 for k in ("idle_connects", "idle_closed", "half_open_connects",
                                             "half_open_closed", "oversized_sent", "reconnects",
                                             "reconnect_refused")}
    if hostile:
        await asyncio.sleep(0.5)  # the tables connect first (as people already seated)
        for _ in range(HOSTILE["idle"]):
            tasks.append(asyncio.create_task(hostile_idle(url, stop_at, counts)))
        for _ in range(HOSTILE["half_open"]):
            tasks.append(asyncio.create_task(hostile_half_open(port, stop_at, counts)))
        for _ in range(HOSTILE["oversized"]):
            tasks.append(asyncio.create_task(hostile_oversized(url, stop_at, counts)))
        for _ in range(HOSTILE["reconnect"]):
            tasks.append(asyncio.create_task(hostile_reconnect(url, stop_at, counts)))
    await asyncio.sleep(warm)
    holder["stats"] = Stats()  # measured from here
    await asyncio.gather(*tasks)
    holder["stats"].ended = time.monotonic()
    result = holder["stats"].summary()
    result.update({"label": label, "tables": tables, "hostile": hostile})
    if hostile:
        result["hostile_counts"] = counts
    return result


def fmt(x: Optional[float], scale: float = 1000.0) -> str:
    return "-" if x is None else f"{x * scale:.0f}"


def line(result: Dict[str, Any]) -> str:
    m, b = result["moves"], result["bot"]
    levels = " ".join(f"L{k} {fmt(v['p95'])}" for k, v in result["bot_by_level"].items())
    return (f"{result['label']:<22} tables {result['tables']:>3}  moves p50/p95/p99 {fmt(m['p50'])}/{fmt(m['p95'])}/"
            f"{fmt(m['p99'])} ms (n={m['n']})  bot p50/p95/p99 {fmt(b['p50'])}/{fmt(b['p95'])}/{fmt(b['p99'])} ms "
            f"(n={b['n']}; p95 {levels})  {result['replies_per_s']:.1f} replies/s  "
            f"{result['bot_turns_per_s']:.2f} bot turns/s  errors {sum(result['errors'].values())}")


def compare(without: Dict[str, Any], with_: Dict[str, Any]) -> Dict[str, Optional[float]]:
    """The change of each figure with the hostile clients, in percent (positive: worse)."""
    out: Dict[str, Optional[float]] = {}
    for kind in ("moves", "bot"):
        for q in ("p50", "p95", "p99"):
            a, b = without[kind][q], with_[kind][q]
            out[f"{kind} {q}"] = None if not a or b is None else 100.0 * (b - a) / a
    for key in ("replies_per_s", "bot_turns_per_s"):
        a, b = without[key], with_[key]
        out[key] = None if not a or b is None else 100.0 * (a - b) / a
    return out


async def run(args: argparse.Namespace) -> Dict[str, Any]:
    profile = PROFILES[args.profile]
    if args.soak_only:
        # Only the soak: no ramp and no side-by-side phases, the given table count from the start.
        profile = {"ramp": [], "step": 0.0, "hostile_at": args.tables, "hostile": 0.0, "soak": args.soak_only}
    biggest = max(profile["ramp"] or [profile["hostile_at"]])
    proc, port, command = start_server(args, biggest)
    url = f"ws://127.0.0.1:{port}/"
    print("server:", " ".join(command[1:]), flush=True)
    samples: List[Tuple[float, float]] = []
    t0 = time.monotonic()
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_rss(proc.pid, samples, t0, stop))
    report: Dict[str, Any] = {"profile": args.profile, "game": args.game, "options": args.game_options,
                              "server_command": command[1:], "cpus": os.cpu_count(), "ramp": []}
    try:
        served = None
        for tables in profile["ramp"]:
            result = await phase(url, port, tables, profile["step"], args, False, "ramp")
            print(line(result), flush=True)
            report["ramp"].append(result)
            if result["bot"]["p95"] is not None and result["bot"]["p95"] < TARGET_P95:
                served = tables
        report["tables_served"] = served
        if profile["ramp"]:
            print(f"tables served with the bot-turn p95 under {TARGET_P95:g} s: {served} "
              f"(of the ramp {profile['ramp']})", flush=True)
        at = profile["hostile_at"] or min(served or profile["ramp"][0], profile.get("hostile_cap", biggest))
        rounds = []
        for r in range(args.rounds if profile["hostile"] else 0):  # without, with, alternating: drift of the machine falls on both
            without = await phase(url, port, at, profile["hostile"], args, False, f"without hostile #{r + 1}")
            print(line(without), flush=True)
            with_ = await phase(url, port, at, profile["hostile"], args, True, f"with hostile #{r + 1}")
            print(line(with_), flush=True)
            print("  hostile:", with_["hostile_counts"], flush=True)
            rounds.append((without, with_))
        report["hostile_rounds"] = [{"without": a, "with": b, "change_percent": compare(a, b)} for a, b in rounds]
        for i, r in enumerate(report["hostile_rounds"]):
            print(f"change with hostile clients, round {i + 1} (%, positive = worse):",
                  {k: (None if v is None else round(v, 1)) for k, v in r["change_percent"].items()}, flush=True)
        if profile["soak"]:
            soak_start = len(samples)
            result = await phase(url, port, at, profile["soak"], args, True, "soak (with hostile)")
            print(line(result), flush=True)
            report["soak"] = result
            soak = [v for _, v in samples[soak_start:]]
            if soak:
                report["soak_rss_mib"] = {"first": soak[0], "max": max(soak), "last": soak[-1]}
                print(f"soak RSS MiB: first {soak[0]:.0f}, max {max(soak):.0f}, last {soak[-1]:.0f}", flush=True)
                # The memory over time, one figure per tenth of the soak: a leak shows as a steady climb.
                timed = samples[soak_start:]
                tenths = [timed[min(len(timed) - 1, i * len(timed) // 10)] for i in range(10)] + [timed[-1]]
                report["soak_rss_over_time"] = [[round(t - timed[0][0]), round(v, 1)] for t, v in tenths]
                print("soak RSS MiB over time (s, MiB):",
                      ", ".join(f"{t}: {v:.0f}" for t, v in report["soak_rss_over_time"]), flush=True)
    finally:
        stop.set()
        await sampler
        alive = proc.poll() is None
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        err = proc.stderr.read() if proc.stderr else ""
    values = [v for _, v in samples]
    report["rss_mib"] = {"first": values[0] if values else None, "max": max(values) if values else None,
                         "last": values[-1] if values else None, "samples": len(values)}
    report["server_alive_at_end"] = alive
    report["server_log_lines"] = err.strip().splitlines()[-5:]
    report["seconds"] = time.monotonic() - t0
    print(f"server RSS MiB over the run: first {report['rss_mib']['first']:.0f}, max {report['rss_mib']['max']:.0f}, "
          f"last {report['rss_mib']['last']:.0f}; alive at the end: {alive}; {report['seconds']:.0f} s in all",
          flush=True)
    return report


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", dest="profile", action="store_const", const="quick", help="< 60 s (CI)")
    group.add_argument("--medium", dest="profile", action="store_const", const="medium", help="a few minutes")
    parser.set_defaults(profile="full")
    default_game, default_options = pick_variant(board=True, perfect_information=True, players=2)
    parser.add_argument("--game", default=default_game,
                        help=f"the game (default: the first two-player board game with perfect information, "
                             f"{default_game})")
    parser.add_argument("--options", default=None, help="the game's options as JSON (default: the chosen variant's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1, help="without/with hostile pairs (default 1)")
    parser.add_argument("--max-searches", type=int, default=4, help="the server's --max-searches (default 4)")
    parser.add_argument("--max-handshakes", type=int, default=32, help="the server's --max-handshakes (default 32)")
    parser.add_argument("--idle-timeout", type=float, default=5.0, help="the server's --idle-timeout (default 5)")
    parser.add_argument("--handshake-timeout", type=float, default=2.0,
                        help="the server's --handshake-timeout (default 2)")
    parser.add_argument("--soak-only", type=float, default=None, metavar="SECONDS",
                        help="run only a soak of this many seconds (with hostile clients), at --tables tables")
    parser.add_argument("--tables", type=int, default=6, help="the table count of --soak-only (default 6)")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.soak_only is not None and not (0 < args.soak_only <= 24 * 3600 and 1 <= args.tables <= 256):
        parser.error("--soak-only takes 0 < SECONDS <= 86400 and --tables 1..256")
    args.game_options = json.loads(args.options) if args.options else (
        default_options if args.game == default_game else {})
    report = asyncio.run(run(args))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=1)
    return 0 if report["server_alive_at_end"] else 1


if __name__ == "__main__":
    sys.exit(main())
