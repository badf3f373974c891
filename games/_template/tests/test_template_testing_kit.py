"""The game author's kit (``aiplay.testing.check_game``) catches bugs planted in the template game.

A broken promise, a leaky tensor, a peeking or incomplete determinize.
"""

from __future__ import annotations

import pytest

from aiplay.games._template import TemplateRaceGame, TemplateRaceState
from aiplay.registry import register, unregister
from aiplay.testing import ContractFailure, check_game


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
