"""The coach: a review of one seat's decisions in a played game, each priced from what the seat knew.

:func:`review` takes a game (a :class:`~aiplay.match.Match` or its full record)
and a seat, and for every decision of that seat with more than one legal move
gives a :class:`Decision`: the move played, the best move, the estimated value
of both for the seat, the loss between them with an interval, a label and, for
a mistake or worse, the best move's expected line. :class:`Review` collects
them with a summary ("3 mistakes, 1 blunder; accuracy 87 %").

**Only what the seat knew.** Each decision is priced from the seat's
information state at that moment, never from the true deal or from the moves
played later:

* perfect information, position small enough: the exact solver
  (:func:`aiplay.solve.solve` with ``move_values``), within :data:`EXACT_NODES`
  nodes, the values of all its moves included; such a decision is marked
  ``exact``. The solver tries the last decision first and goes back until
  :data:`EXACT_MISSES` positions did not finish (a game's positions shrink
  as it goes on);
* otherwise the game's strongest search (:func:`~aiplay.search.kinds.strongest_kind`:
  MCTS, or ISMCTS from the seat's point of view where information is hidden,
  whose worlds are drawn by ``state.determinize(seat, rng)``), with the game's
  presets and the review's budget. Each decision's search is seeded from the
  review's ``seed`` and the decision's index among the seat's decisions, both
  of which the seat knows, so two games the seat cannot tell apart get the
  same review (the twin test, ``tests/test_review_twins.py``).

The best move is the one the search would play (most visits); the value of a
move is its mean return at the root. The loss is ``value(best) - value(played)``
(never below 0: a played move the search rates above its own choice lost
nothing). Its interval: with ``repeats=1`` a 95 % interval from the search's
own statistics, the visit counts with the largest variance a return in the
game's utility range can have (Popoviciu's bound: ``span**2 / 4``), which is
conservative; with ``repeats=k > 1`` the searches are repeated with ``k``
seeds, the values pooled over them and the interval taken from the spread of
the ``k`` losses (a t interval). An exact decision's interval is the loss itself.

**Labels** are set on the loss as a fraction of the game's utility span
(``max_utility - min_utility``), so that they mean the same thing across games:
in a game won or lost (returns 1 and -1, or 1 and 0) a fraction of the span is
a change in the probability of winning. :data:`THRESHOLDS`:

============ =============================================================
``best``     the move played is the best move (or no worse, loss 0)
``good``     loss below 2 % of the span (a 2-point drop in winning chances)
``inaccuracy`` from 2 % to 5 %
``mistake``  from 5 % to 15 %
``blunder``  15 % of the span or more
============ =============================================================

A game may give its own thresholds, span or search, by convention as class
attributes of its game class in ``games/<game>/`` (``review_thresholds``: the
three fractions; ``review_span``: the span, for a game whose utility bounds are
far from the usual stakes; ``review_search``: options of the review's search
bot over the game's presets). No shipped game changes the thresholds or the
span; the two poker games set ``review_search`` (MO-ISMCTS, wider
exploration), which agreed better with their equilibrium values
(benchmarks/RESULTS.md, "The coach checked against exact values").

**Accuracy** is the share of the reviewed decisions labelled best or good.

**Other seats.** A review of another seat's decisions reads what that seat
knew, which the asking seat (``viewer``) did not: in a game with hidden
information it is refused (:class:`~aiplay.errors.InvalidOptionError`) unless
the caller asks for everything by name (``viewer_all=True``, the protocol's
``"viewer": "all"``). The record is always the whole game (a record as one
seat saw it cannot be replayed).

**Cost and cancelling.** ``progress(done, total, decision)`` is called after
each decision; ``cancel`` (a :class:`threading.Event`, or anything with
``is_set()``) ends the review within one search's stop (about 50 ms): the
review returned is marked ``partial``. Ctrl-C does the same.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import statistics
import threading
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from aiplay import match as match_module
from aiplay.errors import InvalidOptionError
from aiplay.game import Game, State, check_player, seen_action
from aiplay.limits import check_bool, check_int, check_positive_int, shown
from aiplay.match import Match
from aiplay.registry import game_entry
from aiplay.search import make_bot
from aiplay.search.base import Analysis, Bot, Budget, most_visited
from aiplay.search.kinds import strongest_kind
from aiplay.solve import PVNode, solve

#: The labels, best first.
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Loss fractions of the utility span where ``inaccuracy``, ``mistake`` and ``blunder`` begin.
THRESHOLDS: Tuple[float, float, float] = (0.02, 0.05, 0.15)
#: The search budget per decision when none is given: the top difficulty level's.
DEFAULT_ITERATIONS = 4000
#: The solver's node budget for an exact decision; past it the decision is estimated by search
#: (nodes, not seconds, so that a review is reproducible; 250,000 is about 2 s on a board game).
EXACT_NODES = 250_000
#: How many positions the solver may fail to finish (going back from the end) before it stops trying.
EXACT_MISSES = 3
#: The most decisions of a mistake's expected line shown.
LINE_LENGTH = 8
#: The most repeated searches per decision.
MAX_REPEATS = 64
#: Student's t at 97.5 % for 1..30 degrees of freedom (a 95 % two-sided interval); 1.96 beyond.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)

#: What ``progress`` is called with: decisions done, decisions to review, the decision just priced.
Progress = Callable[[int, int, "Decision"], None]


@dataclass(frozen=True)
class Decision:
    """One reviewed decision (see the module docstring).

    ``index`` counts the seat's decisions with a choice (0 first); ``ply`` is
    the move's index in the match history. Values are the seat's expected
    return. ``played``/``best`` are action ids, ``played_name``/``best_name``
    their names. ``line``: the best move's expected line as the seat could know
    it (names; moves hidden from the seat are named as it would see them),
    given for a mistake or a blunder. ``legal``: how many moves there were.
    """

    index: int
    ply: int
    turn: int
    played: int
    played_name: str
    best: int
    best_name: str
    value_played: float
    value_best: float
    loss: float
    loss_low: float
    loss_high: float
    label: str
    exact: bool
    legal: int
    line: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready data."""
        return asdict(self)

    def text(self) -> str:
        """One line for a person: the move, the verdict and, when it was not the best, the better move."""
        kind = "exact" if self.exact else f"+/- {max(self.loss - self.loss_low, self.loss_high - self.loss):.3f}"
        out = (f"#{self.index + 1:<3} turn {self.turn:<3} played {self.played_name!r}: {self.label}"
               f" (loss {self.loss:.3f}, {kind}; value {self.value_played:.3f})")
        if self.best != self.played:
            rated = "as good as" if self.label == "best" else "best"
            out += f"; {rated} {self.best_name!r} ({self.value_best:.3f})"
        if self.line:
            out += "\n      expected line: " + " -> ".join(self.line)
        return out


