"""The Groom Lake heuristic policy and static evaluation, role by role."""

from __future__ import annotations

import random

import pytest

from aiplay.games.groom_lake import GroomLakeGame
from aiplay.games.groom_lake import actions as A
from aiplay.games.groom_lake.components import ALIEN, COMPASS, HUMAN, HUNTER, LIFEFORM, ROPE, TECH, WATER
from aiplay.games.groom_lake.heuristic import suspicion

from groom_lake_helpers import play, position

policy = GroomLakeGame.heuristic_policy
CIV, PROBE_13, DESERT = 33, 38, 7
#: Tiles with red dots on every edge (they fit anywhere), laid with their hazards closed.
DESERT_TILES = [7, 5, 22, 1, 17, 37, 24, 42]


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


def test_humans_keep_tools_over_small_proof_and_the_alien_keeps_technology():
    # A Human's tool is worth more than 5 or 10 AP of proof (hazards need it), less than 15 or 20.
    small = play(position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{LIFEFORM[3]: 1, TECH[0]: 1}, {}, {}],
                          discard=[WATER] * 6), "end turn")
    assert choose(small) == "refresh Tech 5"
    large = play(position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{LIFEFORM[3]: 1, TECH[2]: 1}, {}, {}],
                          discard=[WATER] * 6), "end turn")
    assert choose(large) == "refresh Water"
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


def test_the_hunter_strikes_only_on_a_clear_suspect():
    calm = hunter_position([[4, 4], [4, 3], [4, 2], [4, 3], [4, 4]])
    assert not choose(calm).startswith("strike")
    sure = hunter_position([[6, 6], [6, 6], [6, 0], [6, 6], [6, 5]])
    assert suspicion(sure.view(0)["internal"]) == [0, 1, 7, 1, 2]
    assert choose(sure) == "strike player 2"


def test_humans_vote_against_a_clear_suspect_and_vote_yes_only_on_one():
    def stats_position(rounds_given, **kwargs):
        state = position(4, roles=[HUMAN, HUMAN, ALIEN, HUMAN], **kwargs)
        doc = state.to_dict()
        doc["stats"] = [list(x) for x in rounds_given]
        return state.game.state_from_dict(doc)
    clear = [[6, 6], [6, 5], [6, 0], [6, 6]]
    assert choose(stats_position(clear)) == "vote against player 2"
    # Everyone has joined rounds without giving: no clear suspect, no vote.
    assert not choose(stats_position([[6, 1], [6, 2], [6, 1], [6, 0]])).startswith("vote")
    # The caller votes first, then the others in seat order (the target does not vote).
    ballot = play(stats_position(clear), "vote against player 2")
    assert ballot.current_player() == 0 and choose(ballot) == "yes"
    assert play(ballot, "yes").current_player() == 1 and choose(ballot) == "yes"
    wrong = play(stats_position(clear), "vote against player 1")
    assert choose(wrong) == "no"
    play(wrong, "no")
    assert wrong.current_player() == 2 and choose(wrong) == "yes"  # the Alien: yes to any Human's death
    play(wrong, "yes")
    assert wrong.current_player() == 3 and choose(wrong) == "no"


def test_humans_never_scout_on_their_last_life_and_walk_out_of_a_full_lake():
    assert choose(position(3, roles=[HUMAN, ALIEN, HUMAN])) == "scout"
    assert choose(position(3, roles=[HUMAN, ALIEN, HUMAN], life=[1, 6, 6])) == "end turn"
    # Every cell around Groom Lake is full: scouting there could only be class C; walk out instead.
    ring = [[DESERT_TILES[i], x, y, 0, 0] for i, (x, y) in enumerate(
        [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)])]
    state = position(3, roles=[HUMAN, ALIEN, HUMAN], placed=ring)
    assert choose(state).startswith("move ")
    # The Alien wins dead or alive: it scouts (and lays a Canyon) whatever it costs.
    alien = position(3, roles=[ALIEN, HUMAN, HUMAN], placed=ring, life=[1, 6, 6])
    assert choose(alien) == "scout"


def test_the_first_policy_stays_playable_as_v1():
    from aiplay.errors import InvalidOptionError
    from aiplay.search import make_bot
    state = position(3, roles=[HUMAN, ALIEN, HUMAN], life=[1, 6, 6])
    v1 = GroomLakeGame.heuristic_policies["v1"]
    assert state.action_to_string(v1(state, random.Random(0))) == "scout"  # the old self-kill
    assert make_bot("heuristic", policy="v1", seed=1).choose(state) == v1(state, random.Random(0))
    assert make_bot("heuristic", seed=1).choose(state) == policy(state, random.Random(0))
    with pytest.raises(InvalidOptionError, match="no heuristic policy 'v9'"):
        make_bot("heuristic", policy="v9", seed=1).choose(state)
    with pytest.raises(InvalidOptionError):
        make_bot("heuristic", policy=1)


