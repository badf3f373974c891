"""``aiplay.testing``: the game author's kit (issue 24), and ``check_game`` on every game."""

from __future__ import annotations

import pytest

import aiplay
import aiplay.testing
from aiplay.errors import InvalidOptionError, UnknownGameError
import random

from aiplay.games._template import TemplateRaceGame, TemplateRaceState
from aiplay.registry import game_entry, has_native, register, unregister
from aiplay.testing import ContractFailure, check_game
from aiplay.testing.simulate import random_walk

#: A game whose first option set ends within this many moves gets every option set checked on
#: several games; a longer one (a board game) gets one game of its first option set.
SHORT = 150


def game_length(name: str) -> int:
    """Moves of a game with the first option set: the declared ``max_game_length``, else one random game's."""
    entry = game_entry(name)
    game = aiplay.load(name, backend="reference", **entry.contract_options[0])
    if entry.max_game_length is not None and entry.max_game_length(game) <= SHORT:
        return entry.max_game_length(game)
    return sum(1 for _ in random_walk(game.new_initial_state(), random.Random(0), max_steps=100 * SHORT)) - 1


NAMES = aiplay.games_available(include_hidden=True)
LENGTHS = {name: game_length(name) for name in NAMES}
SMALL = [n for n in NAMES if LENGTHS[n] <= SHORT]
BOARD = [n for n in NAMES if LENGTHS[n] > SHORT]


@pytest.mark.parametrize("name", SMALL)
def test_check_game_passes_on_the_small_games(name):
    report = check_game(name, games=3)
    backends = {key.split()[0] for key in report.games}
    assert backends == ({"reference", "native"} if has_native(name) else {"reference"})
    assert len(report.games) == len(backends) * len(game_entry(name).contract_options)
    assert all(count >= 3 for count in report.states.values())  # every game has at least a few states
    assert bool(report.differential_steps) == has_native(name)
    assert set(report.twin_pairs) == set(report.games)
    assert "contract kept" in str(report)


@pytest.mark.parametrize("name", BOARD)
def test_check_game_passes_on_the_board_games(name):
    options = game_entry(name).contract_options[0]
    report = check_game(name, options=[options], games=1, differential_games=1)
    assert sum(report.states.values()) >= sum(report.games.values()) * 2  # a start and an end at least


def test_the_game_lists_come_from_the_registry():
    assert set(SMALL) | set(BOARD) == set(NAMES) and "template" in SMALL
    assert all(LENGTHS[n] > 0 for n in NAMES)


def _broken(monkeypatch, attribute, replacement):
    monkeypatch.setattr(TemplateRaceState, attribute, replacement)
    return lambda: check_game("template", options=[{}], games=2, differential_games=0)


def test_check_game_names_a_broken_promise(monkeypatch):
    run = _broken(monkeypatch, "heuristic_values", lambda self: [5.0] * self.game.num_players)
    with pytest.raises(ContractFailure, match=r"template reference \{\} seed 0 step 0: heuristic_values"):
        run()
    monkeypatch.undo()
    legal = TemplateRaceState._legal_actions
    run = _broken(monkeypatch, "_legal_actions", lambda self: list(reversed(legal(self))))
    with pytest.raises(ContractFailure, match="not sorted"):
        run()
    monkeypatch.undo()
    run = _broken(monkeypatch, "clone", lambda self: self)
    with pytest.raises(ContractFailure, match="clone changed the original"):
        run()
    monkeypatch.undo()
    from aiplay.games._template.tensors import TemplateTensors

    leaky = TemplateTensors.fill_information_state

    def fill_with_every_card(self, game, data, player, out):  # a leak: the other seats' cards
        leaky(self, game, data, player, out)
        for p, card in enumerate(data["cards"]):
            if card is not None:
                out[f"revealed{p}"][card] = 1

    monkeypatch.setattr(TemplateTensors, "fill_information_state", fill_with_every_card)
    with pytest.raises(ContractFailure, match="differs on a world determinized"):
        check_game("template", options=[{}], games=2, differential_games=0)
    monkeypatch.undo()
    check_game("template", options=[{}], games=1)  # and whole again


def test_check_game_refuses_bad_arguments():
    with pytest.raises(UnknownGameError):
        check_game("no_such_game")
    for bad in ({"games": 0}, {"games": True}, {"max_steps": -1}, {"differential_games": -1}, {"seed": "1"},
                {"twin_games": -1}, {"twin_games": False}):
        with pytest.raises(InvalidOptionError, match=next(iter(bad))):
            check_game("pig", **bad)


