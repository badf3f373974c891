"""Area 1851 scenario tests: one per rule that a careless engine gets wrong (spec area1851.md).

Positions are built by driving a game and editing it through the serializer
(``area1851_helpers``); the expected values follow from the rules, not from the engine.
"""

from __future__ import annotations

import pytest

from aiplay import InvalidStateError
from aiplay.games.area1851 import actions as A
from aiplay.games.area1851.cards import (
    CARDS, E_AUDIT, E_BASICS, E_DRAW, E_END, E_HOLD, E_LEFT, E_MISSING, E_NOTSOFAST, E_RIGHT, E_SOLAR, E_STRIKE,
    E_TRASH, F_DOUBLE, F_LEGEND, F_LONER, F_TEAMWORK, FEAT_COUNTS, FEATS, L_TOWNHALL, L_WORKSHOP, TINKER,
    TINKER_COUNTS, card_counts, mod_type, tinker_type,
)
from aiplay.games.area1851.rules import drop_to_five, rise_to_five

from area1851_helpers import (
    act, add_gadget, at_action, clear_feats, clear_hand, drive, edit, give, give_feat, new_game,
)

ALIEN_T = tinker_type(0, 0)  # Alien one-socket gadget (Time): cost 3, rating 2
ALIEN_TP = tinker_type(0, 3)  # Alien TP gadget: cost 5, rating 4
ALIEN_TPF = tinker_type(0, 6)  # cost 7, rating 6
PIONEER_T = tinker_type(1, 0)
NATIVE_T = tinker_type(2, 0)
NATIVE_BONE = mod_type(2, 2, 0)  # 3 copies
#: Random events without Missing Time (which would shift the fixed ones a turn earlier).
E_RISKY_ID = 11
PLAIN_EVENTS = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]


def action_position(players: int = 2, event: int = E_TRASH, block: int = 4, dice=None):
    """Turn 1, seat 0's action phase, after ``event`` (Trash To Treasure does nothing at 0 junk)."""
    game = new_game(players, block)
    return drive(game.new_initial_state(), at_action(0), events=[event], dice=dice)


def place(d, p, wait):
    """Seat p's assistants: ``wait`` on the waiting spaces, the rest in reserve."""
    d["players"][p]["wait"] = list(wait)
    d["players"][p]["active"] = [0] * 5
    d["players"][p]["reserve"] = 3 - sum(wait)


def with_dice(state, p, values, used=(0, 0, 0)):
    def change(d):
        d["players"][p]["dice"] = list(values)
        d["players"][p]["used"] = list(used)
    return edit(state, change)


# -- the card table ------------------------------------------------------------------------------
def test_card_table_matches_the_spec():
    assert len(CARDS) == 162
    assert card_counts() == {"Tinker": 108, "Event": 21, "Feat": 33}
    assert sum(TINKER_COUNTS) == 108 and sum(FEAT_COUNTS) == 33
    for f in range(3):
        gadgets = [t for t in range(f * 18, f * 18 + 18) if TINKER[t].is_gadget]
        mods = [t for t in range(f * 18, f * 18 + 18) if not TINKER[t].is_gadget]
        assert sum(TINKER[t].copies for t in gadgets) == 12
        assert sum(TINKER[t].copies for t in mods) == 24
        for socket in range(3):
            assert sum(TINKER[t].copies for t in mods if TINKER[t].sockets == (socket,)) == 8
        by_size = {}
        for t in gadgets:
            info = TINKER[t]
            by_size.setdefault(len(info.sockets), set()).add((info.cost, info.rating))
            by_size.setdefault(("n", len(info.sockets)), []).append(info.copies)
        assert by_size[1] == {(3, 2)} and by_size[2] == {(5, 4)} and by_size[3] == {(7, 6)}
        assert [sum(by_size[("n", k)]) for k in (1, 2, 3)] == [4, 4, 4]
    limited = {f.name for f in FEATS if f.limited}
    assert limited == {"I'm Unique", "I've Got Time", "Just Sittin' Round", "Loner"}


# -- dice ----------------------------------------------------------------------------------------
def test_dice_pay_an_exact_sum():
    s = action_position()
    s = edit(s, lambda d: (clear_hand(d, 0), give(d, 0, ALIEN_TP), give(d, 0, ALIEN_TPF)))
    s = with_dice(s, 0, [2, 3, 4])
    legal = s.legal_actions()
    assert A.HAND + ALIEN_TP in legal  # 2 + 3 = 5
    assert A.HAND + ALIEN_TPF in legal  # 3 + 4 = 7
    act(s, A.HAND + ALIEN_TP)
    assert s.step == "pay"
    # The 4 cannot be part of an exact 5 (1 is missing); 2 and 3 can.
    assert s.legal_actions() == [A.DIE + 0, A.DIE + 1]
    act(s, A.DIE + 0)
    assert s.legal_actions() == [A.DIE + 1]
    act(s, A.DIE + 1)
    assert s.step == "main" and s.players[0].used == [1, 1, 0] and s.players[0].ap == 1
    # A 7-cost gadget with 1 1 1 cannot be built.
    s2 = with_dice(action_position(), 0, [1, 1, 1])
    s2 = edit(s2, lambda d: give(d, 0, ALIEN_TPF))
    assert A.HAND + ALIEN_TPF not in s2.legal_actions()


