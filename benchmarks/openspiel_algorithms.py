"""OpenSpiel's own PyTorch learners on aiplay games, through the OpenSpiel adapter (issue 24).

Each aiplay game is loaded as a pyspiel game (``aiplay_leduc_poker``, ``aiplay_sunken_city``,
by :func:`aiplay.adapters.openspiel.register_all`) and wrapped in OpenSpiel's
``rl_environment.Environment``, which feeds the game's declared tensor to the learners: the
information state tensor where the game has one (Leduc), the observation tensor otherwise
(Sunken City). Then OpenSpiel's library classes train one agent per seat in self-play:

- ``open_spiel.python.pytorch.policy_gradient.PolicyGradient`` with the ``a2c``, ``qpg`` or
  ``rpg`` loss;
- ``open_spiel.python.pytorch.nfsp.NFSP`` (its best response is OpenSpiel's PyTorch DQN).

The driver (this file) only runs the episodes, checks on every decision that the action is
legal and the tensor has the declared shape, and records the losses the agents report. It
prints, per game and learner: episodes, environment steps, learning updates, the first and
last losses, the self-play mean returns, and the trained seat-0 agent's mean return against a
uniformly random opponent before and after training (same seeded games). Nothing here claims
the agents get strong in a few hundred episodes; it shows the learners run on our games.

    python benchmarks/openspiel_algorithms.py            # 1,000 episodes on Leduc, 200 on Sunken City
    python benchmarks/openspiel_algorithms.py --quick    # a few dozen each (CI smoke run)
    python benchmarks/openspiel_algorithms.py --game leduc_poker --algorithm nfsp --episodes 5000

Needs the ``compare`` and ``rl`` extras (``pip install -e ".[compare,rl]"``: OpenSpiel, the CPU
build of PyTorch, dm-tree for OpenSpiel's replay buffers).
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import nfsp, policy_gradient

from aiplay.adapters.openspiel import register_all, spiel_name

GAMES = ("leduc_poker", "sunken_city")
ALGORITHMS = ("a2c", "qpg", "rpg", "nfsp")
#: Training episodes of the full run and of ``--quick``, per game.
FULL_EPISODES = {"leduc_poker": 1000, "sunken_city": 200}
QUICK_EPISODES = {"leduc_poker": 60, "sunken_city": 12}

#: Called on every decision with the environment (before the action), its time step, the acting
#: seat and the action that seat's agent chose.
StepCheck = Callable[[rl_environment.Environment, rl_environment.TimeStep, int, int], None]


@dataclass
class Settings:
    """The learners' sizes; the defaults suit a few hundred episodes, :meth:`small` a few dozen."""

    hidden: Tuple[int, ...] = (64,)
    #: Policy gradient: episodes per critic update, and critic updates per policy update.
    pg_batch: int = 16
    pg_critic_before_pi: int = 2
    pg_critic_lr: float = 0.01
    pg_pi_lr: float = 0.01
    #: NFSP: minibatch, learn every this many agent steps, learn from this many transitions on.
    nfsp_batch: int = 32
    nfsp_learn_every: int = 16
    nfsp_min_buffer: int = 128
    nfsp_anticipatory: float = 0.1
    nfsp_capacity: int = 20_000

    @classmethod
    def small(cls) -> "Settings":
        """Updates after a handful of episodes, so that a few dozen exercise every learning path.

        NFSP's average policy learns only from best-response episodes: half of them here (a
        tenth by default), so that its buffer fills within a few dozen episodes.
        """
        return cls(pg_batch=4, pg_critic_before_pi=2, nfsp_batch=8, nfsp_learn_every=4, nfsp_min_buffer=16,
                   nfsp_anticipatory=0.5)


@dataclass
class Run:
    """What one training run did."""

    game: str
    algorithm: str
    seed: int
    episodes: int
    env_steps: int = 0
    #: One entry per learning update the agents reported: ``(seat, first, second)`` where the pair
    #: is (critic, policy) loss for policy gradient and (average-policy, best-response) for NFSP
    #: (None where that half has not learnt yet).
    losses: List[Tuple[int, Optional[float], Optional[float]]] = field(default_factory=list)
    #: Mean self-play return of each seat over the training episodes, and how many of those
    #: episodes were not ties (in Sunken City, games where nobody secures a treasure are).
    returns: List[float] = field(default_factory=list)
    decided: int = 0
    #: The tensor shape the game declares (the one the agents' networks take).
    tensor_shape: Tuple[int, ...] = ()
    #: Seat 0's mean return against a uniformly random opponent, before and after training.
    before: float = math.nan
    after: float = math.nan
    seconds: float = 0.0


