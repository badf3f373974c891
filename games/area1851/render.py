"""Area 1851 as text (:func:`render_text`) and a player's tableau as SVG (:func:`render_svg`).

Plain string building, no dependency. The SVG shows one player's gadgets (their sockets and
modifications), dice, assistants, score and revealed feats: all public information.
"""

from __future__ import annotations

from html import escape
from typing import Any, Dict, List, Optional

from .cards import EVENTS, FACTIONS, FEAT_NAMES, LOCATIONS, SOCKET_LETTERS, TINKER, TINKER_NAMES

#: The state (rules.Area1851State above this module), typed loosely to keep the import tree.
State = Any
FACTION_COLOURS = ("#6a5acd", "#b8860b", "#2e8b57")


def gadget_text(gad: List[int]) -> str:
    """``Alien TP gadget [Crystal Power mod 1, -]``."""
    mods = ", ".join(TINKER_NAMES[m] if m >= 0 else f"empty {SOCKET_LETTERS[s]}"
                     for m, s in zip(gad[1:], TINKER[gad[0]].sockets))
    return f"{TINKER_NAMES[gad[0]]} [{mods}]"


def render_text(state: State) -> str:
    """The whole state (hidden parts included) as readable text."""
    lines = [f"Area 1851, turn {state.turn}, phase {state.phase}, actor {state.actor}, step {state.step or '-'}",
             "events: " + (", ".join(EVENTS[e] for e in state.events) or "none"),
             (f"pass {'left' if state.direction == 1 else 'right'}; deck {sum(state.deck)}, "
              f"discard {sum(state.discard)}, feat deck {sum(state.feat_deck)}")]
    for p, b in enumerate(state.players):
        dice = " ".join(f"{v}{'*' if u else ''}" for v, u in zip(b.dice, b.used))
        where = ", ".join(f"{LOCATIONS[loc]} {b.wait[loc]}+{b.active[loc]}" for loc in range(len(LOCATIONS))
                          if b.wait[loc] or b.active[loc])
        lines.append(f"p{p}: score {b.score}, AP {b.ap}, dice {dice}, assistants {where or 'none'} "
                     f"(reserve {b.reserve})")
        hand = ", ".join(f"{c}x {TINKER_NAMES[t]}" for t, c in enumerate(b.hand) if c)
        junk = ", ".join(f"{c}x {TINKER_NAMES[t]}" for t, c in enumerate(b.junk) if c)
        lines.append(f"    hand: {hand or '-'}")
        lines.append(f"    junkyard: {junk or '-'}")
        for gad in b.gadgets:
            lines.append(f"    gadget: {gadget_text(gad)}")
        down = ", ".join(FEAT_NAMES[f] for f in range(len(b.down)) for _ in range(b.down[f]))
        lines.append(f"    feats up: {', '.join(FEAT_NAMES[f] for f in b.up) or '-'}; down: {down or '-'}")
    return "\n".join(lines)


def render(state: State, viewer: Optional[int] = None) -> str:
    """The state as text (the name the project's games share): everything when ``viewer`` is
    None, else only what seat ``viewer`` knows (:func:`render_view` of the view's engine part,
    ``state.view(viewer)["internal"]``)."""
    if viewer is None:
        return render_text(state)
    return render_view(state.view(viewer)["internal"])


