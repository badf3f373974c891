"""One seat of an aiplay game as a Gymnasium environment, the other seats played by aiplay bots.

::

    from aiplay.adapters.gym import env
    e = env("my_game", seat=0, opponents="random")             # or "ismcts(iterations=200)", a Bot...
    observation, info = e.reset(seed=1)
    while True:
        action = e.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break

This is the setting of training an agent *against* aiplay's bots (as RLCard
and OpenSpiel's ``rl_environment`` offer). Each ``step`` plays the agent's
move, then chance (with its exact probabilities) and the opponents until the
agent is to move again or the game ends. The reward is the agent's return at
the end of the game (0 before).

* ``opponents``: one bot specification for every other seat, or a list with
  one per other seat in seat order. A specification is what ``aiplay arena``
  reads (:func:`aiplay.arena.parse_bot`): a kind (``"random"``, ``"mcts"``,
  ...), a kind with options (``"mcts(iterations=500)"``), a JSON configuration
  or a dict; the bots are rebuilt at every ``reset(seed=...)`` with seeds drawn
  from it, so a seeded reset replays the same episode for the same actions. A
  :class:`~aiplay.search.base.Bot` object is accepted too and used as it is
  (its own generator: not reseeded).
* Observation: a dict, as in PettingZoo's classic games: ``"observation"``,
  the agent's information state string (hidden parts left out by the engine)
  as UTF-8 bytes in a zero-padded ``uint8`` vector
  (``bytes(obs).rstrip(b"\\0").decode()`` gives the text back) or, with
  ``observation="tensor"``, the game's ``float32`` tensor (:mod:`aiplay.tensors`), and
  ``"action_mask"``, an ``int8`` vector over the game's distinct actions, 1 for
  the legal ones. ``info`` carries the same mask and the text
  (``"information_state"``). Should the opponents end the game before the
  agent's first move (possible in Pig), ``reset`` returns that final position
  (an empty mask) and the next ``step`` ends the episode with the agent's
  return, whatever the action.
* An action outside the legal set (any action of the space may be sampled):
  with ``illegal="lose"`` (the default) the episode ends at once with the
  game's ``min_utility`` as reward and ``info["illegal_action"] = True``, the
  position unchanged; with ``illegal="raise"`` it raises
  :class:`~aiplay.errors.IllegalActionError`.
* ``render_mode``: ``"ansi"`` (``render()`` returns the state's text) or
  ``"human"`` (prints it, returns None).

Needs Gymnasium (the ``gym`` extra, also in ``pettingzoo`` and ``test``).
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import gymnasium  # type: ignore  # the "gym" extra
import numpy as np
from gymnasium import spaces  # type: ignore

import aiplay
from aiplay import registry
from aiplay.adapters.observation import SeatObservation
from aiplay.arena import parse_bot
from aiplay.errors import IllegalActionError, InvalidOptionError
from aiplay.game import CHANCE, check_player, sample_chance_outcome
from aiplay.search.base import Bot
from aiplay.views.text import render_state

__all__ = ["AiplayGymEnv", "env", "env_id", "register_game"]

#: What an opponent may be given as: a specification (see the module docstring) or a bot.
OpponentSpec = Union[str, Mapping[str, Any], Bot]
ILLEGAL_RULES = ("lose", "raise")


class AiplayGymEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of an aiplay game against aiplay bots (see the module docstring)."""

    # render_fps: Gymnasium asks for one; a board game is shown at a reader's pace.
    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game: str, *, seat: int = 0,
                 opponents: Union[OpponentSpec, Sequence[OpponentSpec]] = "random",
                 backend: str = "auto", render_mode: Optional[str] = None, illegal: str = "lose",
                 observation: str = "text", observation_length: Optional[int] = None, **options: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(f"render_mode {render_mode!r} is invalid; it accepts None, 'ansi' or 'human'")
        if illegal not in ILLEGAL_RULES:
            raise InvalidOptionError(f"option illegal={illegal!r} is invalid; it accepts 'lose' or 'raise'")
        self.game = aiplay.load(game, backend=backend, **options)
        self.seat = check_player(seat, self.game.num_players)
        self.render_mode = render_mode
        self.illegal = illegal
        others = [p for p in range(self.game.num_players) if p != self.seat]
        if isinstance(opponents, (str, Mapping, Bot)):
            given: List[OpponentSpec] = [opponents] * len(others)
        elif isinstance(opponents, Sequence):
            given = list(opponents)
            if len(given) != len(others):
                raise InvalidOptionError(
                    f"opponents: {len(given)} given for the {len(others)} other seat(s) {others}; give one "
                    f"specification for all or one per other seat")
        else:
            raise InvalidOptionError(f"opponents={opponents!r} is invalid; it accepts a bot specification "
                                     f"(e.g. 'random', 'mcts(iterations=200)'), a Bot, or a list of them")
        # Specifications are parsed now, so that a bad one fails here rather than at reset.
        self._opponents: Dict[int, Union[Bot, Any]] = {
            p: spec if isinstance(spec, Bot) else parse_bot(spec) for p, spec in zip(others, given)}
        for p, spec in self._opponents.items():
            if not isinstance(spec, Bot):
                spec.make(self.game, 0)  # unknown kinds and options raise InvalidOptionError now
        self._observation = SeatObservation(self.game, observation, observation_length)
        self.observation_length = self._observation.length
        actions = self.game.num_distinct_actions
        self.action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Dict({
            "observation": self._observation.space,
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self._rng = random.Random()
        self._bots: Dict[int, Bot] = {}
        self.state = self.game.new_initial_state()
        self._done = True

    # -- Gymnasium's API -------------------------------------------------------------------------
    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """A new game: chance and the opponents' seeds come from ``seed`` (None: fresh randomness)."""
        super().reset(seed=seed)
        self._rng = random.Random(seed if seed is not None else int(self.np_random.integers(2 ** 63)))
        self._bots = {p: spec if isinstance(spec, Bot) else spec.make(self.game, self._rng.getrandbits(63))
                      for p, spec in self._opponents.items()}
        self.state = self.game.new_initial_state()
        self._done = False
        self._advance()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """Play the agent's ``action``, then chance and the opponents until the agent moves again."""
        if self._done:
            raise InvalidOptionError("the episode is over: call reset() before step()")
        if self.state.is_terminal():
            # The opponents ended the game before the agent's first move (a Pig player may win on
            # his first turn): the action is void and the episode ends with the agent's return.
            self._done = True
            return self._observe(), float(self.state.returns()[self.seat]), True, False, self._info()
        legal = self.state.legal_actions()
        try:
            chosen = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(action, legal, "an action is an int") from None
        if chosen not in legal:
            if self.illegal == "raise":
                raise IllegalActionError(action, legal)
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), float(self.game.min_utility), True, False, info
        self.state.apply_action(chosen)
        self._advance()
        reward = 0.0
        if self.state.is_terminal():
            self._done = True
            reward = float(self.state.returns()[self.seat])
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._done, False, self._info()

    def render(self) -> Optional[str]:
        """The state as the agent's seat sees it: returned in ``"ansi"`` mode, printed in ``"human"``
        mode (returning None).

        The text of :func:`aiplay.protocol.render_state` for the seat (the whole state only
        when nothing is hidden), else the seat's information-state string: never the others'
        hidden cards, which an agent reading its own renders must not learn.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode; make the environment "
                                  "with render_mode='ansi' or 'human'")
            return None
        text = render_state(self.state, self.seat)
        if text is None:
            text = self.state.information_state_string(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- internals -------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Play chance and the opponents until the agent is to move or the game is over."""
        state = self.state
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance_outcome(state, self._rng))
            elif player == self.seat:
                return
            else:
                state.apply_action(self._bots[player].choose(state))

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if not self.state.is_terminal() and self.state.current_player() == self.seat:
            mask[self.state.legal_actions()] = 1
        return mask

    def _observe(self) -> Dict[str, np.ndarray]:
        observation = self._observation.encode(self.state, self.seat, f"seat {self.seat}")
        return {"observation": observation, "action_mask": self._mask()}

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self._mask(),
                "information_state": self.state.information_state_string(self.seat)}


