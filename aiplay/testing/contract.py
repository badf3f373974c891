"""The generic game contract in one call: :func:`check_game`.

A game author runs ``aiplay.testing.check_game("my_game")`` while writing a
game (from a test or a shell) and gets either a short report or a
:class:`ContractFailure` naming the game, the engine, the options, the seed,
the step and the broken promise. It plays seeded random games on every
engine the game has (the reference engine, and the native kernel when it is
built) and checks at every visited state:

* the player to move is a seat, ``CHANCE`` or ``TERMINAL``; legal actions are
  sorted, distinct and inside the action space (the chance outcome space at a
  chance node); chance probabilities are positive and sum to 1; a terminal
  state has no moves;
* returns are zeros before the end and within the utility bounds at the end;
  the heuristic values are within those bounds;
* every legal action has a distinct name that ``string_to_action`` parses back
  (this and the checks below at every fifth state and at the end: they are
  the costly ones);
* apply and undo: playing a move on a ``clone()`` leaves the state as it was,
  and an illegal action is refused (:class:`~aiplay.errors.IllegalActionError`)
  with the state unchanged;
* the JSON form round-trips (``state_from_json(to_json())``) to the same
  document, and so does a pickle;
* seats: every seat's ``view`` is JSON data; a seat that does not exist is
  refused (:class:`~aiplay.errors.InvalidPlayerError`) by ``view``,
  ``information_state_string``, ``information_state_key`` and ``determinize``;
* determinization: a world sampled for seat ``p`` has ``p``'s information
  state string, key and view, and contradicts none of ``p``'s knowledge;
* tensors, for a game that declares them (:mod:`aiplay.tensors`): the
  declared shape, ``float32``, every entry within its slice's range, and the
  same tensors on that sampled world (a twin);
* a game ends within its declared ``max_game_length`` (else within
  ``max_steps``);
* hidden information, with twins (:meth:`_Checker.check_hidden`, the checks of
  ``tests/test_determinize.py`` and the twin tests): for each seat ``p``, a
  second game B is played beside each seeded game A so that ``p`` cannot tell
  them apart after every move (same ``information_state_key(p)`` and
  ``view(p)``), while what ``p`` does not see (chance outcomes, other seats'
  hidden moves) differs where the game allows it. At sampled pairs: the twins
  give ``p`` the same information string, player to move and legal moves with
  their names (**twin channels**); ``determinize(p, rng)`` with the same seed
  gives the same world from A, from B and from a world already sampled for
  ``p`` (**canonical determinize**: a sample that depends on the true hidden
  contents is a leak); and since B proves that something is hidden from
  ``p``, ``determinize(p)`` must not keep returning the true state, nor keep
  another seat's true private information where B shows it can differ
  (**determinize varies**: up to :data:`VARIATION_DRAWS` draws, stopping at
  the first that shows the variation). In a perfect-information game a world
  is the state itself.

When the game has a built kernel, the differential harness
(:func:`aiplay.testing.differential.compare_engines`) then plays the same
seeds on both engines in lockstep. The full test suite checks more (fuzzing,
golden playthroughs, policy agreement; see ``docs/adding_a_game.md``); this
is the quick contract to run first.
"""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np

import aiplay
from aiplay.views import tensors
from aiplay.views.guide import legal_meanings
from aiplay.views.narrate import outcome
from aiplay.views.panel import view_panel
from aiplay.errors import IllegalActionError, InvalidOptionError, InvalidPlayerError
from aiplay.game import CHANCE, TERMINAL, Game, State
from aiplay.registry import game_entry, has_native
from aiplay.testing.differential import EngineMismatch, compare_engines
from aiplay.testing.simulate import random_action

__all__ = ["ContractFailure", "ContractReport", "check_game"]

#: How far apart, in moves, the states are that get the costly checks (JSON, pickle, determinize).
_DEEP_EVERY = 5
#: Hidden-information checks: twin games per option set and engine (the first seeds), the most
#: moves of one twin game, the twin pairs checked per game and seat, and the seeds of the
#: canonical-determinize check.
TWIN_GAMES = 3
TWIN_PLIES = 400
TWIN_PAIRS = 6
_CANONICAL_SEEDS = (11, 12)
#: The most determinizations drawn at one twin pair before ``determinize varies`` fails. A correct
#: sampler usually shows the variation on the first draw; 200 draws all giving the true state
#: (or the true private part of a seat) happen by chance only when that world holds nearly all
#: the probability (1 - 1/40 holds it with chance below 1%), which no shipped game comes near.
VARIATION_DRAWS = 200
#: B takes another move than A, when one fits, at this rate (chance) or a quarter of it (decisions).
_SWAP_RATE = 0.8
#: Candidate moves of B tried per move (A's own move always among them).
_CANDIDATES = 12