@dataclass(frozen=True)
class Review:
    """A review of one seat's decisions: the :class:`Decision` entries and what they add up to."""

    game: str
    options: Dict[str, Any]
    seat: int
    decisions: List[Decision]
    #: True when the review was cancelled (``stop``, Ctrl-C) before every decision was priced.
    partial: bool
    #: Decisions of the seat with a choice (the reviewed ones are the first ``len(decisions)``).
    total: int
    span: float
    thresholds: Tuple[float, float, float]
    budget: Dict[str, Any]
    seed: int
    repeats: int

    def counts(self) -> Dict[str, int]:
        """How many decisions got each label."""
        out = {label: 0 for label in LABELS}
        for d in self.decisions:
            out[d.label] += 1
        return out

    @property
    def accuracy(self) -> Optional[float]:
        """The share of reviewed decisions labelled best or good (None: nothing reviewed)."""
        if not self.decisions:
            return None
        counts = self.counts()
        return (counts["best"] + counts["good"]) / len(self.decisions)

    @property
    def mean_loss(self) -> Optional[float]:
        """The average loss per reviewed decision (None: nothing reviewed)."""
        return statistics.fmean(d.loss for d in self.decisions) if self.decisions else None

    def worst(self, count: int = 3) -> List[Decision]:
        """The ``count`` costliest decisions, the biggest loss first (ties: the earlier first)."""
        return sorted(self.decisions, key=lambda d: (-d.loss, d.index))[:count]

    def summary(self) -> str:
        """"3 mistakes, 1 blunder; accuracy 87 %" (what a frontend shows after a game)."""
        counts = self.counts()
        parts = [f"{counts[label]} {label}{'' if counts[label] == 1 else 's'}"
                 for label in ("inaccuracy", "mistake", "blunder") if counts[label]]
        parts = [p.replace("inaccuracys", "inaccuracies") for p in parts]
        head = ", ".join(parts) if parts else "no inaccuracies"
        accuracy = self.accuracy
        text = head + ("; no decision to review" if accuracy is None else f"; accuracy {round(100 * accuracy)} %")
        exact = sum(d.exact for d in self.decisions)
        text += f" ({len(self.decisions)} decisions reviewed"
        text += f", {exact} exact" if exact else ""
        text += f", partial: {self.total - len(self.decisions)} not reviewed)" if self.partial else ")"
        return text

    def text(self) -> str:
        """Every decision's line, then the summary."""
        lines = [f"review of player {self.seat} in {self.game}"]
        lines.extend(d.text() for d in self.decisions)
        lines.append(self.summary())
        return "\n".join(lines)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready data: every field, the decisions, and the summary's numbers."""
        return {
            "game": self.game, "options": dict(self.options), "seat": self.seat,
            "decisions": [d.to_dict() for d in self.decisions], "partial": self.partial, "total": self.total,
            "span": self.span, "thresholds": list(self.thresholds), "budget": dict(self.budget),
            "seed": self.seed, "repeats": self.repeats, "counts": self.counts(), "accuracy": self.accuracy,
            "mean_loss": self.mean_loss, "summary": self.summary(),
        }