def env_id(game: str) -> str:
    """The Gymnasium id of aiplay game ``game``: ``"aiplay/<game>-v0"``."""
    return f"aiplay/{game}-v0"


def register_game(game: str) -> str:
    """Register ``game`` with Gymnasium (again: replaced); returns its id, for ``gymnasium.make``."""
    registry.game_entry(game)  # UnknownGameError for a name that is not a game
    name = env_id(game)
    if name in gymnasium.registry:
        del gymnasium.registry[name]
    gymnasium.register(id=name, entry_point=f"{__name__}:AiplayGymEnv", kwargs={"game": game})
    return name


def env(game: str, *, seat: int = 0, opponents: Union[OpponentSpec, Sequence[OpponentSpec]] = "random",
        **kwargs: Any) -> Any:
    """The Gymnasium environment of seat ``seat`` of ``game`` against ``opponents`` (see the module docstring).

    Made by ``gymnasium.make("aiplay/<game>-v0", ...)`` (registered on first
    use), so it has Gymnasium's usual wrappers and a spec; ``.unwrapped`` is the
    :class:`AiplayGymEnv`. Other keywords: ``backend``, ``render_mode``,
    ``illegal``, ``observation`` (``"text"`` or ``"tensor"``), ``observation_length`` and the game's own
    options.
    """
    name = env_id(game)
    if name not in gymnasium.registry:
        register_game(game)
    return gymnasium.make(name, seat=seat, opponents=opponents, **kwargs)
