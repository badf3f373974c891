"""Groom Lake's learned evaluation: the file, the reference function, and the kernel's port of it."""

from __future__ import annotations

import fnmatch
import json
import math
import random
import tomllib
from pathlib import Path

import pytest

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.games.groom_lake import value_model as VM
from aiplay.games.groom_lake.components import ALIEN

ROOT = Path(__file__).resolve().parents[3]
#: Every option set the game has: 3 to 6 players, with and without the Half-Win variant.
OPTION_SETS = [{"players": n, "half_win": h} for n in (3, 4, 5, 6) for h in (False, True)]


def _positions(options, seed, every=0.1):
    """Native states along a seeded game of the policy with random moves (3 in 10), a share of them."""
    game = aiplay.load("groom_lake", backend="native", **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if rng.random() < every:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if rng.random() < 0.3 else game.kernel.policy_choice(state, rng.getrandbits(60)))
    out.append(state)
    return out


def _agree(native, half=True):
    """The same position on both engines, the Alien dead and (``half``) a Half-Win agreed."""
    data = native.to_dict()
    alien = data["roles"].index(ALIEN) if ALIEN in data["roles"] else None
    if alien is None:
        return None
    data["life"][alien] = 0
    data["half_agreed"] = half
    game = native.game
    try:
        return game.state_from_dict(data)
    except aiplay.AiplayError:
        return None


def _same(native):
    reference = native.to_reference()
    expected = VM.learned_values(reference)
    assert reference.heuristic_values() == expected
    got = native.heuristic_values()
    assert len(got) == len(expected)
    assert max(abs(a - b) for a, b in zip(got, expected)) <= 1e-9, (native.to_dict(), got, expected)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_kernel_evaluates_as_the_reference_engine(options):
    checked = 0
    for seed in range(4):
        for native in _positions(options, seed):
            _same(native)
            checked += 1
    assert checked > 50


def test_the_kernel_agrees_with_a_half_win_agreed():
    """The Half-Win branch (equal shares of the living Team), which the policy's games rarely reach."""
    checked = 0
    for players in (3, 4, 5, 6):
        for native in _positions({"players": players, "half_win": True}, seed=3)[5:-1:4]:
            agreed = _agree(native)
            if agreed is None or agreed.is_terminal():
                continue
            _same(agreed)
            values = agreed.heuristic_values()
            team = [p for p in range(players) if agreed.to_dict()["life"][p] > 0
                    and agreed.to_dict()["roles"][p] != ALIEN]
            assert len({round(values[p], 12) for p in team}) == 1  # equal shares
            checked += 1
    assert checked >= 4


def test_values_are_expected_returns_and_the_returns_at_the_end():
    for options in OPTION_SETS[::2]:
        states = _positions(options, seed=11)
        for state in states[:-1]:
            values = state.heuristic_values()
            assert abs(sum(values)) < 1e-9 and all(-1.0 <= v <= 1.0 for v in values)
        assert states[-1].is_terminal() and states[-1].heuristic_values() == states[-1].returns()


def test_the_values_follow_the_weights_of_the_file():
    """The escape is sigmoid(w . x), w read from value_model.json by name; other weights give other values."""
    model = json.loads(Path(VM.MODEL_PATH).read_text(encoding="utf-8"))
    weights = [model["weights"][name] for name in VM.FEATURES]
    state = _positions({"players": 4}, seed=5)[12].to_reference()
    z = sum(w * x for w, x in zip(weights, VM.escape_features(state)))
    assert VM.escape_probability(state) == pytest.approx(1.0 / (1.0 + math.exp(-z)), abs=1e-12)
    zero = VM.learned_values(state, [0.0] * len(VM.FEATURES))
    assert zero != pytest.approx(state.heuristic_values())
    # Zero weights: an even chance of an escape, split evenly over the living Team.
    assert VM.escape_probability(state, [0.0] * len(VM.FEATURES)) == 0.5