def test_faction_double_and_make_it_a_double_stack_to_four_times():
    s = action_position()
    alien_time = mod_type(0, 0, 0)  # rating 1

    def change(d):
        clear_feats(d)
        give_feat(d, 0, F_DOUBLE)
        add_gadget(d, 0, ALIEN_T, [alien_time])
    s = edit(s, change)
    s = drive(s, lambda x: x.phase == "delivery" and x.actor == 0)
    before = s.players[0].score
    act(s, A.GADGET + 0)
    assert s.players[0].score == before + 2 * 2 + 1  # the gadget's 2 doubled, the mod's 1 not
    assert s.step == "dfeat" and A.FEAT + F_DOUBLE in s.legal_actions()
    act(s, A.FEAT + F_DOUBLE)
    assert s.players[0].score == before + 2 * 4 + 1  # x4 with both doubles
    assert F_DOUBLE in s.players[0].up


def test_no_faction_double_with_a_foreign_mod():
    s = action_position()
    s = edit(s, lambda d: (clear_feats(d), add_gadget(d, 0, ALIEN_T, [mod_type(1, 0, 0)])))
    s = drive(s, lambda x: x.phase == "delivery" and x.actor == 0)
    before = s.players[0].score
    act(s, A.GADGET + 0)
    assert s.players[0].score == before + 2 + 1


def test_a_full_gadget_must_be_delivered():
    s = action_position()
    s = edit(s, lambda d: (clear_feats(d), add_gadget(d, 0, ALIEN_TP, [-1, -1]),
                           add_gadget(d, 0, ALIEN_T, [mod_type(0, 0, 2)])))
    s = drive(s, lambda x: x.phase == "delivery" and x.actor == 0)
    legal = s.legal_actions()
    assert A.DONE not in legal and A.GADGET + 1 in legal
    act(s, A.GADGET + 1)
    assert A.DONE in s.legal_actions()  # the half-empty TP gadget may wait


def test_workshop_level_2_reroll_frees_used_dice():
    s = action_position()
    s = edit(s, lambda d: place(d, 0, [0, 0, 0, 0, 2]))
    s = with_dice(s, 0, [1, 2, 3], used=(1, 1, 0))
    act(s, A.activate(L_WORKSHOP, 2))
    assert s.step == "reroll"
    act(s, A.DIE + 0)
    act(s, A.DONE)
    assert s.is_chance_node()
    s.apply_action(3)  # the die shows 4
    assert s.players[0].dice[0] == 4 and s.players[0].used[0] == 0  # free again
    assert s.players[0].used[1] == 1


def test_workshop_level_1_free_tweak_once():
    s = action_position()
    s = edit(s, lambda d: place(d, 0, [0, 0, 0, 0, 1]))
    s = with_dice(s, 0, [4, 2, 3])
    s = edit(s, lambda d: clear_hand(d, 0))
    act(s, A.activate(L_WORKSHOP, 1))
    assert A.free_tweak(0, True) in s.legal_actions()  # 5 is allowed
    act(s, A.free_tweak(0, True))
    assert s.players[0].dice[0] == 5
    assert not any(A.FREE_TWEAK <= a < A.SET_DIE for a in s.legal_actions())


@pytest.mark.parametrize("level", [1, 2])
def test_town_hall_both_levels(level):
    s = action_position()
    s = edit(s, lambda d: place(d, 0, [0, 0, 0, level, 0]))
    s = with_dice(s, 0, [1, 2, 3], used=(0, 0, 1))
    before = s.players[0].score
    act(s, A.activate(L_TOWNHALL, level))
    assert s.step == "townhall" and s.legal_actions() == [A.DONE, A.DIE + 0, A.DIE + 1]
    act(s, A.DIE + 0)
    act(s, A.DIE + 1)
    assert s.players[0].score == before + 2 * level
    assert s.players[0].used == [1, 1, 1]


def test_just_the_basics_forbids_level_2():
    s = action_position(event=E_BASICS)
    s = edit(s, lambda d: place(d, 0, [0, 0, 0, 2, 0]))
    legal = s.legal_actions()
    assert A.activate(L_TOWNHALL, 1) in legal and A.activate(L_TOWNHALL, 2) not in legal


def test_solar_flare_one_die_per_turn():
    s = action_position(event=E_SOLAR)
    s = edit(s, lambda d: (clear_hand(d, 0), give(d, 0, ALIEN_T), give(d, 0, ALIEN_TP)))
    s = with_dice(s, 0, [3, 2, 3])
    legal = s.legal_actions()
    assert A.HAND + ALIEN_T in legal and A.HAND + ALIEN_TP not in legal  # 3 + 2 is two dice
    act(s, A.HAND + ALIEN_T)
    assert s.legal_actions() == [A.DIE + 0, A.DIE + 2]
    act(s, A.DIE + 2)
    s = edit(s, lambda d: place(d, 0, [0, 0, 0, 1, 0]))
    act(s, A.activate(L_TOWNHALL, 1))
    assert s.legal_actions() == [A.DONE]  # dice 0 and 1 are unused but may not be used


