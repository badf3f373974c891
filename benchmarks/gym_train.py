"""Training a small agent against aiplay's random bot through the Gymnasium adapter (issue 24).

A tabular agent (Monte Carlo control: one action value per information state
and action, the mean of the returns that followed it, epsilon-greedy
exploration) plays one seat of
Leduc poker (or Kuhn poker) in :func:`aiplay.adapters.gym.env` against the
``random`` bot. Its greedy policy is evaluated before training and at a few
checkpoints, each time on the same seeded evaluation episodes, and the mean
return is printed: it rises from negative (the untrained greedy policy plays
the first legal action, a fold in Leduc) to clearly positive.

    python benchmarks/gym_train.py                      # Leduc, 30,000 training episodes
    python benchmarks/gym_train.py --game kuhn_poker
    python benchmarks/gym_train.py --quick              # 1,000 episodes (CI smoke run)
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from typing import Dict, List, Tuple

import numpy as np

from aiplay.adapters.gym import env as make_env


class TabularAgent:
    """Action values per (information state, action); greedy or epsilon-greedy among legal actions."""

    def __init__(self, epsilon: float, seed: int):
        self.q: Dict[Tuple[str, int], float] = defaultdict(float)
        self.n: Dict[Tuple[str, int], int] = defaultdict(int)
        self.epsilon = epsilon
        self.rng = random.Random(seed)

    def act(self, key: str, mask: np.ndarray, explore: bool) -> int:
        legal = np.flatnonzero(mask).tolist()
        if explore and self.rng.random() < self.epsilon:
            return legal[self.rng.randrange(len(legal))]
        # Ties to the first legal action, so that the untrained agent is a fixed policy.
        return max(legal, key=lambda a: (self.q[(key, a)], -a))

    def learn(self, visited: List[Tuple[str, int]], episode_return: float) -> None:
        for key_action in visited:
            self.n[key_action] += 1
            self.q[key_action] += (episode_return - self.q[key_action]) / self.n[key_action]


def episode(environment, agent: TabularAgent, seed: int, explore: bool) -> Tuple[float, List[Tuple[str, int]]]:
    """One game; returns the agent's return and the (information state, action) pairs it played."""
    observation, info = environment.reset(seed=seed)
    visited: List[Tuple[str, int]] = []
    total = 0.0
    while True:
        key = info["information_state"]
        action = agent.act(key, observation["action_mask"], explore)
        visited.append((key, action))
        observation, reward, terminated, truncated, info = environment.step(action)
        total += reward
        if terminated or truncated:
            return total, visited


def evaluate(environment, agent: TabularAgent, episodes: int) -> float:
    """Mean return of the greedy policy over the seeded evaluation episodes 10**9 + i."""
    return sum(episode(environment, agent, 10 ** 9 + i, explore=False)[0] for i in range(episodes)) / episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="leduc_poker", choices=["leduc_poker", "kuhn_poker"])
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=30_000)
    parser.add_argument("--eval", type=int, default=2_000, help="evaluation episodes per checkpoint")
    parser.add_argument("--quick", action="store_true", help="1,000 training and 200 evaluation episodes")
    args = parser.parse_args()
    episodes, evaluations = (1_000, 200) if args.quick else (args.episodes, args.eval)
    environment = make_env(args.game, seat=args.seat, opponents="random")
    agent = TabularAgent(epsilon=0.2, seed=1)
    checkpoints = sorted({0, episodes // 10, episodes // 3, episodes})
    start = time.perf_counter()
    print(f"{args.game}, seat {args.seat} against the random bot; greedy policy's mean return "
          f"over {evaluations} evaluation games")
    done = 0
    for checkpoint in checkpoints:
        while done < checkpoint:
            result, visited = episode(environment, agent, done, explore=True)
            agent.learn(visited, result)
            done += 1
        score = evaluate(environment, agent, evaluations)
        print(f"  after {done:6d} training games: {score:+.3f}   "
              f"({len(agent.q)} action values, {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
