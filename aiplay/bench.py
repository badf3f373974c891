"""The speed table of ``benchmarks/RESULTS.md``, measured on this machine (``aiplay bench``).

For every registered game (the board games with the options of their
``benchmark=`` registration, the others with their defaults) it measures:

* random playouts/s: the native kernel's C loop against the reference
  engine's Python loop, and the ratio;
* the Python-visible ``clone()`` of a mid-game state, both engines, in ns;
* the kernel's playout policy, where the game has one: policy playouts/s and
  mean game length against random playouts;
* search speed at the first decision: ISMCTS iterations/s (every game), MCTS
  iterations/s (perfect-information games; for board games also with the
  game's presets), expectimax nodes/s (iterative deepening for a fixed time;
  on hidden-information games it searches the true state, as a speed figure
  only);
* with OpenSpiel installed (the ``compare`` extra), for every game that
  names its OpenSpiel twin (the game class's ``openspiel_game`` attribute):
  ISMCTS simulations/s against ``pyspiel.ISMCTSBot`` on hidden-information
  games and MCTS iterations/s against ``pyspiel.MCTSBot`` on perfect-
  information ones, same UCT constant and budget, over the same decision states.

:func:`measure` returns the table as data (``aiplay bench --json``),
:func:`format_table` as text. ``benchmarks/board_games.py`` is a thin caller.
"""

from __future__ import annotations

import functools
import os
import platform
import random
import time
import timeit
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.game import Game, State, sample_chance_outcome
from aiplay.registry import LiveTable, benchmark_configs, game_entry, games_available, has_native
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot
from aiplay.testing.simulate import play_out, random_walk, skip_chance

__all__ = ["BOARD_GAMES", "decision_state_pairs", "format_table", "measure", "measure_game", "measure_openspiel"]

#: ``{game: options}``: every registered game with a ``benchmark=`` configuration in its
#: register() call (hidden example games only with AIPLAY_SHOW_HIDDEN_GAMES=1); live, so a
#: game registered at run time is included.
BOARD_GAMES = LiveTable(benchmark_configs)

#: The UCT exploration constant of the OpenSpiel comparison (both sides).
UCT_C = 2.0


def reference_playouts_per_second(game: Game, seconds: float) -> float:
    """Random playouts/s of ``game``'s engine through its Python API, for about ``seconds``."""
    rng = random.Random(0)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or count == 0:
        play_out(game.new_initial_state(), rng)
        count += 1
    return count / (time.perf_counter() - start)


def native_playouts_per_second(game: Any, batch: int, policy: bool = False) -> float:
    """Playouts/s of the kernel's own C loop over ``batch`` games (random or policy moves)."""
    start = time.perf_counter()
    if policy:
        game.kernel.playouts(game.new_initial_state(), batch, 1, True)
    else:
        game.kernel.random_playouts(game.new_initial_state(), batch, 1)
    return batch / (time.perf_counter() - start)


def mid_game(game: Game, moves: int = 40) -> State:
    """The state after ``moves`` seeded random moves (or the end, if sooner)."""
    return play_out(game.new_initial_state(), random.Random(1), max_steps=moves)


def first_decision(game: Game) -> State:
    """The first decision of a seeded deal."""
    return skip_chance(game.new_initial_state(), random.Random(2))


def game_length(game: Any, policy: bool, games: int = 20) -> float:
    """Mean moves (decisions and chance) per game from the start, random or policy play."""
    rng = random.Random(3)
    choose = (lambda s: game.kernel.policy_choice(s, rng.getrandbits(64))) if policy else None
    # The walk yields the start and the state after each move: moves = states - 1.
    total = sum(sum(1 for _ in random_walk(game.new_initial_state(), rng, choose=choose)) - 1 for _ in range(games))
    return total / games


def clone_ns(state: State, number: int = 20000) -> float:
    """Nanoseconds per ``state.clone()`` (best of 5 repeats)."""
    return min(timeit.repeat(state.clone, number=number, repeat=5)) / number * 1e9


