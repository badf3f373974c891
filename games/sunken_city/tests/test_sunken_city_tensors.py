"""Sunken City's observation tensor (issue 24): the whole position decodes from it."""

from __future__ import annotations

import random

import numpy as np
import pytest

import aiplay
from aiplay.errors import UnsupportedError
from aiplay.testing.simulate import random_action
from aiplay.views import tensors

ENGINES = ["reference", "native"]


def _states(game, games, seed):
    """Every state of ``games`` seeded random games (chance nodes and the end included), with their moves."""
    rng = random.Random(seed)
    for _ in range(games):
        state, moves = game.new_initial_state(), []
        while True:
            yield state.clone(), list(moves)
            if state.is_terminal():
                break
            action = random_action(state, rng)
            state.apply_action(action)
            moves.append(action)


def _parts(game, kind, tensor):
    parts, start = {}, 0
    for part in tensors.slices(game, kind):
        parts[part.name] = tensor[start:start + part.size]
        start += part.size
    return parts


def _card(one_hot):
    hot = np.flatnonzero(one_hot).tolist()
    assert len(hot) <= 1
    return hot[0] if hot else None


def _named(card, name_of):
    """A decoded card id by the name the view gives it (None stays None)."""
    return None if card is None else name_of(card)


def _actions(bits):
    pairs = bits.reshape(-1, 2)
    return [int(np.flatnonzero(pair)[0]) for pair in pairs if pair.any()]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "short": True}])
def test_sunken_city_s_position_decodes_from_its_observation_tensor(options, backend):
    # A board game with perfect information: the observation tensor is the whole position, so the
    # position's dict form (the view's fields, less the derived ones) reads back from it exactly.
    from aiplay.games.sunken_city.tensors import DIRECTIONS, FLAGS
    from aiplay.games.sunken_city.phases import PHASE_NAMES

    game = aiplay.load("sunken_city", backend=backend, **options)
    n = game.num_players
    with pytest.raises(UnsupportedError, match="information state"):
        game.information_state_tensor_shape()
    seen: dict = {}
    for state, _ in _states(game, 3, seed=8):
        tensor = state.observation_tensor(1)
        parts = _parts(game, "observation", tensor)
        rc = lambda cell: [cell // 9, cell % 9]  # noqa: E731
        hot = lambda part: np.flatnonzero(part).tolist()  # noqa: E731
        decoded = {
            "turn": _card(parts["turn"]), "phase": PHASE_NAMES[_card(parts["phase"])], "card": _card(parts["card"]),
            **{key: int(parts[key][0]) for key in ("raise_left", "move_left", "neptune_left")},
            **{flag: bool(parts["flags"][i]) for i, flag in enumerate(FLAGS)},
            "streets": [rc(slot // 2) + [DIRECTIONS[slot % 2]] for slot in hot(parts["streets"])],
            "buildings": [None if _card(parts[f"building{b}"]) is None else rc(_card(parts[f"building{b}"]))
                          for b in range(1, 11)],
            "neptune": rc(_card(parts["neptune"])),
            "adventurers": ["village" if _card(parts[f"adventurer{p}"]) == 81 else rc(_card(parts[f"adventurer{p}"]))
                            for p in range(n)],
            "carried": [hot(parts[f"carried{p}"]) for p in range(n)],
            "secured": [hot(parts[f"secured{p}"]) for p in range(n)],
            "secured_values": [int(parts[f"secured_value{p}"][0]) for p in range(n)],
            "chips": [int(parts[f"chips{p}"][0]) for p in range(n)],
            "played": [hot(parts[f"played{p}"]) for p in range(n)],
            "street_piles": [int(x) for x in parts["street_piles"]],
            "draw_pile": int(parts["draw_pile"][0]),
        }
        data = state.to_dict()
        data["streets"] = sorted(data["streets"], key=lambda s: (s[0] * 9 + s[1]) * 2 + DIRECTIONS.index(s[2]))
        assert decoded == data
        assert _card(parts["player"]) == 1
        assert seen.setdefault(tensor.tobytes(), state.to_json()) == state.to_json()  # distinct positions, distinct tensors