def test_worker_strike_and_scrap_audit():
    s = action_position(event=E_STRIKE)
    s = edit(s, lambda d: place(d, 0, [1, 0, 0, 0, 0]))
    assert not any(A.ACTIVATE <= a < A.LOCATION for a in s.legal_actions())
    assert any(A.SCRAP <= a < A.JUNK for a in s.legal_actions())
    s = action_position(event=E_AUDIT)
    assert not any(A.SCRAP <= a < A.JUNK for a in s.legal_actions())


def test_drop_and_rise_to_multiples_of_five():
    assert [drop_to_five(x) for x in (0, 3, 5, 10, 12)] == [0, 0, 0, 5, 10]
    assert [rise_to_five(x) for x in (0, 3, 5, 12)] == [5, 5, 10, 15]


def test_not_so_fast_on_a_multiple_of_five():
    game = new_game(3)
    s = drive(game.new_initial_state(), lambda x: x.phase == "event" and x.queue and x.queue[0][0] == "event")

    def change(d):
        for p, v in enumerate((10, 7, 10)):
            d["players"][p]["score"] = v
    s = edit(s, change)
    s.apply_action(E_NOTSOFAST)
    assert [p.score for p in s.players] == [5, 8, 5]


def test_missing_time_chains_two_events():
    game = new_game(2)
    s = drive(game.new_initial_state(), lambda x: x.phase == "event" and x.queue and x.queue[0][0] == "event")
    s.apply_action(E_MISSING)
    assert s.is_chance_node() and s.queue[0][0] == "event"
    s.apply_action(E_DRAW)
    assert s.turn_events == [E_MISSING, E_DRAW]
    assert all(p.bonus_draws == 1 for p in s.players)


def test_rotation_direction_after_turns_5_and_10():
    game = new_game(3)
    s = drive(game.new_initial_state(), lambda x: x.turn == 5 and x.phase in ("event_choice", "prep_draw"),
              events=PLAIN_EVENTS)
    assert s.events[4] == E_RIGHT and s.direction == -1
    assert all(s.direction == -1 for _ in [0])
    s = drive(s, lambda x: x.turn == 10 and x.phase in ("event_choice", "prep_draw"), events=PLAIN_EVENTS[4:])
    assert s.events[9] == E_LEFT and s.direction == 1
    s = drive(s, lambda x: x.turn == 15 and x.phase in ("event_choice", "prep_draw"), events=PLAIN_EVENTS[8:])
    assert s.events[14] == E_END
    s = drive(s, lambda x: x.is_terminal())
    assert s.turn == 15


def test_missing_time_ends_the_game_a_turn_early():
    s = drive(new_game(2).new_initial_state(), lambda x: x.is_terminal(), events=[E_MISSING] + PLAIN_EVENTS)
    assert s.turn == 14 and s.events[-1] == E_END and len(s.events) == 15


def test_hands_pass_in_the_current_direction():
    for event_turns, direction in ((4, 1), (5, -1)):
        game = new_game(3)
        s = drive(game.new_initial_state(),
                  lambda x, t=event_turns: x.turn == t and x.phase == "assistants" and not x.queue,
                  events=PLAIN_EVENTS)
        assert s.direction == direction
        hands = [p.hand[:] for p in s.players]
        s = drive(s, lambda x, t=event_turns: x.turn == t + 1)
        for p in range(3):
            assert s.players[(p + direction) % 3].hand == hands[p]
        # The passer knows what it passed.
        for p in range(3):
            assert s.players[(p + direction) % 3].known[p] == hands[p]


def test_hold_some_back_keeps_two_chosen_cards():
    game = new_game(2)
    s = drive(game.new_initial_state(), lambda x: x.phase == "rotation" and x.actor == 0, events=[E_HOLD])
    s = edit(s, lambda d: (clear_hand(d, 0), give(d, 0, ALIEN_T), give(d, 0, ALIEN_TP), give(d, 0, PIONEER_T),
                           clear_hand(d, 1), give(d, 1, ALIEN_TPF, count=2), give(d, 1, NATIVE_T)))
    act(s, A.HAND + ALIEN_T)
    act(s, A.HAND + PIONEER_T)
    assert s.actor == 1
    act(s, A.HAND + ALIEN_TPF)
    act(s, A.HAND + ALIEN_TPF)
    s = drive(s, lambda x: x.phase == "event")
    assert s.players[0].hand[ALIEN_T] == 1 and s.players[0].hand[PIONEER_T] == 1
    assert s.players[0].hand[NATIVE_T] == 1 and s.players[0].hand_size() == 3  # + the card seat 1 passed
    assert s.players[1].hand[ALIEN_TP] == 1 and s.players[1].hand[ALIEN_TPF] == 2


def end_position(players: int = 3):
    """The last turn's assistant phase, seat 0 to decide (block size 1: The End on turn 6)."""
    game = new_game(players, block=1)
    return drive(game.new_initial_state(), lambda x: x.phase == "assistants" and E_END in x.turn_events
                 and x.actor == 0 and not x.queue)


def finish(s):
    return drive(s, lambda x: x.is_terminal())