def render_view(view: Dict[str, Any]) -> str:
    """One seat's view (``state.view(p)``) as text: its own hand, junkyard and face-down feats
    by name, the others' as counts. Built from the view alone, so it shows nothing the seat
    does not know (in a simultaneous phase, the others as they were at its start)."""
    me = view["observer"]
    to_move = view["to_move"]
    lines = [f"Area 1851, turn {view['turn']}, phase {view['phase']}, you are p{me}"
             + ("" if to_move is None or to_move < 0 else f", p{to_move} to move"),
             "events: " + (", ".join(view["events"]) or "none"),
             f"pass {view['direction']}; deck {view['deck_size']}, discard {sum(view['discard'])}, "
             f"feat deck {view['feat_deck_size']}"]
    for p, b in enumerate(view["players"]):
        dice = " ".join(f"{v}{'*' if u else ''}" for v, u in zip(b["dice"], b["used"]))
        where = ", ".join(f"{LOCATIONS[loc]} {b['wait'][loc]}+{b['active'][loc]}" for loc in range(len(LOCATIONS))
                          if b["wait"][loc] or b["active"][loc])
        lines.append(f"p{p}{' (you)' if p == me else ''}: score {b['score']}, AP {b['ap']}, dice {dice}, "
                     f"assistants {where or 'none'} (reserve {b['reserve']})")
        if p == me:
            hand = ", ".join(f"{c}x {name}" for name, c in view["hand_names"].items())
            junk = ", ".join(f"{c}x {TINKER_NAMES[t]}" for t, c in enumerate(b["junk"]) if c)
            down = ", ".join(view["feat_names"])
            lines.append(f"    hand: {hand or '-'}")
            lines.append(f"    junkyard: {junk or '-'}")
        else:
            lines.append(f"    hand: {b['hand']} cards; junkyard: {b['junk']} cards")
            down = f"{b['down']} face down"
        for text in b["tableau"]:
            lines.append(f"    gadget: {text}")
        lines.append(f"    feats up: {', '.join(FEAT_NAMES[f] for f in b['up']) or '-'}; down: {down or '-'}")
    return "\n".join(lines)


def render_svg(state: State, player: int) -> str:
    """An SVG picture of ``player``'s tableau (public information only)."""
    b = state.players[player]
    width = 640
    rows = max(1, len(b.gadgets))
    height = 120 + 40 * rows
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">'),
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f5efe0"/>',
           (f'<text x="10" y="22" font-size="16" font-family="sans-serif">Player {player}: '
            f'{b.score} reputation</text>')]
    for d, (v, u) in enumerate(zip(b.dice, b.used)):
        x = 10 + 40 * d
        out.append(f'<rect x="{x}" y="34" width="30" height="30" rx="4" fill="{"#bbb" if u else "#fff"}" '
                   f'stroke="#333"/>')
        out.append(f'<text x="{x + 10}" y="55" font-size="16" font-family="sans-serif">{v}</text>')
    assistants = ", ".join(f"{escape(LOCATIONS[loc])} {b.wait[loc] + b.active[loc]}"
                           for loc in range(len(LOCATIONS)) if b.wait[loc] + b.active[loc])
    out.append(f'<text x="140" y="55" font-size="12" font-family="sans-serif">Assistants: '
               f'{assistants or "none"}</text>')
    feats = escape(", ".join(FEAT_NAMES[f] for f in b.up) or "none")
    out.append(f'<text x="10" y="84" font-size="12" font-family="sans-serif">Feats: {feats}</text>')
    for i, gad in enumerate(b.gadgets):
        y = 100 + 40 * i
        info = TINKER[gad[0]]
        out.append(f'<rect x="10" y="{y}" width="200" height="32" fill="{FACTION_COLOURS[info.faction]}" '
                   f'opacity="0.8"/>')
        out.append(f'<text x="16" y="{y + 21}" font-size="12" fill="#fff" font-family="sans-serif">'
                   f'{escape(info.name)} ({info.rating})</text>')
        for s, (m, sock) in enumerate(zip(gad[1:], info.sockets)):
            x = 220 + 140 * s
            fill = "#fff" if m < 0 else FACTION_COLOURS[TINKER[m].faction]
            label = f"{SOCKET_LETTERS[sock]}: empty" if m < 0 else f"{TINKER_NAMES[m]}"
            out.append(f'<rect x="{x}" y="{y}" width="130" height="32" fill="{fill}" stroke="#333"/>')
            out.append(f'<text x="{x + 4}" y="{y + 20}" font-size="9" font-family="sans-serif">'
                       f'{escape(label)}</text>')
    out.append(f'<desc>{escape(", ".join(FACTIONS))}</desc>')
    out.append("</svg>")
    return "\n".join(out)