def test_the_static_evaluation_is_bounded_and_favours_the_team_near_civilization():
    far = position(4, roles=[HUMAN, ALIEN, HUMAN, HUMAN])
    near = position(4, roles=[HUMAN, ALIEN, HUMAN, HUMAN], placed=[[CIV, 1, 0, 0, 0]])
    for state in (far, near):
        assert all(-1.0 <= v <= 1.0 for v in state.heuristic_values())
    assert near.heuristic_values()[0] > far.heuristic_values()[0]
    assert near.heuristic_values()[1] < far.heuristic_values()[1]


def test_the_escape_model_prices_the_team_and_the_alien():
    from aiplay.games.groom_lake.heuristic import escape_chance
    base = position(3, roles=[HUMAN, ALIEN, HUMAN])
    human_dead = position(3, roles=[HUMAN, ALIEN, HUMAN], life=[6, 6, 0])
    alien_dead = position(3, roles=[HUMAN, ALIEN, HUMAN], life=[6, 0, 6])
    fewer_lives = position(3, roles=[HUMAN, ALIEN, HUMAN], life=[3, 6, 3])
    assert escape_chance(human_dead) < escape_chance(fewer_lives) < escape_chance(base) < escape_chance(alien_dead)
    # A clear Civilization next to the Team is an escape on the next move; a far one is not.
    next_door = position(3, roles=[HUMAN, ALIEN, HUMAN], placed=[[CIV, 1, 0, 0, 0]])
    assert escape_chance(next_door) > 0.9 > escape_chance(base)


def test_the_static_evaluation_is_each_seats_expected_return():
    # Equal Alien Proof: a Human who votes the other Human out takes the whole share of a smaller chance,
    # and is worse off; the Alien is better off. The values are zero-sum, as the returns are.
    both = position(3, roles=[HUMAN, ALIEN, HUMAN])
    alone = position(3, roles=[HUMAN, ALIEN, HUMAN], life=[6, 6, 0])
    assert alone.heuristic_values()[0] < both.heuristic_values()[0]
    assert alone.heuristic_values()[1] > both.heuristic_values()[1]
    assert alone.heuristic_values()[2] == pytest.approx(-0.5)  # a dead seat loses whoever wins
    # More Alien Proof, a larger share of the escape.
    rich = position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{LIFEFORM[3]: 1}, {}, {}])
    assert rich.heuristic_values()[0] > both.heuristic_values()[0] > rich.heuristic_values()[2]
    half = position(4, roles=[HUMAN, ALIEN, HUMAN, HUMAN], half_win=True)
    half.half_agreed = True
    for state in (both, alone, rich, half, position(5), position(6, life=[3, 0, 3, 3, 0, 3])):
        values = state.heuristic_values()
        assert all(-1.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(0.0, abs=1e-12)


def test_the_kernel_evaluates_as_the_reference_does():
    from aiplay import registry
    half = position(4, roles=[HUMAN, ALIEN, HUMAN, HUMAN], half_win=True)
    half.half_agreed = True
    states = [position(3, roles=[HUMAN, ALIEN, HUMAN], life=[6, 6, 0]), half,
              position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{LIFEFORM[3]: 1, WATER: 2}, {}, {ROPE: 1}]),
              position(3, roles=[HUMAN, ALIEN, HUMAN], placed=[[CIV, 1, 0, 0, 0]], team=(0, 0)),
              position(5, life=[4, 0, 4, 2, 4]), position(6)]
    for state in states:
        native = registry.load("groom_lake", backend="native", players=state.n,
                               half_win=state.game.half_win).from_reference(state)
        assert native.heuristic_values() == state.heuristic_values()


def test_the_policy_reads_only_the_players_view():
    state = position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[{WATER: 1}, {TECH[3]: 1}, {}])
    twin = state.determinize(0, random.Random(3))
    assert policy(state, random.Random(1)) == policy(twin, random.Random(1))
    assert A.END in state.legal_actions()


def test_humans_give_their_lives_to_a_short_hazard_but_not_the_cards_of_a_full_hand():
    # Desert Alien Probe 13 by Groom Lake; the mover holds no card that helps against it.
    def at_the_hazard(hand, life):
        state = position(3, roles=[HUMAN, ALIEN, HUMAN], hands=[hand, {}, {}], life=[life, 6, 6],
                         placed=[[PROBE_13, 1, 0, 0, 1]])
        return play(state, "move E")

    # Two cards at life 3: a life token costs no card, down to the last life.
    assert choose(at_the_hazard({WATER: 1, ROPE: 1}, 3)) == "discard a life token"
    assert choose(at_the_hazard({WATER: 1}, 2)) == "discard a life token"
    assert choose(at_the_hazard({}, 1)) == "done"
    # A full hand would lose a card with the life: it gives a life only from 4 up.
    assert choose(at_the_hazard({WATER: 1, ROPE: 1, COMPASS: 1}, 3)) == "done"
    assert choose(at_the_hazard({WATER: 2, ROPE: 1, COMPASS: 1}, 4)) == "discard a life token"
