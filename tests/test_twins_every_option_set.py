"""Twin tests over every option set of every hidden-information game, on every channel a seat sees.

The other twin tests run on the option sets a game registers for the generic tests
(``contract_options``); leaks hid behind those (issue 37: Area 1851 with five players
and six events a block, Groom Lake's text picture during the deal). Here each game is
played with every set of :func:`aiplay.registry.option_grid`, which the game's own
``option_spec`` gives: every player count, each other option at each of its values
(booleans both ways, integers at their least, middle and most value).

For each set, engine and seat ``p``: twin games A and B (the generator of
:mod:`aiplay.testing.contract`: after every move ``p`` has the same
``information_state_key`` and ``view`` in both, while what ``p`` does not see differs
where the game allows it). Then, after every move, everything ``p`` is shown must be
the same in A and B:

* who is to move (the protocol's ``to_move``, ``chance`` and ``terminal``);
* the move just played as ``p`` reads it (the Match history, the demo log, the
  command line: :func:`aiplay.game.seen_action`);
* ``p``'s text picture (the game's ``render(state, p)``) and SVG picture;
* ``p``'s legal moves, their names and their meanings when ``p`` is to move;
* the texts a person reads (issue 38): the narration of the move, ``p``'s view panel,
  the outcome at the end, and (over the Match) the turn summaries;
* ``p``'s tensors, when the game has them;
* and, over the whole pair: the Match history and record as ``p`` saw them, and every
  reply of a protocol client showing seat ``p`` (statuses, views with their text
  pictures, legal moves, and the error of an illegal move at ``p``'s own decision and
  at another seat's).

CI plays one short pair per set and seat; ``AIPLAY_FULL_TWINS=1`` plays longer pairs
from more seeds.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pytest

import aiplay
from aiplay.game import State, seen_action
from aiplay.match import Match
from aiplay.protocol import Server
from aiplay.registry import game_entries, has_native, option_grid
from aiplay.testing.simulate import random_action
from aiplay.views import tensors
from aiplay.views.guide import legal_meanings
from aiplay.views.narrate import match_summaries, narrate, outcome
from aiplay.views.panel import view_panel
from aiplay.views.text import render_state

FULL = os.environ.get("AIPLAY_FULL_TWINS", "").strip() not in ("", "0")
#: Seeds per option set, engine and seat, and the most moves of one twin pair.
SEEDS = 3 if FULL else 1
PLIES = 400 if FULL else 80
#: Every how many moves the SVG picture and the protocol's view are compared (each is slow to draw).
PICTURE_EVERY = 1 if FULL else 6
#: B takes another move than A, when one fits, at this rate (chance) or a quarter of it (decisions).
SWAP_RATE = 0.8


def _cases() -> List[Any]:
    out = []
    for entry in game_entries(include_hidden=True):
        if aiplay.load(entry.name, backend="reference").perfect_information:
            continue
        backends = ["reference", "native"] if has_native(entry.name) else ["reference"]
        for options in option_grid(entry.name):
            for backend in backends:
                label = ",".join(f"{k}={v}" for k, v in options.items()) or "default"
                out.append(pytest.param(entry.name, options, backend, id=f"{entry.name}-{label}-{backend}"))
    return out


CASES = _cases()


def twin_moves(game: aiplay.Game, viewer: int, seed: int) -> Tuple[List[int], List[int], List[Tuple[State, State]]]:
    """Twin games A and B for ``viewer`` (aiplay.testing.contract's generator): the moves of each and
    the pairs of states after every move."""
    rng = random.Random(f"grid-a-{seed}-{viewer}")
    b_rng = random.Random(f"grid-b-{seed}-{viewer}")
    a, b = game.new_initial_state(), game.new_initial_state()
    seats = range(game.num_players)
    moves_a: List[int] = []
    moves_b: List[int] = []
    pairs: List[Tuple[State, State]] = []
    for _ in range(PLIES):
        if a.is_terminal():
            break
        action_a = random_action(a, rng)
        after_a = a.clone()
        after_a.apply_action(action_a)
        key, view, returns = after_a.information_state_key(viewer), after_a.view(viewer), after_a.returns()
        legal_b = b.legal_actions()
        same_in_b = None
        if action_a in legal_b:
            mirror = b.clone()
            mirror.apply_action(action_a)
            same_in_b = [mirror.information_state_key(q) for q in seats]
        others = [x for x in legal_b if x != action_a]
        b_rng.shuffle(others)
        rate = SWAP_RATE if a.is_chance_node() else SWAP_RATE / 4
        order = others[:11] + [action_a] if b_rng.random() < rate else [action_a] + others[:11]
        chosen = None
        for action_b in order:
            if action_b not in legal_b:
                continue
            trial = b.clone()
            trial.apply_action(action_b)
            if (trial.information_state_key(viewer) != key or trial.returns() != returns
                    or trial.view(viewer) != view):
                continue
            if action_b != action_a and same_in_b is not None and all(
                    trial.information_state_key(q) == same_in_b[q] for q in seats):
                continue  # a public fact the position does not show, not a hidden one
            chosen = (action_b, trial)
            break
        if chosen is None:
            break
        moves_a.append(action_a)
        moves_b.append(chosen[0])
        pairs.append((a, b))  # the states before the moves
        a, b = after_a, chosen[1]
    pairs.append((a, b))
    return moves_a, moves_b, pairs


def _tensors(game: aiplay.Game, state: State, viewer: int) -> List[bytes]:
    out = []
    for kind in ("information_state", "observation"):
        if tensors.provides(game, kind):
            out.append(np.asarray(getattr(state, f"{kind}_tensor")(viewer)).tobytes())
    return out


def check_states(game: aiplay.Game, viewer: int, moves_a: List[int], moves_b: List[int],
                 pairs: List[Tuple[State, State]], where: str) -> None:
    """The per-move channels (module docstring) on every pair of states."""
    for i, (a, b) in enumerate(pairs):
        at = f"{where}, after move {i}"
        if i:
            before_a, before_b = pairs[i - 1]
            seen_a, seen_b = seen_action(before_a, moves_a[i - 1], viewer), seen_action(before_b, moves_b[i - 1], viewer)
            assert seen_a == seen_b, f"{at}: the move as seat {viewer} reads it: {seen_a} against {seen_b}"
            told_a = narrate(before_a, moves_a[i - 1], a, viewer)
            told_b = narrate(before_b, moves_b[i - 1], b, viewer)
            assert told_a == told_b, f"{at}: the narration told to seat {viewer}: {told_a} against {told_b}"
        assert a.information_state_key(viewer) == b.information_state_key(viewer), at
        assert a.current_player() == b.current_player(), (
            f"{at}: seat {viewer} cannot tell the twins apart, but the player to move (protocol "
            f"'to_move'/'chance') is {a.current_player()} in one and {b.current_player()} in the other")
        if a.current_player() == viewer:
            names_a = [(x, a.action_to_string(x)) for x in a.legal_actions()]
            names_b = [(x, b.action_to_string(x)) for x in b.legal_actions()]
            assert names_a == names_b, f"{at}: seat {viewer}'s legal moves differ"
            assert legal_meanings(a, viewer) == legal_meanings(b, viewer), f"{at}: the moves' meanings differ"
        assert view_panel(a, viewer) == view_panel(b, viewer), f"{at}: seat {viewer}'s view panel differs"
        if a.is_terminal():
            assert outcome(a, viewer) == outcome(b, viewer), f"{at}: the outcome told to seat {viewer} differs"
        text_a, text_b = render_state(a, viewer, "text"), render_state(b, viewer, "text")
        assert text_a == text_b, f"{at}: seat {viewer}'s text picture differs:\n{text_a}\n---\n{text_b}"
        if i % PICTURE_EVERY == 0 or i == len(pairs) - 1:
            assert render_state(a, viewer, "svg") == render_state(b, viewer, "svg"), f"{at}: the SVG picture differs"
        assert _tensors(game, a, viewer) == _tensors(game, b, viewer), f"{at}: seat {viewer}'s tensors differ"


def _canon(value: Any) -> str:
    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k != "seconds"}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return json.dumps(strip(value), sort_keys=True)


def match_transcript(game: aiplay.Game, moves: List[int], viewer: int) -> List[str]:
    match = Match(game, seed=0)
    out = []
    for action in moves:
        match.apply(action)
        out.append(_canon([m.to_dict() for m in match.history_seen_by(viewer)][-3:]))
        out.append(_canon(match_summaries(match, max(0, match.ply - 12), viewer)))  # the turn summaries
    out.append(_canon(match.to_record(viewer)))
    return out


def protocol_transcript(name: str, options: Dict[str, Any], backend: str, moves: List[int], viewer: int,
                        illegal: List[Optional[int]]) -> List[str]:
    """Every reply to a client showing seat ``viewer`` while the moves are applied; ``illegal[i]``: an
    action id tried (and refused) before move ``i`` (None: none)."""
    replies: List[Dict[str, Any]] = []
    server = Server(replies.append)

    def ask(request: Dict[str, Any]) -> None:
        server.handle_line(json.dumps(request))

    # A trusted referee feeding every seat's moves (act_for "all") to a client that shows seat ``viewer``.
    ask({"id": 0, "cmd": "new", "game": name, "options": options, "backend": backend, "seed": 3, "viewer": viewer,
         "act_for": "all"})
    for ply, action in enumerate(moves):
        if illegal[ply] is not None:
            ask({"id": f"x{ply}", "cmd": "apply", "action": illegal[ply]})
        if ply % PICTURE_EVERY == 0:
            ask({"id": f"l{ply}", "cmd": "legal", "meanings": True})
            ask({"id": f"v{ply}", "cmd": "view", "render": "text", "panel": True})
        ask({"id": f"a{ply}", "cmd": "apply", "action": action})
    ask({"id": "h", "cmd": "history"})
    ask({"id": "r", "cmd": "record"})
    server.shutdown()
    return [_canon(r) for r in replies]


def illegal_moves(game: aiplay.Game, pairs: List[Tuple[State, State]], viewer: int, own: bool
                  ) -> List[Optional[int]]:
    """Before every few decisions of ``viewer`` (``own``) or of the other seats, an action id legal in
    neither twin (the same request to both)."""
    out: List[Optional[int]] = []
    for i, (a, b) in enumerate(pairs[:-1]):
        if a.is_chance_node() or (a.current_player() == viewer) != own or i % 3:
            out.append(None)
            continue
        legal = set(a.legal_actions()) | set(b.legal_actions())
        out.append(next((x for x in range(game.num_distinct_actions) if x not in legal), None))
    return out


def _differs(a: List[str], b: List[str]) -> Optional[str]:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            at = next(k for k, (c, d) in enumerate(zip(x, y)) if c != d) if x[:len(y)] != y[:len(x)] else min(len(x), len(y))
            return f"item {i}:\n  A: ...{x[max(0, at - 200):at + 200]}\n  B: ...{y[max(0, at - 200):at + 200]}"
    return None if len(a) == len(b) else f"{len(a)} items against {len(b)}"


@pytest.mark.parametrize("name,options,backend", CASES)
def test_every_channel_on_every_option_set(name: str, options: Dict[str, Any], backend: str) -> None:
    game = aiplay.load(name, backend=backend, **options)
    differing = 0
    for viewer in range(game.num_players):
        for seed in range(SEEDS):
            where = f"{name} {options} ({backend}), seat {viewer}, seed {seed}"
            moves_a, moves_b, pairs = twin_moves(game, viewer, seed)
            differing += moves_a != moves_b
            check_states(game, viewer, moves_a, moves_b, pairs, where)
            problem = _differs(match_transcript(game, moves_a, viewer), match_transcript(game, moves_b, viewer))
            assert problem is None, f"{where}, Match history and record: {problem}"
            illegal = illegal_moves(game, pairs, viewer, own=True)
            problem = _differs(protocol_transcript(name, options, backend, moves_a, viewer, illegal),
                               protocol_transcript(name, options, backend, moves_b, viewer, illegal))
            assert problem is None, f"{where}, protocol: {problem}"
    # Meaningful only if hidden parts really differed somewhere.
    assert differing > 0, f"{name} {options}: the twins never differed"


def test_the_grid_covers_every_value_of_every_option() -> None:
    """Every player count and every value option_values gives each option, for each game."""
    from aiplay.registry import option_values

    for entry in game_entries(include_hidden=True):
        grid = option_grid(entry.name)
        assert grid, entry.name
        for key, option in entry.reference.option_spec.items():
            wanted = set(option_values(key, option))
            seen = {o[key] for o in grid}
            assert wanted <= seen <= wanted | {option.default}, (entry.name, key, seen, wanted)
        if "players" in entry.reference.option_spec:
            spec = entry.reference.option_spec["players"]
            assert {o["players"] for o in grid} == set(range(spec.low, spec.high + 1)), entry.name


@pytest.mark.parametrize("name,options,backend", [c for c in CASES if c.values[2] == "reference"][:1])
def test_illegal_move_error_at_another_seats_decision(name: str, options: Dict[str, Any], backend: str) -> None:
    game = aiplay.load(name, backend=backend, **options)
    for viewer in range(game.num_players):
        moves_a, moves_b, pairs = twin_moves(game, viewer, 0)
        illegal = illegal_moves(game, pairs, viewer, own=False)
        problem = _differs(protocol_transcript(name, options, backend, moves_a, viewer, illegal),
                           protocol_transcript(name, options, backend, moves_b, viewer, illegal))
        assert problem is None, f"{name} {options}, seat {viewer}, protocol: {problem}"
