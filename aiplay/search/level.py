"""Difficulty levels: one knob from a beginner's opponent to the best bot.

``make_bot("level", game=game, level=k)`` for ``k`` from 1 to
:data:`NUM_LEVELS`. Every level runs a real search, the game's own tree
search (MCTS for a perfect-information game, ISMCTS otherwise, each with the
game's ``bot_presets``); the levels differ in how much it searches and in how
it picks among what it found:

* the candidates are the ``width`` most visited root moves (the near-best
  moves: a search spends its visits on the moves it rates best), never the
  whole list of legal moves;
* at each decision, with probability ``mistake_rate`` the level makes a
  mistake: it plays one of the *other* candidates, drawn with probability
  proportional to its visits (a softmax over the log visit counts at
  temperature 1, AlphaZero's exploratory choice); otherwise it plays the most
  visited move;
* where the search did not tell its best moves apart (the same visits and
  the same value), a game can ask its levels to follow its heuristic, the
  game's rule of thumb (``Game.level_ties``, :func:`order_ties`): Sunken
  City's raise decisions have some 350 legal moves, so a level of a few
  hundred iterations visits each once or twice, and the first in legal
  order, always in the first seat's corner of the lake, would win the tie.

So a weak level makes human-sized mistakes, a plausible second- or
third-best move, rather than random ones, and the top level (no mistakes,
the largest budget) *is* the best bot: deterministic for a seed, since its
budget is iterations.

Why a rate and not only a temperature over all the candidates: how often a
temperature changes the move depends on how sure the search is, so the same
temperature was nearly free in one game (Sunken City at 2,000 iterations,
whose searches concentrate their visits: level with the best bot over 20
games) and ruinous in another (Area 1851, some 480 moves a game: 5 of 20).
A rate is the same number of slips per decision on every game, and every
step down the table makes a level worse: more slips, and less search or the
same (Groom Lake's levels 2-4 share 100 iterations: there the slips, not the
iterations, separate players). How far apart two levels are still differs by
game, which is what the calibration measures.

Every level draws from its own seeded generator, so a level bot built with
a seed replays the same moves for the same states. How strong each level is
on each game is measured by the ladder (``benchmarks/ladder.py``) and shipped
in the game's folder, ``games/<game>/levels.json``; :func:`level_ratings` reads
it and ``aiplay levels GAME`` prints it.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import asdict, dataclass, replace
from importlib import resources
from typing import Any, Dict, List, Optional, Tuple

from aiplay.errors import InvalidOptionError
from aiplay.game import State
from aiplay.rng import SeedLike, branch
from aiplay import registry
from aiplay.search.base import MAX_COUNT, ActionStats, Analysis, Bot, Budget, check_positive_int, check_seconds
from aiplay.search.ismcts import ISMCTSBot
from aiplay.search.kinds import build_bot, strongest_kind
from aiplay.search.mcts import MCTSBot


@dataclass(frozen=True)
class Level:
    """One difficulty level: the search's ``iterations``, its ``mistake_rate`` and ``width``.

    ``mistake_rate``: the probability of a slip at a decision. ``width``: the
    candidates, the best move included (a slip goes to one of the other
    ``width - 1``). ``ties``: how a tie among the search's best moves is
    broken, ``"order"`` or ``"heuristic"`` (see :func:`order_ties`).
    """

    iterations: int
    mistake_rate: float
    width: int
    ties: str = "order"


#: The levels, weakest first. Each doubles (or so) the search of the one
#: below and slips less often; the last is the best bot (no mistakes).
#: (A first table of temperatures over the visit counts, 100 to 4,000
#: iterations at temperatures 2 to 0, did not separate its top three levels
#: on any game: benchmarks/RESULTS.md.)
LEVELS: Tuple[Level, ...] = (
    Level(iterations=25, mistake_rate=0.50, width=3),
    Level(iterations=50, mistake_rate=0.40, width=3),
    Level(iterations=100, mistake_rate=0.32, width=3),
    Level(iterations=250, mistake_rate=0.25, width=3),
    Level(iterations=500, mistake_rate=0.18, width=3),
    Level(iterations=1000, mistake_rate=0.10, width=3),
    Level(iterations=4000, mistake_rate=0.0, width=1),
)
#: How many levels there are (``level`` accepts 1 to this).
NUM_LEVELS = len(LEVELS)


def levels_for(game: Any) -> Tuple[Level, ...]:
    """The level table of ``game``: its own ``difficulty_levels`` where it has one, else :data:`LEVELS`.

    A game whose scores need a whole plan to come off (Sunken City: a treasure is
    worth nothing until it is carried home, so a player that slips every third
    move never scores and two such players always tie) gives its own table of
    ``(iterations, mistake_rate, width)``, one per level, weakest first, the
    last without mistakes. Raises :class:`~aiplay.errors.InvalidOptionError`
    for a malformed table.
    """
    table = getattr(game, "difficulty_levels", None) if game is not None else None
    if table is None:
        return _with_ties(game, LEVELS)
    try:
        levels = tuple(Level(int(i), float(m), int(w)) for i, m, w in table)
    except (TypeError, ValueError, OverflowError) as exc:  # int(inf), float(10**400)...
        raise InvalidOptionError(f"game {getattr(game, 'name', game)!r}: malformed difficulty_levels: {exc}") from None
    if (len(levels) != NUM_LEVELS or levels[-1].mistake_rate != 0
            or any(not 0 <= lv.mistake_rate < 1 or not 1 <= lv.iterations <= MAX_COUNT or lv.width < 1
                   for lv in levels)):
        raise InvalidOptionError(f"game {getattr(game, 'name', game)!r}: difficulty_levels needs {NUM_LEVELS} "
                                 f"levels of (iterations >= 1, 0 <= mistake_rate < 1, width >= 1), the last "
                                 f"with no mistakes; got {table!r}")
    return _with_ties(game, levels)


#: The ways a level can break a tie among its search's best moves (``Game.level_ties``).
TIE_RULES = ("order", "heuristic")


def _with_ties(game: Any, levels: Tuple[Level, ...]) -> Tuple[Level, ...]:
    """``levels`` with the game's tie rule, the top level's included (it stays the best bot there is)."""
    rule = getattr(game, "level_ties", "order") if game is not None else "order"
    if rule == "order":
        return levels
    name = getattr(game, "name", game)
    if rule not in TIE_RULES:
        raise InvalidOptionError(f"game {name!r}: level_ties must be one of {', '.join(TIE_RULES)}, not {rule!r}")
    if not game.perfect_information or game.heuristic_policy is None:
        # The heuristic would read the true state: with hidden information that is another seat's cards.
        raise InvalidOptionError(f"game {name!r}: level_ties='heuristic' needs perfect information and a "
                                 f"heuristic_policy")
    return tuple(replace(lv, ties=rule) for lv in levels)


def tied_best(stats: List[ActionStats]) -> List[ActionStats]:
    """The visited moves that share the most visits and, among those, the highest value."""
    visited = [s for s in stats if (s.visits or 0) > 0]
    if not visited:
        return []
    top = max(s.visits or 0 for s in visited)
    most = [s for s in visited if s.visits == top]
    best_value = max((s.value for s in most if s.value is not None), default=None)
    return [s for s in most if s.value == best_value]


def order_ties(stats: List[ActionStats], preferred: Optional[int], rng: random.Random) -> List[ActionStats]:
    """``stats`` with the tie among the search's best moves broken: ``preferred`` first, else a seeded draw.

    :func:`choose_among` ranks moves by visits, then value, then list order, so
    the order of this list decides a tie: the ``preferred`` move (the game's
    heuristic move) first when it is among the tied best moves, then the other
    tied moves in an order drawn from ``rng``, then everything else as it was.
    Without a tie the list is returned as it is.
    """
    tied = tied_best(stats)
    if len(tied) < 2:
        return list(stats)
    tied_ids = {id(s) for s in tied}
    first = [s for s in tied if s.action == preferred]
    others = [s for s in tied if s.action != preferred]
    rng.shuffle(others)
    return first + others + [s for s in stats if id(s) not in tied_ids]


def search_kind(game: Any) -> str:
    """The tree search a level uses on ``game``: :func:`~aiplay.search.kinds.strongest_kind`."""
    return strongest_kind(game)


def choose_among(stats: List[ActionStats], mistake_rate: float, width: int, rng: random.Random) -> ActionStats:
    """The move a level plays from a search's root ``stats`` (see the module docstring).

    Candidates: the ``width`` most visited moves with at least one visit
    (ties: higher value, then legal order). With one candidate or no mistake
    rate, the most visited; otherwise one draw from ``rng`` decides whether
    this is a mistake (probability ``mistake_rate``) and, if it is, a second
    picks one of the other candidates with probability proportional to its
    visits.
    """
    visited = [s for s in stats if (s.visits or 0) > 0]
    if not visited:  # the search learned nothing (cannot happen with >= 1 iteration): first move
        return stats[0]

    def rank(i: int) -> Tuple[int, float, int]:
        value = visited[i].value
        return (-(visited[i].visits or 0), -(value if value is not None else -math.inf), i)

    order = sorted(range(len(visited)), key=rank)
    candidates = [visited[i] for i in order[:max(1, width)]]
    if mistake_rate <= 0 or len(candidates) == 1 or rng.random() >= mistake_rate:
        return candidates[0]
    others = candidates[1:]
    draw = rng.random() * sum(s.visits or 0 for s in others)
    for s in others:
        draw -= s.visits or 0
        if draw < 0:
            return s
    return others[-1]


#: The searches a level runs inside, by the kind :func:`search_kind` names.
_SEARCHES = {"mcts": MCTSBot, "ismcts": ISMCTSBot}


class LevelBot(Bot):
    """A difficulty level: a real search, then a choice among its near-best moves.

    ``level``: 1 (weakest) to :data:`NUM_LEVELS` (the best bot). ``seed``:
    as every bot. ``seconds``: the top level only, a time budget instead of its
    iterations ("think longer": its strength at 0.1 to 1.6 s a move is in
    ``benchmarks/RESULTS.md``); its moves then depend on the machine's speed, so
    they are not reproducible. Levels 1 to ``NUM_LEVELS - 1`` are their own
    budget and refuse it (:class:`~aiplay.errors.InvalidOptionError`), in the
    API as in the protocol and on the command line: their calibration holds
    for their iterations only. Per call, ``choose``/``analyse`` take
    ``seconds`` on the same terms and refuse ``iterations`` and ``nodes``.
    The search is built on the first state seen, for that
    state's game, with the game's presets for the search kind and the
    game's level table (:func:`levels_for`); ``spec`` holds the level's
    settings (the common table's until a state shows the game).

    The analysis is the search's, with ``bot="level"``, the drawn move as
    ``action`` (and its value), and ``counters`` adding ``level``,
    ``mistake_rate``, ``width``, ``search`` (the searcher's kind), ``ties``
    (the level's tie rule) and ``tied`` (how many best moves tied, counted
    under the ``"heuristic"`` rule; 0 otherwise).
    """

    kind = "level"
    searches = True

    def __init__(self, *, level: int = NUM_LEVELS, seed: SeedLike = None, seconds: Optional[float] = None):
        """Build the bot; raises :class:`~aiplay.errors.InvalidOptionError` for a bad option."""
        super().__init__(seed)
        self.level = check_positive_int("level", level, allow_none=False, maximum=NUM_LEVELS)
        self.spec = LEVELS[self.level - 1]
        self.seconds = self._check_seconds(seconds)
        # The budget the base class swaps for one call's (``choose(state, seconds=...)``); _analyse
        # tells the two apart by identity and checks a call's before searching.
        self._own_budget = Budget(seconds=self.seconds)
        self.budget = self._own_budget
        # The inner search's seed and the choice's stream, both from this bot's seed.
        self._search_seed = self._rng.getrandbits(62)
        self._search: Optional[Bot] = None
        self._search_game: Any = None

    def _check_seconds(self, seconds: Any) -> Optional[float]:
        """``seconds`` for this level: None, or a valid time budget at the top level only."""
        if seconds is None:
            return None
        if self.level != NUM_LEVELS:
            # The levels below the top are their own budget, everywhere: the API, the protocol ('go'
            # with 'level') and the command line (--level) refuse a time budget for them.
            raise InvalidOptionError(
                f"a level is its own budget: level {self.level} takes no seconds (got seconds={seconds!r}); "
                f"only the top level ({NUM_LEVELS}) does, or choose a search bot "
                f"({', '.join(sorted(_SEARCHES))}) to give a time budget")
        return check_seconds("seconds", seconds)

    def _inner(self, state: State) -> Bot:
        game = state.game
        if self._search is None or self._search_game is not game:
            self.spec = levels_for(game)[self.level - 1]
            options: Dict[str, Any] = {"iterations": self.spec.iterations}
            kind = search_kind(game)
            self._search = build_bot(kind, _SEARCHES[kind], game=game, seed=self._search_seed, **options)
            self._search_game = game
        return self._search

    def stop(self) -> None:
        """End the running search soon; the level then chooses among what it found."""
        super().stop()
        if self._search is not None:
            self._search.stop()

    def _analyse(self, state: State) -> Analysis:
        """Search ``state`` with the level's budget, then draw among the near-best moves."""
        seconds = self.seconds
        if self.budget is not self._own_budget:  # this call's budget (choose/analyse with one)
            if self.budget.iterations is not None or self.budget.nodes is not None:
                raise InvalidOptionError("a level is its own budget: it takes no iterations or nodes per call; "
                                         f"the top level ({NUM_LEVELS}) takes seconds")
            seconds = self._check_seconds(self.budget.seconds)
        player = self._root_player(state)
        search = self._inner(state)
        # The inner search clears its stop flag as it starts, so a stop that came while it was being
        # built (the first move builds it) would be lost and the level's whole budget spent: it
        # then searches one iteration, for a move. (A stop in the moment between this check and
        # that start can still be missed.)
        if self._stop_event.is_set():
            inner = search.analyse(state, iterations=1)
        elif seconds is not None:
            inner = search.analyse(state, seconds=seconds)  # time only: no iteration cap
        else:
            inner = search.analyse(state)
        stats = list(inner.stats)
        tied = 0
        policy = state.game.heuristic_policy  # present whenever the rule is "heuristic" (levels_for checks)
        if self.spec.ties == "heuristic" and policy is not None:
            tied = len(tied_best(stats))
            if tied > 1:  # only then is the heuristic asked: it costs a policy call
                preferred = policy(state.clone(), branch(self._rng))
                stats = order_ties(stats, preferred, branch(self._rng))
        chosen = choose_among(stats, self.spec.mistake_rate, self.spec.width, branch(self._rng))
        line = inner.principal_variation if chosen.action == inner.action else [chosen.action]
        counters = dict(inner.counters, level=self.level, mistake_rate=self.spec.mistake_rate,
                        width=self.spec.width, search=inner.bot, ties=self.spec.ties, tied=tied)
        return Analysis(bot=self.kind, player=player, action=chosen.action, value=chosen.value,
                        stats=list(inner.stats), principal_variation=list(line), counters=counters)

    def __getstate__(self) -> Dict[str, Any]:
        data = super().__getstate__()
        data["_search_game"] = None  # a game is rebuilt on the next state; the search with it
        data["_search"] = None
        return data

    def __repr__(self) -> str:
        s = self.spec
        budget = f"seconds={self.seconds}" if self.seconds is not None else f"iterations={s.iterations}"
        return (f"LevelBot(level={self.level}, {budget}, mistake_rate={s.mistake_rate}, "
                f"width={s.width}, ties={s.ties!r})")


# -- calibration data ---------------------------------------------------------

#: The calibration file's name inside a game's folder.
CALIBRATION_FILE = "levels.json"


def _load_calibration() -> Dict[str, Any]:
    """``{"games": {name: tables}}``: every registered game's ``levels.json``, where it has one."""
    games: Dict[str, Any] = {}
    for entry in registry.game_entries(include_hidden=True):
        try:
            text = resources.files(entry.package).joinpath(CALIBRATION_FILE).read_text(encoding="utf-8")
        except (FileNotFoundError, OSError, ModuleNotFoundError, TypeError):
            continue
        games[entry.name] = json.loads(text)["levels"]
    return {"games": games}


def level_ratings(game: str) -> Dict[str, Any]:
    """The calibration of the levels on ``game`` (from ``games/<game>/levels.json``), by table size.

    A dict from the number of players (a string, as in JSON) to that table's
    calibration: ``players``, ``games_per_table`` and ``seed`` of the ladder
    run, ``levels`` (one per level: ``level``, ``rating`` on the Elo scale
    with random = 0, ``low``/``high`` of its 95 % interval) and ``adjacent``
    (each level against the one below: ``win_rate``, ``games`` and the 95 %
    ``interval``), ``total_games`` and the ``command`` that produced it; a
    team game may add ``in_one_seat``: each level in one seat against the
    heuristic on the same deals (``levels``: ``level``, ``win_rate``,
    ``interval``; ``adjacent``: level k against k-1 deal by deal, ``better``,
    ``worse``, ``win_rate`` and ``interval``), see ``benchmarks/ladder.py
    --level-seats``. Raises :class:`~aiplay.errors.InvalidOptionError` for a game not
    calibrated.
    """
    data = _load_calibration().get("games", {})
    if game not in data:
        known = ", ".join(sorted(data)) or "none"
        raise InvalidOptionError(f"no level calibration for game {game!r}; calibrated games: {known}")
    return data[game]


def levels_info(game: Any = None) -> List[Dict[str, Any]]:
    """The levels of ``game`` (default: the common table) as data for ``hello`` and frontends.

    One dict a level: ``level``, ``iterations``, ``mistake_rate``, ``width``, ``ties``.
    """
    return [{"level": i + 1, **asdict(s)} for i, s in enumerate(levels_for(game))]


__all__ = ["LEVELS", "Level", "LevelBot", "NUM_LEVELS", "TIE_RULES", "choose_among",
           "format_levels", "level_ratings", "levels_for", "levels_info", "order_ties", "search_kind", "tied_best"]


# -- the ``aiplay levels`` command ----------------------------------------------

def format_levels(game: str) -> str:
    """The text ``aiplay levels GAME`` prints: each level's settings and its calibrated rating."""
    entry = registry.game_entry(game)  # an unknown game raises, naming the known ones
    lines = [f"{game}: {NUM_LEVELS} levels (make_bot('level', level=k), aiplay play --bots level --level k)"]
    try:
        tables = level_ratings(game)
    except InvalidOptionError:
        tables = {}
    header = f"  {'level':>5}  {'iterations':>10}  {'mistakes':>8}  {'width':>5}"
    sizes = sorted(tables, key=int)
    for size in sizes:
        header += f"  {size + ' players (random = 0)':>28}"
    lines.append(header)
    for info in levels_info(entry.reference):
        row = (f"  {info['level']:>5}  {info['iterations']:>10}  {info['mistake_rate'] * 100:>7g}%"
               f"  {info['width']:>5}")
        for size in sizes:
            rated = {r["level"]: r for r in tables[size]["levels"]}.get(info["level"])
            cell = "-" if rated is None else f"{rated['rating']:+.0f} [{rated['low']:+.0f}, {rated['high']:+.0f}]"
            row += f"  {cell:>28}"
        lines.append(row)
    if any(lv.ties != "order" for lv in levels_for(entry.reference)):
        lines.append("  where a level's search rates its best moves alike (same visits and value), it plays the "
                     "game's heuristic move if that is one of them")
    for size in sizes:
        table = tables[size]
        lines.append(f"  {size} players: {table.get('total_games', '?')} games in all, "
                     f"{table['games_per_table']} a table, {table.get('level_games', table['games_per_table'])} "
                     f"a table of neighbouring levels (seed {table['seed']}); small samples give wide intervals")
        for adj in table["adjacent"]:
            rate = "n/a" if adj["win_rate"] is None else f"{adj['win_rate']:.0%}"
            lines.append(f"  {size} players: level {adj['level']} beat level {adj['vs']} in {rate} of "
                         f"{adj['games']} games, ties halved (95 % interval {adj['interval'][0]:.0%} to "
                         f"{adj['interval'][1]:.0%})")
    for size in sizes:
        seats = tables[size].get("in_one_seat")
        if not seats:
            continue
        lines.append(f"  {size} players, each level in one seat against the heuristic on the same "
                     f"{seats['games']} deals (seed {seats['seed']}):")
        lines.append("    " + ", ".join(f"level {lv['level']} won {lv['win_rate']:.0%}" for lv in seats["levels"]))
        for adj in seats["adjacent"]:
            rate = "n/a" if adj["win_rate"] is None else f"{adj['win_rate']:.0%}"
            line = (f"    level {adj['level']} did better than level {adj['vs']} in {adj['better']} deals, "
                    f"worse in {adj['worse']}: {rate} (95 % interval {adj['interval'][0]:.0%} to "
                    f"{adj['interval'][1]:.0%})")
            if adj.get("share") is not None:
                line += f"; {adj['share']:.0%} of all {adj['deals']} deals, ties halved"
            lines.append(line)
    for size in sizes:
        pairs = tables[size].get("in_pairs")
        if not pairs:
            continue
        lines.append(f"  {size} players, each level against the one below, the other seats the heuristic "
                     f"({pairs['games']} games a pair, seed {pairs['seed']}):")
        for adj in pairs["adjacent"]:
            lines.append(f"    level {adj['level']} beat level {adj['vs']} in {adj['win_rate']:.0%} of "
                         f"{adj['games']} games, ties halved (95 % interval {adj['interval'][0]:.0%} to "
                         f"{adj['interval'][1]:.0%}; won {adj['won']}, lost {adj['lost']}, tied {adj['tied']})")
    for size in sizes:
        if tables[size].get("note"):  # e.g. the search changed since the calibration
            lines.append(f"  {size} players, note: {tables[size]['note']}")
    if not sizes:
        lines.append("  (not calibrated on this game yet: see benchmarks/ladder.py)")
    return "\n".join(lines)


