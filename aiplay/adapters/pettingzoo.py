"""Every aiplay game as a PettingZoo AEC environment with action masks.

::

    from aiplay.adapters.pettingzoo import env
    e = env("my_game", players=3)                # the aiplay game's options as keywords
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are ``player_0`` … ``player_{n-1}``. Chance (dice, shuffles, draws)
is resolved inside the environment with the exact probabilities of the
game, from a generator seeded by ``reset(seed=...)``, so the agents only see
their own decisions. Rewards come at the end: each agent's return.

The observation is a dict, as in PettingZoo's classic games:

* ``"observation"``: the agent's information state string (the aiplay
  engine's own, which hides what the agent cannot see) as UTF-8 bytes in a
  ``uint8`` vector, padded with zeros: ``bytes(obs).rstrip(b"\\0").decode()``
  gives the text back. Its length is ``observation_length`` (by default a
  power of two at least four times the longest string seen in a few seeded
  random games, and 64 or more); a longer string raises
  :class:`~aiplay.errors.InvalidOptionError` naming the option to raise.
  lossless, not a good feature vector. With ``observation="tensor"`` it is
  the game's ``float32`` information-state tensor instead (its observation
  tensor where it has only that; :mod:`aiplay.tensors`, ``docs/tensors.md``),
  for the games that provide one;
* ``"action_mask"``: an ``int8`` vector over the game's distinct actions, 1
  for the legal ones (all zeros when it is not the agent's turn).
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

import gymnasium  # type: ignore  # the "pettingzoo" extra
import numpy as np
from gymnasium import spaces  # type: ignore  # the "pettingzoo" extra
from pettingzoo import AECEnv  # type: ignore
from pettingzoo.utils import wrappers  # type: ignore

import aiplay
from aiplay.adapters.observation import SeatObservation
from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, State, sample_chance_outcome

__all__ = ["AiplayAECEnv", "env", "raw_env"]

class AiplayAECEnv(AECEnv):  # type: ignore[misc]
    """An aiplay game as a PettingZoo AEC environment (see the module docstring).

    ``game``: the registry name; ``options``: the game's options; ``backend``:
    ``"auto"`` (native when built), ``"native"`` or ``"reference"``;
    ``render_mode``: None, ``"ansi"`` (``render()`` returns the state's text)
    or ``"human"`` (``render()`` prints it and returns None, and every step
    renders).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "aiplay_v0", "is_parallelizable": False}

    def __init__(self, game: str, *, render_mode: Optional[str] = None, backend: str = "auto",
                 observation: str = "text", observation_length: Optional[int] = None, **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(f"render_mode {render_mode!r} is invalid; it accepts None, 'ansi' or 'human'")
        self.game = aiplay.load(game, backend=backend, **options)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"aiplay_{game}_v0")
        self._observation = SeatObservation(self.game, observation, observation_length)
        self.observation_length = self._observation.length
        self.possible_agents: List[str] = [f"player_{p}" for p in range(self.game.num_players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        actions = self.game.num_distinct_actions
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": self._observation.space,
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: State = self.game.new_initial_state()

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> Any:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The agent's action space: one discrete action per distinct action id of the game."""
        return self.action_spaces[agent]

    def _deal(self) -> None:
        """Play chance until a player is to move or the game ends."""
        while not self.state.is_terminal() and self.state.current_player() == CHANCE:
            self.state.apply_action(sample_chance_outcome(self.state, self._rng))

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game; ``seed`` seeds its chance (None: a fresh random seed)."""
        self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """The agent's information state bytes and its action mask."""
        player = self._seat[agent]
        observation = self._observation.encode(self.state, player, agent)
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if not self.state.is_terminal() and self.state.current_player() == player:
            mask[self.state.legal_actions()] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for the selected agent (None for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))  # an illegal action raises IllegalActionError, state unchanged
        self._deal()
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[self._seat[a]]) for a in self.agents}
            self.terminations = {a: True for a in self.agents}
            # Every agent is now stepped once with None (PettingZoo's dead steps), starting after the mover.
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The state's text: returned in ``"ansi"`` mode; printed in ``"human"`` mode, which returns None.

        Without a render mode there is nothing to render: a warning, and None
        (Gymnasium's and PettingZoo's convention).
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode; make the environment "
                                  "with render_mode='ansi' (the text) or 'human' (printed)")
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str, **kwargs: Any) -> AiplayAECEnv:
    """The environment without PettingZoo's checking wrappers."""
    return AiplayAECEnv(game, **kwargs)


def env(game: str, **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are: action bounds checked, order enforced."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(game, **kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)
