"""ISMCTS's ``smooth`` and ``self_determinize`` options on both search paths.

With ``smooth=True`` a share of the tree decisions follows the average policy
(visit counts) and the move played is drawn from the root's visits. Checked
here: the options are validated, a seed replays the same moves, the native and
reference loops agree in distribution, and the move played follows the visits
(the bot plays mixed). ``self_determinize`` (MO-ISMCTS: in a share of the
iterations the searching seat's own hidden information is resampled as a rival
sees it) is checked alongside. The exploitability test is a validation game's own
(``games/<game>/tests``): it names its game.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import make_bot
from aiplay.search.ismcts import ISMCTSBot
from aiplay.search.tree_config import SMOOTH_ETA, SMOOTH_GAMMA, smooth_ucb_share
from aiplay.testing.choose import pick_game

#: The smallest short hidden-information game with a kernel (both paths are run on it).
SMALL = pick_game(perfect_information=False, native=True, short=True, listed=True)
#: Allowed difference in an action's mean share of root visits between the paths, on top of three
#: standard errors of the seed-to-seed spread (as tests/test_native_search.py allows plain ISMCTS).
TOLERANCE = 0.05


def positions(count: int, seed: int):
    """(reference state, native state) pairs of the same decision positions of SMALL."""
    ref_game, native_game = aiplay.load(SMALL, backend="reference"), aiplay.load(SMALL)
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        for state in aiplay.random_walk(ref_game.new_initial_state(), rng):
            if len(pairs) == count:
                break
            if not (state.is_chance_node() or state.is_terminal()) and len(state.legal_actions()) > 1:
                pairs.append((state.clone(), native_game.from_reference(state)))
    return pairs


@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0])
def test_a_bad_smooth_value_is_refused_by_name(value):
    with pytest.raises(InvalidOptionError, match="smooth"):
        ISMCTSBot(iterations=10, smooth=value)


@pytest.mark.parametrize("value", [-0.001, math.nan, math.inf, "0.1", True, None, 10 ** 400])
def test_a_bad_smooth_decay_is_refused_by_name(value):
    with pytest.raises(InvalidOptionError, match="smooth_decay"):
        ISMCTSBot(iterations=10, smooth=True, smooth_decay=value)


@pytest.mark.parametrize("value", [-0.1, 1.5, math.nan, "1", True, None])
def test_a_bad_self_determinize_is_refused_by_name(value):
    with pytest.raises(InvalidOptionError, match="self_determinize"):
        ISMCTSBot(iterations=10, variant="mo", self_determinize=value)


def test_self_determinize_needs_mo_and_no_kept_tree():
    with pytest.raises(InvalidOptionError, match="needs variant='mo'"):
        ISMCTSBot(iterations=10, self_determinize=0.5)
    with pytest.raises(InvalidOptionError, match="reuse_tree=True"):
        ISMCTSBot(iterations=10, variant="mo", self_determinize=0.5, reuse_tree=True)
    assert ISMCTSBot(iterations=10, variant="mo", self_determinize=0.5).config.keep_tree is False


def test_make_bot_takes_the_options_and_other_searches_refuse_them():
    bot = make_bot("ismcts", iterations=10, smooth=True, smooth_decay=0.0)
    assert bot.config.smooth and bot.config.smooth_decay == 0.0
    assert "smooth=True" in repr(bot)
    with pytest.raises(InvalidOptionError, match="unknown option 'smooth'"):
        make_bot("mcts", iterations=10, smooth=True)


def test_the_schedule_starts_at_eta_and_keeps_its_floor():
    assert smooth_ucb_share(0, 0.002) == pytest.approx(SMOOTH_ETA)
    assert smooth_ucb_share(10 ** 12, 0.002) == SMOOTH_GAMMA
    assert smooth_ucb_share(10 ** 6, 0.0) == SMOOTH_ETA
    shares = [smooth_ucb_share(n, 0.002) for n in (1, 100, 10_000, 1_000_000)]
    assert shares == sorted(shares, reverse=True)


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("variant,self_determinize", [("so", 0.0), ("mo", 0.0), ("mo", 1.0)])
def test_a_seed_replays_the_same_moves_and_analyses(backend, variant, self_determinize):
    game = aiplay.load(SMALL, backend=backend)

    def moves(seed: int):
        bot = ISMCTSBot(iterations=200, seed=seed, smooth=True, variant=variant, self_determinize=self_determinize)
        rng = random.Random(4)
        played, visits = [], []
        for _ in range(6):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(aiplay.sample_chance_outcome(state, rng))
                    continue
                analysis = bot.analyse(state)
                visits.append([s.visits for s in analysis.stats])
                played.append(analysis.action)
                state.apply_action(bot.choose(state))
        return played, visits

    first = moves(11)
    assert first == moves(11)
    assert first != moves(12)


def _shares(state, action, seeds, **options):
    """The root visit share of ``action`` in each seed's search."""
    runs = []
    for seed in seeds:
        stats = ISMCTSBot(iterations=1000, seed=seed, **options).analyse(state).stats
        runs.append({s.action: s.visits for s in stats}[action] / sum(s.visits for s in stats))
    return runs


