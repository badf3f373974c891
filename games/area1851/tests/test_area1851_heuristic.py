"""Area 1851 heuristics: the policy plays legal moves and beats random play; the evaluation stays in bounds."""

from __future__ import annotations

import random

from aiplay.game import sample_chance_outcome

from area1851_helpers import new_game


def play(game, policies, seed):
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_chance_outcome(s, rng))
            continue
        values = s.heuristic_values()
        assert all(game.min_utility <= v <= game.max_utility for v in values)
        seat = s.current_player()
        if policies[seat] == "heuristic":
            action = game.heuristic_policy(s, rng)
            assert action in s.legal_actions()
        else:
            action = rng.choice(s.legal_actions())
        s.apply_action(action)
    return s


def test_heuristic_beats_random_on_score():
    game = new_game(2, block=2)
    totals = [0, 0]
    for seed in range(6):
        seats = ("heuristic", "random") if seed % 2 == 0 else ("random", "heuristic")
        s = play(game, seats, seed)
        for p, kind in enumerate(seats):
            totals[kind == "random"] += s.players[p].score
    assert totals[0] > totals[1]


def test_heuristic_values_favour_the_leader():
    game = new_game(3, block=1)
    s = play(game, ("random", "random", "random"), 4)
    assert s.is_terminal() and sum(s.returns()) == 0
    mid = game.new_initial_state()
    rng = random.Random(1)
    while mid.turn < 3:
        mid.apply_action(sample_chance_outcome(mid, rng) if mid.is_chance_node() else rng.choice(mid.legal_actions()))
    scores = [p.score for p in mid.players]
    data = mid.to_dict()
    data["players"][0]["score"] = max(scores) + 30
    lead = game.state_from_dict(data)
    values = lead.heuristic_values()
    assert values[0] == max(values) and values[0] > 0


def test_the_assistants_spread_the_second_policy_kept_the_town_hall_and_the_first_the_recycler():
    from aiplay.games.area1851.cards import L_RECYCLER, L_TOWNHALL
    game = new_game(3, block=1)
    s = play(game, ("heuristic",) * 3, 7)
    used = set()
    for p in s.players:
        used |= {loc for loc in range(5) if p.wait[loc] + p.active[loc]}
    assert len(used) >= 2  # the Town Hall and at least one other location
    for name, loc in (("v2", L_TOWNHALL), ("v1", L_RECYCLER)):
        old = game.heuristic_policies[name]
        rng = random.Random(7)
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(sample_chance_outcome(s, rng) if s.is_chance_node() else old(s, rng))
        for p in s.players:
            assert p.wait[loc] + p.active[loc] == sum(p.wait) + sum(p.active) >= 2


def test_heuristic_outscores_the_first_policy():
    game = new_game(2, block=1)
    old = game.heuristic_policies["v1"]
    totals = [0, 0]
    for seed in range(4):
        rng = random.Random(seed)
        new_seat = seed % 2
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample_chance_outcome(s, rng))
                continue
            policy = game.heuristic_policy if s.current_player() == new_seat else old
            s.apply_action(policy(s, rng))
        totals[0] += s.players[new_seat].score
        totals[1] += s.players[1 - new_seat].score
    assert totals[0] > totals[1]


def test_pays_with_the_largest_die():
    from aiplay.games.area1851 import actions as A
    game = new_game(2, block=1)
    rng = random.Random(3)
    s = game.new_initial_state()
    seen = 0
    while not s.is_terminal() and seen < 20:
        if s.is_chance_node():
            s.apply_action(sample_chance_outcome(s, rng))
            continue
        action = game.heuristic_policy(s, rng)
        me = s.current_player()
        if s.view(me)["decision"] == "pay" and len(s.legal_actions()) > 1:
            dice = [d["value"] for d in s.view(me)["seats"][me]["dice"]]
            assert dice[action - A.DIE] == max(dice[a - A.DIE] for a in s.legal_actions())
            seen += 1
        s.apply_action(action)
    assert seen > 0