def test_the_kit_holds_the_author_tools_and_aiplay_keeps_the_user_ones():
    from aiplay.testing import differential, fuzzing, kernel_rng, playthrough, simulate

    assert aiplay.testing.compare_engines is differential.compare_engines
    assert aiplay.testing.KernelRandom is kernel_rng.KernelRandom
    assert aiplay.testing.playthrough_cases is playthrough.playthrough_cases
    assert callable(fuzzing.run_case)
    for name in ("random_walk", "play_out", "random_action", "skip_chance"):
        assert getattr(aiplay, name) is getattr(simulate, name) is getattr(aiplay.testing, name)
    assert set(aiplay.testing.__all__) <= set(dir(aiplay.testing))
    with pytest.raises(AttributeError):
        aiplay.testing.no_such_tool  # noqa: B018


# -- planted bad determinizations (issue 36) ------------------------------------------


#: The determinization that the planted copy's states use (set by each test).
_PLANTED = {"determinize": TemplateRaceState.determinize}


class PlantedState(TemplateRaceState):
    """A Template Race state whose ``determinize`` is ``_PLANTED["determinize"]``."""

    __slots__ = ()

    def clone(self):
        other = TemplateRaceState.clone(self)
        other.__class__ = PlantedState
        return other

    def determinize(self, observer, rng):
        return _PLANTED["determinize"](self, observer, rng)


class PlantedGame(TemplateRaceGame):
    """The template game with :class:`PlantedState` states (reference engine only)."""

    name = "template_planted"

    def new_initial_state(self):
        state = TemplateRaceGame.new_initial_state(self)
        state.__class__ = PlantedState
        return state

    def state_from_dict(self, data):
        state = TemplateRaceGame.state_from_dict(self, data)
        state.__class__ = PlantedState
        return state


@pytest.fixture
def planted():
    """Register the planted copy; the test sets ``_PLANTED["determinize"]``."""
    register(PlantedGame, no_kernel="a test copy", listed=False, max_game_length=lambda game: game.max_game_length)
    yield PlantedGame.name
    unregister(PlantedGame.name)
    _PLANTED["determinize"] = TemplateRaceState.determinize


def _keeps_the_next_seats_card(self, observer, rng):
    """Redeals the cards the observer has not seen, except the next seat's: it keeps its real card."""
    kept = (observer + 1) % self.game.players
    seen = {self.cards[observer], self.cards[kept]} | {c for c, b in zip(self.cards, self.boosted) if b}
    unseen = [c for c in range(self.game.num_cards) if c not in seen]
    hidden = [p for p in range(self.dealt) if p not in (observer, kept) and not self.boosted[p]]
    other = TemplateRaceState.clone(self)
    other.__class__ = type(self)
    for seat, card in zip(hidden, rng.sample(unseen, len(hidden))):
        other.cards[seat] = card
    return other


def _peeks_half_the_time(self, observer, rng):
    """A correct redeal, but half the time (by the generator) the true state: the sample depends on it."""
    world = TemplateRaceState.determinize(self, observer, rng)
    world.__class__ = type(self)
    return self.clone() if rng.random() < 0.5 else world


@pytest.mark.parametrize("determinize,options,message", [
    (lambda self, observer, rng: self.clone(), {}, "determinize varies: .* are all the true state"),
    (lambda self, observer, rng: self.clone(), {"players": 3}, "determinize varies: .* are all the true state"),
    (_keeps_the_next_seats_card, {}, "determinize varies"),
    (_keeps_the_next_seats_card, {"players": 4}, "determinize varies"),
    (_peeks_half_the_time, {}, "canonical determinize"),
], ids=["true-state", "true-state-3p", "keeps-card", "keeps-card-4p", "depends-on-truth"])
def test_check_game_catches_a_peeking_or_incomplete_determinize(planted, determinize, options, message):
    _PLANTED["determinize"] = determinize
    with pytest.raises(ContractFailure, match=message):
        check_game(planted, options=[options], games=2)


def test_the_correct_determinize_of_the_copy_passes(planted):
    report = check_game(planted, options=[{}, {"players": 4}], games=3)
    assert all(pairs > 0 for pairs in report.twin_pairs.values())
