"""The Groom Lake heuristic policy and static evaluation, role by role."""

from __future__ import annotations

import random

from aiplay.games.groom_lake import GroomLakeGame
from aiplay.games.groom_lake import actions as A
from aiplay.games.groom_lake.components import ALIEN, COMPASS, HUMAN, HUNTER, LIFEFORM, TECH, WATER
from aiplay.games.groom_lake.heuristic import belief

from groom_lake_helpers import play, position

policy = GroomLakeGame.heuristic_policy
CIV, PROBE_13, DESERT = 33, 38, 7


def choose(state) -> str:
    return state.action_to_string(policy(state, random.Random(0)))


def test_humans_head_for_civilization_and_the_alien_does_not():
    road = [[DESERT, 1, 0, 0, 0], [CIV, 2, 0, 0, 0]]
    assert choose(position(3, roles=[HUMAN, ALIEN, HUMAN], placed=road)) == "move E"
    alien = position(3, roles=[ALIEN, HUMAN, HUMAN], placed=road)
    assert choose(alien) != "move E"


def test_humans_scout_rather_than_walk_into_a_hazard_they_cannot_beat():
    # Desert Alien Probe 13 (turned to meet Groom Lake) with Civilization behind it; no helping cards.
    state = position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{WATER: 1}, {}, {}], life=[2, 2, 2],
                     placed=[[PROBE_13, 1, 0, 0, 1], [CIV, 2, 0, 0, 0]])
    assert choose(state) == "scout"


def test_humans_keep_alien_proof_and_the_alien_keeps_technology():
    human = play(position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{LIFEFORM[3]: 1, TECH[0]: 1}, {}, {}],
                          discard=[WATER] * 6), "end turn")
    assert choose(human) == "refresh Water"
    alien = play(position(3, roles=[ALIEN, HUMAN, HUMAN], hands=[{LIFEFORM[3]: 1, TECH[0]: 1}, {}, {}],
                          discard=[COMPASS] * 6), "end turn")
    assert choose(alien) in ("refresh Compass", "refresh Lifeform 20")
    assert choose(alien) != "refresh Tech 5"


def test_the_alien_keeps_a_canyon_and_a_human_a_civilization():
    for roles, wanted in (([ALIEN, HUMAN, HUMAN], "keep tile Canyon #13"),
                          ([HUMAN, ALIEN, HUMAN], "keep tile Desert #7")):
        state = play(position(3, roles=roles), "scout", "draw tile Canyon #13", "draw tile Desert #7")
        assert choose(state) == wanted


def hunter_position(rounds_given):
    state = position(5, roles=[HUNTER, HUMAN, ALIEN, HUMAN, HUMAN])
    doc = state.to_dict()
    doc["stats"] = [list(x) for x in rounds_given]
    return state.game.state_from_dict(doc)


def test_the_hunter_strikes_only_when_its_belief_is_high():
    calm = hunter_position([[4, 4], [4, 3], [4, 2], [4, 3], [4, 4]])
    assert not choose(calm).startswith("strike")
    sure = hunter_position([[6, 6], [6, 6], [6, 0], [6, 6], [6, 5]])
    view = sure.view(0)
    assert max(belief(view)) == belief(view)[2] > 0.55
    assert choose(sure) == "strike player 2"


def test_the_static_evaluation_is_bounded_and_favours_the_team_near_civilization():
    far = position(4, roles=[HUMAN, ALIEN, HUMAN, HUMAN])
    near = position(4, roles=[HUMAN, ALIEN, HUMAN, HUMAN], placed=[[CIV, 1, 0, 0, 0]])
    for state in (far, near):
        assert all(-1.0 <= v <= 1.0 for v in state.heuristic_values())
    assert near.heuristic_values()[0] > far.heuristic_values()[0]
    assert near.heuristic_values()[1] < far.heuristic_values()[1]


def test_the_policy_reads_only_the_players_view():
    state = position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{WATER: 1}, {TECH[3]: 1}, {}])
    twin = state.determinize(0, random.Random(3))
    assert policy(state, random.Random(1)) == policy(twin, random.Random(1))
    assert A.END in state.legal_actions()