def environment(game: str, seed: int) -> rl_environment.Environment:
    """``rl_environment.Environment`` over aiplay game ``game`` (through the adapter), chance seeded."""
    register_all()
    env = rl_environment.Environment(pyspiel.load_game(spiel_name(game)), enable_legality_check=True)
    env.seed(seed)
    return env


def declared_shape(env: rl_environment.Environment) -> Tuple[int, ...]:
    """The shape of the tensor the environment serves, as the game declares it."""
    game = env.game
    shape = game.observation_tensor_shape() if env.use_observation else game.information_state_tensor_shape()
    return tuple(int(n) for n in shape)


def make_agents(env: rl_environment.Environment, algorithm: str, seed: int, settings: Settings) -> List[Any]:
    """One OpenSpiel learner per seat, sized from the game's declared tensor and action count."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}; got {algorithm!r}")
    size = int(np.prod(declared_shape(env)))
    actions = env.action_spec()["num_actions"]
    agents: List[Any] = []
    for seat in range(env.num_players):
        if algorithm == "nfsp":
            # NFSP seeds the global NumPy and torch generators from its seed while building its
            # networks: distinct seeds per seat, so that the seats do not start identical.
            agents.append(nfsp.NFSP(
                seat, size, actions, list(settings.hidden), settings.nfsp_capacity, settings.nfsp_anticipatory,
                batch_size=settings.nfsp_batch, min_buffer_size_to_learn=settings.nfsp_min_buffer,
                learn_every=settings.nfsp_learn_every, optimizer_str="adam", seed=seed + 1000 * (seat + 1),
                replay_buffer_capacity=settings.nfsp_capacity, epsilon_decay_duration=10_000,
                discount_factor=1.0))
        else:
            agents.append(policy_gradient.PolicyGradient(
                seat, size, actions, loss_str=algorithm, hidden_layers_sizes=settings.hidden,
                batch_size=settings.pg_batch, num_critic_before_pi=settings.pg_critic_before_pi,
                critic_learning_rate=settings.pg_critic_lr, pi_learning_rate=settings.pg_pi_lr,
                optimizer_str="adam"))
    return agents


def _reported_loss(agent: Any) -> Optional[Tuple[Any, Any]]:
    """The agent's last losses (``loss`` property), or None before it has any."""
    try:
        return agent.loss
    except AttributeError:  # PolicyGradient.loss before its first policy update
        return None


def _as_float(value: Any) -> Optional[float]:
    if value is None:
        return None
    # PolicyGradient reports its losses as the graph's tensors; NFSP as floats.
    return float(value.detach()) if isinstance(value, torch.Tensor) else float(value)


def train(env: rl_environment.Environment, agents: Sequence[Any], episodes: int, run: Run,
          check: Optional[StepCheck] = None) -> None:
    """Self-play for ``episodes`` episodes; fills ``run``'s steps, losses and returns.

    Raises ``RuntimeError`` if an agent picks an action that is not legal or gets a tensor
    of another size than the game declares (``check`` may test more on every decision).
    """
    size = int(np.prod(run.tensor_shape))
    totals = np.zeros(len(agents))
    seen: List[Any] = [_reported_loss(agent) for agent in agents]
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.current_player()
            observed = time_step.observations["info_state"][seat]
            if len(observed) != size:
                raise RuntimeError(f"seat {seat} got a tensor of {len(observed)} floats; the game declares {size}")
            action = agents[seat].step(time_step).action
            if action not in time_step.observations["legal_actions"][seat]:
                raise RuntimeError(f"seat {seat}'s agent chose {action}, not a legal action")
            if check is not None:
                check(env, time_step, seat, int(action))
            time_step = env.step([action])
            run.env_steps += 1
        for seat, agent in enumerate(agents):  # every seat sees the end (and learns from it)
            agent.step(time_step)
        totals += time_step.rewards
        run.decided += len(set(time_step.rewards)) > 1
        # A learner's reported loss is a new object after each of its updates.
        for seat, agent in enumerate(agents):
            loss = _reported_loss(agent)
            if loss is not None and (seen[seat] is None or any(a is not b for a, b in zip(loss, seen[seat]))):
                if any(part is not None for part in loss):
                    run.losses.append((seat, _as_float(loss[0]), _as_float(loss[1])))
                seen[seat] = loss
    run.returns = [float(t) / episodes for t in totals]


def _greedy_seat(agent: Any, time_step: rl_environment.TimeStep) -> int:
    """The action of a trained agent without learning: NFSP's average policy, PG's policy."""
    if isinstance(agent, nfsp.NFSP):
        with agent.temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
            return int(agent.step(time_step, is_evaluation=True).action)
    return int(agent.step(time_step, is_evaluation=True).action)