def test_teamwork_needs_another_player():
    s = end_position()
    s = edit(s, lambda d: (clear_feats(d), give_feat(d, 0, F_TEAMWORK), give_feat(d, 1, F_TEAMWORK)))
    base = [p.score for p in s.players]
    s = finish(s)
    assert [p.score - b for p, b in zip(s.players, base)] == [10, 10, 0]
    s = end_position()
    s = edit(s, lambda d: (clear_feats(d), give_feat(d, 0, F_TEAMWORK)))
    base = [p.score for p in s.players]
    s = finish(s)
    assert s.players[0].score == base[0] and F_TEAMWORK in s.players[0].up


def test_loner_scores_ten():
    s = end_position()
    s = edit(s, lambda d: (clear_feats(d), give_feat(d, 2, F_LONER)))
    base = s.players[2].score
    assert finish(s).players[2].score == base + 10


def test_a_legend_is_born_counts_itself_and_needs_three_others():
    s = end_position()

    def change(d):
        clear_feats(d)
        give_feat(d, 0, F_LEGEND)
        give_feat(d, 0, F_LONER)
        give_feat(d, 0, F_TEAMWORK)
        give_feat(d, 1, F_TEAMWORK)
    s2 = edit(s, change)
    base = s2.players[0].score
    s2 = finish(s2)
    # Only 2 other face-up feats: A Legend Is Born stays face down.
    assert F_LEGEND not in s2.players[0].up and s2.players[0].score == base + 20

    def change3(d):
        change(d)
        up = d["players"][0]["up"]
        for f in range(len(FEATS)):  # one revealed Action feat (Fiddlin') from the feat deck
            if FEATS[f].timing == "Action" and d["feat_deck"][f]:
                d["feat_deck"][f] -= 1
                up.append(f)
                break
    s3 = edit(s, change3)
    base = s3.players[0].score
    s3 = finish(s3)
    assert F_LEGEND in s3.players[0].up
    assert s3.players[0].score == base + 10 + 10 + 5  # 4 face-up feats: 5


def test_tie_break_chain():
    s = end_position(2)

    def scores_and_junk(junk0, junk1, up0=0):
        def change(d):
            clear_feats(d)
            for p in (0, 1):
                d["players"][p]["score"] = 20
            give(d, 0, ALIEN_TPF, "junk", junk0)  # rating 6 each
            give(d, 1, ALIEN_T, "junk", junk1)  # rating 2 each
            for _ in range(up0):
                for f in range(len(FEATS)):
                    if FEATS[f].timing == "Action" and d["feat_deck"][f]:
                        d["feat_deck"][f] -= 1
                        d["players"][0]["up"].append(f)
                        break
        return finish(edit(s, change))
    s1 = scores_and_junk(1, 1)  # 6 against 2: seat 1 wins on the lower junkyard rating
    assert s1.players[0].score == s1.players[1].score
    assert s1.returns() == [-1.0, 1.0]
    s2 = scores_and_junk(0, 0, up0=1)  # equal junk: more feats wins
    assert s2.returns() == [1.0, -1.0]
    s3 = scores_and_junk(0, 0)  # a shared win
    assert s3.returns() == [0.0, 0.0]


def test_learn_by_watching():
    s = action_position(players=3, event=6)  # Learn by Watching
    s = edit(s, lambda d: (clear_feats(d), add_gadget(d, 0, ALIEN_T, [-1]), add_gadget(d, 0, PIONEER_T, [-1]),
                           add_gadget(d, 1, NATIVE_T, [-1])))
    s = drive(s, lambda x: x.phase == "delivery" and x.actor == 0)
    base = [p.score for p in s.players]
    act(s, A.GADGET + 0)
    act(s, A.GADGET + 0)
    act(s, A.DONE)  # seat 1 keeps its gadget
    s = drive(s, lambda x: x.phase == "assistants")
    assert [p.score - b for p, b in zip(s.players, base)] == [4, 6, 6]  # 2 + 2; 3 per gadget delivered


def test_the_end_die_adds_to_gadgets():
    s = drive(new_game(2, block=1).new_initial_state(), lambda x: x.phase == "event" and len(x.events) == 6
              and x.queue and x.queue[0][0] == "gdie")
    s.apply_action(3)  # 4: every gadget scores +1 this turn
    assert s.flags["end_gadget"] == 1
    s = drive(s, at_action(0))
    s = edit(s, lambda d: (clear_feats(d), add_gadget(d, 0, ALIEN_T, [mod_type(0, 0, 0)])))
    s = drive(s, lambda x: x.phase == "delivery" and x.actor == 0)
    base = s.players[0].score
    act(s, A.GADGET + 0)
    assert s.players[0].score == base + (2 + 1) * 2 + 1


# -- the serializer ------------------------------------------------------------------------------
def test_serializer_names_the_bad_field():
    s = action_position()
    data = s.to_dict()
    data["players"][1]["dice"][2] = 9
    with pytest.raises(InvalidStateError, match=r"state.players\[1\].dice\[2\]"):
        s.game.state_from_dict(data)
    data = s.to_dict()
    data["bogus"] = 1
    with pytest.raises(InvalidStateError, match="state.bogus"):
        s.game.state_from_dict(data)
    data = s.to_dict()
    data["deck"][0] += 1
    with pytest.raises(InvalidStateError, match="state.deck"):
        s.game.state_from_dict(data)
    data = s.to_dict()
    del data["players"][0]["kept"]
    with pytest.raises(InvalidStateError, match=r"state.players\[0\].kept"):
        s.game.state_from_dict(data)