# ---------------------------------------------------------------------------
# Thresholds and labels
# ---------------------------------------------------------------------------

def scale_of(game: Game) -> Tuple[float, Tuple[float, float, float]]:
    """``(span, thresholds)`` of ``game``: its own where its game class gives them, else the common ones."""
    cls = game_entry(game.name).reference
    span = getattr(cls, "review_span", None)
    if span is None:
        span = float(game.max_utility) - float(game.min_utility)
    thresholds = tuple(getattr(cls, "review_thresholds", None) or THRESHOLDS)
    if (not (isinstance(span, (int, float)) and math.isfinite(span) and span > 0) or len(thresholds) != 3
            or not 0 < thresholds[0] < thresholds[1] < thresholds[2]):
        raise InvalidOptionError(f"game {game.name!r}: review_span must be a positive number and "
                                 f"review_thresholds three rising fractions; got {span!r}, {thresholds!r}")
    return float(span), (float(thresholds[0]), float(thresholds[1]), float(thresholds[2]))


def search_presets_of(game: Game) -> Dict[str, Any]:
    """The review's search options on ``game``: its game class's ``review_search``, by convention (else none)."""
    presets = getattr(game_entry(game.name).reference, "review_search", None) or {}
    if not isinstance(presets, Mapping):
        raise InvalidOptionError(f"game {game.name!r}: review_search must be a mapping of bot options")
    return dict(presets)


def label_of(loss: float, same_move: bool, span: float, thresholds: Sequence[float]) -> str:
    """The label of a decision that lost ``loss`` (``same_move``: the best move was played)."""
    if same_move or loss <= 0:
        return "best"
    fraction = loss / span
    if fraction < thresholds[0]:
        return "good"
    if fraction < thresholds[1]:
        return "inaccuracy"
    if fraction < thresholds[2]:
        return "mistake"
    return "blunder"


