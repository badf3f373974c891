"""Every aiplay game as an OpenSpiel (pyspiel) Python game, so OpenSpiel's algorithms run on it.

:func:`register_all` registers each registered aiplay game ``NAME`` as the
pyspiel game ``aiplay_NAME`` (OpenSpiel has its own games of some of the same names),
with the aiplay game's options as game parameters::

    import pyspiel
    from aiplay.adapters.openspiel import register_all
    register_all()
    game = pyspiel.load_game("aiplay_pig", {"winscore": 20})
    # or pyspiel.load_game("aiplay_pig(winscore=20)"); then any OpenSpiel algorithm, e.g.
    # open_spiel.python.algorithms.mcts.MCTSBot, or CFR on aiplay_kuhn_poker.

The pyspiel state wraps an aiplay state (``state.aiplay_state``) and forwards
every call: legal actions, chance outcomes with their exact probabilities,
returns, action strings, and the information state string of each player
(the aiplay engine's own, which hides what that player cannot see);
``observation_string`` returns that same string (aiplay has no separate
imperfect-recall observation string).
Tensors: a game whose registry entry declares an encoding (:mod:`aiplay.tensors`;
the poker games, whose tensors are OpenSpiel's own element for element)
declares ``provides_information_state_tensor`` and ``provides_observation_tensor``
and serves ``information_state_tensor`` / ``observation_tensor`` (and the
observer's named slices in ``dict``), so OpenSpiel's tensor consumers
(``rl_environment``, its learners) run on it: ``benchmarks/openspiel_algorithms.py`` trains
OpenSpiel's PyTorch policy gradient and NFSP on Leduc poker and Sunken City (the ``rl`` extra).
The other games provide strings only. Tree algorithms (MCTS, CFR, expectiminimax, best response on small
games) work on all. Games run on the native engine when it is built
(``backend`` parameter: ``"auto"``, ``"native"`` or ``"reference"``).

``max_game_length`` is the game's declared bound (``register(...,
max_game_length=...)``) or, for games without one, :data:`UNBOUNDED_LENGTH`
(the arena's guard against runaway games, not a proven bound).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import pyspiel  # type: ignore  # the "compare" extra

import aiplay
from aiplay import registry
from aiplay.views import tensors
from aiplay.errors import InvalidOptionError, UnsupportedError
from aiplay.game import CHANCE, Game, State

__all__ = ["AiplaySpielGame", "AiplaySpielState", "UNBOUNDED_LENGTH", "register_all", "register_game",
           "spiel_name"]

#: ``max_game_length`` of games that declare no bound.
UNBOUNDED_LENGTH = 100_000
#: Players tried when finding the range of a game's ``players`` option.
_MAX_PLAYERS_TRIED = 16


def spiel_name(name: str) -> str:
    """The pyspiel short name of aiplay game ``name``."""
    return f"aiplay_{name}"


def _player_range(entry: registry.GameEntry) -> Tuple[int, int]:
    option = entry.reference.option_spec.get("players")
    if option is None:
        players = entry.reference().num_players
        return players, players
    ok = []
    for n in range(1, _MAX_PLAYERS_TRIED + 1):
        try:
            option.validate("players", n)
        except InvalidOptionError:
            continue
        ok.append(n)
    return min(ok), max(ok)


def _game_type(entry: registry.GameEntry) -> Any:
    reference = entry.reference()
    low, high = _player_range(entry)
    utility = (pyspiel.GameType.Utility.ZERO_SUM if reference.zero_sum
               else pyspiel.GameType.Utility.CONSTANT_SUM if reference.constant_sum
               else pyspiel.GameType.Utility.GENERAL_SUM)
    parameters: Dict[str, Any] = {name: option.default for name, option in entry.reference.option_spec.items()}
    parameters["backend"] = "auto"
    return pyspiel.GameType(
        short_name=spiel_name(entry.name), long_name=f"aiplay {entry.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if reference.perfect_information
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=entry.tensors is not None and tensors.provides(reference, "information_state"),
        provides_observation_string=True,
        provides_observation_tensor=entry.tensors is not None and tensors.provides(reference, "observation"),
        parameter_specification=parameters)


class AiplaySpielGame(pyspiel.Game):  # type: ignore[misc]
    """An aiplay game as a pyspiel game; its parameters are the aiplay options (and ``backend``)."""

    def __init__(self, name: str, params: Optional[Mapping[str, Any]] = None):
        params = dict(params or {})
        backend = str(params.pop("backend", "auto"))
        entry = registry.game_entry(name)
        self.aiplay_game: Game = aiplay.load(name, backend=backend, **params)
        game = self.aiplay_game
        length = entry.max_game_length(game) if entry.max_game_length is not None else UNBOUNDED_LENGTH
        utility_sum = 0.0 if game.zero_sum else (game.max_utility if game.constant_sum else None)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions, max_chance_outcomes=game.max_chance_outcomes,
            num_players=game.num_players, min_utility=float(game.min_utility),
            max_utility=float(game.max_utility), utility_sum=utility_sum, max_game_length=int(length))
        super().__init__(_game_type(entry), info, {**game.options, "backend": backend})

    def new_initial_state(self) -> "AiplaySpielState":
        """The start of a game."""
        return AiplaySpielState(self, self.aiplay_game.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "_Observer":
        """The information state (perfect recall) or the observation: tensor where the game has one, and string."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return _Observer(self.aiplay_game, "information_state" if perfect_recall else "observation")


class AiplaySpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state forwarding to an aiplay state (``aiplay_state``)."""

    def __init__(self, game: AiplaySpielGame, state: State):
        super().__init__(game)
        self._held = _Held(state)

    @property
    def aiplay_state(self) -> State:
        """The aiplay state this pyspiel state forwards to."""
        return self._held.state

    def current_player(self) -> int:
        """The player to move, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        if self.aiplay_state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.aiplay_state.current_player()
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else player

    def _legal_actions(self, player: int) -> List[int]:
        return sorted(self.aiplay_state.legal_actions())

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node."""
        return sorted(self.aiplay_state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        self.aiplay_state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.aiplay_state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.aiplay_state.is_terminal()

    def returns(self) -> List[float]:
        """Each player's return (0 for everyone before the end)."""
        return [float(r) for r in self.aiplay_state.returns()]

    def __str__(self) -> str:
        return str(self.aiplay_state)


class _Held:
    """Holds the aiplay state. pyspiel clones a Python state by deep-copying its ``__dict__``; this
    makes that copy a ``clone()`` (a native state is a C struct that deepcopy cannot see into)."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        self.state = state

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Held":
        return _Held(self.state.clone())


class _Observer:
    """The PyObserver interface: the game's tensor of ``kind`` with its named slices (empty without one)."""

    def __init__(self, game: Game, kind: str) -> None:
        self.kind = kind
        try:
            layout = tensors.slices(game, kind)
        except UnsupportedError:
            layout = []
        self.tensor = np.zeros(sum(part.size for part in layout), np.float32)
        self.dict: Dict[str, Any] = {}
        start = 0
        for part in layout:
            self.dict[part.name] = self.tensor[start:start + part.size]
            start += part.size

    def set_from(self, state: AiplaySpielState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state`` (nothing to do without one)."""
        if self.tensor.size:
            self.tensor[:] = getattr(state.aiplay_state, f"{self.kind}_tensor")(player)

    def string_from(self, state: AiplaySpielState, player: int) -> str:
        """``player``'s information state string."""
        return state.aiplay_state.information_state_string(player)


class _Factory(AiplaySpielGame):
    """The pyspiel factory of one aiplay game: a class whose ``aiplay_name`` says which."""

    aiplay_name = ""

    def __init__(self, params: Optional[Mapping[str, Any]] = None):
        super().__init__(self.aiplay_name, params)


#: The factories handed to pyspiel, one class per game, kept here for the life of the process:
#: pyspiel's registry holds them in C++ and releases them after the interpreter has shut down,
#: which aborts the process (a fatal GIL error) when that release is the last reference.
_FACTORIES: Dict[str, type] = {}


def register_game(name: str) -> str:
    """Register aiplay game ``name`` with pyspiel (again: replaced); returns the pyspiel name."""
    entry = registry.game_entry(name)
    factory = _FACTORIES.setdefault(name, type(f"AiplaySpielGame_{name}", (_Factory,), {"aiplay_name": name}))
    pyspiel.register_game(_game_type(entry), factory)
    return spiel_name(name)


def register_all(include_hidden: Optional[bool] = None) -> List[str]:
    """Register every aiplay game with pyspiel; returns their pyspiel names."""
    return [register_game(e.name) for e in registry.game_entries(include_hidden)]