# -- more locations, events and feats ---------------------------------------------------------------
def test_recycler_level_1_delivers_a_mod_alone_and_level_2_junks_the_gadget():
    s = action_position()
    mod3 = mod_type(1, 0, 2)  # Pioneer Time mod, rating 3
    s = edit(s, lambda d: (clear_feats(d), place(d, 0, [1, 0, 0, 0, 0]), add_gadget(d, 0, ALIEN_TP, [mod3, -1])))
    before = s.players[0].score
    act(s, A.activate(0, 1))
    assert s.legal_actions() == [A.DONE, A.mod(0, 0)]
    act(s, A.mod(0, 0))
    assert s.players[0].score == before + 3 and s.players[0].gadgets == [[ALIEN_TP, -1, -1]]
    assert s.discard[mod3] == 1
    s = action_position()
    s = edit(s, lambda d: (clear_feats(d), place(d, 0, [2, 0, 0, 0, 0]), add_gadget(d, 0, ALIEN_TP, [mod3, -1])))
    before = s.players[0].score
    act(s, A.activate(0, 2))
    act(s, A.GADGET + 0)
    assert s.players[0].score == before + 4 + 3 and s.players[0].delivered == 1
    assert s.players[0].junk[ALIEN_TP] == 1 and s.players[0].junk[mod3] == 1
    assert s.players[0].pj[ALIEN_TP] == 1  # everyone saw it go there


def test_replicator_and_storehouse():
    s = action_position()
    s = edit(s, lambda d: (place(d, 0, [0, 1, 0, 0, 0]), clear_hand(d, 0), give(d, 0, ALIEN_T)))
    act(s, A.activate(1, 1))
    act(s, A.HAND + ALIEN_T)
    assert s.discard[ALIEN_T] >= 1 and s.is_chance_node()
    s.apply_action(s.legal_actions()[0])
    # The second card after a forced move: one chance node after every decision (rules.py).
    assert s.step == "repldraw" and s.legal_actions() == [A.DRAW_CARD]
    s.apply_action(A.DRAW_CARD)
    s.apply_action(s.legal_actions()[0])
    assert s.players[0].hand_size() == 2 and s.step == "main"
    s = action_position()
    s = edit(s, lambda d: (place(d, 0, [0, 2, 0, 0, 0])))
    ap = s.players[0].ap
    act(s, A.activate(1, 2))
    assert s.players[0].ap == ap + 1
    # Storehouse Level 1: a swap between hand and junkyard.
    s = action_position()
    s = edit(s, lambda d: (place(d, 0, [0, 0, 1, 0, 0]), clear_hand(d, 0), give(d, 0, ALIEN_T),
                           give(d, 0, PIONEER_T, "junk")))
    act(s, A.activate(2, 1))
    act(s, A.HAND + ALIEN_T)
    act(s, A.JUNK + PIONEER_T)
    assert s.players[0].hand[PIONEER_T] == 1 and s.players[0].junk[ALIEN_T] == 1
    # Storehouse Level 2: a junkyard card to the discard pile, then build from the junkyard, no dice.
    s = action_position()
    s = edit(s, lambda d: (place(d, 0, [0, 0, 2, 0, 0]), give(d, 0, PIONEER_T, "junk"),
                           give(d, 0, ALIEN_TPF, "junk"), d["players"][0].__setitem__("dice", [1, 1, 1])))
    act(s, A.activate(2, 2))
    act(s, A.JUNK + PIONEER_T)
    assert A.JUNK + ALIEN_TPF in s.legal_actions()
    act(s, A.JUNK + ALIEN_TPF)
    assert s.players[0].gadgets == [[ALIEN_TPF, -1, -1, -1]] and s.players[0].ap == 1
    assert s.players[0].used == [0, 0, 0]


def test_tweaks_cost_junk_and_reach_zero_and_five():
    s = action_position()
    s = edit(s, lambda d: (give(d, 0, PIONEER_T, "junk"), give(d, 0, NATIVE_T, "junk")))
    s = with_dice(s, 0, [1, 4, 2], used=(0, 0, 1))
    legal = s.legal_actions()
    assert A.tweak(0, False) in legal and A.tweak(1, True) in legal and A.tweak(2, True) not in legal
    act(s, A.tweak(0, False))
    assert s.step == "tweakpay"
    act(s, A.JUNK + PIONEER_T)
    assert s.players[0].dice[0] == 0 and s.discard[PIONEER_T] >= 1
    assert A.tweak(0, False) not in s.legal_actions()  # never below 0


