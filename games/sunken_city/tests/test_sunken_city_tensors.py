"""Sunken City's observation tensor (issue 24): the whole position decodes from it."""

from __future__ import annotations

import numpy as np
import pytest

import aiplay
from aiplay.errors import UnsupportedError
from aiplay.testing.tensor_checks import one_hot_index, random_game_states, tensor_parts

ENGINES = ["reference", "native"]


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
    for state, _ in random_game_states(game, 3, seed=8):
        tensor = state.observation_tensor(1)
        parts = tensor_parts(game, "observation", tensor)
        rc = lambda cell: [cell // 9, cell % 9]  # noqa: E731
        hot = lambda part: np.flatnonzero(part).tolist()  # noqa: E731
        decoded = {
            "turn": one_hot_index(parts["turn"]), "phase": PHASE_NAMES[one_hot_index(parts["phase"])], "card": one_hot_index(parts["card"]),
            **{key: int(parts[key][0]) for key in ("raise_left", "move_left", "neptune_left")},
            **{flag: bool(parts["flags"][i]) for i, flag in enumerate(FLAGS)},
            "streets": [rc(slot // 2) + [DIRECTIONS[slot % 2]] for slot in hot(parts["streets"])],
            "buildings": [None if one_hot_index(parts[f"building{b}"]) is None else rc(one_hot_index(parts[f"building{b}"]))
                          for b in range(1, 11)],
            "neptune": rc(one_hot_index(parts["neptune"])),
            "adventurers": ["village" if one_hot_index(parts[f"adventurer{p}"]) == 81 else rc(one_hot_index(parts[f"adventurer{p}"]))
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
        assert one_hot_index(parts["player"]) == 1
        assert seen.setdefault(tensor.tobytes(), state.to_json()) == state.to_json()  # distinct positions, distinct tensors