class ContractFailure(AssertionError):
    """A game broke its contract; the message says where (engine, options, seed, step) and how."""


@dataclass
class ContractReport:
    """What :func:`check_game` covered: per ``"<backend> <options>"``, games and states checked."""

    name: str
    games: Dict[str, int] = field(default_factory=dict)
    states: Dict[str, int] = field(default_factory=dict)
    differential_steps: Dict[str, int] = field(default_factory=dict)
    #: Per ``"<backend> <options>"``: twin pairs (states a seat cannot tell apart that differ) checked.
    twin_pairs: Dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        lines = [f"{self.name}: contract kept"]
        for key in self.games:
            twins = f", {self.twin_pairs[key]} twin pairs" if key in self.twin_pairs else ""
            lines.append(f"  {key}: {self.games[key]} games, {self.states[key]} states{twins}")
        for key, steps in self.differential_steps.items():
            lines.append(f"  differential {key}: {steps} steps in lockstep")
        return "\n".join(lines)


class _Checker:
    """The checks on one engine and option set; ``where`` prefixes every failure."""

    def __init__(self, game: Game, label: str, max_steps: int):
        self.game = game
        self.label = label
        self.max_steps = max_steps
        self.where = label

    def fail(self, problem: str) -> None:
        raise ContractFailure(f"{self.game.name} {self.where}: {problem}")

    def check(self, ok: bool, problem: str) -> None:
        if not ok:
            self.fail(problem)

    def play(self, seed: int) -> int:
        """One seeded random game, every state checked; returns the number of states."""
        game = self.game
        rng = random.Random(seed)
        state = game.new_initial_state()
        entry = game_entry(game.name)
        limit = entry.max_game_length(game) if entry.max_game_length is not None else self.max_steps
        step = 0
        while True:
            self.where = f"{self.label} seed {seed} step {step}"
            self.check_state(state, rng, deep=step % _DEEP_EVERY == 0 or state.is_terminal())
            if state.is_terminal():
                return step + 1
            self.check(step < limit, f"the game has not ended after {limit} moves "
                                     f"({'its max_game_length' if entry.max_game_length else 'max_steps'})")
            state.apply_action(random_action(state, rng))
            step += 1

    def check_state(self, state: State, rng: random.Random, deep: bool) -> None:
        game = self.game
        n = game.num_players
        player = state.current_player()
        self.check(player in (CHANCE, TERMINAL) or (isinstance(player, int) and 0 <= player < n),
                   f"current_player() is {player!r}, not a seat, CHANCE or TERMINAL")
        legal = state.legal_actions()
        self.check(legal == sorted(set(legal)), f"legal_actions() {legal} are not sorted and distinct")
        returns = state.returns()
        self.check(len(returns) == n, f"returns() has {len(returns)} entries for {n} players")
        low, high = game.min_utility - 1e-9, game.max_utility + 1e-9
        values = state.heuristic_values()
        self.check(len(values) == n and all(low <= v <= high for v in values),
                   f"heuristic_values() {values} are not {n} values within the utility bounds")
        if deep:  # what each seat's search scores a cut playout with
            for seat in range(n):
                seen = state.heuristic_values_for(seat)
                self.check(len(seen) == n and all(low <= v <= high for v in seen),
                           f"heuristic_values_for({seat}) {seen} are not {n} values within the utility bounds")
        if player == TERMINAL:
            self.check(legal == [] and state.chance_outcomes() == [], "a terminal state has moves")
            self.check(all(low <= r <= high for r in returns),
                       f"returns {returns} are outside [{game.min_utility}, {game.max_utility}]")
        else:
            self.check(bool(legal), "a state that is not terminal has no legal action")
            self.check(all(r == 0 for r in returns), f"returns {returns} before the end (must be zeros)")
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            self.check(sorted(a for a, _ in outcomes) == legal, "chance_outcomes() and legal_actions() differ")
            self.check(all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-9,
                       f"chance probabilities {[p for _, p in outcomes]} are not positive summing to 1")
            self.check(all(0 <= a < game.max_chance_outcomes for a in legal),
                       f"a chance outcome of {legal} is outside 0..{game.max_chance_outcomes - 1}")
        elif player != TERMINAL:
            self.check(all(0 <= a < game.num_distinct_actions for a in legal),
                       f"a legal action of {legal} is outside 0..{game.num_distinct_actions - 1}")
        self.check_apply_and_undo(state, legal, rng)
        if deep:
            if player >= 0:
                self.check_names(state, legal)
            self.check_seats(state)
            self.check_copies(state)
            if player >= 0:
                self.check_determinize(state, rng)

    def check_names(self, state: State, legal: List[int]) -> None:
        names = [state.action_to_string(a) for a in legal]
        self.check(len(set(names)) == len(names), f"two legal actions share a name: {names}")
        for action, name in zip(legal, names):
            parsed = state.string_to_action(name)
            self.check(parsed == action, f"string_to_action({name!r}) is {parsed}, not {action}")

    def check_apply_and_undo(self, state: State, legal: List[int], rng: random.Random) -> None:
        before = state.to_json()
        if legal:
            child = state.clone()
            child.apply_action(legal[rng.randrange(len(legal))])
            self.check(state.to_json() == before, "playing a move on a clone changed the original")
        space = max(self.game.num_distinct_actions, self.game.max_chance_outcomes)
        illegal = next((a for a in range(space + 1) if a not in legal), None)
        if illegal is not None:
            try:
                state.apply_action(illegal)
            except IllegalActionError:
                pass
            else:
                self.fail(f"the illegal action {illegal} was accepted (legal: {legal})")
            self.check(state.to_json() == before, f"the refused action {illegal} changed the state")

    def check_seats(self, state: State) -> None:
        n = self.game.num_players
        for p in range(n):
            try:
                json.dumps(state.view(p))
            except (TypeError, ValueError) as exc:
                self.fail(f"view({p}) is not JSON data: {exc}")
        for method, args in (("view", ()), ("information_state_string", ()), ("information_state_key", ()),
                             ("determinize", (random.Random(0),))):
            for seat in (n, -1):
                try:
                    getattr(state, method)(seat, *args)
                except InvalidPlayerError:
                    continue
                self.fail(f"{method}({seat}) did not raise InvalidPlayerError (seats are 0..{n - 1})")

    def check_copies(self, state: State) -> None:
        text = state.to_json()
        loaded = self.game.state_from_json(text)
        self.check(loaded.to_json() == text, "state_from_json(to_json()) gives another document")
        self.check(loaded.current_player() == state.current_player()
                   and loaded.legal_actions() == state.legal_actions(),
                   "the state loaded from JSON has another player or other legal actions")
        unpickled = pickle.loads(pickle.dumps(state))
        self.check(unpickled.to_json() == text, "a pickled and unpickled state gives another document")

    def check_tensors(self, state: State, p: int, world: State) -> None:
        """``p``'s tensors (where the game has them): declared shape, float32, in range, equal on a twin."""
        for kind in ("information_state", "observation"):
            if not tensors.provides(self.game, kind):
                continue
            tensor = getattr(state, f"{kind}_tensor")(p)
            shape = getattr(self.game, f"{kind}_tensor_shape")()
            self.check(tensor.dtype == np.float32 and tensor.shape == shape,
                       f"{kind}_tensor({p}) is {tensor.dtype} {tensor.shape}, not float32 {shape}")
            self.check(bool(((tensor >= 0) & (tensor <= tensors.bounds(self.game, kind))).all()),
                       f"{kind}_tensor({p}) has entries outside the ranges its slices declare")
            self.check(np.array_equal(getattr(world, f"{kind}_tensor")(p), tensor),
                       f"{kind}_tensor({p}) differs on a world determinized for seat {p} (a twin)")

    def check_determinize(self, state: State, rng: random.Random) -> None:
        for p in range(self.game.num_players):
            world = state.determinize(p, rng)
            self.check_tensors(state, p, world)
            self.check(world.information_state_string(p) == state.information_state_string(p),
                       f"determinize({p}) changed what seat {p} knows (information_state_string)")
            self.check(world.information_state_key(p) == state.information_state_key(p),
                       f"determinize({p}) changed seat {p}'s information_state_key")
            self.check(world.view(p) == state.view(p), f"determinize({p}) changed seat {p}'s view")
            violations = world.knowledge_violations(p)
            self.check(not violations, f"determinize({p}) contradicts seat {p}'s knowledge: {violations}")


    # -- hidden information: twins ------------------------------------------
    def check_hidden(self, seed: int) -> int:
        """The twin checks of one seeded game for every seat (see the module docstring); returns the pairs checked."""
        game = self.game
        if game.perfect_information:
            self.check_perfect_information(seed)
            return 0
        pairs = 0
        for p in range(game.num_players):
            self.where = f"{self.label} seed {seed} twins for seat {p}"
            found = self.twin_pairs(p, seed)
            differing = [(i, a, b) for i, a, b in found if a.to_json() != b.to_json()]
            step = max(1, len(differing) // TWIN_PAIRS)
            for i, a, b in differing[::step][:TWIN_PAIRS]:
                self.where = f"{self.label} seed {seed} twins for seat {p} at move {i}"
                self.check_twin_pair(a, b, p)
                pairs += 1
        return pairs

    def check_perfect_information(self, seed: int) -> None:
        """Nothing is hidden: ``determinize`` gives the state itself, at a few states of a seeded game."""
        rng = random.Random(seed)
        state = self.game.new_initial_state()
        for step in range(self.max_steps):
            if state.is_terminal():
                return
            if step % _DEEP_EVERY == 0:
                for p in range(self.game.num_players):
                    self.where = f"{self.label} seed {seed} step {step}"
                    world = state.determinize(p, random.Random(step))
                    self.check(world.to_json() == state.to_json(),
                               f"determinize varies: a perfect-information game's determinize({p}) must return "
                               f"the state itself (a copy), and it changed it")
            state.apply_action(random_action(state, rng))

    def twin_pairs(self, viewer: int, seed: int) -> List[tuple]:
        """Twin games A and B for ``viewer``: ``[(move number, A's state, B's state)]`` after every move.

        A plays seeded random moves (chance by its probabilities). At each move
        B takes one of its own moves after which ``viewer`` has A's information
        key and view, and the results are A's; another move than A's where one
        fits (at :data:`_SWAP_RATE`), but never one that no seat could tell
        from A's (a public fact the position does not show, not a hidden one).
        The pair ends when B has no fitting move.
        """
        game = self.game
        rng = random.Random(f"twin-a-{seed}-{viewer}")
        b_rng = random.Random(f"twin-b-{seed}-{viewer}")
        a, b = game.new_initial_state(), game.new_initial_state()
        seats = range(game.num_players)
        out = []
        for ply in range(TWIN_PLIES):
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
            rate = _SWAP_RATE if a.is_chance_node() else _SWAP_RATE / 4
            swap = b_rng.random() < rate
            candidates = others[:_CANDIDATES - 1]
            order = (candidates + [action_a]) if swap else ([action_a] + candidates)
            chosen: Optional[int] = None
            after_b: Optional[State] = None
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
                    continue
                chosen, after_b = action_b, trial
                break
            if chosen is None or after_b is None:
                break
            a, b = after_a, after_b
            out.append((ply + 1, a, b))
        return out

    def check_twin_pair(self, a: State, b: State, p: int) -> None:
        """The twin channels, canonical determinize and determinize-varies checks on one pair."""
        n = self.game.num_players
        self.check(a.information_state_string(p) == b.information_state_string(p),
                   f"twin channels: two states with the same information_state_key({p}) and view({p}) give "
                   f"seat {p} different information_state_string texts")
        self.check(a.current_player() == b.current_player(),
                   f"twin channels: two states seat {p} cannot tell apart have different players to move")
        if a.current_player() == p:
            names_a = [(x, a.action_to_string(x)) for x in a.legal_actions()]
            names_b = [(x, b.action_to_string(x)) for x in b.legal_actions()]
            self.check(names_a == names_b,
                       f"twin channels: seat {p}'s legal moves or their names depend on what it cannot see: "
                       f"{names_a} against {names_b}")
            self.check(legal_meanings(a, p) == legal_meanings(b, p),
                       f"twin channels: the meanings of seat {p}'s moves (games/<g>/guide.py) depend on what "
                       f"it cannot see")
        # The texts a person reads (issue 38): the panel and, at the end, the outcome.
        self.check(view_panel(a, p) == view_panel(b, p),
                   f"twin channels: seat {p}'s view panel (games/<g>/panel.py) differs between twins")
        if a.is_terminal() and b.is_terminal():
            self.check(outcome(a, p) == outcome(b, p),
                       f"twin channels: the outcome told to seat {p} differs between twins")
        # Varies: B proves that the state differs from what seat p knows; so must some world.
        truth = a.to_json()
        private = [q for q in range(n) if q != p and a.information_state_key(q) != b.information_state_key(q)]
        true_keys = {q: a.information_state_key(q) for q in private}
        left_state, left_private = True, set(private)
        for draw in range(VARIATION_DRAWS):
            world = a.determinize(p, random.Random(f"vary-{draw}"))
            if left_state and world.to_json() != truth:
                left_state = False
            left_private -= {q for q in left_private if world.information_state_key(q) != true_keys[q]}
            if not left_state and not left_private:
                break
        if left_state:
            self.fail(f"determinize varies: {VARIATION_DRAWS} worlds sampled by determinize({p}) are all the true "
                      f"state, although seat {p} cannot tell it from another state (a twin that differs): "
                      f"determinize returns the true state instead of sampling what seat {p} does not see")
        if left_private:
            self.fail(f"determinize varies: in {VARIATION_DRAWS} worlds sampled by determinize({p}), seat(s) "
                      f"{sorted(left_private)} always keep their true private information (information_state_key), "
                      f"although seat {p} cannot know it (a twin differs there): determinize keeps another seat's "
                      f"real hidden cards instead of resampling them")
        # Canonical: the same seed gives the same world from the state, its twin and a sampled world.
        first = a.determinize(p, random.Random(_CANONICAL_SEEDS[0]))
        for seed in _CANONICAL_SEEDS:
            real = a.determinize(p, random.Random(seed)).to_json()
            for other, what in ((b, "a twin the seat cannot tell from it"), (first, "a world sampled for it")):
                self.check(other.determinize(p, random.Random(seed)).to_json() == real,
                           f"canonical determinize: determinize({p}, rng) with the same seed gives another world "
                           f"from the true state than from {what}, so the sample depends on the true hidden "
                           f"contents (a leak to any search that samples from the true state)")


def check_game(name: str, *, options: Optional[Sequence[Mapping[str, Any]]] = None, games: int = 10,
               seed: int = 0, differential_games: Optional[int] = None,
               max_steps: int = 20_000, twin_games: Optional[int] = None) -> ContractReport:
    """Check the generic contract of the registered game ``name``; raise :class:`ContractFailure` if broken.

    ``options``: the option sets to check (default: the game's registered
    ``contract_options``); ``games``: seeded random games per option set and
    engine (seeds ``seed, seed+1, ...``); ``differential_games``: games of the
    native-against-reference lockstep per option set when a kernel is built
    (default: ``games``; 0 skips it); ``max_steps``: the move limit of a game
    that declares no ``max_game_length``; ``twin_games``: seeded games per
    option set and engine that get the hidden-information twin checks
    (default: ``min(games, TWIN_GAMES)``; 0 skips them). Returns a :class:`ContractReport`.
    An unknown game raises :class:`~aiplay.errors.UnknownGameError`, a bad
    argument :class:`~aiplay.errors.InvalidOptionError`.
    """
    entry = game_entry(name)
    for label, value in (("games", games), ("max_steps", max_steps)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidOptionError(f"option {label}={value!r} is invalid; it accepts an integer >= 1")
    if differential_games is None:
        differential_games = games
    if isinstance(differential_games, bool) or not isinstance(differential_games, int) or differential_games < 0:
        raise InvalidOptionError(
            f"option differential_games={differential_games!r} is invalid; it accepts an integer >= 0")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"option seed={seed!r} is invalid; it accepts an integer")
    if twin_games is None:
        twin_games = min(games, TWIN_GAMES)
    if isinstance(twin_games, bool) or not isinstance(twin_games, int) or twin_games < 0:
        raise InvalidOptionError(f"option twin_games={twin_games!r} is invalid; it accepts an integer >= 0")
    option_sets = [dict(o) for o in (entry.contract_options if options is None else options)]
    backends = ["reference"] + (["native"] if has_native(name) else [])
    report = ContractReport(name)
    for opts in option_sets:
        for backend in backends:
            game = aiplay.load(name, backend=backend, **opts)
            key = f"{backend} {json.dumps(opts, sort_keys=True)}"
            checker = _Checker(game, key, max_steps)
            report.games[key] = games
            report.states[key] = sum(checker.play(s) for s in range(seed, seed + games))
            if twin_games:
                report.twin_pairs[key] = sum(checker.check_hidden(s) for s in range(seed, seed + twin_games))
        if "native" in backends and differential_games:
            key = json.dumps(opts, sort_keys=True)
            try:
                run = compare_engines(aiplay.load(name, backend="reference", **opts),
                                      aiplay.load(name, backend="native", **opts),
                                      range(seed, seed + differential_games), max_steps=max_steps)
            except EngineMismatch as exc:
                raise ContractFailure(f"{name} {key}: the kernel differs from the reference engine: {exc}") from None
            report.differential_steps[key] = run.steps
    return report
