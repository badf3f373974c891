"""Sunken City: hostile JSON is rejected with a named field, and saved games reload.

Each test below pins a hole the mutation fuzzer (or a reading of the engine)
found in ``serialize.state_from_dict`` or the kernel's ``load_dict``: a
document that loaded but described a position the rules never reach, from
which the engines then misbehaved (unlimited raises, an extra round...).
Positions are taken from seeded play, then edited, so every test starts from
a real position and changes one thing.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable, Dict, Iterator

import pytest

import aiplay
from aiplay import InvalidStateError
from aiplay._ext.kernel import NativeState
from aiplay.games.sunken_city.components import CARDS

BACKENDS = ("reference", "native")
ZERO_PIECE_CARD = CARDS.index((0, 7))


def play(players: int = 2, seed: int = 1, policy: bool = True, **options: Any) -> Iterator[Dict[str, Any]]:
    """The JSON documents of one seeded game, move by move (heuristic play by default)."""
    game = aiplay.load("sunken_city", backend="native", players=players, **options)
    rng = random.Random(seed)
    choose = (lambda s: game.heuristic_policy(s, rng)) if policy else None
    for state in aiplay.random_walk(game.new_initial_state(), rng, choose=choose):
        yield json.loads(state.to_json())


def find(predicate: Callable[[Dict[str, Any]], bool], players: int = 2, **options: Any) -> Dict[str, Any]:
    """The first position of seeded play whose state dict satisfies ``predicate``."""
    for seed in range(1, 40):
        for doc in play(players, seed, **options):
            if predicate(doc["state"]):
                return doc
    raise AssertionError("no such position in 40 seeded games")


def rejected(doc: Dict[str, Any], field: str, players: int = 2, **options: Any) -> None:
    """Both engines reject ``doc`` with an InvalidStateError naming ``field``."""
    for backend in BACKENDS:
        game = aiplay.load("sunken_city", backend=backend, players=players, **options)
        with pytest.raises(InvalidStateError) as info:
            game.state_from_json(json.dumps(doc))
        assert info.value.field == field, (backend, str(info.value))


def accepted(doc: Dict[str, Any], players: int = 2) -> None:
    for backend in BACKENDS:
        aiplay.load("sunken_city", backend=backend, players=players).state_from_json(json.dumps(doc))


def test_a_card_raising_nothing_has_no_raise_block():
    """Card (0, 7) with ``raised: false`` offered "raise" with 0 pieces left: raises without limit, raise_left -10."""
    doc = find(lambda s: s["card"] == ZERO_PIECE_CARD and s["phase"] == "choose")
    accepted(doc)
    doc["state"]["raised"] = False
    rejected(doc, "state.raised")


def test_no_seat_0_turn_after_the_end_is_triggered():
    """The round is finished and the game ends before seat 0 would play again (spec, "End and scoring")."""
    doc = find(lambda s: s["phase"] == "card" and s["turn"] == 1 and s["end_triggered"])
    accepted(doc)
    doc["state"]["turn"] = 0
    rejected(doc, "state.phase")


def test_the_end_trigger_needs_a_cause_and_each_cause_sets_it():
    doc = find(lambda s: s["phase"] == "card" and s["turn"] == 1 and not s["end_triggered"] and s["draw_pile"] == 1)
    doc["state"]["end_triggered"] = True
    rejected(doc, "state.end_triggered")
    # Every treasure secured sets it at once (RB "Game End").
    doc = find(lambda s: s["phase"] == "card" and s["turn"] == 1 and not s["end_triggered"]
               and s["adventurers"][0] == "village" and not s["carried"][0])
    treasures = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]
    doc["state"]["secured"][0] = treasures
    doc["state"]["secured_values"][0] = sum(treasures)
    rejected(doc, "state.end_triggered")
    doc["state"]["end_triggered"] = True
    accepted(doc)


def test_raise_left_counts_the_building_already_raised():
    doc = find(lambda s: s["phase"] == "raise" and s["building_raised"])
    accepted(doc)
    doc["state"]["raise_left"] = CARDS[doc["state"]["card"]][0]
    rejected(doc, "state.raise_left")


def test_block_leftovers_exist_only_inside_their_block():
    doc = find(lambda s: s["phase"] == "move" and s["move_left"] > 0 and CARDS[s["card"]][0] > 0 and s["raised"])
    doc["state"]["raise_left"] = 1
    rejected(doc, "state.raise_left")
    doc = find(lambda s: s["phase"] == "choose" and not s["building_raised"] and not s["raised"])
    doc["state"]["building_raised"] = True
    rejected(doc, "state.building_raised")
    doc = find(lambda s: s["phase"] == "choose" and not s["moved"] and s["chips"][s["turn"]] > 0)
    doc["state"]["chip_used"] = True
    rejected(doc, "state.chip_used")


def test_points_come_from_the_card_or_the_chip():
    doc = find(lambda s: s["phase"] == "move" and not s["chip_used"] and s["move_left"] > 0)
    doc["state"]["move_left"] = CARDS[doc["state"]["card"]][1] + 1
    rejected(doc, "state.move_left")


def test_neptune_steps_are_bounded_by_the_reach_and_die_of_the_player_count():
    """3 players: reach 3, black die 0-3, so 4 steps are impossible (spec, "Neptune movement")."""
    doc = find(lambda s: s["phase"] == "neptune", players=3)
    accepted(doc, players=3)
    doc["state"]["neptune_left"] = 4
    rejected(doc, "state.neptune_left", players=3)


def test_a_neptune_block_with_neptune_stuck_has_already_ended():
    """Neptune's block ends by itself when no piece touches his (rules.py rulings), so it is never loaded open."""
    doc = find(lambda s: s["phase"] == "neptune" and s["draw_pile"] < 5)
    state = doc["state"]
    neptune = state["neptune"]
    # Sink every other piece: streets to the discard pile, buildings to their grottos.
    kept = [st for st in state["streets"] if st[:2] == neptune]
    state["street_piles"][state["draw_pile"]] += len(state["streets"]) - len(kept)
    state["streets"] = kept
    state["buildings"] = [b if b == neptune else None for b in state["buildings"]]
    for p, pos in enumerate(state["adventurers"]):
        if pos != neptune:
            state["adventurers"][p] = "village"
            state["carried"][p] = []
    rejected(doc, "state.phase")