#: Each search figure is timed over at least this long (repeating the search), so that a rate
#: never comes from a sample of a few nodes in a few microseconds: (quick, full).
MIN_FIGURE_SECONDS = (0.2, 1.0)


def _search_row(what: str, analysis: Any, unit: str, count: float) -> Dict[str, Any]:
    seconds = analysis.counters["seconds"]
    return {"what": what, "unit": unit, "count": count, "seconds": seconds,
            "rate": count / seconds if seconds > 0 else None}


def _analyse(kind: Any, iterations: int, extra: Dict[str, Any], state: Any) -> Any:
    """One seeded search of ``iterations`` by a new bot of class ``kind`` with options ``extra``."""
    return kind(iterations=iterations, seed=1, **extra).analyse(state)


def _constant(value: float) -> Callable[[Any], float]:
    """A counter that gives ``value`` whatever the analysis (a fixed iteration budget)."""
    return lambda analysis: value


def _timed_search(what: str, search: Callable[[], Any], unit: str, count: Callable[[Any], float],
                  min_seconds: float) -> Dict[str, Any]:
    """``search()`` repeated until ``min_seconds`` of search time add up; the rate over all the runs."""
    total_count = total_seconds = 0.0
    runs = 0
    while runs == 0 or total_seconds < min_seconds:
        analysis = search()
        total_count += count(analysis)
        total_seconds += analysis.counters["seconds"]
        runs += 1
    row = {"what": what, "unit": unit, "count": total_count, "seconds": total_seconds,
           "rate": total_count / total_seconds if total_seconds > 0 else None}
    if runs > 1:
        row["runs"] = runs
    return row


