"""Helpers for the Area 1851 scenario tests: drive a game to a position, then edit it through the serializer.

Positions are built by playing (chance outcomes chosen by the test, decisions "done" where that is
legal) and then editing the state's dictionary (moving cards between the decks and the players so
that every count still adds up) and loading it back with ``state_from_dict``, which validates it.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

import aiplay
from aiplay.games.area1851 import actions as A
from aiplay.games.area1851.cards import TINKER
from aiplay.games.area1851.serialize import load_state

State = Any


def new_game(players: int = 2, block: int = 4) -> Any:
    return aiplay.load("area1851", backend="reference", players=players, block=block)


def drive(state: State, until: Callable[[State], bool], events: Optional[List[int]] = None,
          dice: Optional[List[int]] = None, limit: int = 5000) -> State:
    """Play until ``until(state)``: events from ``events`` when random, dice faces from ``dice``,
    the first outcome at other chance nodes; "done" (else the first legal action) at decisions."""
    events = list(events or [])
    dice = list(dice or [])
    for _ in range(limit):
        if until(state):
            return state
        if state.is_terminal():
            raise AssertionError("the game ended before the position was reached")
        if state.is_chance_node():
            kind = state.queue[0][0]
            outcomes = [a for a, _ in state.chance_outcomes()]
            if kind == "event" and len(outcomes) > 1 and events:
                state.apply_action(events.pop(0))
            elif kind in ("die", "pdie", "gdie") and dice:
                state.apply_action(dice.pop(0) - 1)
            else:
                state.apply_action(outcomes[0])
        else:
            legal = state.legal_actions()
            state.apply_action(A.DONE if A.DONE in legal else legal[0])
    raise AssertionError("position not reached")


def at_action(seat: int = 0) -> Callable[[State], bool]:
    return lambda s: s.phase == "action" and s.actor == seat and not s.queue and s.step == "main"


def edit(state: State, change: Callable[[Dict[str, Any]], None]) -> State:
    """The state after ``change`` edits its dictionary (validated field by field by the loader).

    A scenario hands seats cards and feats mid-phase as if they had always held them, which
    the phase-start snapshot and the others' knowledge records do not say: the loader's
    cross-record checks (issue 27), which guard determinization rather than the rules under
    test, are left out here.
    """
    data = state.to_dict()
    change(data)
    return load_state(state.game, data, cross_checks=False)


def take_card(d: Dict[str, Any], t: int, exclude: int = -1) -> None:
    """Remove one card of type ``t`` from the deck, else the discard pile, else a hand or junkyard
    (not seat ``exclude``'s)."""
    for pile in (d["deck"], d["discard"]):
        if pile[t]:
            pile[t] -= 1
            return
    for q, pl in enumerate(d["players"]):
        if q == exclude:
            continue
        for where in ("hand", "junk"):
            if pl[where][t] > pl["kept"][t] if where == "hand" else pl[where][t]:
                pl[where][t] -= 1
                for rec in pl["known"] + [pl["pj"], pl["phj"]]:
                    rec[t] = min(rec[t], pl["hand"][t] + pl["junk"][t])
                pl["pj"][t] = min(pl["pj"][t], pl["junk"][t])
                return
    raise AssertionError(f"no card of type {t} left")


def give(d: Dict[str, Any], p: int, t: int, where: str = "hand", count: int = 1) -> None:
    for _ in range(count):
        take_card(d, t, exclude=p)
        d["players"][p][where][t] += 1


def clear_hand(d: Dict[str, Any], p: int) -> None:
    """Move p's hand to the discard pile (and forget the records about it)."""
    pl = d["players"][p]
    for t, c in enumerate(pl["hand"]):
        d["discard"][t] += c
        pl["hand"][t] = 0
    pl["known"] = [[0] * len(pl["hand"]) for _ in pl["known"]]
    pl["phj"] = [0] * len(pl["hand"])


def add_gadget(d: Dict[str, Any], p: int, gadget: int, mods: List[int]) -> None:
    """Put a gadget of type ``gadget`` with ``mods`` (type or -1 per socket) in front of p."""
    take_card(d, gadget)
    for m in mods:
        if m >= 0:
            take_card(d, m)
    assert len(mods) == len(TINKER[gadget].sockets)
    d["players"][p]["gadgets"].append([gadget] + list(mods))


def give_feat(d: Dict[str, Any], p: int, f: int) -> None:
    """Give p a face-down feat of type ``f`` (from the feat deck, else from another player)."""
    if d["feat_deck"][f]:
        d["feat_deck"][f] -= 1
    else:
        for pl in d["players"]:
            if pl["down"][f]:
                pl["down"][f] -= 1
                break
        else:
            raise AssertionError(f"no feat {f} left")
    d["players"][p]["down"][f] += 1


def clear_feats(d: Dict[str, Any]) -> None:
    """Put every face-down feat back in the feat deck."""
    for pl in d["players"]:
        for f, c in enumerate(pl["down"]):
            d["feat_deck"][f] += c
            pl["down"][f] = 0


def act(state: State, action: int) -> None:
    """Play the decision ``action``, then the "nothing" chance node that follows every decision of
    the event-choice and action phases (rules.py: one chance node after every decision) when the
    choice drew and rolled nothing; a draw or roll is left for the test to choose."""
    state.apply_action(action)
    if state.is_chance_node() and state.queue and state.queue[0][0] == "none":
        state.apply_action(0)