# ---------------------------------------------------------------------------
# The review
# ---------------------------------------------------------------------------

def _as_match(source: Any) -> Match:
    """A Match from a Match, a full game record (dict) or its JSON text."""
    if isinstance(source, Match):
        return source
    if isinstance(source, (bytes, bytearray)):
        source = source.decode("utf-8", errors="replace")
    if isinstance(source, str):
        return Match.from_json(source)
    if isinstance(source, Mapping):
        return Match.from_record(source)
    raise InvalidOptionError(f"review needs a Match or a game record, got {shown(source)}")


def _budget(budget: Any) -> Budget:
    """A :class:`Budget` from None (the default), an int (iterations), a mapping or a Budget."""
    if budget is None:
        return Budget(iterations=DEFAULT_ITERATIONS)
    if isinstance(budget, Budget):
        return budget
    if isinstance(budget, int) and not isinstance(budget, bool):
        return Budget(iterations=check_positive_int("budget", budget, allow_none=False))
    if isinstance(budget, Mapping):
        unknown = sorted(set(budget) - {"iterations", "seconds", "nodes"})
        if unknown:
            raise InvalidOptionError(f"unknown budget key {unknown[0]!r}; a budget has iterations, seconds, nodes")
        made = Budget(**dict(budget))
        if made.unlimited:
            raise InvalidOptionError("a review's budget needs iterations, seconds or nodes")
        return made
    raise InvalidOptionError(f"option budget={shown(budget)} is invalid; it accepts iterations (an int), "
                             f"a mapping of iterations/seconds/nodes, or a Budget")


