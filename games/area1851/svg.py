"""Area 1851 as an SVG picture for one seat's eyes, and where each legal move lies on it.

:func:`svg` draws the turn track with the events revealed, the five locations with every
seat's assistants on their waiting and effect spaces (and what Level 1 and Level 2 do), the
Tinker and Feat decks and the discard pile, and per seat: reputation, action points, dice,
gadgets with the modifications in their sockets, hand, junkyard and feats. The viewer's own
hand, junkyard and face-down feats show by name; another seat's show as backs with their
count. In a simultaneous phase the others are drawn as they were when the phase began (the
viewer has not seen their choices yet), exactly as ``state.view`` shows them.

:func:`move_targets` maps each legal action to ``data-target`` ids of the picture:

===========================  ==========================================================
id                           element
===========================  ==========================================================
``loc-{l}``                  location ``l`` (0 Recycler, 1 Replicator, 2 Storehouse,
                             3 Town Hall, 4 Workshop)
``p{p}-hand-t{t}``           seat ``p``'s hand card of Tinker type ``t``
``p{p}-junk``                seat ``p``'s junkyard (as a pile)
``p{p}-junk-t{t}``           seat ``p``'s junkyard card of type ``t`` (owner's view)
``p{p}-gadget-{g}``          seat ``p``'s face-up gadget ``g``
``p{p}-gadget-{g}-socket-{s}``  socket ``s`` of that gadget
``p{p}-die-{d}``             seat ``p``'s die ``d``
``p{p}-feat-f{f}``           seat ``p``'s face-down feat of type ``f`` (owner's view)
``tinker-deck``              the Tinker deck; ``feat-deck``: the Feat deck
===========================  ==========================================================

Actions: hand card -> [hand card]; scrap -> [hand card, junkyard]; junkyard card ->
[junkyard card]; gadget -> [gadget]; modification -> [socket]; die, tweak, workshop tweak,
set die -> [die]; activate and place -> [location]; move an assistant -> [from, to];
reveal a feat -> [feat]; take a feat -> [feat-deck]; draw a card -> [tinker-deck];
done and yes -> [].
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from aiplay.views.svg import FIT_WIDTH, Drawing, wrap

from . import actions as A
from .cards import (
    ASSISTANTS, EVENTS, FACTIONS, FEAT_NAMES, FEATS, LOCATIONS, MOD_NAMES, NUM_FEAT_TYPES, NUM_LOCATIONS,
    NUM_TINKER_TYPES, SOCKET_LETTERS, SOCKETS, TINKER, TINKER_NAMES,
)

#: An ``Area1851State`` of the reference engine (``.rules`` sits above this module).
State = Any

FACTION_FILL = ("#6a5acd", "#b8860b", "#2e8b57")
SEAT_FILL = ("#d33c2c", "#2f5fd0", "#2e9e48", "#e6c619", "#9b59d0")
#: A location box's height: its name, two effects on up to four lines, the waiting and activated spaces.
LOCATION_H = 178


LOCATION_EFFECTS = (
    ("L1: deliver one mod alone", "L2: deliver a gadget to junkyard"),
    ("L1: discard 1, draw 2", "L2: +1 action point"),
    ("L1: swap hand / junkyard card", "L2: build from junkyard, no dice"),
    ("L1: dice here, 1 rep each", "L2: dice here, 2 rep each"),
    ("L1: free die tweak +-1", "L2: reroll dice"),
)
STEP_TEXT = {
    "place": "place an assistant on a location", "skip": "skip preparation (Just Sittin' Round)?",
    "cheat": "set one die to any face (Not Cheatin')",
    "main": "build or modify with a hand card, take a feat, scrap, tweak dice, activate assistants, or done",
    "pay": "pay with dice", "target": "choose the gadget for the card", "tweakpay": "pay the tweak with a junkyard card",
    "townhall": "put dice on the Town Hall", "reroll": "choose dice to reroll", "repl": "discard a card to draw 2",
    "repldraw": "draw the second card", "rolling": "roll the next chosen die",
    "swap1": "swap: choose a hand card", "swap2": "swap: choose a junkyard card",
    "sh2a": "put a junkyard card on the discard pile", "sh2b": "build from the junkyard, free of dice",
    "recy1": "deliver one modification alone", "recy2": "deliver one gadget to your junkyard",
    "dfeat": "reveal a Delivery feat", "deliver": "deliver gadgets (full ones must go)",
    "move": "move one assistant to another location", "keep": "Hold Some Back: keep 2 cards",
}
TODO_TEXT = ("A Harsh Requirement: a gadget or mod to your junkyard", "Casino Night: a card to your junkyard?",
             "Casino Night: move an assistant?", "Risky Deal: roll a die?", "Smell My Feat: draw a feat?",
             "place one more assistant", "To the Left!: a card to your junkyard?",
             "To the Right!: discard your whole hand?", "build or modify for free")
#: The picture's width: at 12/13 scale it fits the demo's board panel at 1280x720 (issue 38).
WIDTH = FIT_WIDTH
TOTAL_TURNS = 15
#: Where a seat's card rows start, and their grid (a card is CARD_W wide: "Pioneer c7 r6" at 13 units).
CARDS_X = 230
CARD_W = 96
SLOT_W = CARD_W + 6
CARDS_PER_ROW = (WIDTH - 20 - CARDS_X) // SLOT_W
ROW_H = 50
#: A feat's card width ("Feats? Who Needs Feats?" in bold 13-unit type), and a bound for the panel's height.
FEAT_W = 196
FEATS_PER_ROW = (WIDTH - 20 - 80) // (FEAT_W + 6)
#: Gadgets: three a row; a gadget's box height (its sockets show a mod's name on two lines).
GADGETS_PER_ROW = 3
GADGET_H = 82
#: Another seat's junkyard, beside its hand (its backs): this far right of the hand's.
JUNK_BESIDE = 160
#: Where the decks stand, right of the turn track.
DECKS_X = 640


def _slot(k: int) -> Any:
    """Offset of the ``k``-th card of a wrapped card row."""
    return CARDS_X + (k % CARDS_PER_ROW) * SLOT_W, (k // CARDS_PER_ROW) * ROW_H


def _seat_layout(b: Dict[str, Any]) -> Dict[str, Any]:
    """The card types a seat panel lists and the rows they take (so the panel's height fits)."""
    hand = [t for t in range(NUM_TINKER_TYPES) if b["hand"] is not None and b["hand"][t]]
    junk = [t for t in range(NUM_TINKER_TYPES) if b["junk"] is not None and b["junk"][t]]
    feats = (sum(b["down"]) if b["down"] is not None else int(b["down_size"] > 0)) + len(b["up"])
    lay = {"hand": hand, "junk": junk, "hand_rows": max(1, -(-len(hand) // CARDS_PER_ROW)),
           "junk_rows": max(1, -(-len(junk) // CARDS_PER_ROW)), "feat_rows": max(1, -(-feats // FEATS_PER_ROW)),
           "gadget_rows": -(-len(b["gadgets"]) // GADGETS_PER_ROW)}
    # Another seat's hand and junkyard are backs: both fit one row (its panel is shorter, so that
    # more of the other seats shows at 1280x720).
    lay["beside"] = b["hand"] is None and b["junk"] is None
    # The viewer's own empty junkyard sits after a one-row hand rather than on a row of its own.
    lay["after_hand"] = not lay["beside"] and not junk and len(hand) < CARDS_PER_ROW
    if lay["beside"] or lay["after_hand"]:
        lay["junk_rows"] = 0
    gadgets_h = (GADGET_H + 6) * lay["gadget_rows"] if lay["gadget_rows"] else 24
    lay["height"] = 40 + ROW_H * (lay["hand_rows"] + lay["junk_rows"]) + 32 * lay["feat_rows"] + 8 + gadgets_h
    return lay


def _block(b: Any, own: bool) -> Dict[str, Any]:
    """One seat's block as plain data; hidden parts (hand, junkyard, face-down feats) only when ``own``."""
    return {
        "score": b.score, "ap": b.ap, "dice": list(b.dice), "used": list(b.used), "wait": list(b.wait),
        "active": list(b.active), "reserve": b.reserve, "gadgets": [list(g) for g in b.gadgets], "up": list(b.up),
        "hand_size": b.hand_size(), "junk_size": b.junk_size(), "down_size": sum(b.down),
        "hand": list(b.hand) if own else None, "junk": list(b.junk) if own else None,
        "down": list(b.down) if own else None, "todo": list(b.todo) if own else None,
    }


def _seen(state: State, viewer: Optional[int]) -> Dict[str, Any]:
    """What ``viewer`` may see of ``state`` (None: everything), as plain data.

    The one place the picture reads the state, with ``state.view``'s redaction: in a
    simultaneous phase the other seats as at its start (``visible_block``), the shared piles
    as at its start plus the viewer's own changes, and no step while another seat acts.
    """
    n = state.game.num_players
    snap = state.snap
    if viewer is None or snap is None:
        discard, deck, feats = sum(state.discard), sum(state.deck), sum(state.feat_deck)
    else:
        me = state.players[viewer]
        discard = sum(snap.discard) + sum(me.disc_add)
        deck, feats = snap.deck_size - me.drawn, snap.feat_size - me.fdrawn
    hidden_turn = viewer is not None and snap is not None and state.actor != viewer
    players = [_block(state.players[q] if viewer is None else state.visible_block(viewer, q),
                      viewer is None or q == viewer) for q in range(n)]
    return {
        "players": players, "n": n, "turn": state.turn, "phase": state.phase, "actor": state.actor,
        "current": None if hidden_turn else state.current_player(), "step": "" if hidden_turn else state.step,
        "ctx": {} if hidden_turn else dict(state.ctx), "events": list(state.events),
        "turn_events": list(state.turn_events), "direction": "left" if state.direction == 1 else "right",
        "discard": discard, "deck": deck, "feat_deck": feats,
    }


def _status(v: Dict[str, Any]) -> str:
    if v["phase"] == "over":
        best = max(b["score"] for b in v["players"])
        return "Game over: winner(s) " + ", ".join(f"player {p}" for p, b in enumerate(v["players"])
                                                    if b["score"] == best) + " (before tie-breaks)"
    cur = v["current"]
    if cur is None:
        return f"Turn {v['turn']}: player {v['actor']} is choosing ({v['phase']} phase; hidden from you)"
    if cur < 0:
        return f"Turn {v['turn']}, {v['phase']} phase: chance (cards, dice, events)"
    step = v["step"]
    what = STEP_TEXT.get(step, step)
    todo = v["players"][cur]["todo"]
    if step == "todo" and todo:
        what = TODO_TEXT[todo[0]]
    ctx = v["ctx"]
    if step == "pay" and "card" in ctx:
        what = f"pay {ctx.get('owed', 0)} with dice for {TINKER_NAMES[ctx['card']]}"
    elif step == "target" and "card" in ctx:
        what = f"choose the gadget for {TINKER_NAMES[ctx['card']]}"
    return f"Turn {v['turn']}, {v['phase']} phase: player {cur} to act: {what}"


def _tinker(d: Drawing, x: float, y: float, t: int, target: Optional[str], count: int = 1) -> None:
    info = TINKER[t]
    if info.is_gadget:
        label = "".join(SOCKET_LETTERS[s] for s in info.sockets) + " gadget"
    else:
        label = f"{MOD_NAMES[info.sockets[0]][info.faction]} {SOCKET_LETTERS[info.sockets[0]]}"
    d.card(x, y, CARD_W, 44, label, fill=FACTION_FILL[info.faction], text_fill="#fff",
           sub=f"{FACTIONS[info.faction]} c{info.cost} r{info.rating}", target=target,
           tip=f"{TINKER_NAMES[t]}: cost {info.cost}, rating {info.rating}", count=count, size=11)


def _die(d: Drawing, x: float, y: float, face: int, used: bool, target: str, colour: str) -> None:
    with d.group(target=target, cls="die", tip=f"die showing {face}" + (" (used)" if used else "")):
        d.rect(x, y, 30, 30, fill="#bbbbbb" if used else "#ffffff", stroke=colour, stroke_width=2.5, rx=5)
        d.text(x + 15, y + 21, str(face), size=16, anchor="middle", weight="bold",
               fill="#666" if used else "#000")


def svg(state: State, viewer: Optional[int] = None) -> str:
    """The picture of ``state`` as seat ``viewer`` sees it (None: everything); see the module docstring."""
    v = _seen(state, viewer)
    n = v["n"]
    layouts = [_seat_layout(b) for b in v["players"]]
    seat_heights = [lay["height"] for lay in layouts]
    status = wrap(_status(v), 88)
    top = 18 * (len(status) - 1)  # a long status takes more lines
    this_turn = wrap("This turn's events: " + (", ".join(EVENTS[e] for e in v["turn_events"]) or "-"), 66)
    earlier = v["events"][:len(v["events"]) - len(v["turn_events"])]
    earlier_lines = wrap("Earlier events: " + (", ".join(EVENTS[e] for e in earlier[-8:]) or "-")
                         + (" ..." if len(earlier) > 8 else ""), 76)
    events_h = 16 * (len(this_turn) + len(earlier_lines))
    # The decks are 64 tall and the R/L/E key is in the legend: the locations and the seats move up.
    ly = top + max(140, 96 + events_h)
    height = ly + LOCATION_H + 16 + sum(seat_heights) + 10 * n + 104
    who = "everything" if viewer is None else f"player {viewer}'s view"
    d = Drawing(WIDTH, height, f"Area 1851 ({who})", background="#f5efe0")
    for i, line in enumerate(status):
        d.text(12, 24 + 18 * i, line, size=16, weight="bold")
    d.text(12, top + 44, f"Picture: {who}. Hands pass to the {v['direction']}.", size=12)

    # -- turn and event track; the decks on their right ---------------------------------------
    ty = top + 56
    d.text(12, ty + 17, "Turns:", size=12, weight="bold")
    for k in range(1, TOTAL_TURNS + 1):
        x = 60 + (k - 1) * 36
        now = k == v["turn"]
        mark = {5: "R", 10: "L", 15: "E"}.get(k, "")
        d.rect(x, ty, 32, 24, fill="#c03030" if now else ("#ddd" if k < v["turn"] else "#fff"), stroke="#444", rx=3,
               tip=f"turn {k}" + {5: ": To the Right!", 10: ": To the Left!", 15: ": The End"}.get(k, ""))
        d.text(x + 16, ty + 17, f"{k}{mark}", size=11, anchor="middle", fill="#fff" if now else "#000")
    for i, line in enumerate(this_turn):
        d.text(12, ty + 46 + 16 * i, line, size=12, weight="bold")
    for i, line in enumerate(earlier_lines):
        d.text(12, ty + 46 + 16 * (len(this_turn) + i), line, size=10, fill="#444")
    dx = DECKS_X
    d.card_back(dx, top + 56, 60, 64, target="tinker-deck", tip=f"Tinker deck: {v['deck']} cards", label=str(v["deck"]))
    d.text(dx + 30, top + 136, "Tinker deck", size=10, anchor="middle")
    d.card_back(dx + 100, top + 56, 60, 64, target="feat-deck", tip=f"Feat deck: {v['feat_deck']} cards",
                label=str(v["feat_deck"]))
    d.text(dx + 130, top + 136, "Feat deck", size=10, anchor="middle")
    d.rect(dx + 200, top + 56, 60, 64, fill="#eee", stroke="#666", rx=4, tip="Tinker discard pile (face up)")
    d.text(dx + 230, top + 93, str(v["discard"]), size=14, anchor="middle", weight="bold")
    d.text(dx + 230, top + 136, "discard", size=10, anchor="middle")
    d.text(WIDTH - 10, top + 44, "cards: c3 r2 = dice cost 3, rating 2", size=9, fill="#555", anchor="end")

    # -- locations: the picture's whole width ---------------------------------------------------
    lw = (WIDTH - 12) / NUM_LOCATIONS
    for loc in range(NUM_LOCATIONS):
        lx = 10 + loc * lw
        with d.group(target=f"loc-{loc}", cls="location", tip=f"{LOCATIONS[loc]}: {'; '.join(LOCATION_EFFECTS[loc])}"):
            d.rect(lx, ly, lw - 8, LOCATION_H, fill="#e8dcc0", stroke="#5a4630", stroke_width=2, rx=6)
            d.text(lx + (lw - 8) / 2, ly + 18, LOCATIONS[loc], size=14, anchor="middle", weight="bold")
            # Each level's effect on up to two lines, so that 13-unit text stays inside the box.
            lines = [line for effect in LOCATION_EFFECTS[loc] for line in wrap(effect, 22)]
            for i, line in enumerate(lines[:4]):
                d.text(lx + 6, ly + 34 + 14 * i, line, size=9)
            top_ = ly + 34 + 14 * 3 + 10  # clear of a fourth line's descenders
            d.rect(lx + 6, top_, lw - 20, 40, fill="#fff8e8", stroke="#999", rx=4)
            d.text(lx + 10, top_ + 13, "waiting", size=9, fill="#666")
            d.rect(lx + 6, top_ + 46, lw - 20, 40, fill="#f0e0c8", stroke="#999", rx=4)
            d.text(lx + 10, top_ + 59, "activated", size=9, fill="#666")
            for space, key in ((0, "wait"), (1, "active")):
                i = 0
                for p, b in enumerate(v["players"]):
                    for _ in range(b[key][loc]):
                        d.circle(lx + 18 + i * 18, top_ + 28 + space * 46, 7, fill=SEAT_FILL[p], stroke="#000",
                                 tip=f"assistant of player {p}")
                        i += 1

    # -- seats ------------------------------------------------------------------------------
    y = ly + LOCATION_H + 16
    # The viewer's own seat first, right under the locations (issue 38: with five players the last
    # seats are below the fold at 1280x720).
    order = list(range(n)) if viewer is None or not 0 <= viewer < n else [viewer] + [p for p in range(n) if p != viewer]
    for p in order:
        b = v["players"][p]
        h = seat_heights[p]
        mine = p == viewer
        acting = v["current"] == p
        d.rect(10, y, WIDTH - 20, h, fill="#fffbe8" if mine else "#f7f1e3", stroke="#c03030" if acting else "#888",
               stroke_width=3 if acting else 1, rx=8, cls="own-seat" if mine else None)
        d.circle(28, y + 20, 9, fill=SEAT_FILL[p], stroke="#000")
        d.text(44, y + 25, f"Player {p}{' (you)' if mine else ''}: {b['score']} reputation, {b['ap']} AP, "
               f"assistants in reserve {b['reserve']} of {ASSISTANTS}", size=14, weight="bold")
        lay = layouts[p]
        for dd in range(len(b["dice"])):
            _die(d, 20 + dd * 38, y + 40, b["dice"][dd], bool(b["used"][dd]), f"p{p}-die-{dd}", SEAT_FILL[p])
        # Short: a feat's count badge, half above its card on the next line, starts 109 units in.
        d.text(20, y + 86, "grey = used", size=10, fill="#555")
        d.text(CARDS_X - 84, y + 60, f"Hand ({b['hand_size']})", size=12, weight="bold")
        # 40 units down: a count badge (half above its card) stays clear of the title line.
        hy = y + 40
        if b["hand"] is not None:
            for k, t in enumerate(lay["hand"]):
                cx, cy = _slot(k)
                _tinker(d, cx, hy + cy, t, f"p{p}-hand-t{t}", b["hand"][t])
        elif b["hand_size"]:
            d.card_back(CARDS_X, hy, 40, 44, count=b["hand_size"], tip=f"{b['hand_size']} hand cards")
        if lay["beside"]:
            jy, jx = hy, CARDS_X + JUNK_BESIDE
        elif lay["after_hand"]:  # the box (84 units left of jx) 10 units after the hand's last card
            jy, jx = hy, CARDS_X + len(lay["hand"]) * SLOT_W + 94
        else:
            jy, jx = hy + lay["hand_rows"] * ROW_H, CARDS_X
        with d.group(target=f"p{p}-junk", cls="junkyard", tip=f"junkyard: {b['junk_size']} cards"):
            d.rect(jx - 84, jy, 76, 44, fill="#d8d0bc", stroke="#777", rx=5)
            d.text(jx - 46, jy + 18, "Junkyard", size=10, anchor="middle", weight="bold")
            d.text(jx - 46, jy + 34, f"{b['junk_size']} card(s)", size=10, anchor="middle")
        if b["junk"] is not None:
            for k, t in enumerate(lay["junk"]):
                cx, cy = _slot(k)
                _tinker(d, cx, jy + cy, t, f"p{p}-junk-t{t}", b["junk"][t])
        elif b["junk_size"]:
            d.card_back(jx, jy, 40, 44, count=b["junk_size"], tip=f"{b['junk_size']} junkyard cards")
        fy = hy + (lay["hand_rows"] + lay["junk_rows"]) * ROW_H
        d.text(20, fy + 17, "Feats:", size=12, weight="bold")
        feats: List[Any] = []
        if b["down"] is not None:
            feats += [("down", f) for f in range(NUM_FEAT_TYPES) for _ in range(b["down"][f])]
        elif b["down_size"]:
            feats.append(("backs", b["down_size"]))
        feats += [("up", f) for f in b["up"]]
        fx, fyy = 80.0, fy
        for kind, f in feats:
            if fx + FEAT_W > WIDTH - 20:
                fx, fyy = 80.0, fyy + 32
            if kind == "backs":
                d.card_back(fx, fyy, 40, 26, count=f, tip=f"{f} face-down feats")
            elif kind == "down":
                d.card(fx, fyy, FEAT_W, 26, FEAT_NAMES[f], fill="#fff", target=f"p{p}-feat-f{f}",
                       tip=f"{FEAT_NAMES[f]} ({FEATS[f].timing} feat, face down: only you see it)", size=10)
                d.rect(fx + 1, fyy + 1, FEAT_W - 2, 24, stroke="#5b4a8a", stroke_width=2, stroke_dasharray="3,2", rx=3)
            else:
                d.card(fx, fyy, FEAT_W, 26, FEAT_NAMES[f], fill="#ffe9a0", tip=f"{FEAT_NAMES[f]} (revealed)", size=10)
            fx += 56 if kind == "backs" else FEAT_W + 6
        # gadgets
        gy = fy + lay["feat_rows"] * 32 + 4
        for g, gad in enumerate(b["gadgets"]):
            gx = 20 + (g % GADGETS_PER_ROW) * 300
            gyy = gy + (g // GADGETS_PER_ROW) * (GADGET_H + 6)
            info = TINKER[gad[0]]
            with d.group(target=f"p{p}-gadget-{g}", cls="gadget", tip=f"{TINKER_NAMES[gad[0]]} (rating {info.rating})"):
                d.rect(gx, gyy, 290, GADGET_H, fill=FACTION_FILL[info.faction], stroke="#222", rx=6)
                d.text(gx + 8, gyy + 16, f"{TINKER_NAMES[gad[0]]}, rating {info.rating}", size=11, fill="#fff",
                       weight="bold")
            for s, (m, sock) in enumerate(zip(gad[1:], info.sockets)):
                sx = gx + 8 + s * 94
                label = f"{SOCKETS[sock]}: empty" if m < 0 else TINKER_NAMES[m].replace(" mod ", " ")
                tip = (f"empty {SOCKETS[sock]} socket" if m < 0
                       else f"{TINKER_NAMES[m]} (rating {TINKER[m].rating})")
                with d.group(target=f"p{p}-gadget-{g}-socket-{s}", cls="socket", tip=tip):
                    d.rect(sx, gyy + 24, 88, GADGET_H - 30,
                           fill="#ffffff" if m < 0 else FACTION_FILL[TINKER[m].faction],
                           stroke="#fff", stroke_width=1.5, rx=4, stroke_dasharray="4,2" if m < 0 else None)
                    d.text(sx + 44, gyy + 40, SOCKET_LETTERS[sock] + (" socket" if m < 0 else ""), size=10,
                           anchor="middle", fill="#000" if m < 0 else "#fff", weight="bold")
                    # A mod's name on up to two lines ("Futuristic" / "Time 3"): 88 units hold ten letters.
                    for i, line in enumerate(["empty"] if m < 0 else wrap(label, 11)[:2]):
                        d.text(sx + 44, gyy + 56 + 14 * i, line, size=8, anchor="middle",
                               fill="#000" if m < 0 else "#fff")
        if not b["gadgets"]:
            d.text(20, gy + 16, "no gadgets yet", size=11, fill="#777")
        y += h + 10

    lh = d.legend(10, y, [(FACTION_FILL[f], f"{FACTIONS[f]} card") for f in range(3)]
                  + [("#5b4a8a", "face-down card (count)"), ("#ffe9a0", "revealed feat")]
                  + [(SEAT_FILL[p], f"player {p}") for p in range(n)], columns=4, column_width=180)
    d.text(10, y + lh + 16, "Turn track: R: To the Right!  L: To the Left!  E: The End", size=11, fill="#555")
    return d.to_string()


def move_targets(state: State) -> Dict[int, List[str]]:
    """``{action: [target ids]}`` for the legal actions of the decision at ``state`` (see the module docstring)."""
    if state.is_terminal() or state.is_chance_node():
        return {}
    p = state.current_player()
    out: Dict[int, List[str]] = {}
    for a in state.legal_actions():
        block, i, j = A.decode(a)
        if block == "HAND":
            out[a] = [f"p{p}-hand-t{i}"]
        elif block == "SCRAP":
            out[a] = [f"p{p}-hand-t{i}", f"p{p}-junk"]
        elif block == "JUNK":
            out[a] = [f"p{p}-junk-t{i}"]
        elif block == "GADGET":
            out[a] = [f"p{p}-gadget-{i}"]
        elif block == "MOD":
            out[a] = [f"p{p}-gadget-{i}-socket-{j}"]
        elif block in ("DIE", "TWEAK", "FREE_TWEAK", "SET_DIE"):
            out[a] = [f"p{p}-die-{i}"]
        elif block in ("ACTIVATE", "LOCATION"):
            out[a] = [f"loc-{i}"]
        elif block == "MOVE":
            out[a] = [f"loc-{i}", f"loc-{j}"]
        elif block == "FEAT":
            out[a] = [f"p{p}-feat-f{i}"]
        elif block == "TAKE_FEAT":
            out[a] = ["feat-deck"]
        elif block == "DRAW_CARD":
            out[a] = ["tinker-deck"]
        else:
            out[a] = []
    return out