def test_action_feats_fiddlin_more_junk_storin_synchronized():
    from aiplay.games.area1851.cards import F_FIDDLIN, F_MOREJUNK, F_STORIN, F_SYNC
    s = action_position()

    def change(d):
        clear_feats(d)
        for f in (F_FIDDLIN, F_MOREJUNK, F_STORIN):
            give_feat(d, 0, f)
        give(d, 0, NATIVE_BONE, "junk", 3)
        d["players"][0]["dice"] = [2, 3, 4]
        d["players"][0]["ap_base"] = 3
        d["players"][0]["ap"] = 3
    s = edit(s, change)
    base = s.players[0].score
    for _ in range(3):
        act(s, A.tweak(0, True) if s.players[0].dice[0] < 5 else A.tweak(0, False))
        act(s, next(a for a in s.legal_actions() if a >= A.JUNK))
    assert F_FIDDLIN in s.players[0].up and s.players[0].score == base + 6
    hand = [a for a in s.legal_actions() if A.SCRAP <= a < A.JUNK]
    act(s, hand[0])
    act(s, [a for a in s.legal_actions() if A.SCRAP <= a < A.JUNK][0])
    assert F_MOREJUNK in s.players[0].up
    s = action_position()
    s = edit(s, lambda d: (clear_feats(d), give_feat(d, 0, F_STORIN), give(d, 0, NATIVE_BONE, "junk", 3),
                           give(d, 0, mod_type(1, 1, 0), "junk", 2)))
    base = s.players[0].score
    act(s, [a for a in s.legal_actions() if A.SCRAP <= a < A.JUNK][0])  # the 6th junkyard card
    assert F_STORIN in s.players[0].up and s.players[0].score == base + 10
    s = action_position()
    s = edit(s, lambda d: (clear_feats(d), give_feat(d, 0, F_SYNC), give(d, 0, PIONEER_T, "junk"),
                           d["players"][0].__setitem__("dice", [3, 3, 2])))
    act(s, A.tweak(2, True))
    act(s, A.JUNK + PIONEER_T)
    assert F_SYNC in s.players[0].up


def test_delivery_feats():
    from aiplay.games.area1851.cards import F_DIVERSITY, F_SNAKE, F_STRENGTH, F_TIME
    cases = [
        (F_SNAKE, ALIEN_TPF, [mod_type(0, 0, 0), -1, -1], 8),
        (F_STRENGTH, ALIEN_TP, [mod_type(1, 0, 0), mod_type(2, 1, 0)], 5),
        (F_DIVERSITY, ALIEN_TPF, [mod_type(0, 0, 0), mod_type(0, 1, 0), -1], 4),
        (F_TIME, ALIEN_TP, [mod_type(2, 0, 0), -1], 5),
    ]
    for feat, gadget, mods, points in cases:
        s = action_position()
        s = edit(s, lambda d, f=feat, g=gadget, m=mods: (clear_feats(d), give_feat(d, 0, f), add_gadget(d, 0, g, m)))
        s = drive(s, lambda x: x.phase == "delivery" and x.actor == 0)
        act(s, A.GADGET + 0)
        before = s.players[0].score
        assert s.legal_actions() == [A.DONE, A.FEAT + feat]
        act(s, A.FEAT + feat)
        assert s.players[0].score == before + points, FEATS[feat].name


def test_events_trash_to_treasure_and_to_the_right():
    game = new_game(3)
    s = drive(game.new_initial_state(), lambda x: x.phase == "event" and x.queue and x.queue[0][0] == "event")

    def change(d):
        for p, v in enumerate((3, 9, 3)):
            d["players"][p]["score"] = v
        give(d, 0, NATIVE_BONE, "junk", 2)
    s = edit(s, change)
    s.apply_action(E_TRASH)
    assert [p.score for p in s.players] == [7, 9, 3]
    s = drive(game.new_initial_state(), lambda x: len(x.events) == 5 and x.queue and x.queue[0][0] == "gdie",
              events=PLAIN_EVENTS)
    s = edit(s, lambda d: [d["players"][p].__setitem__("score", v) for p, v in enumerate((10, 12, 4))])
    s.apply_action(2)  # To the Right! 3: everyone drops to the next lower multiple of 5
    assert [p.score for p in s.players] == [5, 10, 0]
    assert all(p.todo == [5] for p in s.players)  # and places one more assistant


def test_final_feats_packrat_single_minded_drop_more_and_who_needs():
    from aiplay.games.area1851.cards import F_DROP, F_LITTLE, F_PACKRAT, F_SINGLE, F_UNIQUE, F_WHONEEDS
    s = end_position()

    def change(d):
        clear_feats(d)
        give_feat(d, 0, F_PACKRAT)
        give(d, 0, NATIVE_BONE, "junk", 2)
        place(d, 0, [3, 0, 0, 0, 0])
        place(d, 1, [1, 1, 1, 0, 0])
        place(d, 2, [0, 1, 1, 1, 0])
        give_feat(d, 0, F_SINGLE)
        give_feat(d, 1, F_LITTLE)
        give_feat(d, 1, F_UNIQUE)  # not alone anywhere: Recycler has seat 0, the others are shared
        give_feat(d, 2, F_UNIQUE)  # alone on the Town Hall
        give_feat(d, 2, F_WHONEEDS)
        give_feat(d, 2, F_DROP)
        for p, v in enumerate((10, 10, 11)):
            d["players"][p]["score"] = v
    s = edit(s, change)
    s = finish(s)
    assert s.players[0].score == 10 + 4 + 5
    assert s.players[1].score == 10 + 5 and F_UNIQUE not in s.players[1].up
    # Seat 2: 11 + 10 (I'm Unique) + 25 - 5 * 2 (two other face-up feats) = 36, then up to 40.
    assert s.players[2].score == 40