def _decision_seed(seed: int, index: int, repeat: int) -> int:
    """The search seed of the ``index``-th reviewed decision's ``repeat``-th search.

    Only what the seat knows goes in (the review's seed, its decision count), so twins share it.
    """
    digest = hashlib.sha256(f"aiplay-review:{seed}:{index}:{repeat}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _positions(match: Match) -> List[Tuple[State, int, int, int]]:
    """``(position before, ply, turn, action)`` of every decision of the match, from its record."""
    record = match.to_record()
    state = match.game.state_from_json(json.dumps(record["start"]))
    out = []
    for move in match.history:
        assert move.action is not None
        if move.player >= 0:
            out.append((state.clone(), move.ply, move.turn, move.action))
        state.apply_action(move.action)
    return out


def review(source: Union[Match, Mapping[str, Any], str], seat: int, *, budget: Any = None,
           exact: bool = True, viewer: Optional[int] = None, viewer_all: bool = False, seed: int = 0,
           repeats: int = 1, exact_nodes: int = EXACT_NODES, search: Optional[Mapping[str, Any]] = None,
           progress: Optional[Progress] = None, cancel: Any = None, reuse: bool = False) -> Review:
    """Review ``seat``'s decisions in ``source`` (a Match or its full record); see the module docstring.

    ``budget``: the search per decision (iterations as an int, a mapping of
    iterations/seconds/nodes, or a :class:`~aiplay.search.base.Budget`; default
    :data:`DEFAULT_ITERATIONS` iterations: reproducible, where seconds are not).
    ``exact``: use the solver where a perfect-information position is small
    enough (``exact_nodes`` nodes). ``viewer``: the seat asking (default
    ``seat``); ``viewer_all``: the caller sees the whole game, so it may review
    any seat and read every name. ``repeats``: searches per decision (> 1: the
    interval from their spread). ``search``: more options of the search bot
    (over the game's presets, e.g. ``{"variant": "mo", "uct_c": 2.0}``; not
    ``seed``, which the review sets). ``progress`` and ``cancel``: see the module
    docstring. ``reuse``: one search bot (per repeat) for the whole review, which keeps
    its tree from one of the seat's decisions to the next where the engine allows it
    (:mod:`aiplay.search.tree_reuse`; re-rooted by the seat's own information key, so
    still twin-safe); off by default, because each decision's verdict then depends on
    the decisions before it and on whether the played move was one the previous search
    explored (benchmarks/RESULTS.md, "Tree reuse in the review", measures it). Raises :class:`~aiplay.errors.AiplayError` for a bad argument.
    """
    match = _as_match(source)
    game = match.game
    seat = check_player(seat, game.num_players)
    check_bool("exact", exact)
    check_bool("viewer_all", viewer_all)
    check_bool("reuse", reuse)
    repeats = int(check_int("repeats", repeats, 1, MAX_REPEATS) or 1)
    exact_nodes = check_positive_int("exact_nodes", exact_nodes, allow_none=False)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"option seed={shown(seed)} is invalid; it accepts an integer")
    if viewer is not None:
        viewer = check_player(viewer, game.num_players)
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"option progress={shown(progress)} is invalid; it accepts a function or None")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise InvalidOptionError(f"option cancel={shown(cancel)} is invalid; it accepts a threading.Event or None")
    if viewer is not None and viewer != seat and not viewer_all and not game.perfect_information:
        raise InvalidOptionError(
            f"player {viewer} may not review player {seat}'s decisions in {game.name!r}: the review reads what "
            f"player {seat} knew (their hidden cards); ask for the whole game by name (viewer_all=True, the "
            f"protocol's \"viewer\": \"all\") with the full record")
    search_budget = _budget(budget)
    if search is not None and (not isinstance(search, Mapping) or "seed" in search or "game" in search):
        raise InvalidOptionError(f"option search={shown(search)} is invalid; it accepts a mapping of bot options "
                                 f"(not seed or game: the review sets them)")
    span, thresholds = scale_of(game)
    todo = [(i, p) for i, p in enumerate(p for p in _positions(match) if p[0].current_player() == seat
                                         and len(p[0].legal_actions()) > 1)]
    names_for = None if viewer_all else seat
    options = {**search_presets_of(game), **dict(search or {})}
    if reuse:
        options.setdefault("reuse_tree", True)
    reviewer = _Reviewer(game, seat, search_budget, exact and game.perfect_information, exact_nodes, seed,
                         repeats, span, thresholds, names_for, options, reuse)
    # A bad bot option fails here, before any work (make_bot checks every option).
    make_bot(reviewer.kind, game=game, seed=0, **reviewer.options)
    decisions: List[Decision] = []
    partial = False
    watcher_done = threading.Event()
    if cancel is not None:
        def watch() -> None:
            # A stop lands in the middle of a search: stop that search too, not only the next one.
            while not watcher_done.is_set():
                if cancel.is_set():
                    reviewer.stop()
                    return
                watcher_done.wait(0.02)

        threading.Thread(target=watch, name="aiplay-review-cancel", daemon=True).start()
    try:
        # The solver first, from the last decision back: positions shrink as a game goes on, so after
        # EXACT_MISSES positions it cannot finish within its budget it stops trying (a failed solve
        # costs about a second on a board game: a few per review, not one per decision). Not one:
        # a wide decision (42 moves) can fail between narrow ones that finish.
        solved: Dict[int, Decision] = {}
        misses = 0
        if reviewer.exact:
            for index, (state, ply, turn, action) in reversed(todo):
                if misses >= EXACT_MISSES or (cancel is not None and cancel.is_set()):
                    break
                decision = reviewer.solved(index, state, ply, turn, action)
                if decision is None:
                    misses += 1
                else:
                    solved[index] = decision
        for index, (state, ply, turn, action) in todo:
            if cancel is not None and cancel.is_set():
                partial = True
                break
            found = solved.get(index)
            if found is None:
                found = reviewer.searched(index, state, ply, turn, action)
            if found is None:  # stopped in the middle of its search
                partial = True
                break
            decisions.append(found)
            if progress is not None:
                progress(len(decisions), len(todo), found)
    except KeyboardInterrupt:  # Ctrl-C: the decisions priced so far, marked partial
        partial = True
    finally:
        watcher_done.set()
    return Review(game=game.name, options=game.options, seat=seat, decisions=decisions, partial=partial,
                  total=len(todo), span=span, thresholds=thresholds,
                  budget={k: v for k, v in asdict(search_budget).items() if v is not None}, seed=seed,
                  repeats=repeats)


