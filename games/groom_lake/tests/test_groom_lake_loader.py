"""The loader and a dead turn player (issue 37): a document is refused, naming the field, exactly when
its turn player is dead at a step where no dead player's turn can be; otherwise every successor loads.

The turn player dies only where its turn then ends: the Hunter's strike on a Human (the cards are
shared out, step ``share``) and the life lost when the Discard Stack runs out (a new row, ``row``).
A document with a dead scout at its tile draw (``tile_draw``) or a dead giver at a handout's draw
(``give_draw``) was accepted on both engines, and the successors that complete the draw (the
choice of tile, the next gift) were refused: "a dead player's procedure cannot go on".
"""

from __future__ import annotations

import collections
import json
import random

import pytest

import aiplay
from aiplay import InvalidStateError
from aiplay.game import sample_chance_outcome
from aiplay.games.groom_lake.eliminations import dead_turn_player
from aiplay.registry import has_native

NAME = "groom_lake"
#: Steps after which the turn player may be dead (the rest refuse such a document).
DEAD_TURN_STEPS = ("row", "share")


def backends():
    return ["reference"] + (["native"] if has_native(NAME) else [])


def games(players):
    return [aiplay.load(NAME, backend=b, players=players) for b in backends()]


def positions(players, seeds, every=3):
    """``to_dict()`` of every ``every``-th state of seeded random games (the fastest engine)."""
    game = games(players)[-1]
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state.to_dict()
            state.apply_action(sample_chance_outcome(state, rng) if state.is_chance_node()
                               else rng.choice(state.legal_actions()))
            step += 1


def first(players, seeds, step):
    """A reachable position at ``step`` with a living turn player."""
    for data in positions(players, seeds, every=1):
        if data["step"] == step and data["turn"] >= 0 and data["life"][data["turn"]] > 0:
            return data
    raise AssertionError(f"no {step!r} position in seeds {list(seeds)}")


@pytest.mark.parametrize("step", ["tile_draw", "give_draw", "roll", "investigate_draw", "action", "keep_tile",
                                  "place", "contribute", "vote", "give"])
def test_a_dead_turn_player_in_the_middle_of_its_turn_is_refused_naming_the_turn(step):
    data = first(4, range(40), step)
    dead = dead_turn_player(data)
    for game in games(4):
        game.state_from_dict(data)  # the living original loads
        with pytest.raises(InvalidStateError) as info:
            game.state_from_dict(dead)
        assert info.value.field == "state.turn", (game.backend, info.value)
        assert "dead" in str(info.value)


def test_the_reachable_dead_turn_players_load_and_so_do_their_successors():
    """The rules' own dead turn players (the Hunter struck a Human; everyone lost a life at a new row)
    load on both engines, and so does each of their successors."""
    seen = collections.Counter()
    for players in (3, 5):
        gs = games(players)
        for data in positions(players, range(6), every=1):
            turn = data["turn"]
            if turn < 0 or data["life"][turn] or data["step"] == "over":
                continue
            assert data["step"] in DEAD_TURN_STEPS, data["step"]
            seen[data["step"]] += 1
            states = [g.state_from_dict(data) for g in gs]
            lead = states[-1]
            moves = ([a for a, _ in lead.chance_outcomes()] if lead.is_chance_node() else lead.legal_actions())
            for action in moves:
                child = lead.clone()
                child.apply_action(action)
                for g in gs:
                    g.state_from_json(child.to_json())
    assert seen["share"] and seen["row"], seen


def test_every_accepted_dead_turn_document_has_successors_that_load():
    """The issue's property on a sample of reachable positions with the turn player killed: refused by
    both engines alike, or accepted (only at a new row or a share-out) with every successor loading."""
    accepted = collections.Counter()
    for players in (3, 4, 6):
        gs = games(players)
        for data in positions(players, range(3)):
            dead = dead_turn_player(data)
            if dead is None:
                continue
            results = []
            for g in gs:
                try:
                    results.append(g.state_from_dict(dead))
                except InvalidStateError as exc:
                    assert exc.field == "state.turn" or exc.field.startswith("state."), exc
                    results.append(None)
            assert len({r is None for r in results}) == 1, f"engines disagree at step {dead['step']!r}"
            if results[0] is None:
                continue
            assert dead["step"] in DEAD_TURN_STEPS, dead["step"]
            accepted[dead["step"]] += 1
            lead = results[-1]
            moves = ([a for a, _ in lead.chance_outcomes()] if lead.is_chance_node() else lead.legal_actions())
            for action in moves:
                child = lead.clone()
                child.apply_action(action)
                for g in gs:
                    try:
                        g.state_from_json(child.to_json())
                    except InvalidStateError as exc:
                        raise AssertionError(f"{g.backend}: a successor of {json.dumps(dead)} does not load: "
                                             f"{exc}") from exc
    assert accepted, "no dead turn player document was accepted at all: the sample misses the new rows"