def _differ(first, second) -> bool:
    """True when two seed samples of a share differ beyond TOLERANCE and three standard errors."""
    diff = abs(statistics.mean(first) - statistics.mean(second))
    return diff > TOLERANCE + 3 * math.sqrt((statistics.variance(first) + statistics.variance(second)) / len(first))


@pytest.mark.parametrize("variant,self_determinize", [("so", 0.0), ("mo", 0.0), ("mo", 1.0)])
def test_native_and_reference_agree_in_distribution(variant, self_determinize):
    """With a fast decay (most decisions by the average policy), where Smooth UCT's visit shares are
    far from plain ISMCTS's, so that the comparison can tell the two apart (checked too)."""
    smooth = dict(smooth=True, smooth_decay=1.0, variant=variant, self_determinize=self_determinize)
    distinguishable = False
    for ref, native in positions(4, seed=8):
        for action in ref.legal_actions():
            reference = _shares(ref, action, range(12), **smooth)
            assert not _differ(reference, _shares(native, action, range(12), **smooth)), (ref.to_dict(), action)
            distinguishable |= _differ(reference, _shares(native, action, range(12), variant=variant))
    assert distinguishable, "plain ISMCTS's visit shares were within the tolerance of Smooth UCT's everywhere"


@pytest.mark.parametrize("backend", ["native", "reference"])
def test_the_move_played_is_drawn_from_the_root_visits(backend):
    """Over seeds, each move is played about as often as its share of the visits (a mixed
    strategy), where plain ISMCTS always plays the most visited one."""
    game = aiplay.load(SMALL, backend=backend)
    state = next(n if backend == "native" else r for r, n in positions(30, seed=2)
                 if ISMCTSBot(iterations=300, seed=0, smooth=True).analyse(
                     n if backend == "native" else r).stats[0].visits not in (0, 300))
    assert state.game.name == game.name
    seeds = range(200)
    drawn, expected = Counter(), Counter()
    for seed in seeds:
        analysis = ISMCTSBot(iterations=300, seed=seed, smooth=True).analyse(state)
        assert analysis.action == ISMCTSBot(iterations=300, seed=seed, smooth=True).choose(state)
        drawn[analysis.action] += 1
        total = sum(s.visits for s in analysis.stats)
        for s in analysis.stats:
            expected[s.action] += s.visits / total
    # A binomial count over 200 draws: 5 standard deviations (at most about 35 moves) of slack.
    for action, mean in expected.items():
        assert abs(drawn[action] - mean) <= 5 * math.sqrt(mean * (1 - mean / len(seeds))) + 1, (drawn, expected)
    assert len(drawn) > 1