class _Reviewer:
    """Prices one decision at a time (the search bots, the solver), and can be stopped from another thread."""

    def __init__(self, game: Game, seat: int, budget: Budget, exact: bool, exact_nodes: int, seed: int,
                 repeats: int, span: float, thresholds: Tuple[float, float, float], names_for: Optional[int],
                 options: Dict[str, Any], reuse: bool = False):
        self.game, self.seat, self.budget, self.exact, self.exact_nodes = game, seat, budget, exact, exact_nodes
        self.seed, self.repeats, self.span, self.thresholds, self.names_for = seed, repeats, span, thresholds, names_for
        self.kind = strongest_kind(game)
        self.options = options
        #: With ``reuse``: the bot of each repeat, kept from one decision to the next (its tree with it).
        self.reuse = reuse
        self._kept_bots: Dict[int, Bot] = {}
        self._bot: Optional[Bot] = None
        self._stopped = threading.Event()

    def stop(self) -> None:
        """End the running search now; the decision in progress is dropped."""
        self._stopped.set()
        bot = self._bot
        if bot is not None:
            bot.stop()

    # -- exact ----------------------------------------------------------------
    def solved(self, index: int, state: State, ply: int, turn: int, action: int) -> Optional[Decision]:
        """The decision priced by the solver, or None where it does not finish within its node budget.

        The budget covers the value of every move, not only the root's (which pruning proves
        at a fraction of the cost).
        """
        solution = solve(state, nodes=self.exact_nodes, deepening=False, move_values=True, pv_nodes=64)
        if not solution.exact or solution.move_values is None or solution.best_action is None:
            return None
        values = {m["action"]: float(m["values"][self.seat]) for m in solution.move_values}
        best = solution.best_action
        loss = max(0.0, values[best] - values[action])
        label = label_of(loss, action == best, self.span, self.thresholds)
        line = _pv_line(solution.pv) if label in ("mistake", "blunder") else []
        return self._decision(index, ply, turn, state, action, best, values[action], values[best], loss,
                              (loss, loss), label, True, line)

    # -- estimated --------------------------------------------------------------
    def searched(self, index: int, state: State, ply: int, turn: int, action: int) -> Optional[Decision]:
        """The decision priced by the search, or None when stopped during it."""
        analyses: List[Analysis] = []
        for r in range(self.repeats):
            if self._stopped.is_set():
                return None
            bot = self._kept_bots.get(r) if self.reuse else None
            if bot is None:
                bot = make_bot(self.kind, game=self.game, seed=_decision_seed(self.seed, index, r), **self.options)
                if self.reuse:
                    self._kept_bots[r] = bot
            self._bot = bot
            if self._stopped.is_set():
                return None
            analyses.append(bot.analyse(state, iterations=self.budget.iterations, seconds=self.budget.seconds,
                                        nodes=self.budget.nodes))
            self._bot = None
        if self._stopped.is_set():  # the last search was cut short: its numbers are not the budget's
            return None
        pooled = _pool(analyses)
        best = most_visited(pooled).action
        value_best, value_played = _value(pooled, best), _value(pooled, action)
        loss = max(0.0, value_best - value_played)
        if self.repeats > 1:
            interval = _t_interval([max(0.0, _value(a.stats, best) - _value(a.stats, action)) for a in analyses],
                                   loss)
        else:
            half = 1.96 * (self.span / 2) * math.sqrt(_inv_visits(pooled, best) + _inv_visits(pooled, action))
            interval = (loss - half, loss + half)
        interval = (max(0.0, interval[0]), min(self.span, interval[1]))
        label = label_of(loss, action == best, self.span, self.thresholds)
        line: List[str] = []
        if label in ("mistake", "blunder"):
            source = next((a for a in analyses if a.action == best), None)
            line = self._named_line(state, source.principal_variation if source else [best], index)
        return self._decision(index, ply, turn, state, action, best, value_played, value_best, loss, interval,
                              label, False, line)

    def _named_line(self, state: State, actions: List[int], index: int) -> List[str]:
        """A search's line named as the seat could read it: on a world drawn from what it knew."""
        world = state.determinize(self.seat, random.Random(_decision_seed(self.seed, index, -1)))
        names: List[str] = []
        for a in actions[:LINE_LENGTH]:
            if world.is_terminal() or a not in world.legal_actions():
                break  # the line ran through another sampled world: stop where it leaves this one
            names.append(seen_action(world, a, self.seat)[1])
            world.apply_action(a)
        return names

    def _decision(self, index: int, ply: int, turn: int, state: State, played: int, best: int,
                  value_played: float, value_best: float, loss: float, interval: Tuple[float, float],
                  label: str, exact: bool, line: List[str]) -> Decision:
        # The seat's own moves: it knows their names (the viewer "all" reads the same names).
        return Decision(index=index, ply=ply, turn=turn, played=played,
                        played_name=seen_action(state, played, self.names_for)[1], best=best,
                        best_name=seen_action(state, best, self.names_for)[1], value_played=value_played,
                        value_best=value_best, loss=loss, loss_low=interval[0], loss_high=interval[1],
                        label=label, exact=exact, legal=len(state.legal_actions()), line=line)