def test_a_turn_with_only_end_turn_left_has_already_ended():
    """With every block done the turn ends by itself (rules.py rulings): no such "choose" position exists."""
    doc = find(lambda s: s["phase"] == "choose" and s["raised"] and not s["moved"] and not s["neptune_moved"])
    accepted(doc)
    doc["state"]["moved"] = doc["state"]["neptune_moved"] = True
    rejected(doc, "state.phase")


@pytest.mark.parametrize("bad, field", [
    ({"neptune": [0, 0]}, "state.neptune"),
    ({"card": None, "phase": "choose"}, "state.card"),
    ({"carried": [[13], []]}, "state.carried[0]"),
    ({"played": [[6], []]}, "state.played[0]"),
    ({"street_piles": [-1, 1, 1, 1, 1, 0]}, "state.street_piles[0]"),
    ({"draw_pile": 7}, "state.draw_pile"),
    ({"turn": 2}, "state.turn"),
    ({"streets": [[8, 8, "right"]]}, "state.streets[0]"),
    ({"streets": [[0, 0, "down"], [0, 0, "right"]]}, "state.streets[1]"),
    ({"buildings": [[0, 1]] + [None] * 9}, "state.buildings[0]"),
    ({"buildings": [None] * 9 + [[4, 4]], "streets": [[4, 3, "right"]]}, "state.streets[0]"),
    ({"adventurers": [[2**40, 0], "village"]}, "state.adventurers[0]"),
    ({"chips": [127, 0]}, "state.chips[0]"),
    ({"raise_left": 300}, "state.raise_left"),
])
def test_kernel_load_dict_checks_ranges_itself(bad, field):
    """Defence in depth: the kernel's load_dict, fed unvalidated data, raises instead of writing out of bounds."""
    game = aiplay.load("sunken_city", backend="native")
    data = json.loads(game.new_initial_state().to_json())["state"]
    data.update(bad)
    with pytest.raises(InvalidStateError) as info:
        NativeState.from_dict(game.kernel, game, data)
    assert info.value.field == field


def test_kernel_load_dict_takes_every_reachable_position():
    game = aiplay.load("sunken_city", backend="native", players=3)
    for doc in list(play(3, seed=5))[::7]:
        state = NativeState.from_dict(game.kernel, game, doc["state"])
        assert json.loads(state.to_json()) == doc


def _mutations(doc: Dict[str, Any], rng: random.Random) -> Dict[str, Any]:
    """One small edit of a state field: a number moved by one, a flag flipped, an item dropped or a wrong type."""
    doc = copy.deepcopy(doc)
    state = doc["state"]
    key = rng.choice(sorted(state))
    value = state[key]
    if isinstance(value, bool):
        state[key] = not value
    elif isinstance(value, int):
        state[key] = value + rng.choice((-1, 1))
    elif isinstance(value, list) and value and rng.random() < 0.5:
        i = rng.randrange(len(value))
        item = value[i]
        if isinstance(item, list) and item and rng.random() < 0.5:
            item.pop(rng.randrange(len(item)))
        elif isinstance(item, int) and not isinstance(item, bool):
            value[i] = item + rng.choice((-1, 1))
        else:
            value.pop(i)
    else:
        state[key] = rng.choice((None, "x", 1.5, [], {}, -1, 99, True))
    return doc


def test_mutated_documents_are_rejected_by_name_or_play_to_the_end():
    """A seeded mini-fuzz: every edit is an InvalidStateError on both engines, or loads and plays out."""
    rng = random.Random(2024)
    docs = list(play(2, seed=3, policy=False))[::3] + list(play(2, seed=4))[::3]
    games = {b: aiplay.load("sunken_city", backend=b) for b in BACKENDS}
    loaded = 0
    for _ in range(300):
        text = json.dumps(_mutations(rng.choice(docs), rng))
        outcome = {}
        for backend, game in games.items():
            try:
                outcome[backend] = game.state_from_json(text)
            except InvalidStateError as exc:
                assert exc.field.startswith("state"), exc
                outcome[backend] = None
        assert (outcome["reference"] is None) == (outcome["native"] is None)
        if outcome["native"] is None:
            continue
        loaded += 1
        state = outcome["native"]
        for _ in range(3000):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            games["reference"].state_from_json(state.to_json())  # every position reached reloads
        assert state.is_terminal()
    assert loaded > 10  # the edits are small enough that some are legal positions