def measure_game(name: str, options: Optional[Mapping[str, Any]] = None, quick: bool = False) -> Dict[str, Any]:
    """The speed figures of one game (see the module docstring) as a dict."""
    options = dict(options or {})
    seconds = 0.3 if quick else 3.0
    iterations = 2000 if quick else 20000
    row: Dict[str, Any] = {"game": name, "options": options, "native": has_native(name)}
    reference = aiplay.load(name, backend="reference", **options)
    ref_rate = reference_playouts_per_second(reference, seconds)
    row["reference_playouts_per_s"] = ref_rate
    row["clone_ns"] = {"reference": clone_ns(mid_game(reference), 2000 if quick else 20000)}
    if not row["native"]:
        return row  # the searches below run natively; without a kernel there is nothing to compare
    native: Any = aiplay.load(name, **options)  # a native game: it has a kernel
    batch = max(100, int(ref_rate * 60 * seconds))
    native_rate = native_playouts_per_second(native, batch)
    row["native_playouts_per_s"] = native_rate
    row["playout_speedup"] = native_rate / ref_rate
    row["clone_ns"]["native"] = clone_ns(mid_game(native), 2000 if quick else 20000)
    if native.kernel.has_policy:
        policy_rate = native_playouts_per_second(native, max(50, batch // 10), policy=True)
        row["policy"] = {"playouts_per_s": policy_rate, "relative_to_random": policy_rate / native_rate,
                         "moves_random": game_length(native, False, 5 if quick else 20),
                         "moves_policy": game_length(native, True, 5 if quick else 20)}
    state = first_decision(native)
    presets = native.bot_presets
    searches: List[Dict[str, Any]] = []
    ismcts_variants: List[Tuple[str, Dict[str, Any]]] = [("random rollouts", {})]
    if presets.get("ismcts"):
        ismcts_variants.append((f"presets {dict(presets['ismcts'])}", dict(presets["ismcts"])))
    least = MIN_FIGURE_SECONDS[0 if quick else 1]
    for label, extra in ismcts_variants:
        searches.append(_timed_search(
            f"ISMCTS, {label}", functools.partial(_analyse, ISMCTSBot, iterations, extra, state),
            "iterations", _constant(iterations), least))
    if native.perfect_information:
        mcts_variants: List[Tuple[str, Dict[str, Any]]] = [("random rollouts", {})]
        if presets.get("mcts"):
            mcts_variants.append((f"presets {dict(presets['mcts'])}", dict(presets["mcts"])))
        for label, extra in mcts_variants:
            searches.append(_timed_search(
                f"MCTS, {label}", functools.partial(_analyse, MCTSBot, iterations, extra, state),
                "iterations", _constant(iterations), least))
    hidden: Dict[str, Any] = {} if native.perfect_information else {"allow_hidden_information": True}
    analysis = ExpectimaxBot(seconds=seconds / 3, **hidden).analyse(state)
    searches.append(_search_row(f"expectimax, {seconds / 3:.2g} s (depth {analysis.counters['completed_depth']})",
                                analysis, "nodes", analysis.counters["nodes"]))
    if native.perfect_information and presets.get("expectimax"):
        extra = dict(presets["expectimax"])
        searches.append(_timed_search(f"expectimax, presets {extra}", lambda: ExpectimaxBot(**extra).analyse(state),
                                      "nodes", lambda a: a.counters["nodes"], least))
    row["search_at_first_decision"] = searches
    return row


def openspiel_twin(name: str) -> Optional[str]:
    """The OpenSpiel game that ``name`` reproduces (its class's ``openspiel_game``), or None."""
    return getattr(game_entry(name).reference, "openspiel_game", None)


def decision_state_pairs(name: str, count: int, seed: int, pyspiel: Any) -> List[tuple]:
    """``count`` (aiplay native state, pyspiel state) pairs at decisions of seeded random games.

    ``pyspiel`` is the module (passed in: it is optional). The same states for both libraries,
    so a speed comparison searches the same positions.
    """
    game = aiplay.load(name)
    os_game = pyspiel.load_game(openspiel_twin(name) or name)
    rng = random.Random(seed)
    pairs: List[tuple] = []
    while len(pairs) < count:
        state, os_state = game.new_initial_state(), os_game.new_initial_state()
        while not state.is_terminal() and len(pairs) < count:
            if state.is_chance_node():
                action = sample_chance_outcome(state, rng)
            else:
                pairs.append((state.clone(), os_state.clone()))
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            os_state.apply_action(action)
    return pairs


def openspiel_can_search(name: str, pyspiel: Any) -> bool:
    """Whether OpenSpiel's own search runs on its twin of ``name`` (``pyspiel`` passed in: it is optional).

    Its ISMCTSBot samples worlds with the states' ``ResampleFromInfostate``, which not every
    OpenSpiel game implements (some raise "not implemented"); MCTS needs nothing more.
    """
    if aiplay.load(name, backend="reference").perfect_information:
        return True
    (_, os_state), = decision_state_pairs(name, 1, 1, pyspiel)
    try:
        os_state.resample_from_infostate(os_state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    except pyspiel.SpielError:
        return False
    return True


def _rate(choose: Any, states: Sequence[Any], sims: int) -> float:
    start = time.perf_counter()
    for state in states:
        choose(state)
    return sims * len(states) / (time.perf_counter() - start)


def measure_openspiel(quick: bool = False) -> Optional[List[Dict[str, Any]]]:
    """aiplay's native searches against OpenSpiel's on the same states; None without ``pyspiel``."""
    try:
        import pyspiel  # type: ignore  # the "compare" extra
    except ImportError:
        return None
    sims, count = (200, 20) if quick else (1000, 100)
    rows: List[Dict[str, Any]] = []
    twins = [(name, openspiel_twin(name)) for name in games_available(include_hidden=True)]
    # A twin OpenSpiel cannot search (no world sampling) has no row: there is nothing to race.
    twins = [(name, twin) for name, twin in twins if twin is not None and openspiel_can_search(name, pyspiel)]
    perfect = {name: aiplay.load(name, backend="reference").perfect_information for name, _ in twins}
    # The ISMCTS rows (hidden information) first, then the MCTS rows, each in name order.
    for name, twin in [t for t in twins if not perfect[t[0]]]:
        pairs = decision_state_pairs(name, count, 1, pyspiel)
        ours = ISMCTSBot(iterations=sims, uct_c=UCT_C, seed=1, reuse_tree=False)
        theirs = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), UCT_C, sims)
        rows.append({"what": f"ISMCTS simulations/s, {name}", "aiplay": _rate(ours.choose, [p[0] for p in pairs], sims),
                     "openspiel": _rate(theirs.step, [p[1] for p in pairs], sims)})
    for name, twin in [t for t in twins if perfect[t[0]]]:
        pairs = decision_state_pairs(name, count, 2, pyspiel)
        ours_mcts = MCTSBot(iterations=sims, uct_c=UCT_C, seed=1, reuse_tree=False)
        theirs_mcts = pyspiel.MCTSBot(pyspiel.load_game(twin), pyspiel.RandomRolloutEvaluator(1, 1), UCT_C, sims,
                                      1000, False, 1, False)
        rows.append({"what": f"MCTS iterations/s, {name}", "aiplay": _rate(ours_mcts.choose, [p[0] for p in pairs], sims),
                     "openspiel": _rate(theirs_mcts.step, [p[1] for p in pairs], sims)})
    for r in rows:
        r["ratio"] = r["aiplay"] / r["openspiel"]
        r["budget"] = sims
        r["states"] = count
    return rows


def measure(quick: bool = False, games: Optional[Sequence[str]] = None,
            openspiel: bool = True) -> Dict[str, Any]:
    """The whole table as data: the machine, one entry per game, the OpenSpiel rows (or None).

    ``games``: the games to measure (default: every listed game); board games
    use their ``benchmark=`` options.
    """
    names = list(games) if games is not None else games_available()
    known = set(games_available(include_hidden=True))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InvalidOptionError(f"unknown game(s) {unknown}; see `aiplay games`")
    configs = benchmark_configs(include_hidden=True)
    return {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "processor": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
                    "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None},
        "quick": quick,
        "games": [measure_game(n, configs.get(n, {}), quick) for n in names],
        "openspiel": measure_openspiel(quick) if openspiel else None,
        "openspiel_skipped": not openspiel,
    }


def _n(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:,.0f}"


def format_table(data: Mapping[str, Any]) -> str:
    """The table of :func:`measure` as text."""
    m = data["machine"]
    load = m.get("load_average")
    lines = [f"aiplay bench{' --quick' if data.get('quick') else ''}: Python {m['python']}, {m['processor']}, "
             f"{m['cpus']} CPUs" + (f", load {load[0]:.1f}" if load else "")]
    for g in data["games"]:
        lines.append(f"{g['game']} {g['options'] or ''}".rstrip())
        if not g["native"]:
            lines.append(f"  no native kernel; reference playouts/s {_n(g['reference_playouts_per_s'])}, "
                         f"clone {_n(g['clone_ns']['reference'])} ns")
            continue
        lines.append(f"  random playouts/s: native {_n(g['native_playouts_per_s'])}, reference "
                     f"{_n(g['reference_playouts_per_s'])}, x{g['playout_speedup']:.0f}")
        lines.append(f"  clone(): native {_n(g['clone_ns']['native'])} ns, reference {_n(g['clone_ns']['reference'])} ns")
        if "policy" in g:
            p = g["policy"]
            lines.append(f"  policy playouts/s native {_n(p['playouts_per_s'])} (x{p['relative_to_random']:.2f} random); "
                         f"moves per game: random {p['moves_random']:.0f}, policy {p['moves_policy']:.0f}")
        for s in g["search_at_first_decision"]:
            lines.append(f"  {s['what']}: {_n(s['rate'])} {s['unit']}/s ({_n(s['count'])} in {s['seconds']:.2f} s)")
    if data.get("openspiel_skipped"):
        lines.append("OpenSpiel comparison: skipped (--no-openspiel)")
    elif data.get("openspiel") is None:
        lines.append("OpenSpiel comparison: not run: pyspiel is not installed (pip install 'aiplay[compare]')")
    else:
        lines.append("OpenSpiel comparison (same states, UCT c=2, random rollouts):")
        for r in data["openspiel"]:
            lines.append(f"  {r['what']} ({r['budget']} per move, {r['states']} states): aiplay {_n(r['aiplay'])}, "
                         f"OpenSpiel {_n(r['openspiel'])}, x{r['ratio']:.1f}")
    return "\n".join(lines)