def _pool(analyses: List[Analysis]) -> List[Any]:
    """The root statistics of several searches of one position, added up (visits; value weighted by them)."""
    first = analyses[0].stats
    if len(analyses) == 1:
        return list(first)
    pooled = []
    for s in first:
        visits = sum(a.stats_for(s.action).visits or 0 for a in analyses)
        total = sum((a.stats_for(s.action).visits or 0) * (a.stats_for(s.action).value or 0.0) for a in analyses)
        pooled.append(type(s)(action=s.action, visits=visits, value=total / visits if visits else None))
    return pooled


def _value(stats: List[Any], action: int) -> float:
    """The mean return of ``action`` (an unvisited move: the lowest visited value, the search found it no better)."""
    for s in stats:
        if s.action == action and s.visits and s.value is not None:
            return float(s.value)
    return min(float(s.value) for s in stats if s.visits and s.value is not None)


def _inv_visits(stats: List[Any], action: int) -> float:
    for s in stats:
        if s.action == action:
            return 1.0 / max(1, s.visits or 0)
    return 1.0


def _t_interval(samples: List[float], centre: float) -> Tuple[float, float]:
    """A 95 % t interval of the mean of ``samples``, around ``centre`` (the pooled loss)."""
    n = len(samples)
    sd = statistics.stdev(samples) if n > 1 else 0.0
    t = _T975[n - 2] if n - 2 < len(_T975) else 1.96
    half = t * sd / math.sqrt(n)
    return centre - half, centre + half


def _pv_line(node: Optional[PVNode]) -> List[str]:
    """The solver's principal variation as names: decisions, and at chance the likeliest outcome."""
    names: List[str] = []
    while node is not None and len(names) < LINE_LENGTH:
        if node.kind == "decision":
            names.append(str(node.name))
            node = node.next
        elif node.kind == "chance" and node.outcomes:
            outcome = max(node.outcomes, key=lambda o: o.probability)
            names.append(f"[{outcome.name}]")
            node = outcome.next
        else:
            break
    return names


# Match.review is a thin method over this function (match.py cannot import this module: it imports match).
match_module.set_reviewer(review)

__all__ = ["DEFAULT_ITERATIONS", "Decision", "EXACT_NODES", "LABELS", "Review", "THRESHOLDS", "label_of", "review",
           "scale_of", "search_presets_of"]