def against_random(env: rl_environment.Environment, agent: Any, episodes: int, seed: int) -> float:
    """Mean return of ``agent`` (seat 0) against a uniformly random opponent over seeded games.

    The environment's chance generator and the opponent's are reseeded from ``seed``, so that
    two calls with the same seed see the same deals wherever the agent plays the same.
    """
    env.seed(seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.current_player()
            legal = time_step.observations["legal_actions"][seat]
            action = _greedy_seat(agent, time_step) if seat == 0 else int(legal[rng.integers(len(legal))])
            time_step = env.step([action])
        total += time_step.rewards[0]
    return total / episodes


def run(game: str, algorithm: str, episodes: int, seed: int = 0, settings: Optional[Settings] = None,
        evaluation: int = 0, check: Optional[StepCheck] = None) -> Tuple[Run, List[Any]]:
    """Train ``algorithm`` on ``game`` for ``episodes`` self-play episodes; returns the record and agents.

    OpenSpiel's learners draw from the global NumPy and torch generators (they take none), so
    this seeds both from ``seed``, and the environment's chance sampler too: a run is repeatable.
    ``evaluation`` games against a random opponent are played before and after (0: none).
    """
    settings = settings or Settings()
    env = environment(game, seed)
    record = Run(game=game, algorithm=algorithm, seed=seed, episodes=episodes, tensor_shape=declared_shape(env))
    start = time.perf_counter()
    np.random.seed(seed)
    torch.manual_seed(seed)
    agents = make_agents(env, algorithm, seed, settings)
    np.random.seed(seed)  # NFSP's constructors reseeded both from their own seeds
    torch.manual_seed(seed)
    if evaluation:
        record.before = against_random(env, agents[0], evaluation, seed + 1)
        np.random.seed(seed)  # training draws the same whatever the evaluation drew
        torch.manual_seed(seed)
        env.seed(seed)
    train(env, agents, episodes, record, check)
    if evaluation:
        record.after = against_random(env, agents[0], evaluation, seed + 1)
    record.seconds = time.perf_counter() - start
    return record, agents


def report(record: Run) -> str:
    """Lines describing one run."""
    updates = len(record.losses)
    first = record.losses[0] if updates else None
    last = record.losses[-1] if updates else None
    names = ("avg-policy", "best-response") if record.algorithm == "nfsp" else ("critic", "policy")

    def value(x: Optional[float]) -> str:
        return "-" if x is None else f"{x:.4f}"

    def losses(entry: Optional[Tuple[int, Optional[float], Optional[float]]]) -> str:
        return "none" if entry is None else f"{names[0]} {value(entry[1])}, {names[1]} {value(entry[2])} (seat {entry[0]})"

    return "\n".join([
        f"{record.game:12s} {record.algorithm:5s} seed {record.seed}: {record.episodes} episodes, "
        f"{record.env_steps} decisions, tensor {record.tensor_shape}, {updates} loss reports, {record.seconds:.1f} s",
        f"    first losses: {losses(first)}",
        f"    last losses:  {losses(last)}",
        "    self-play mean return per seat: " + ", ".join(f"{r:+.3f}" for r in record.returns)
        + f"; {record.decided} of {record.episodes} games not tied",
        f"    seat 0 against random, mean return: before {record.before:+.3f}, after {record.after:+.3f}",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append", help="repeatable; default: both")
    parser.add_argument("--algorithm", choices=ALGORITHMS, action="append", help="repeatable; default: all")
    parser.add_argument("--episodes", type=int, help="training episodes per run (default: per game)")
    parser.add_argument("--eval", type=int, default=200, help="games against random before and after")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a few dozen episodes, small batches")
    args = parser.parse_args()
    torch.set_num_threads(1)  # small networks: one thread is as fast, and the machine is shared
    games = args.game or list(GAMES)
    algorithms = args.algorithm or list(ALGORITHMS)
    settings = Settings.small() if args.quick else Settings()
    evaluation = min(args.eval, 20) if args.quick else args.eval
    print(f"torch {torch.__version__}, OpenSpiel learners on aiplay games (seed {args.seed})")
    for game in games:
        for algorithm in algorithms:
            episodes = args.episodes or (QUICK_EPISODES if args.quick else FULL_EPISODES)[game]
            games_eval = evaluation if game == "leduc_poker" else max(1, evaluation // 4)
            record, _ = run(game, algorithm, episodes, args.seed, settings, games_eval)
            if not all(math.isfinite(x) for _, a, b in record.losses for x in (a, b) if x is not None):
                raise SystemExit(f"{game} {algorithm}: a loss is not finite")
            print(report(record), flush=True)


if __name__ == "__main__":
    main()