def event_choices(players, event, dice=None, before=None):
    """Seat 0's event choices after ``event`` revealed on turn 1 (``dice``: the event's die faces)."""
    game = new_game(players)
    s = drive(game.new_initial_state(), lambda x: x.phase == "event" and x.queue and x.queue[0][0] == "event")
    if before is not None:
        s = edit(s, before)
    s.apply_action(event)
    for face in dice or []:
        assert s.is_chance_node()
        s.apply_action(face - 1)
    return s


def test_casino_night_faces():
    s = event_choices(2, 1, dice=[1, 4])  # seat 0 rolls 1, seat 1 rolls 4
    assert s.players[0].bonus_draws == 2 and s.players[1].ap_base == 3
    s = drive(s, at_action(0))
    assert A.DRAW_CARD in s.legal_actions()
    s = event_choices(2, 1, dice=[2, 3], before=lambda d: place(d, 1, [1, 0, 0, 0, 0]))
    assert s.actor == 0 and s.players[0].todo == [1]
    t = next(t for t in range(54) if s.players[0].hand[t])
    act(s, A.HAND + t)
    assert s.players[0].junk[t] == 1
    assert s.actor == 1 and A.move(0, 3) in s.legal_actions()
    act(s, A.move(0, 3))
    s = drive(s, lambda x: x.phase == "action")
    assert s.players[1].wait[3] == 1


def test_risky_deal_free_build():
    s = event_choices(2, E_RISKY_ID, before=lambda d: (clear_hand(d, 0), give(d, 0, ALIEN_TPF)))
    assert s.actor == 0 and s.legal_actions() == [A.DONE, A.YES]
    act(s, A.YES)
    s.apply_action(3)  # a 4: build at once, free of AP and dice
    assert s.legal_actions() == [A.DONE, A.HAND + ALIEN_TPF]
    act(s, A.HAND + ALIEN_TPF)
    assert s.players[0].gadgets == [[ALIEN_TPF, -1, -1, -1]]
    s = event_choices(2, E_RISKY_ID)
    act(s, A.YES)
    s.apply_action(0)  # a 1: this turn starts with 1 AP
    s = drive(s, at_action(0))
    assert s.players[0].ap == 1


def test_smell_my_feat_and_dust_storm_and_harsh_requirement():
    s = event_choices(2, 14)  # Smell My Feat
    feats = sum(s.players[0].down)
    act(s, A.YES)
    s.apply_action(s.legal_actions()[0])
    assert sum(s.players[0].down) == feats + 1
    s = event_choices(2, 3, before=lambda d: give(d, 1, NATIVE_BONE, "junk", 2))  # Dust Storm
    assert s.is_chance_node() and s.chance_outcomes() == [(NATIVE_BONE, 1.0)]
    s.apply_action(NATIVE_BONE)
    assert s.players[1].junk[NATIVE_BONE] == 1 and s.discard[NATIVE_BONE] == 1
    s = event_choices(2, 0, before=lambda d: add_gadget(d, 0, ALIEN_TP, [mod_type(0, 0, 0), -1]))
    assert s.legal_actions() == [A.GADGET + 0, A.mod(0, 0)]
    act(s, A.mod(0, 0))
    assert s.players[0].junk[mod_type(0, 0, 0)] == 1 and s.players[0].gadgets == [[ALIEN_TP, -1, -1]]


def test_to_the_left_faces():
    game = new_game(2)
    start = drive(game.new_initial_state(), lambda x: len(x.events) == 10 and x.queue and x.queue[0][0] == "gdie",
                  events=PLAIN_EVENTS)
    assert start.events[-1] == E_LEFT and start.direction == 1
    s = start.clone()
    s.apply_action(1)  # 2: each may put a card from hand into the junkyard
    assert s.players[0].todo == [5, 6]
    s = start.clone()
    s.apply_action(2)  # 3: no tweaking this turn
    s = edit(s, lambda d: give(d, 0, NATIVE_BONE, "junk"))
    s = drive(s, at_action(0))
    assert not any(A.TWEAK <= a < A.SET_DIE for a in s.legal_actions())
    s = start.clone()
    s.apply_action(3)  # 4: 2 per junkyard card moved to the discard pile this turn
    s = drive(s, at_action(0))
    s = edit(s, lambda d: (give(d, 0, NATIVE_BONE, "junk"), d["players"][0].__setitem__("dice", [2, 2, 2])))
    base = s.players[0].score
    act(s, A.tweak(0, True))
    act(s, A.JUNK + NATIVE_BONE)
    assert s.players[0].score == base + 2


def test_no_deliveries_today_and_not_cheatin():
    s = action_position(event=8)
    s = edit(s, lambda d: add_gadget(d, 0, ALIEN_T, [mod_type(0, 0, 0)]))
    s = drive(s, lambda x: x.phase != "action")
    assert s.phase == "assistants" and s.players[0].gadgets  # the full gadget waits
    s = drive(new_game(2).new_initial_state(), lambda x: x.phase == "prep_cheat", events=[9])
    assert s.actor == 0 and A.set_die(0, 4) in s.legal_actions() or s.players[0].dice[0] == 4
    act(s, A.set_die(1, 1) if s.players[0].dice[1] != 1 else A.set_die(1, 2))
    assert s.players[0].dice[1] in (1, 2)


