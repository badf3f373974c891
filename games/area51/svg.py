"""Area 51 as an SVG picture for one seat's eyes, and where each legal move lies on it.

:func:`svg` draws the three regions (building spaces with their bunkers, hangars with their
cards, security markers), the vehicles and routes, the towers, caps and number markers in
the supply, the face-up row and the deck, the pile being loaded, and every seat's hand and
score. A face-down hangar card shows its type only to the seat that played it; another
seat's hand shows as backs, plus the cards everyone knows are in it.

:func:`move_targets` maps each legal action to ``data-target`` ids of the picture:

====================  ==================================================================
id                    element
====================  ==================================================================
``r{r}-s{s}``         building space ``s`` (0-based) of region ``r``
``r{r}-h{h}``         hangar ``h`` (0-based) of region ``r``
``tower-{c}``         the towers of colour ``c`` (0 green, 1 blue, 2 brown, 3 orange)
``cap-{o}``           the caps of owner ``o``
``vehicle-{v}``       vehicle ``v`` (colour ``v // 2``, truck 0 / train 1)
``route-{i}``         route ``i`` (``components.ROUTES[i]``: from region, to region)
``number-{k}``        the vehicle number ``k`` (1..8) in the marker supply
``row-t{t}``          a face-up row card of type ``t``
``row-refresh``       the face-up row as a whole (refresh it)
``deck``              the deck
``pile-t{t}``         a card of type ``t`` in the pile being loaded
``p{p}-hand-t{t}``    seat ``p``'s hand card of type ``t`` (drawn for ``p`` and omniscient)
====================  ==================================================================

Actions: create -> [the space the bunker will take, tower, cap]; upgrade -> [space];
route -> [vehicle, route]; number -> [number]; pick -> [hangar]; refresh -> [hand card,
row-refresh]; take face-up -> [row card]; take deck -> [deck]; face-up/face-down -> [hand
card, hangar]; store -> [pile card, space]. The four action kinds map to where they start:
collect -> [deck, row-refresh]; build -> the spaces it can build on; vehicle -> the vehicles
that can go; pick up -> the hangars holding cards. Pass -> [].
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from aiplay.views.svg import FIT_WIDTH, Drawing, wrap

from . import actions as A
from .components import (
    COLOURS, MAX_VEHICLE_NUMBER, NUM_REGIONS, NUM_TYPES, NUM_VEHICLES, ROUTES, VEHICLE_KINDS, region_name,
    type_colour, type_name, type_value, vehicle_name,
)

#: An ``Area51State`` of the reference engine (``.rules`` sits above this module).
State = Any

COLOUR_FILL = ("#3f9b3f", "#2f6fd0", "#8b5a2b", "#f08a24")
OWNER_FILL = {"white": "#ffffff", "pink": "#ff8fc8", "yellow": "#ffe14d", "blue": "#6fb7ff",
              "purple": "#9b59d0", "black": "#222222"}
#: The picture's width: at 12/13 scale it fits the demo's board panel at 1280x720 (issue 38).
WIDTH = FIT_WIDTH
CARD_W, CARD_H = 30, 40
#: A hangar's cards: three a row, each this far right of the last (a hangar is about 87 units wide).
HANGAR_STEP = 26
#: The face-up row's box width, and where the pile being loaded starts (right of the deck).
ROW_W = 320
PILE_X = ROW_W + 100
PILE_PER_ROW = (WIDTH - 10 - PILE_X - 20) // (CARD_W + 12)
#: Where a seat's hand cards start (16 types fit: 250 + 16 * 42 < 930).
HAND_X = 250


def _seen(state: State, viewer: Optional[int]) -> Dict[str, Any]:
    """What ``viewer`` may see of ``state`` (None: everything), as plain data.

    The one place the picture reads the state: the same redaction as ``state.view``
    (hangar cards face down are hidden unless ``viewer`` played them; hands are hidden
    except the viewer's own and the cards everyone knows are in them).
    """
    g = state.game
    n = g.players
    everything = viewer is None
    return {
        "players": n, "phase": state.phase, "step": state.step, "turn": state.turn,
        "current": state.current_player(), "cur": state.cur, "ctx": dict(state.ctx),
        "extra_left": state.extra_left, "taken": state.taken, "refreshed": state.refreshed,
        "markers": list(state.markers), "spaces": [[None if b is None else list(b) for b in reg]
                                                  for reg in state.spaces],
        "hangars": [[[(t if (up or everything or by == viewer) else None, bool(up), by) for t, up, by in h]
                     for h in reg] for reg in state.hangars],
        "towers": list(state.towers), "caps": list(state.caps), "supply": list(state.supply),
        "vehicles": [None if v is None else (v[0], sum(x for _, x in v[1])) for v in state.vehicles],
        "row": list(state.row), "discards": sum(state.discards), "deck": state.deck_size(),
        "pile": list(state.pile), "pile_region": state.pile_region,
        "used": [tuple(u) for u in state.used],
        "scores": [state.scores_[o] + state.bonus[o] for o in range(g.num_owners)],
        "seat_scores": state.seat_scores(), "owner_names": list(g.owner_names),
        "owners_of": [list(o) for o in g.owners_of],
        "hand_sizes": [state.hand_size(p) for p in range(n)],
        "hands": [list(state.hands[p]) if (everything or p == viewer) else None for p in range(n)],
        "known": [list(k) for k in state.known],
    }


def _status(v: Dict[str, Any]) -> str:
    cur = v["current"]
    if v["phase"] == "over":
        best = max(v["seat_scores"])
        return "Game over: winner(s) " + ", ".join(f"player {p}" for p, s in enumerate(v["seat_scores"]) if s == best)
    if cur < 0:
        return f"phase {v['phase']}: dealing / drawing"
    ctx = v["ctx"]
    what = {"kind": "choose an action (collect, build, vehicle, pick up)", "build_target": "choose a bunker to build",
            "vehicle_route": "choose a vehicle and its route", "vehicle_number": "choose the vehicle's number",
            "pick_target": "choose a hangar to pick up", "collect": f"collect (taken {v['taken']} of 3)",
            "play_face_up": "play the face-up card into a hangar",
            "play_face_down": f"play face-down cards into a hangar ({ctx.get('down', 0)} left)",
            "load": "store an artifact of the pile in a bunker"}.get(v["step"], v["step"])
    if "region" in ctx and v["step"] in ("play_face_up", "play_face_down"):
        what += f" of {region_name(ctx['region'])} ({COLOURS[ctx['colour']]})"
    extra = f", {v['extra_left']} last turns left" if v["phase"] == "last_turns" else ""
    return f"Turn {v['turn'] + 1}, player {cur} to act: {what}{extra}"


def _card(d: Drawing, x: float, y: float, t: Optional[int], target: Optional[str] = None, count: int = 1,
          hidden_own: bool = False) -> None:
    """Card type ``t`` face up (None: a back); ``hidden_own``: face down but known to the viewer."""
    if t is None:
        d.card_back(x, y, CARD_W, CARD_H, target=target, count=count)
        return
    colour = type_colour(t)
    tip = type_name(t) + (" (face down, played by you)" if hidden_own else "")
    d.card(x, y, CARD_W, CARD_H, str(type_value(t)), fill=COLOUR_FILL[colour],
           text_fill="#fff", target=target, tip=tip, count=count, size=14)
    if hidden_own:  # a dashed purple frame: the others see a back here
        d.rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, stroke="#5b4a8a", stroke_width=2, stroke_dasharray="3,2", rx=3)


#: The height of the vehicles and supply block (vehicles, routes, numbers, towers, caps).
VEHICLES_H = 148
#: Where a seat's hand cards start in a half-width row (the other seats, two a row), from its left edge.
HALF_HAND_X = 215


def _hand_items(v: Dict[str, Any], p: int) -> int:
    """How many cards (of distinct types, a back counting as one) seat ``p``'s row shows."""
    hand = v["hands"][p]
    if hand is not None:
        return sum(1 for c in hand if c)
    known = v["known"][p]
    return sum(1 for c in known if c) + (1 if v["hand_sizes"][p] > sum(known) else 0)


def _seat_height(v: Dict[str, Any], p: int, width: float, seat_h: float) -> float:
    """The height of seat ``p``'s row ``width`` wide: one more card row for each row its hand needs."""
    hand_x = HAND_X - 10 if width >= WIDTH - 20 else HALF_HAND_X  # as _seat places them
    per_row = max(1, int((width - hand_x + 8) // (CARD_W + 12)))  # n cards take n * 42 - 12, 4 to spare
    return seat_h + (CARD_H + 4) * (max(1, -(-_hand_items(v, p) // per_row)) - 1)


def _others_height(v: Dict[str, Any], others: List[int], paired: bool, seat_h: float) -> float:
    """The height of the other seats' rows (two a row when ``paired``)."""
    if not paired:
        return seat_h * len(others)
    half = (WIDTH - 30) / 2
    return sum(max(_seat_height(v, p, half, seat_h) for p in others[i:i + 2]) for i in range(0, len(others), 2))


def _seat(d: Drawing, v: Dict[str, Any], p: int, x0: float, sy: float, width: float, h: float,
          viewer: Optional[int]) -> None:
    """Seat ``p``'s row at (x0, sy), ``width`` wide: owners, name, score, hand size, then the hand."""
    mine = p == viewer
    d.rect(x0, sy, width, h - 6, fill="#fffbe8" if mine else "#f4efe2",
           stroke="#c03030" if p == v["current"] else "#888", stroke_width=3 if p == v["current"] else 1, rx=6,
           cls="own-seat" if mine else None)
    owners = v["owners_of"][p]
    for j, o in enumerate(owners):
        d.circle(x0 + 16 + 20 * j, sy + 20, 8, fill=OWNER_FILL.get(v["owner_names"][o], "#ccc"), stroke="#000")
    names = "/".join(v["owner_names"][o] for o in owners)
    # The name, the score and the hand's size on three short lines; the hand's cards on their right.
    d.text(x0 + 16 + 20 * len(owners), sy + 24, f"Player {p}{' (you)' if mine else ''}", size=13, weight="bold")
    score = f"score {v['seat_scores'][p]}"
    if len(owners) > 1:
        score += " (lower of " + " and ".join(str(v["scores"][o]) for o in owners) + ")"
    d.text(x0 + 10, sy + 42, score, size=12)
    d.text(x0 + 10, sy + 58, f"{names}, hand {v['hand_sizes'][p]} cards", size=11)
    hand_x = x0 + (HAND_X - 10 if width >= WIDTH - 20 else HALF_HAND_X)
    per_row = max(1, int((x0 + width - hand_x + 8) // (CARD_W + 12)))
    slots = [(hand_x + (k % per_row) * (CARD_W + 12), sy + 10 + (k // per_row) * (CARD_H + 4))
             for k in range(NUM_TYPES + 1)]
    hand = v["hands"][p]
    k = 0
    if hand is not None:
        for t in range(NUM_TYPES):
            if hand[t]:
                _card(d, *slots[k], t, target=f"p{p}-hand-t{t}", count=hand[t])
                k += 1
        return
    known = v["known"][p]
    hidden = v["hand_sizes"][p] - sum(known)
    for t in range(NUM_TYPES):
        if known[t]:
            _card(d, *slots[k], t, count=known[t])
            k += 1
    if hidden > 0:
        d.card_back(*slots[k], CARD_W, CARD_H, count=hidden, tip=f"{hidden} unknown cards")


def svg(state: State, viewer: Optional[int] = None) -> str:
    """The picture of ``state`` as seat ``viewer`` sees it (None: everything); see the module docstring.

    It is WIDTH (940) units wide for any player count, so that at 12/13 scale (13-unit text shown at
    12 px) it fits the demo's board panel at 1280x720 (issue 38): the supply on three rows, hangar
    cards overlapping a little, the hand beside the seat's name.
    """
    v = _seen(state, viewer)
    n = v["players"]
    hangar_rows = max(1, max(-(-len(h) // 3) for reg in v["hangars"] for h in reg))
    region_h = 200 + hangar_rows * (CARD_H + 4)
    seat_h = 70
    # The viewer's own row comes right under the regions it plays into, then the row, deck and pile,
    # then the vehicles and the supply, and last the other seats, two a row: at 1280x720 the first
    # screen holds what the seat acts on (issue 38).
    own = viewer if viewer is not None and 0 <= viewer < n else None
    others = [p for p in range(n) if p != own]
    paired = own is not None and len(others) > 1
    others_h = _others_height(v, others, paired, seat_h)
    status = wrap(_status(v), 80)
    top = 18 * (len(status) - 1)  # a long status takes a second line
    pile_types = sum(1 for c in v["pile"] if c)
    pile_rows = max(1, -(-pile_types // PILE_PER_ROW))
    row_h = max(92, 30 + pile_rows * (CARD_H + 4) + 4)
    own_h = _seat_height(v, own, WIDTH - 20, seat_h) if own is not None else 0
    height = top + 52 + region_h + 6 + own_h + 4 + row_h + 6 + VEHICLES_H + others_h + 116
    who = "everything" if viewer is None else f"player {viewer}'s view"
    d = Drawing(WIDTH, height, f"Area 51 ({who})", background="#efe8d8")
    for i, line in enumerate(status):
        d.text(12, 24 + 18 * i, line, size=16, weight="bold")
    d.text(12, top + 42, f"Picture: {who}. Deck {v['deck']} cards, discard pile {v['discards']}.", size=12)

    # -- regions --------------------------------------------------------------------------
    panel_w = (WIDTH - 40) / 3
    y0 = top + 52
    for r in range(NUM_REGIONS):
        x0 = 10 + r * (panel_w + 10)
        d.rect(x0, y0, panel_w, region_h, fill="#d9cdb0", stroke="#6b5a3a", stroke_width=2, rx=8)
        d.text(x0 + 10, y0 + 22, f"Region {region_name(r)}", size=16, weight="bold")
        d.text(x0 + panel_w - 10, y0 + 22, f"security markers: {v['markers'][r]}", size=12, anchor="end")
        spaces = v["spaces"][r]
        free = [i for i, b in enumerate(spaces) if b is None]
        for s, b in enumerate(spaces):
            sx = x0 + 10 + (s % 4) * ((panel_w - 20) / 4)
            sy = y0 + 34 + (s // 4) * 62
            sw = (panel_w - 20) / 4 - 6
            tip = f"{region_name(r)} space {s + 1}: " + (
                "empty" + (" (a new bunker goes here next)" if free and s == max(free) else "") if b is None
                else f"{COLOURS[b[0]]} bunker level {b[2]} of {v['owner_names'][b[1]]}")
            with d.group(target=f"r{r}-s{s}", cls="space", tip=tip):
                if b is None:
                    d.rect(sx, sy, sw, 56, fill="#eee6d0", stroke="#8a7a5a", stroke_dasharray="4,3", rx=4)
                    d.text(sx + sw / 2, sy + 33, f"{s + 1}", size=14, fill="#8a7a5a", anchor="middle")
                else:
                    c, o, level = b
                    d.rect(sx, sy, sw, 56, fill=COLOUR_FILL[c], stroke="#222", stroke_width=1.5, rx=4)
                    d.text(sx + 4, sy + 14, f"{s + 1}", size=11, fill="#fff")
                    d.text(sx + sw / 2, sy + 32, f"L{level}", size=17, fill="#fff", anchor="middle", weight="bold")
                    owner = v["owner_names"][o]
                    d.circle(sx + sw - 10, sy + 10, 7, fill=OWNER_FILL.get(owner, "#ccc"), stroke="#000")
                    d.text(sx + sw / 2, sy + 50, owner, size=10, fill="#fff", anchor="middle")
            if (r, s) in v["used"]:
                d.text(sx + sw / 2, sy - 2, "used", size=9, anchor="middle", fill="#a00")
        hy = y0 + 34 + 2 * 62 + 6
        hangars = v["hangars"][r]
        hw = (panel_w - 20) / len(hangars)
        for h, pile in enumerate(hangars):
            hx = x0 + 10 + h * hw
            with d.group(target=f"r{r}-h{h}", cls="hangar", tip=f"{region_name(r)} hangar {h + 1}: {len(pile)} cards"):
                d.rect(hx, hy, hw - 6, region_h - (hy - y0) - 8, fill="#bfb08e", stroke="#6b5a3a", rx=5)
                d.text(hx + 4, hy + 14, f"hangar {h + 1}: {len(pile)}", size=11)  # "hangar 1: 12" fits 87 units
                for i, (t, up, by) in enumerate(pile):
                    # Three cards a row, each over the last one's right edge (its value stays in sight).
                    cx = hx + 4 + (i % 3) * HANGAR_STEP
                    cy = hy + 20 + (i // 3) * (CARD_H + 4)
                    _card(d, cx, cy, t, hidden_own=(t is not None and not up))
        if v["pile_region"] == r:
            d.text(x0 + panel_w / 2, y0 + region_h - 4, "(pile being loaded from here)", size=10, anchor="middle")

    # -- vehicles, routes, supply ---------------------------------------------------------
    y3 = y0 + region_h + 6  # the own seat
    y2 = y3 + own_h + 4  # the row, deck and pile
    y1 = y2 + row_h + 6  # the vehicles and the supply
    y5 = y1 + VEHICLES_H  # the other seats
    d.text(12, y1 + 14, "Vehicles (colour, kind, route and number)", size=13, weight="bold")
    vw = (WIDTH - 20) / NUM_VEHICLES
    for veh in range(NUM_VEHICLES):
        vx = 10 + veh * vw
        info = v["vehicles"][veh]
        where = "in the supply" if info is None else f"{region_name(ROUTES[info[0]][0])} -> {region_name(ROUTES[info[0]][1])} #{info[1]}"
        with d.group(target=f"vehicle-{veh}", cls="vehicle", tip=f"{vehicle_name(veh)}: {where}"):
            d.rect(vx, y1 + 20, vw - 6, 42, fill=COLOUR_FILL[veh // 2], stroke="#222", rx=6,
                   opacity=0.45 if info is None else 1)
            d.text(vx + (vw - 6) / 2, y1 + 36, f"{COLOURS[veh // 2]} {VEHICLE_KINDS[veh % 2]}", size=11,
                   fill="#fff", anchor="middle", weight="bold")
            d.text(vx + (vw - 6) / 2, y1 + 55, "supply" if info is None else where, size=11, fill="#fff",
                   anchor="middle")
    d.text(12, y1 + 83, "Routes:", size=12, weight="bold")
    for i, (a, b) in enumerate(ROUTES):
        rx = 70 + i * 78
        with d.group(target=f"route-{i}", cls="route", tip=f"route {region_name(a)} to {region_name(b)}"):
            d.rect(rx, y1 + 68, 70, 22, fill="#fff", stroke="#444", rx=11)
            d.text(rx + 35, y1 + 83, f"{region_name(a)} \u2192 {region_name(b)}", size=11, anchor="middle")
    d.text(560, y1 + 83, "Numbers:", size=12, weight="bold")
    for k in range(1, MAX_VEHICLE_NUMBER + 1):
        nx_ = 630 + (k - 1) * 30
        with d.group(target=f"number-{k}", cls="number", tip=f"vehicle number {k}"):
            d.circle(nx_ + 11, y1 + 79, 11, fill="#fff8d0", stroke="#444")
            d.text(nx_ + 11, y1 + 83, str(k), size=11, anchor="middle")
    d.text(12, y1 + 111, "Towers:", size=12, weight="bold")
    for c in range(4):
        tx = 70 + c * 90
        with d.group(target=f"tower-{c}", cls="tower", tip=f"{COLOURS[c]} towers left: {v['towers'][c]}"):
            d.rect(tx, y1 + 96, 80, 22, fill=COLOUR_FILL[c], stroke="#222", rx=3)
            d.text(tx + 40, y1 + 111, f"{COLOURS[c]} x{v['towers'][c]}", size=11, fill="#fff", anchor="middle")
    supply = ", ".join(f"{2 * i + 1}/{2 * i + 2}: {c}" for i, c in enumerate(v["supply"]))
    d.text(440, y1 + 111, f"Number markers left {supply}", size=10)
    d.text(12, y1 + 139, "Caps:", size=12, weight="bold")
    for o, name in enumerate(v["owner_names"]):
        cx = 70 + o * 100
        with d.group(target=f"cap-{o}", cls="cap", tip=f"caps of {name} left: {v['caps'][o]}"):
            d.circle(cx + 10, y1 + 134, 9, fill=OWNER_FILL.get(name, "#ccc"), stroke="#000")
            d.text(cx + 24, y1 + 139, f"{name} x{v['caps'][o]}", size=11)

    # -- row, deck, pile ------------------------------------------------------------------
    with d.group(target="row-refresh", cls="row", tip="the face-up row (refresh: discard 1 card and the row)"):
        d.rect(10, y2, ROW_W, row_h, fill="#e4dcc6", stroke="#6b5a3a", rx=6)
        d.text(20, y2 + 18, "Face-up row", size=13, weight="bold")
    x = 20
    for t in range(NUM_TYPES):
        if v["row"][t]:
            _card(d, x, y2 + 30, t, target=f"row-t{t}", count=v["row"][t])
            x += CARD_W + 12
    dx = 20 + ROW_W
    d.card_back(dx, y2 + 6, 50, 64, target="deck", tip=f"the deck: {v['deck']} cards", label=str(v["deck"]))
    d.text(dx + 25, y2 + 86, "deck", size=11, anchor="middle")
    if any(v["pile"]):
        px = PILE_X
        d.rect(px, y2, WIDTH - 10 - px, row_h, fill="#f6e6b0", stroke="#9a7a20", rx=6)
        d.text(px + 10, y2 + 18, f"Pile being loaded (from {region_name(v['pile_region'])})", size=13, weight="bold")
        k = 0
        for t in range(NUM_TYPES):
            if v["pile"][t]:
                _card(d, px + 10 + (k % PILE_PER_ROW) * (CARD_W + 12), y2 + 30 + (k // PILE_PER_ROW) * (CARD_H + 4), t,
                      target=f"pile-t{t}", count=v["pile"][t])
                k += 1

    # -- seats ----------------------------------------------------------------------------
    if own is not None:
        _seat(d, v, own, 10, y3, WIDTH - 20, own_h, viewer)
    y = y5
    if paired:
        half = (WIDTH - 30) / 2
        for i in range(0, len(others), 2):
            row = others[i:i + 2]
            for j, p in enumerate(row):
                _seat(d, v, p, 10 + j * (half + 10), y, half, _seat_height(v, p, half, seat_h), viewer)
            y += max(_seat_height(v, p, half, seat_h) for p in row)
    else:
        for p in others:
            _seat(d, v, p, 10, y, WIDTH - 20, seat_h, viewer)
            y += seat_h

    y4 = y5 + others_h + 6
    lh = d.legend(10, y4, [(COLOUR_FILL[c], f"{COLOURS[c]} card / bunker / vehicle") for c in range(4)]
                  + [("#5b4a8a", "face-down card"), ("#eee6d0", "empty building space")], columns=3, column_width=230)
    d.text(10, y4 + lh + 16, "Cards show their value; a dashed frame: face down, visible only to you.", size=11)
    d.text(10, y4 + lh + 32, "Bunkers show their level and owner. Another seat's face-up cards: cards everyone saw enter "
           "that hand.", size=11)
    return d.to_string()


def move_targets(state: State) -> Dict[int, List[str]]:
    """``{action: [target ids]}`` for the legal actions of the decision at ``state`` (see the module docstring)."""
    if state.is_terminal() or state.is_chance_node():
        return {}
    p = state.cur
    g = state.game
    out: Dict[int, List[str]] = {}
    for a in state.legal_actions():
        kind, args = A.decode(a)
        if kind == "create":
            c, r, j = args
            s = max(i for i, b in enumerate(state.spaces[r]) if b is None)
            out[a] = [f"r{r}-s{s}", f"tower-{c}", f"cap-{g.owners_of[p][j]}"]
        elif kind == "upgrade":
            out[a] = [f"r{args[0]}-s{args[1]}"]
        elif kind == "route":
            out[a] = [f"vehicle-{args[0]}", f"route-{args[1]}"]
        elif kind == "number":
            out[a] = [f"number-{args[0]}"]
        elif kind == "pick":
            out[a] = [f"r{args[0]}-h{args[1]}"]
        elif kind == "refresh":
            out[a] = [f"p{p}-hand-t{args[0]}", "row-refresh"]
        elif kind == "take_up":
            out[a] = [f"row-t{args[0]}"]
        elif kind == "take_deck":
            out[a] = ["deck"]
        elif kind in ("face_up", "face_down"):
            out[a] = [f"p{p}-hand-t{args[0]}", f"r{state.ctx['region']}-h{args[1]}"]
        elif kind == "store":
            t, r, s = args
            out[a] = [f"pile-t{t}", f"r{r}-s{s}"]
        elif kind == "kind":
            out[a] = _kind_targets(state, args[0])
        else:
            out[a] = []
    return out


def _kind_targets(state: State, k: int) -> List[str]:
    """Where choosing action kind ``k`` starts on the board: the row and deck to collect, the
    spaces a bunker can go to or rise on, the vehicles that can go, the hangars to pick up (so a
    click on the board picks the kind, and the next click on the same element the target)."""
    if k == A.KIND_COLLECT:
        return ["deck", "row-refresh"]
    if k == A.KIND_BUILD:
        ids: List[str] = []
        for a in state._build_targets(state.cur):  # the acting seat's own options
            kind, args = A.decode(a)
            r = args[1] if kind == "create" else args[0]
            s = max(i for i, b in enumerate(state.spaces[r]) if b is None) if kind == "create" else args[1]
            if f"r{r}-s{s}" not in ids:
                ids.append(f"r{r}-s{s}")
        return ids
    if k == A.KIND_VEHICLE:
        return sorted({f"vehicle-{A.decode(a)[1][0]}" for a in state._route_targets(state.cur)})
    return [f"r{A.decode(a)[1][0]}-h{A.decode(a)[1][1]}" for a in state._pick_targets()]
