"""Fuzzing support: seeded generators of hostile inputs and the checks run on them.

Shared by the property tests (``tests/test_fuzz.py``, driven by Hypothesis)
and the long fuzzer (``benchmarks/fuzz_long.py``, millions of cases in worker
processes), so both feed the library the same kinds of input and judge the
outcome by the same rules.

A fuzz *case* is one :class:`Case`: a game (name and options), a kind
(:data:`CASE_KINDS`) and a concrete payload (a JSON text, a list of steps, bot
options...). :func:`generate_case` builds it from a seed and a
:class:`random.Random`; :func:`run_case` executes it on every engine the game
has and returns ``"accepted"`` or ``"rejected"`` (an
:class:`~aiplay.errors.AiplayError` was raised where the contract allows it).
Anything else escapes: a :class:`FuzzFailure` for a broken property (a
rejected input that changed the state, an illegal action accepted, engines
that disagree, a round trip that differs), or the unexpected exception itself
(``KeyError``, ``RecursionError``, ``OverflowError``...). A crash of the
process (segfault, sanitizer abort) cannot be caught here; the long fuzzer
runs cases in worker processes for that.

Every generator takes an explicit :class:`random.Random`, so a case is
reproduced from its seed (:func:`case_from_seed`), and Hypothesis can drive
the same generators with a shrinkable ``st.randoms()`` generator.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import math
import operator
import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import aiplay
from aiplay.errors import AiplayError, InvalidStateError
from aiplay.game import CHANCE, TERMINAL, Game, State, sample_chance_outcome
from aiplay.registry import contract_options, game_entry, has_native
from aiplay.arena import tournament
from aiplay.search import make_bot
from aiplay.search.spec import parse_bot
from aiplay.testing.simulate import play_out

try:  # numpy is a dependency of aiplay, but keep the generators usable without it
    import numpy as np
except ImportError:  # pragma: no cover - numpy is installed with aiplay
    np = None  # type: ignore[assignment]

#: The kinds of case, with their weights in a long run (cheap JSON and action
#: cases dominate; bot cases cost a search each).
CASE_KINDS: Dict[str, int] = {"json": 40, "random_json": 8, "actions": 30, "bot": 14, "seats": 8}
#: Kinds that :func:`generate_case` builds but :func:`pick_kind` does not draw by default (a new kind
#: in CASE_KINDS would change the case every recorded seed replays): ``api``, calls of the public entry
#: points with one hostile argument (``tests/test_fuzz.py``; a long run adds it with ``weights``).
EXTRA_KINDS: Dict[str, int] = {"api": 10}

#: Bot kinds :func:`random_bot_options` draws from.
BOT_KINDS = ("random", "heuristic", "mcts", "ismcts", "expectimax")

HUGE = 2 ** 70

#: Values given where the API takes a number (issue 37: every one must end in a result or an AiplayError):
#: integers past C's and float's range, floats that are not finite or barely so, and other types.
HOSTILE_NUMBERS: Tuple[Any, ...] = (
    2 ** 31, 2 ** 63, -2 ** 63 - 1, 2 ** 64, HUGE, 10 ** 400, -10 ** 400,
    math.inf, -math.inf, math.nan, 1e308, -1e308, -0.0, 0.0, 5e-324, 0.5,
    0, -1, True, False, None, "1", "x", "", [], [1], {}, {"a": 1}, (1,), b"1", 1j,
)


class FuzzFailure(AssertionError):
    """A property of the API that a fuzz case broke (not an exception the library raised)."""


# -- games ------------------------------------------------------------------

GameSpec = Tuple[str, Dict[str, Any]]

_GAMES: Dict[Tuple[str, str, str], Game] = {}


def engines(name: str) -> List[str]:
    """The backends of ``name``: ``"reference"``, plus ``"native"`` when its kernel is built."""
    return ["reference"] + (["native"] if has_native(name) else [])


def load_game(name: str, options: Mapping[str, Any], backend: str) -> Game:
    """``aiplay.load(name, backend, **options)``, cached (games are immutable)."""
    key = (name, backend, json.dumps(dict(options), sort_keys=True))
    if key not in _GAMES:
        _GAMES[key] = aiplay.load(name, backend=backend, **options)
    return _GAMES[key]


def game_specs(option_sets: Optional[Mapping[str, List[dict]]] = None,
               games: Optional[Sequence[str]] = None) -> List[GameSpec]:
    """``(name, options)`` for every registered game (or those in ``games``) and option set."""
    # The option sets each game registers for the generic tests (aiplay.registry).
    option_sets = contract_options(include_hidden=True) if option_sets is None else option_sets
    names = aiplay.games_available() if games is None else list(games)
    return [(name, dict(opts)) for name in names for opts in option_sets.get(name, [{}])]


# -- hostile values -----------------------------------------------------------

_TEXTS = ["", " ", "²", "٣", "0", "-0", "+1", "1e3", "0x10", "1_000", "-1", "NaN", "None", "null",
          "\x00", "\ud800", "é", "🂡", "pass", "PASS", " 0 ", "9" * 40, "-" * 3, "\n", "a" * 10_000]


def weird_int(rng: random.Random, scale: int = 10) -> int:
    """An integer near an edge: small, negative, at a C type boundary, or huge."""
    return rng.choice([
        0, 1, -1, 2, scale - 1, scale, scale + 1, -scale, rng.randrange(-3 * scale - 3, 3 * scale + 3),
        127, 128, 255, 256, 2 ** 15, 2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 32, 2 ** 63 - 1, 2 ** 63,
        -2 ** 63 - 1, 2 ** 64, HUGE, -HUGE, 10 ** 30,
    ])


def weird_float(rng: random.Random) -> float:
    """A float that is not an integer, or not finite, or an integer written as a float."""
    return rng.choice([0.0, -0.0, 0.5, 1.0, -1.5, 2.0 ** 70, 1e308, -1e308, 5e-324,
                       math.nan, math.inf, -math.inf])


def hostile_number(rng: random.Random) -> Any:
    """A value passed where a number is expected: huge, not finite, or of another type (:data:`HOSTILE_NUMBERS`)."""
    return rng.choice(HOSTILE_NUMBERS)


def weird_text(rng: random.Random) -> str:
    """A string likely to trip a parser: empty, non-ASCII digits, surrogates, huge."""
    text = rng.choice(_TEXTS)
    if rng.random() < 0.1 and len(text) <= 100:
        # Up to about 1 MB: long enough to find quadratic work, short enough for a case.
        text = text * rng.choice([2, 100, 10_000])
    return text


def weird_value(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON-ish value of a surprising type (a scalar, or a small container of such)."""
    roll = rng.randrange(10 if depth < 2 else 7)
    if roll == 0:
        return weird_int(rng)
    if roll == 1:
        return weird_float(rng)
    if roll == 2:
        return weird_text(rng)
    if roll == 3:
        return None
    if roll == 4:
        return rng.choice([True, False])
    if roll in (5, 6):
        return rng.randrange(-3, 60)
    if roll == 7:
        return [weird_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if roll == 8:
        return {weird_text(rng)[:8]: weird_value(rng, depth + 1) for _ in range(rng.randrange(3))}
    return []


def weird_action(rng: random.Random, num_actions: int) -> Any:
    """A value passed where an action is expected: out of range, or not an int at all."""
    roll = rng.randrange(9)
    if roll == 0:
        return weird_int(rng, num_actions)
    if roll == 1 and np is not None:
        return rng.choice([np.int64, np.int32, np.uint8, np.int8])(rng.randrange(0, 100))
    if roll == 2 and np is not None:
        return np.uint64(2 ** 64 - 1)
    if roll == 3:
        return weird_float(rng)
    if roll == 4:
        return rng.choice([True, False])
    if roll == 5:
        return weird_text(rng)
    if roll == 6:
        return rng.choice([None, [], [0], (0,), {}, b"0", object(), 1j])
    if roll == 7:
        return rng.randrange(0, max(1, num_actions))  # in range, maybe illegal here
    return float(rng.randrange(0, max(1, num_actions)))  # an int value as a float


# -- positions ------------------------------------------------------------------

def play_random(state: State, rng: random.Random, steps: int) -> State:
    """Play ``steps`` random moves (chance by its probabilities) on ``state`` in place; stops at the end."""
    return play_out(state, rng, max_steps=steps)


def seeded_positions(game: Game, seed: int, count: int = 24, max_depth: int = 300) -> List[str]:
    """``count`` JSON positions of ``game`` reached by seeded random play at spread depths.

    Depths grow roughly geometrically up to ``max_depth`` so that openings,
    middle games and end positions (terminal ones included) all appear.
    """
    rng = random.Random(seed)
    docs = []
    for i in range(count):
        depth = 0 if i == 0 else rng.randrange(0, 1 + int(max_depth ** (i / max(1, count - 1))))
        docs.append(play_random(game.new_initial_state(), rng, depth).to_json())
    return docs


# -- JSON mutations ---------------------------------------------------------------

_DEEP = "__aiplay_fuzz_deep__"


def _paths(node: Any, path: Tuple = ()) -> List[Tuple]:
    """Every path (tuple of keys/indices) into a JSON tree, the root included."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(_paths(v, path + (k,)))
    elif isinstance(node, list):
        for i, v in enumerate(node[:50]):  # long lists: their head is enough
            out.extend(_paths(v, path + (i,)))
    return out


def _get(node: Any, path: Tuple) -> Any:
    for key in path:
        node = node[key]
    return node


def _set(root: Any, path: Tuple, value: Any) -> Any:
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


def mutate_number(rng: random.Random, value: Any) -> Any:
    """A nearby, out-of-range, huge, fractional or non-finite replacement of a number."""
    base = value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0
    if isinstance(base, float) and not math.isfinite(base):
        base = 0
    roll = rng.randrange(7)
    if roll == 0:
        return int(base) + rng.choice([-2, -1, 1, 2])
    if roll == 1:
        return -int(base) - 1
    if roll == 2:
        return weird_int(rng, max(2, abs(int(base)) + 1))
    if roll == 3:
        try:
            return float(base) + rng.choice([0.0, 0.5])
        except OverflowError:  # an earlier mutation made a huge int: no float is near it
            return math.inf
    if roll == 4:
        return weird_float(rng)
    if roll == 5:
        return rng.choice([True, False, None, str(base)])
    return int(base) * rng.choice([2, 10, 1000])


def mutate_document(doc: Any, rng: random.Random, mutations: int = 1) -> Any:
    """Apply ``mutations`` random edits to a JSON tree (a copy is edited and returned).

    Edits: change a number (out of range, negative, huge, float, NaN), swap a
    value for one of another type, drop a field, add an unknown one, grow a
    list (up to tens of thousands of entries), shrink, shuffle or empty one,
    wrap a value in thousands of nesting levels (written as ``_DEEP``, expanded
    by :func:`dump_document`), or swap two values of the tree.
    """
    doc = json.loads(json.dumps(doc))
    for _ in range(mutations):
        paths = _paths(doc)
        path = rng.choice(paths)
        node = _get(doc, path)
        roll = rng.randrange(12)
        if isinstance(node, (int, float)) and not isinstance(node, bool) and roll < 5:
            doc = _set(doc, path, mutate_number(rng, node))
        elif roll == 0 or roll == 1:
            doc = _set(doc, path, weird_value(rng))
        elif roll == 2 and isinstance(node, dict) and node:
            del node[rng.choice(list(node))]
        elif roll == 3 and isinstance(node, dict):
            key = rng.choice([weird_text(rng)[:12], "extra", "state", "players", "turn"])
            node[key] = weird_value(rng)
        elif roll == 4 and isinstance(node, list) and node:
            size = rng.choice([len(node) + 1, 2 * len(node) + 1, 1000, 50_000])
            # Keep the document within a few MB: growing a list of already grown lists
            # multiplies sizes, and a case must stay cheap (a 1 GB text is no better input).
            # Measured as written out: an entry holding a deep-nesting marker is a few bytes
            # in the tree but up to 200,000 once expanded (20,000 copies of one made a 2.7 GB
            # document, a fuzz_long case (34231) at 883e54e, a "hang" of the generator).
            entry = max(len(dump_document(e)) for e in node) if len(node) <= 64 else \
                len(dump_document(node)) // len(node)
            size = max(len(node) + 1, min(size, 400_000 // (entry + 2)))
            # Copies, not references: a later edit must change one entry only, and a swap
            # of aliased subtrees could make the document circular.
            node.extend(copy.deepcopy(node[i % len(node)]) for i in range(len(node), size))
        elif roll == 5 and isinstance(node, list) and node:
            action = rng.randrange(3)
            if action == 0:
                del node[rng.randrange(len(node)):]
            elif action == 1:
                rng.shuffle(node)
            else:
                node.append(weird_value(rng))
        elif roll == 6:
            doc = _set(doc, path, f"{_DEEP}{rng.choice([50, 999, 5000, 100_000])}")
        elif roll == 7 and path:
            other = rng.choice(paths)
            if other and not (other[:len(path)] == path or path[:len(other)] == other):
                a, b = copy.deepcopy(_get(doc, path)), copy.deepcopy(_get(doc, other))
                doc = _set(doc, path, b)
                doc = _set(doc, other, a)
        elif roll == 8 and isinstance(node, list):
            doc = _set(doc, path, {str(i): v for i, v in enumerate(node)})
        elif roll == 9 and isinstance(node, dict):
            doc = _set(doc, path, list(node.values()))
        elif roll == 10 and isinstance(node, (int, float)) and not isinstance(node, bool):
            doc = _set(doc, path, [node])
        else:
            doc = _set(doc, path, mutate_number(rng, node) if rng.random() < 0.5 else weird_value(rng))
    return doc


def dump_document(doc: Any, duplicate_key: Optional[str] = None) -> str:
    """JSON text of ``doc``; the string ``_DEEP + "n"`` becomes ``n`` nested lists, and with
    ``duplicate_key`` the top-level object repeats that key (first copy ``null``).

    Writing the deep nesting as text avoids Python's own recursion limit in
    ``json.dumps``; the reader must cope with it.
    """
    text = json.dumps(doc, sort_keys=True, allow_nan=True, ensure_ascii=False)
    text = re.sub(f'"{_DEEP}(\\d+)"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), text)
    if duplicate_key is not None and text.startswith("{") and f'"{duplicate_key}"' in text:
        text = '{"' + duplicate_key + '": null, ' + text[1:]
    return text


def random_json(rng: random.Random) -> Any:
    """A fully random document: not JSON at all, JSON of the wrong shape, deep nesting, or
    an envelope with wrong fields. May be a non-string (``None``, bytes, a dict)."""
    roll = rng.randrange(8)
    if roll == 0:
        return rng.choice([None, 0, b"{}", b"\xff", {}, [], "", "{", "[" * 100_000, "{" * 5000,
                           "\ufeff{}", "NaN", "1" * 5000, '"' + "x" * 100 + '"'])
    if roll == 1:
        return "[" * rng.choice([1000, 10_000, 200_000]) + "]" * rng.choice([0, 1000, 10_000, 200_000])
    if roll == 2:
        return '{"a":' * rng.choice([500, 5000, 50_000]) + "1" + "}" * rng.choice([500, 5000, 50_000])
    if roll == 3:
        return "".join(rng.choice('{}[]":,0123456789.eE-+tfnul aÿ²\\') for _ in range(rng.randrange(60)))
    if roll in (4, 5):
        envelope = {"format": "aiplay-state", "version": 1, "game": rng.choice(aiplay.games_available()),
                    "options": {}, "state": weird_value(rng)}
        return dump_document(mutate_document(envelope, rng, rng.randrange(1, 4)))
    return dump_document(weird_value(rng))


def dead_turn_document(name: str, data: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """``data`` (a state's ``to_dict()`` in game ``name``) with the player whose turn it is dead, or None.

    Only for a game whose players can die: its package has an ``eliminations``
    module with ``dead_turn_player(data)``, which writes the dead player as its
    rules leave one (life 0, say, and the hand where a dead player's cards go). None for
    every other game, and where that function gives None (nobody's turn yet).
    Such documents must be refused, or load with every successor loading too
    (issue 37: a scout dead at its own tile draw was accepted; two of its
    successors were refused).
    """
    hook = _eliminations(name)
    return None if hook is None else hook(data)


def has_dead_players(name: str) -> bool:
    """True when game ``name`` writes documents with a dead turn player (:func:`dead_turn_document`)."""
    return _eliminations(name) is not None


_ELIMINATIONS: Dict[str, Any] = {}


def _eliminations(name: str) -> Optional[Callable[[Mapping[str, Any]], Optional[Dict[str, Any]]]]:
    if name not in _ELIMINATIONS:
        hook = None
        try:
            package = game_entry(name).package
        except AiplayError:
            package = ""
        if package and importlib.util.find_spec(package + ".eliminations") is not None:
            hook = getattr(importlib.import_module(package + ".eliminations"), "dead_turn_player", None)
        _ELIMINATIONS[name] = hook
    return _ELIMINATIONS[name]


def mutated_json(base: str, rng: random.Random) -> str:
    """A mutation of the JSON position ``base`` (mostly small edits inside ``"state"``; in a game whose
    players die, sometimes the turn player killed first: :func:`dead_turn_document`)."""
    doc = json.loads(base)
    # Drawn only for a game whose players die, so that every other game's recorded seeds replay as before.
    if isinstance(doc.get("state"), dict) and has_dead_players(str(doc.get("game"))) and rng.random() < 0.1:
        dead = dead_turn_document(str(doc.get("game")), doc["state"])
        if dead is not None:
            doc["state"] = dead
            if rng.random() < 0.6:
                return dump_document(doc)
    if rng.random() < 0.85 and isinstance(doc.get("state"), dict):
        doc["state"] = mutate_document(doc["state"], rng, rng.choice([1, 1, 1, 2, 3, 6]))
    else:
        doc = mutate_document(doc, rng, rng.choice([1, 2]))
    dup = None
    if isinstance(doc, dict) and rng.random() < 0.03:
        dup = rng.choice(list(doc) or ["state"])
    return dump_document(doc, dup)


# -- bot options ------------------------------------------------------------------

def random_bot_options(rng: random.Random, num_players: int = 2) -> Tuple[str, Dict[str, Any]]:
    """A bot kind and options for :func:`aiplay.search.make_bot`: valid, invalid and edge values.

    Every combination keeps a small budget in force (a few iterations, a few
    hundred nodes, a shallow depth or milliseconds), so a case ends quickly
    whatever else it sets (``iterations=2**70`` comes with ``nodes`` or
    ``seconds``); a case that still runs long is a bug (a budget ignored).
    """
    kind = rng.choice(BOT_KINDS + (weird_text(rng)[:6],) if rng.random() < 0.03 else BOT_KINDS)
    options: Dict[str, Any] = {"seed": rng.choice([rng.randrange(1000), rng.randrange(1000), None, -1, HUGE])}
    bounded = False
    if kind != "expectimax" and rng.random() < 0.8:
        options["iterations"] = rng.choice([0, 1, 2, 3, 8, 32, -1, HUGE, 2 ** 63, 1.5, "10", True, None])
        bounded = isinstance(options["iterations"], int) and 0 < options["iterations"] <= 64
    if rng.random() < 0.4:
        options["nodes"] = rng.choice([1, 2, 50, 300, 0, -5, HUGE, 2.5])
        bounded = bounded or (isinstance(options["nodes"], int) and 0 < options["nodes"] <= 300)
    if rng.random() < 0.15:
        options["seconds"] = rng.choice([1e-6, 0.001, 0.005, 0.0, -1.0, math.nan, math.inf, "0.1"])
    if kind in ("mcts", "ismcts") or rng.random() < 0.05:
        if rng.random() < 0.5:
            options["max_nodes"] = rng.choice([1, 2, 3, num_players - 1, num_players, 50, 0, -1, HUGE])
        if rng.random() < 0.4:
            options["workers"] = rng.choice([1, 2, 3, 0, 64, -1, 1.0])
        if rng.random() < 0.3:
            options["reuse_tree"] = rng.choice([True, False, 1, "yes"])
        if rng.random() < 0.4:
            options["rollout"] = rng.choice(["random", "policy", "nope", None, 1])
        if rng.random() < 0.3:
            options["rollout_epsilon"] = rng.choice([0.0, 0.1, 1.0, -0.1, 2.0, math.nan])
        if rng.random() < 0.3:
            options["rollout_cutoff"] = rng.choice([1, 5, 0, -1, HUGE, None])
        if rng.random() < 0.3:
            options["uct_c"] = rng.choice([0.0, 1.4, 100.0, -1.0, math.inf])
        if kind == "ismcts" and rng.random() < 0.5:
            options["variant"] = rng.choice(["so", "mo", "mo", "xx"])
        if kind == "mcts" and rng.random() < 0.5:
            options["allow_hidden_information"] = rng.choice([True, True, False, 1])
    if kind == "expectimax" or rng.random() < 0.05:
        options["depth"] = rng.choice([1, 1, 2, 3, 0, -1, HUGE, 1.0])
        # Depth 2 is not cheap everywhere: Sunken City's preset adds 60-move leaf playouts,
        # and a raise decision has ~330 moves (the Python path then takes minutes).
        bounded = bounded or options["depth"] == 1
        if rng.random() < 0.5:
            options["pruning"] = rng.choice(["none", "star1", "star2", "bogus"])
        if rng.random() < 0.3:
            options["paranoid"] = rng.choice([True, False, "no"])
        if rng.random() < 0.3:
            options["use_tt"] = rng.choice([True, False])
        if rng.random() < 0.7:
            options["allow_hidden_information"] = rng.choice([True, True, False])
        if rng.random() < 0.15:
            options["leaf_playout"] = rng.choice([1, 3, 0, -1])
    if rng.random() < 0.3:
        options["backend"] = rng.choice(["auto", "native", "reference", "reference", "gpu", None])
    if rng.random() < 0.04:
        options[rng.choice(["iterationz", "budget", "foo"])] = 1
    hostile = None
    if rng.random() < 0.3:
        # Issue 37: a huge, non-finite or ill-typed value for one numeric option (seed included).
        hostile = rng.choice(BOT_NUMBER_OPTIONS)
        options[hostile] = hostile_number(rng)
        bounded = (_small_count(options.get("iterations")) and kind != "expectimax") or _small_count(
            options.get("nodes"), 300) or (options.get("depth") == 1 and kind == "expectimax")
    if not bounded:
        # Keep the case cheap: a hard limit that every searcher honours (not in place of the hostile value).
        if hostile != "nodes" and (rng.random() < 0.5 or kind == "expectimax" or hostile == "seconds"):
            options["nodes"] = rng.choice([1, 20, 200])
        else:
            options["seconds"] = rng.choice([0.001, 0.004])
    return kind, options


#: The numeric options of the bots (every kind's; a kind that lacks one refuses it by name).
BOT_NUMBER_OPTIONS = ("iterations", "seconds", "nodes", "seed", "uct_c", "rollout_epsilon", "rollout_cutoff",
                      "workers", "max_nodes", "depth", "leaf_playout", "chance_run")


def _small_count(value: Any, limit: int = 64) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= limit


# -- entry points ------------------------------------------------------------------

#: The options of ``aiplay.solve`` a case gives a hostile value (``progress``/``on_engine`` take functions).
SOLVE_OPTIONS = ("seconds", "nodes", "observer", "seed", "determinizations", "backend", "pruning", "ordering",
                 "pv_nodes", "tt_bits", "max_plies", "deepening", "bounds", "move_values", "stoppable")
#: The arguments of ``aiplay.arena.run`` a case gives a hostile value (``out`` and ``scheduler`` are left
#: out: a string there writes a file or dials a host).
ARENA_ARGUMENTS = ("game", "bots", "games", "seed", "game_options", "backend", "workers", "processes", "progress",
                   "max_moves")
#: Spec texts of hostile numbers, as a person types them in ``kind(option=value)`` (read as JSON).
HOSTILE_TEXTS = ("1e999", "-1e999", "NaN", "Infinity", "-Infinity", str(2 ** 63), str(10 ** 400), "1e308", "-0.0",
                 "0.5", "[1]", "{}", "{\"a\": 1}", "\"x\"", "true", "null", "x", "", "()")
API_CALLS = ("solve", "bot_spec", "budget", "load", "match", "arena", "level")


def random_api_call(rng: random.Random, game: Game) -> Dict[str, Any]:
    """A call of a public entry point with one hostile argument (issue 37), as data (see :func:`run_api_case`).

    ``{"call": name, "option": the argument, "value": its value}``; the rest of
    each call is fixed and cheap (a small node budget, two games of random bots).
    """
    call = rng.choice(API_CALLS)
    if call == "solve":
        option = rng.choice(SOLVE_OPTIONS)
    elif call == "bot_spec":
        kind = rng.choice(("random", "heuristic") + (("mcts", "expectimax") if game.perfect_information
                                                     else ("ismcts",)))
        option = rng.choice(BOT_NUMBER_OPTIONS + ("presets", "name"))
        return {"call": call, "option": option, "value": rng.choice(HOSTILE_TEXTS), "kind": kind}
    elif call == "budget":
        option = rng.choice(("iterations", "seconds", "nodes"))
    elif call == "load":
        option = rng.choice(["name", "backend"] + sorted(game.option_spec))
    elif call == "match":
        option = rng.choice(("seed", "undo", "redo", "apply", "history_seen_by"))
    elif call == "arena":
        option = rng.choice(ARENA_ARGUMENTS)
    else:
        option = "level"
    return {"call": call, "option": option, "value": hostile_number(rng)}


def _api_call(case: Case, game: Game, state: State) -> Any:
    """Run the case's call on ``state`` (a copy where it may change)."""
    p = case.payload
    call, option, value = p["call"], p["option"], p["value"]
    searcher = "mcts" if game.perfect_information else "ismcts"
    if call == "solve":
        guard = {"seconds": 0.05} if option == "nodes" else {"nodes": 200}
        return aiplay.solve(state, **{**guard, option: value})
    if call == "bot_spec":
        budget_text = ", seconds=0.05" if option == "nodes" else ", nodes=40"
        text = f"{p['kind']}({option}={value}{budget_text})"
        bot = parse_bot(text, files=False).make(game, seed=1)
        return bot.choose(state) if state.current_player() >= 0 else None
    if call == "budget":
        bot = make_bot(searcher, seed=1, nodes=40)
        guard = {"seconds": 0.05} if option == "nodes" else {"nodes": 40}
        return bot.choose(state, **{**guard, option: value}) if state.current_player() >= 0 else None
    if call == "load":
        if option == "name":
            return aiplay.load(value)
        if option == "backend":
            return aiplay.load(game.name, backend=value, **game.options)
        return aiplay.load(game.name, **{**game.options, option: value})
    if call == "match":
        match = aiplay.Match(game, seed=1 if option != "seed" else value, state=state)
        if option != "seed":
            getattr(match, option)(value)
        return match
    if call == "arena":
        arguments: Dict[str, Any] = dict(game=game.name, bots=["random"] * game.num_players,
                                         games=game.num_players, seed=1, game_options=dict(game.options),
                                         backend="auto", progress=False, max_moves=100_000)
        arguments[option] = value
        name = arguments.pop("game")
        return tournament.run(name, **arguments)
    level = {"level": 1, "seconds": 0.01, option: value}
    return make_bot("level", seed=1, **level).choose(state) if state.current_player() >= 0 else None


def run_api_case(case: Case) -> str:
    """The call with one hostile argument on every engine: a result or an AiplayError, the state untouched."""
    outcome = "accepted"
    for backend in engines(case.game):
        game = load_game(case.game, case.options, backend)
        state = game.state_from_json(case.payload["start"])
        before = state.to_json()
        try:
            _api_call(case, game, state)
        except AiplayError:
            outcome = "rejected"
        if state.to_json() != before:
            raise FuzzFailure(f"{backend}: {case.payload['call']} changed the state it was given")
    return outcome


# -- cases -----------------------------------------------------------------------------

@dataclass
class Case:
    """One fuzz input, concrete enough to replay without its generator.

    ``payload`` by ``kind``:

    * ``json``, ``random_json``: the document (normally a str) for ``state_from_json``;
      ``play_seed`` drives the random play after an accepted load;
    * ``actions``: ``{"start": json, "steps": [(op, value), ...]}`` with ops
      ``apply`` (any value), ``legal`` (the ``value % n``-th legal action),
      ``parse`` (``string_to_action(value)``), ``name`` (``action_to_string(value)``),
      ``roundtrip`` (name of the ``value % n``-th legal action parsed back);
    * ``bot``: ``{"start": json, "kind": str, "options": dict, "presets": bool}``;
    * ``seats``: ``{"start": json, "calls": [(method, seat), ...]}``;
    * ``api``: ``{"start": json, "call": ..., "option": ..., "value": ...}`` (:func:`random_api_call`).
    """

    game: str
    options: Dict[str, Any]
    kind: str
    seed: int
    payload: Any = None
    play_seed: int = 0
    max_steps: int = 400
    #: True when :func:`case_from_seed` regenerates this case from ``seed`` alone.
    from_seed: bool = False
    #: True when that call drew the kind from the seed too (``kind=None``): the replay must do the
    #: same, since the draw uses the generator before the payload does.
    kind_from_seed: bool = False

    def python(self, limit: int = 3000) -> str:
        """Python that replays this case: from its seed when it has one, else from the payload
        (a payload longer than ``limit`` characters is left out)."""
        if self.from_seed:
            return (f"from aiplay.testing.fuzzing import case_from_seed, run_case\n"
                    f"case = case_from_seed({self.game!r}, {self.options!r}, "
                    f"{None if self.kind_from_seed else self.kind!r}, {self.seed!r}, "
                    f"max_steps={self.max_steps!r})\n"
                    f"run_case(case)")
        payload = repr(self.payload)
        if len(payload) > limit:
            payload = f"PAYLOAD  # {len(payload)} characters: too long to show; see describe_payload()"
        return (f"import numpy as np  # payloads may hold NumPy integers\n"
                f"from aiplay.testing.fuzzing import Case, run_case\n"
                f"case = Case({self.game!r}, {self.options!r}, {self.kind!r}, {self.seed!r}, "
                f"payload={payload}, play_seed={self.play_seed!r}, max_steps={self.max_steps!r})\n"
                f"run_case(case)")


_POOLS: Dict[Tuple[str, str, int], List[str]] = {}


def position_pool(name: str, options: Mapping[str, Any], pool_seed: int = 0) -> List[str]:
    """Seeded positions of a game (reference engine), cached: the starting points of mutations."""
    key = (name, json.dumps(dict(options), sort_keys=True), pool_seed)
    if key not in _POOLS:
        _POOLS[key] = seeded_positions(load_game(name, options, "reference"), pool_seed)
    return _POOLS[key]


def generate_case(name: str, options: Mapping[str, Any], kind: str, rng: random.Random,
                  seed: int = 0, max_steps: int = 400, pool_seed: int = 0) -> Case:
    """A case of ``kind`` for the game, drawn from ``rng`` (``seed`` is only recorded)."""
    options = dict(options)
    game = load_game(name, options, "reference")
    pool = position_pool(name, options, pool_seed)
    case = Case(name, options, kind, seed, play_seed=rng.randrange(2 ** 32), max_steps=max_steps)
    if kind == "json":
        case.payload = mutated_json(rng.choice(pool), rng)
    elif kind == "random_json":
        case.payload = random_json(rng)
    elif kind == "actions":
        n = game.num_distinct_actions
        steps: List[Tuple[str, Any]] = []
        for _ in range(rng.randrange(1, 30)):
            roll = rng.random()
            if roll < 0.4:
                steps.append(("legal", rng.randrange(1000)))
            elif roll < 0.7:
                steps.append(("apply", weird_action(rng, n)))
            elif roll < 0.8:
                steps.append(("parse", rng.choice([weird_text(rng), None, 5, b"x", str(rng.randrange(n))])))
            elif roll < 0.9:
                steps.append(("name", weird_action(rng, n)))
            else:
                steps.append(("roundtrip", rng.randrange(1000)))
        case.payload = {"start": rng.choice(pool), "steps": steps}
    elif kind == "bot":
        bot_kind, bot_options = random_bot_options(rng, game.num_players)
        case.payload = {"start": rng.choice(pool), "kind": bot_kind, "options": bot_options,
                        "presets": rng.random() < 0.3}
    elif kind == "seats":
        n = game.num_players
        seats = [-1, n, n + 1, HUGE, -HUGE, 2 ** 63, None, "0", 0.0, 1.5, [0], True,
                 rng.randrange(n), rng.randrange(n)] + ([np.int64(0)] if np is not None else [])
        methods = ["view", "information_state_key", "information_state_string", "determinize",
                   "determinize_rng", "returns", "knowledge_violations"]
        case.payload = {"start": rng.choice(pool),
                        "calls": [(rng.choice(methods), rng.choice(seats)) for _ in range(rng.randrange(1, 8))]}
    elif kind == "api":
        case.payload = {"start": rng.choice(pool), **random_api_call(rng, game)}
    else:
        raise ValueError(f"unknown case kind {kind!r}")
    return case


def case_seed(seed: int, name: str, options: Mapping[str, Any], index: int) -> int:
    """The seed of case ``index`` of a game in a run seeded ``seed`` (stable across processes)."""
    text = json.dumps([seed, name, dict(options), index], sort_keys=True)
    return int.from_bytes(__import__("hashlib").blake2b(text.encode(), digest_size=8).digest(), "little")


def pick_kind(rng: random.Random, weights: Mapping[str, int] = CASE_KINDS) -> str:
    """A case kind drawn with ``weights``."""
    kinds = list(weights)
    return rng.choices(kinds, weights=[weights[k] for k in kinds])[0]


def case_from_seed(name: str, options: Mapping[str, Any], kind: Optional[str], seed: int,
                   max_steps: int = 400) -> Case:
    """The case a long run generates for this seed (``kind=None``: drawn from the seed too)."""
    rng = random.Random(seed)
    drawn = kind is None
    if kind is None:
        kind = pick_kind(rng)
    case = generate_case(name, options, kind, rng, seed=seed, max_steps=max_steps)
    case.from_seed = True
    case.kind_from_seed = drawn
    return case


# -- running cases ------------------------------------------------------------------------

def _describe(result: Any) -> str:
    """``str(result)`` cut short; a state whose ``str`` fails is itself reported, not a crash here."""
    try:
        return str(result)[:200]
    except Exception as exc:  # noqa: BLE001 - the loaded state may be broken: that is the finding
        return f"<str() of the {type(result).__name__} raised {type(exc).__name__}: {exc}>"


def _load_all(case: Case, text: Any) -> Dict[str, Any]:
    """``state_from_json(text)`` on every engine: a state, or the InvalidStateError it raised."""
    results: Dict[str, Any] = {}
    for backend in engines(case.game):
        game = load_game(case.game, case.options, backend)
        try:
            results[backend] = game.state_from_json(text)
        except InvalidStateError as exc:
            results[backend] = exc
        except AiplayError as exc:
            raise FuzzFailure(f"{backend}: state_from_json raised {type(exc).__name__}, "
                              f"not InvalidStateError: {exc}") from exc
    kinds = {b: isinstance(r, InvalidStateError) for b, r in results.items()}
    if len(set(kinds.values())) > 1:
        raise FuzzFailure(f"engines disagree on the document: rejected={kinds}; "
                          f"{ {b: _describe(r) for b, r in results.items()} }")
    return results


def check_state(state: State, label: str = "") -> None:
    """The observation API works at ``state`` for every seat, and ``to_json`` round-trips."""
    game = state.game
    text = state.to_json()
    try:
        again = game.state_from_json(text).to_json()
    except InvalidStateError as exc:  # the same finding as check_reloads's (this reload stands in for it)
        raise FuzzFailure(f"{label}an accepted position's successor does not load again: {exc}") from exc
    if again != text:
        raise FuzzFailure(f"{label}to_json round trip differs:\n{text[:500]}\n{again[:500]}")
    returns = state.returns()
    if len(returns) != game.num_players:
        raise FuzzFailure(f"{label}returns() has {len(returns)} entries for {game.num_players} players")
    for p in range(game.num_players):
        json.dumps(state.view(p), allow_nan=False)
        key = state.information_state_key(p)
        if not isinstance(key, int) or not 0 <= key < 2 ** 64:
            raise FuzzFailure(f"{label}information_state_key({p}) = {key!r}, not a 64-bit key")


def check_reloads(state: State, label: str = "") -> None:
    """``state`` (reached by legal play from an accepted document) loads again on its own engine.

    The invariant behind every loader check (issue 27): a loader that accepts
    a position must accept all its successors, else the engine fails mid-game.
    """
    try:
        state.game.state_from_json(state.to_json())
    except InvalidStateError as exc:
        raise FuzzFailure(f"{label}an accepted position's successor does not load again: {exc}") from exc


def check_successors(state: State, label: str = "", limit: int = 32) -> None:
    """Every successor of ``state`` (each legal action, or each chance outcome; the first ``limit``)
    loads again on its own engine: random play follows one line, and a hole may be on another
    (issue 37: a dead scout's tile draw, accepted; the two draws that complete it, refused)."""
    if state.is_terminal():
        return
    moves = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    for action in moves[:limit]:
        child = state.clone()
        child.apply_action(action)
        check_reloads(child, f"{label}after {state.action_to_string(action)!r}: ")


def check_knowledge(state: State, rng: random.Random, label: str = "") -> None:
    """Every seat's knowledge fits the position: no violation, a world can be sampled, and it looks the same.

    For a hidden-information game only: ``knowledge_violations(p)`` is empty,
    ``determinize(p)`` succeeds, and the world's ``view(p)`` is ``view(p)``.
    """
    game = state.game
    if game.perfect_information or state.is_terminal():
        return
    for p in range(game.num_players):
        violations = state.knowledge_violations(p)
        if violations:
            raise FuzzFailure(f"{label}seat {p}'s knowledge records contradict an accepted position: {violations[:3]}")
        try:
            world = state.determinize(p, rng)
        except AiplayError as exc:
            raise FuzzFailure(f"{label}determinize({p}) of an accepted position raised "
                              f"{type(exc).__name__}: {exc}") from exc
        if world.view(p) != state.view(p):
            raise FuzzFailure(f"{label}determinize({p}) gave a world whose view({p}) differs")


def play_on(states: Dict[str, State], rng: random.Random, max_steps: int, check_every: int = 0,
            reload_every: int = 0) -> None:
    """Play the same random moves on every engine's state, checking that they agree at each step.

    ``check_every``: :func:`check_state` every that many moves; ``reload_every``:
    :func:`check_reloads` on every engine every that many moves (1: every successor).
    A move that gets :func:`check_state` is not reloaded twice: check_state reloads it too.
    """
    first = next(iter(states.values()))
    for step in range(max_steps):
        checked = bool(check_every) and step % check_every == 0
        if reload_every and step and step % reload_every == 0 and not checked:
            for b, s in states.items():
                check_reloads(s, f"{b} after {step} moves: ")
        players = {b: s.current_player() for b, s in states.items()}
        legals = {b: s.legal_actions() for b, s in states.items()}
        if len(set(players.values())) > 1 or len({tuple(v) for v in legals.values()}) > 1:
            raise FuzzFailure(f"engines disagree after {step} moves: players {players}, legal {legals}")
        if checked:
            for b, s in states.items():
                check_state(s, f"{b} at move {step}: ")
        player = players[next(iter(players))]
        if player == TERMINAL:
            return
        legal = legals[next(iter(legals))]
        if not legal:
            raise FuzzFailure(f"no legal action at a non-terminal state (player {player})")
        action = sample_chance_outcome(first, rng) if player == CHANCE else legal[rng.randrange(len(legal))]
        for s in states.values():
            s.apply_action(action)


def run_json_case(case: Case) -> str:
    """Load the document on every engine; if accepted, check the state and play it to the end."""
    results = _load_all(case, case.payload)
    if all(isinstance(r, InvalidStateError) for r in results.values()):
        return "rejected"
    texts = {b: s.to_json() for b, s in results.items()}
    if len(set(texts.values())) > 1:
        raise FuzzFailure(f"engines load the document differently: {texts}")
    for b, s in results.items():
        check_state(s, f"{b}: ")
        check_knowledge(s, random.Random(case.play_seed), f"{b}: ")
        check_successors(s, f"{b}: ")
    play_on(results, random.Random(case.play_seed), case.max_steps, check_every=max(1, case.max_steps // 4),
            reload_every=1)
    return "accepted"


def _int_action(value: Any) -> Optional[int]:
    """``value`` as an action if the API should accept its type (ints and NumPy ints, not bool)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def run_action_steps(state: State, steps: Sequence[Tuple[str, Any]]) -> List[Any]:
    """Run action steps on one state; returns a trace (per step: result or error class) to compare engines."""
    trace: List[Any] = []
    for op, value in steps:
        # "legal" needs no snapshot: any error there is a finding whatever the state became.
        before = state.to_json() if op != "legal" else ""
        legal = state.legal_actions()
        try:
            if op == "legal":
                if not legal:
                    trace.append(("terminal",))
                    continue
                action = legal[value % len(legal)]
                state.apply_action(action)
                trace.append(("applied", action))
            elif op == "apply":
                state.apply_action(value)
                as_int = _int_action(value)
                if as_int is None or as_int not in legal:
                    raise FuzzFailure(f"apply_action({value!r}) was accepted; legal actions were {legal}")
                trace.append(("applied", as_int))
            elif op == "parse":
                action = state.string_to_action(value)
                if action not in legal:
                    raise FuzzFailure(f"string_to_action({value!r}) = {action!r}, not legal ({legal})")
                trace.append(("parsed", action))
            elif op == "name":
                name = state.action_to_string(value)
                if not isinstance(name, str):
                    raise FuzzFailure(f"action_to_string({value!r}) returned {name!r}, not a str")
                trace.append(("named", _int_action(value) is not None))
            elif op == "roundtrip":
                if not legal:
                    continue
                action = legal[value % len(legal)]
                name = state.action_to_string(action)
                back = state.string_to_action(name)
                if back != action:
                    raise FuzzFailure(f"string_to_action(action_to_string({action})) = {back} (name {name!r})")
                trace.append(("roundtrip", action))
        except AiplayError as exc:
            if op in ("legal", "roundtrip"):
                raise FuzzFailure(f"{op} step on legal action raised {type(exc).__name__}: {exc}") from exc
            after = state.to_json()
            if after != before:
                raise FuzzFailure(f"{op}({value!r}) raised {type(exc).__name__} but changed the state")
            trace.append(("error", type(exc).__name__))
        if op in ("name", "parse", "roundtrip") and state.to_json() != before:
            raise FuzzFailure(f"{op}({value!r}) changed the state")
    return trace


def run_actions_case(case: Case) -> str:
    """Apply the steps on every engine from the same start; the traces must match."""
    traces = {}
    for backend in engines(case.game):
        state = load_game(case.game, case.options, backend).state_from_json(case.payload["start"])
        traces[backend] = run_action_steps(state, case.payload["steps"])
        check_state(state, f"{backend} after the steps: ")
    # Action names may differ between engines only in wording, so names are not compared.
    if len({json.dumps(t) for t in traces.values()}) > 1:
        raise FuzzFailure(f"engines disagree on the action steps: {traces}")
    return "rejected" if any(t and t[-1][0] == "error" for t in traces.values()) else "accepted"


def run_bot_case(case: Case) -> str:
    """Build the bot and let it choose at the start state on every engine: a legal action or an AiplayError."""
    outcome = "accepted"
    for backend in engines(case.game):
        game = load_game(case.game, case.options, backend)
        state = game.state_from_json(case.payload["start"])
        before = state.to_json()
        try:
            bot = make_bot(case.payload["kind"], game=game if case.payload["presets"] else None,
                           **case.payload["options"])
            action = bot.choose(state)
        except AiplayError:
            outcome = "rejected"
            continue
        finally:
            if state.to_json() != before:
                raise FuzzFailure(f"{backend}: the bot changed the state it searched")
        if state.current_player() < 0:
            raise FuzzFailure(f"{backend}: the bot chose {action!r} at a state where nobody is to move "
                              f"(player {state.current_player()})")
        if isinstance(action, bool) or not isinstance(action, int) or action not in state.legal_actions():
            raise FuzzFailure(f"{backend}: the bot chose {action!r}, not among {state.legal_actions()}")
    return outcome


_VALID_SEAT_TYPES = (int,) if np is None else (int, np.integer)


def run_seats_case(case: Case) -> str:
    """Observation calls with valid and invalid seats: valid ones work, invalid ones raise AiplayError."""
    outcome = "accepted"
    for backend in engines(case.game):
        game = load_game(case.game, case.options, backend)
        state = game.state_from_json(case.payload["start"])
        before = state.to_json()
        for method, seat in case.payload["calls"]:
            valid = (isinstance(seat, _VALID_SEAT_TYPES) and not isinstance(seat, bool)
                     and 0 <= seat < game.num_players)
            ambiguous = isinstance(seat, bool)  # bool is an int subclass; either answer is defensible
            try:
                if method == "view":
                    json.dumps(state.view(seat), allow_nan=False)
                elif method == "information_state_key":
                    key = state.information_state_key(seat)
                    if not isinstance(key, int) or not 0 <= key < 2 ** 64:
                        raise FuzzFailure(f"information_state_key({seat!r}) = {key!r}")
                elif method == "information_state_string":
                    if not isinstance(state.information_state_string(seat), str):
                        raise FuzzFailure(f"information_state_string({seat!r}) is not a str")
                elif method == "determinize":
                    world = state.determinize(seat, random.Random(case.play_seed))
                    if valid:
                        check_state(world, f"{backend} determinize({seat}): ")
                        if world.information_state_key(seat) != state.information_state_key(seat):
                            raise FuzzFailure(f"determinize({seat}) changed the observer's information state")
                elif method == "determinize_rng":
                    # A valid seat with a wrong generator: None, a seed, a string.
                    valid = False
                    ambiguous = True
                    wrong: Any = random.Random(case.play_seed).choice([None, 5, "rng", 1.5])
                    state.determinize(0, wrong)
                elif method == "returns":
                    valid, ambiguous = True, False
                    if len(state.returns()) != game.num_players:
                        raise FuzzFailure("returns() has the wrong length")
                elif method == "knowledge_violations":
                    # Not part of the seat contract of the brief: any seat may be answered.
                    ambiguous = ambiguous or not valid
                    if valid and state.knowledge_violations(seat):
                        raise FuzzFailure(f"a loaded state violates seat {seat}'s knowledge: "
                                          f"{state.knowledge_violations(seat)}")
                    if not valid:
                        state.knowledge_violations(seat)
                if not valid and not ambiguous:
                    raise FuzzFailure(f"{backend}: {method}({seat!r}) was accepted for a {game.num_players}-player game")
            except AiplayError as exc:
                if valid:
                    raise FuzzFailure(f"{backend}: {method}({seat!r}) raised {type(exc).__name__} for a valid seat: "
                                      f"{exc}") from exc
                outcome = "rejected"
            if state.to_json() != before:
                raise FuzzFailure(f"{backend}: {method}({seat!r}) changed the state")
    return outcome


RUNNERS: Dict[str, Callable[[Case], str]] = {
    "json": run_json_case, "random_json": run_json_case, "actions": run_actions_case,
    "bot": run_bot_case, "seats": run_seats_case, "api": run_api_case,
}


def run_case(case: Case) -> str:
    """Execute ``case`` on every engine of its game: ``"accepted"`` or ``"rejected"``, else it raises."""
    return RUNNERS[case.kind](case)


def describe_payload(case: Case, limit: int = 4000) -> str:
    """The payload as text for a reproducer file (cut to ``limit`` characters, saying so)."""
    text = case.payload if isinstance(case.payload, str) else repr(case.payload)
    if len(text) > limit:
        return text[:limit] + f"\n... ({len(text)} characters in all; regenerate it with the Python below)"
    return text