def test_zeroed_weights_reach_the_kernel_when_it_is_made(monkeypatch):
    """The kernel copies value_model.WEIGHTS when it is made (what the zero-weight control relies on)."""
    native = _positions({"players": 3}, seed=2)[8]
    monkeypatch.setattr(VM, "WEIGHTS", tuple(0.0 for _ in VM.FEATURES))
    game = aiplay.load("groom_lake", backend="native", players=3)
    again = game.state_from_dict(native.to_dict())
    reference = again.to_reference()
    expected = VM.learned_values(reference, VM.WEIGHTS)
    assert again.heuristic_values() == pytest.approx(expected, abs=1e-12)


def test_the_static_weights_give_the_old_static_evaluation():
    """STATIC_WEIGHTS (the control "today's evaluation" of the strength script) is heuristic.static_values."""
    from aiplay.games.groom_lake.heuristic import static_values
    checked = 0
    for options in OPTION_SETS[::3]:
        for native in _positions(options, seed=4)[:-1]:
            state = native.to_reference()
            got = VM.learned_values(state, VM.STATIC_WEIGHTS)
            assert got == pytest.approx(static_values(state), abs=1e-9)
            checked += 1
    assert checked > 20


def test_the_model_file_names_every_feature_and_its_provenance():
    model = json.loads(Path(VM.MODEL_PATH).read_text(encoding="utf-8"))
    assert model["features"] == list(VM.FEATURES) and set(model["weights"]) == set(VM.FEATURES)
    provenance = model["provenance"]
    for key in ("seed", "games", "positions", "commit", "command"):
        assert provenance[key] not in (None, "", 0), key
    assert "groom_lake_value_fit.py" in provenance["command"]
    assert model["held_out"]["log_loss"] < model["held_out"]["static_log_loss"]


def test_the_model_file_ships_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["aiplay.games"]
    assert any(fnmatch.fnmatch("groom_lake/value_model.json", p) for p in patterns)


def test_a_dead_team_member_lowers_the_escape():
    """Monotone where it must be: losing a Human costs the Team (and so the Alien gains)."""
    for native in _positions({"players": 4}, seed=7)[10:-1:6]:
        data = native.to_dict()
        humans = [p for p in range(4) if data["roles"][p] not in (ALIEN,) and data["life"][p] > 0]
        if len(humans) < 2 or native.is_terminal():
            continue
        before = native.to_reference()
        data["life"][humans[0]] = 0
        try:
            after = native.game.state_from_dict(data).to_reference()
        except aiplay.AiplayError:
            continue
        assert VM.escape_probability(after) < VM.escape_probability(before)
        return
    pytest.fail("no position with two living Humans was found")


# --- the evaluation by the searching seat's role (heuristic_values_for) --------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_each_seat_search_evaluates_as_the_reference_engine(options):
    """``heuristic_values_for(seat)``: the kernel's ``evaluate_for`` against ``learned_values(searcher=seat)``."""
    checked = 0
    for native in _positions(options, seed=21, every=0.2):
        reference = native.to_reference()
        for seat in range(options["players"]):
            expected = VM.learned_values(reference, searcher=seat)
            assert reference.heuristic_values_for(seat) == expected
            got = native.heuristic_values_for(seat)
            assert max(abs(a - b) for a, b in zip(got, expected)) <= 1e-9, (native.to_dict(), seat, got, expected)
            checked += 1
    assert checked > 30


def test_at_three_players_a_search_weighs_a_position_by_its_role():
    """The Alien's search reads the Alien's model, a Human's the Human's; the plain evaluation neither."""
    alien_w, human_w = VM.SEARCHER_WEIGHTS[(3, "alien")], VM.SEARCHER_WEIGHTS[(3, "human")]
    assert alien_w != VM.WEIGHTS and human_w != VM.WEIGHTS and alien_w != human_w
    checked = 0
    for native in _positions({"players": 3}, seed=9)[2:-1]:
        reference = native.to_reference()
        for seat in range(3):
            weights = alien_w if reference.roles[seat] == ALIEN else human_w
            assert native.heuristic_values_for(seat) == pytest.approx(VM.learned_values(reference, weights), abs=1e-9)
        checked += 1
    assert checked > 5
    for native in _positions({"players": 4}, seed=9)[2:-1:5]:  # no model of its own: the shipped weights
        for seat in range(4):
            assert native.heuristic_values_for(seat) == native.heuristic_values()