def test_just_sittin_round_skips_the_preparation():
    from aiplay.games.area1851.cards import F_SITTIN
    game = new_game(2)
    s = drive(game.new_initial_state(), lambda x: x.phase == "prep_skip" and x.actor == 0)

    def change(d):
        clear_feats(d)
        give_feat(d, 0, F_SITTIN)
        clear_hand(d, 0)
    s = edit(s, change)
    base = s.players[0].score
    assert s.legal_actions() == [A.DONE, A.YES]
    act(s, A.YES)
    assert s.actor == 1 and s.legal_actions() == [A.DONE]  # every seat is asked
    act(s, A.DONE)
    s = drive(s, at_action(0))
    assert s.players[0].hand_size() == 0 and s.players[0].score == base + 6 and F_SITTIN in s.players[0].up


def test_final_feats_nosey_ooh_secret_little_bit():
    from aiplay.games.area1851.cards import F_FIDDLIN, F_LITTLE, F_NOSEY, F_OOH, F_SECRET, F_STORIN
    s = end_position(3)

    def change(d):
        clear_feats(d)
        for p in range(3):
            d["players"][p]["score"] = 0
        d["feat_deck"][F_STORIN] -= 1
        d["players"][1]["up"].append(F_STORIN)  # seat 1 revealed Storin' (10)
        d["feat_deck"][F_FIDDLIN] -= 1
        d["players"][0]["up"].append(F_FIDDLIN)  # seat 0 revealed Fiddlin' (6)
        give_feat(d, 0, F_OOH)
        give_feat(d, 0, F_SECRET)
        give_feat(d, 2, F_NOSEY)
        give_feat(d, 2, F_LITTLE)
        place(d, 2, [1, 1, 1, 0, 0])
    s = finish(edit(s, change))
    assert s.players[0].score == 10 + 6  # Ooh! copies seat 1's Storin'; Secret Duplication its own Fiddlin'
    # Nosey Neighbor: seat 0 shows 3 feats, seat 1 shows 1; A Little Bit Of It All: 5.
    assert s.players[2].score == 3 + 1 + 5


def test_action_space_layout_and_names():
    from aiplay.games.area1851.rules import action_name
    assert new_game(2).num_distinct_actions == A.NUM_ACTIONS == 295
    names = [action_name(a) for a in range(A.NUM_ACTIONS)]
    assert len(set(names)) == len(names)
    assert A.decode(A.move(3, 1)) == ("MOVE", 3, 1) and A.decode(A.set_die(2, 4)) == ("SET_DIE", 2, 4)
    assert A.decode(A.activate(4, 3)) == ("ACTIVATE", 4, 3) and A.decode(A.mod(9, 2)) == ("MOD", 9, 2)
    assert A.decode(A.free_tweak(1, False)) == ("FREE_TWEAK", 1, 1)


def test_mods_from_the_junkyard_and_free_builds_take_a_target():
    s = action_position()
    alien_power = mod_type(0, 1, 1)
    s = edit(s, lambda d: (place(d, 0, [0, 0, 2, 0, 0]), add_gadget(d, 0, ALIEN_TP, [-1, -1]),
                           give(d, 0, PIONEER_T, "junk"), give(d, 0, alien_power, "junk")))
    act(s, A.activate(2, 2))
    act(s, A.JUNK + PIONEER_T)
    act(s, A.JUNK + alien_power)
    assert s.step == "target" and s.legal_actions() == [A.GADGET + 0]
    act(s, A.GADGET + 0)
    assert s.players[0].gadgets == [[ALIEN_TP, -1, alien_power]] and s.step == "main"
    assert s.players[0].junk_size() == 0 and s.players[0].used == [0, 0, 0]


def test_recycler_level_2_delivery_feat_returns_to_the_action_phase():
    s = action_position()
    s = edit(s, lambda d: (clear_feats(d), give_feat(d, 0, F_DOUBLE), place(d, 0, [2, 0, 0, 0, 0]),
                           add_gadget(d, 0, ALIEN_T, [-1])))
    base = s.players[0].score
    act(s, A.activate(0, 2))
    act(s, A.GADGET + 0)
    assert s.step == "dfeat"
    act(s, A.FEAT + F_DOUBLE)
    assert s.step == "main" and s.players[0].score == base + 2 + 2


def test_to_the_right_four_discards_the_whole_hand():
    game = new_game(2)
    s = drive(game.new_initial_state(), lambda x: len(x.events) == 5 and x.queue and x.queue[0][0] == "gdie",
              events=PLAIN_EVENTS)
    s.apply_action(3)
    assert s.actor == 0 and s.players[0].todo == [5, 7]
    act(s, A.LOCATION + 0)
    hand = s.players[0].hand[:]
    discard = s.discard[:]
    act(s, A.YES)
    assert s.players[0].hand_size() == 0
    assert [d - c for d, c in zip(s.discard, discard)] == hand