def test_a_bad_searcher_is_refused_by_both_engines():
    native = _positions({"players": 3}, seed=1)[3]
    for state in (native, native.to_reference()):
        for bad in (3, -1, "0", 1.0, True, None):
            with pytest.raises(aiplay.InvalidPlayerError):
                state.heuristic_values_for(bad)


def _root_stats(kernel_weights, state_dict, monkeypatch):
    """The native ISMCTS's root statistics (200 iterations, cut playouts of 0 moves) with a kernel made
    while ``value_model.SEARCHER_WEIGHTS`` is ``kernel_weights``."""
    from aiplay.search import make_bot
    monkeypatch.setattr(VM, "SEARCHER_WEIGHTS", kernel_weights)
    game = aiplay.load("groom_lake", backend="native", players=3)
    monkeypatch.undo()
    state = game.state_from_dict(state_dict)
    bot = make_bot("ismcts", game=game, iterations=200, rollout_cutoff=0, seed=5)
    return [(s.action, s.visits, round(s.value, 12)) for s in bot.analyse(state).stats]


def test_the_native_search_scores_its_cut_playouts_as_its_seat_role(monkeypatch):
    """A kernel whose Human weights are zeroed changes a Human's search and not the Alien's."""
    zero = tuple(0.0 for _ in VM.FEATURES)
    plain = {(3, "alien"): VM.WEIGHTS, (3, "human"): VM.WEIGHTS}
    no_human = {(3, "alien"): VM.WEIGHTS, (3, "human"): zero}
    seen = set()
    for native in _positions({"players": 3}, seed=13, every=0.3)[3:-1]:
        reference = native.to_reference()
        mover = reference.current_player()
        if mover < 0 or len(native.legal_actions()) < 2:
            continue
        role = "alien" if reference.roles[mover] == ALIEN else "human"
        if role in seen:
            continue
        same = _root_stats(plain, native.to_dict(), monkeypatch) == _root_stats(no_human, native.to_dict(), monkeypatch)
        assert same == (role == "alien"), role
        seen.add(role)
        if len(seen) == 2:
            return
    pytest.fail(f"positions for both roles were not found (found {seen})")


def test_the_searcher_model_files_name_their_provenance_and_ship():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["aiplay.games"]
    for (players, role), name in VM.SEARCHER_MODEL_FILES.items():
        model = json.loads(Path(VM.searcher_model_path(players, role)).read_text(encoding="utf-8"))
        assert model["features"] == list(VM.FEATURES) and set(model["weights"]) == set(VM.FEATURES)
        provenance = model["provenance"]
        for key in ("seed", "games", "positions", "commit", "command", "search_iterations"):
            assert provenance[key] not in (None, "", 0), (name, key)
        assert provenance["players"] == players and provenance["one_searcher"] is True
        assert f"--out games/groom_lake/{name}" in provenance["command"]
        assert model["held_out"]["log_loss"] < model["held_out"]["static_log_loss"]
        assert any(fnmatch.fnmatch(f"groom_lake/{name}", p) for p in patterns)
    alien = json.loads(Path(VM.searcher_model_path(3, "alien")).read_text(encoding="utf-8"))
    assert alien["provenance"]["searcher_role"] == "alien"


def test_playouts_cut_short_are_scored_for_the_searching_seat():
    """``rollout.playout`` with ``searcher`` scores the cutoff by ``heuristic_values_for`` (the reference searches)."""
    from aiplay.search.rollout import Rollout, playout
    native = _positions({"players": 3}, seed=9)[4]
    reference = native.to_reference()
    for seat in range(3):
        values, steps = playout(reference.clone(), random.Random(1), Rollout(cutoff=0), seat)
        assert steps == 0 and values == reference.heuristic_values_for(seat)
    values, _ = playout(reference.clone(), random.Random(1), Rollout(cutoff=0))
    assert values == reference.heuristic_values()
