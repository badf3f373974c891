"""Area 1851 as text (:func:`render_text`) and a player's tableau as SVG (:func:`render_svg`).

Plain string building, no dependency. The SVG shows one player's gadgets (their sockets and
modifications), dice, assistants, score and revealed feats: all public information.
"""

from __future__ import annotations

from html import escape
from typing import Any, Dict, List, Optional

from .actions import decode
from .cards import EVENT_EFFECTS, EVENTS, FACTIONS, FEAT_NAMES, LOCATIONS, SOCKET_LETTERS, TINKER, TINKER_NAMES

#: The state (rules.Area1851State above this module), typed loosely to keep the import tree.
State = Any
FACTION_COLOURS = ("#6a5acd", "#b8860b", "#2e8b57")



def _count(n: int, word: str) -> str:
    """``1 card``, ``2 cards``: a count with its noun, singular for one."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

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
             "events: " + (", ".join(f"{e} ({EVENT_EFFECTS[EVENTS.index(e)]})" for e in view["events"])
                           or "none"),
             f"pass {view['direction']}; deck {view['deck_size']}, discard {sum(view['discard'])}, "
             f"feat deck {view['feat_deck_size']}"]
    decision = decision_text(view)
    if decision:
        lines.append(decision)
    for p, b in enumerate(view["players"]):
        where = ", ".join(f"{LOCATIONS[loc]} {b['wait'][loc]}+{b['active'][loc]}" for loc in range(len(LOCATIONS))
                          if b["wait"][loc] or b["active"][loc])
        lines.append(f"p{p}{' (you)' if p == me else ''}: score {b['score']}, AP {b['ap']}, {dice_text(view, p)}, "
                     f"assistants {where or 'none'} (reserve {b['reserve']})")
        if p == me:
            hand = ", ".join(f"{c}x {name}" for name, c in view["hand_names"].items())
            junk = ", ".join(f"{c}x {TINKER_NAMES[t]}" for t, c in enumerate(b["junk"]) if c)
            down = ", ".join(view["feat_names"])
            lines.append(f"    hand: {hand or '-'}")
            lines.append(f"    junkyard: {junk or '-'}")
        else:
            lines.append(f"    hand: {_count(b['hand'], 'card')}; junkyard: {_count(b['junk'], 'card')}")
            down = f"{b['down']} face down"
        for g, text in enumerate(b["tableau"]):
            # Numbered as the moves name them ("gadget 0", "gadget 0 socket 1").
            lines.append(f"    gadget {g}: {text}")
        lines.append(f"    feats up: {', '.join(FEAT_NAMES[f] for f in b['up']) or '-'}; down: {down or '-'}")
    return "\n".join(lines)


#: Phases of the first turn that come before its dice are rolled (rulebook "2. Preparation").
_BEFORE_THE_ROLL = ("setup_deal", "setup_place", "event", "event_choice", "prep_skip")


def die_rolled(view: Dict[str, Any], seat: int, die: int) -> bool:
    """Whether ``seat``'s die ``die`` has been rolled at least once, read from a seat's view
    (its engine part): the dice start at 1 before any roll, which is not a face they show."""
    if view["turn"] == 0:
        return False
    if view["turn"] > 1:
        return True
    if view["phase"] in _BEFORE_THE_ROLL:
        return False
    if ["die", seat, die] in view["queue"]:
        return False  # its roll is still to come (the preparation's chance steps)
    # A seat that skipped the first turn (Just Sittin' Round) never rolled in it.
    return not view["players"][seat].get("skip")


def dice_text(view: Dict[str, Any], seat: int) -> str:
    """``dice 1 4* 2`` (``*``: used this action phase; ``-``: not rolled yet)."""
    b = view["players"][seat]
    rolled = [die_rolled(view, seat, d) for d in range(len(b["dice"]))]
    if not any(rolled):
        return "dice not rolled yet"
    return "dice " + " ".join(f"{v}{'*' if u else ''}" if r else "-" for v, u, r in zip(b["dice"], b["used"], rolled))


def _gadget_name(view: Dict[str, Any], g: int) -> str:
    gadgets = view["players"][view["observer"]]["gadgets"]
    return TINKER_NAMES[gadgets[g][0]] if 0 <= g < len(gadgets) else f"gadget {g}"


#: What each decision asks, said to the seat making it (the steps of rules.py's _legal_actions).
_ASKS = {
    "place": "set-up: place one assistant on a location",
    "cheat": "preparation (Not Cheatin' If Everybody Does It!): set one die to a face of your choice, or done",
    "tweakpay": "tweak: pay with a card from your junkyard",
    "townhall": "Town Hall: place an unused die for reputation, or done",
    "reroll": "re-roll: choose the dice to roll again, then done",
    "repl": "Replicator: discard a card from your hand to draw 2, or done",
    "repldraw": "Replicator: draw your second card",
    "rolling": "re-roll: roll your next chosen die",
    "swap1": "Storehouse: choose a hand card to swap with a junkyard card, or done",
    "swap2": "Storehouse: choose the junkyard card to take in exchange",
    "sh2a": "Storehouse level 2: discard a junkyard card to build or modify from your junkyard next, or done",
    "sh2b": "Storehouse level 2: build or modify with a junkyard card (1 AP, no dice), or done",
    "recy1": "Recycler: take a modification off a gadget to deliver it alone, or done",
    "recy2": "Recycler: deliver a gadget now (its cards go to your junkyard), or done",
    "dfeat": "delivery: reveal a Delivery feat that this delivery meets, or done",
    "move": "assistants phase: move one waiting assistant to another location, or done",
}

#: Event choices waiting in a seat's to-do list (rules.py T_HARSH ... T_FREE, in that order); the
#: event itself is named from the view's turn events.
_TODO = ("give up a gadget (with its mods) or one attached modification",
         "put a card from your hand in your junkyard, or done",
         "move one waiting assistant, or done",
         "roll the event's die (yes), or done",
         "draw a feat (yes), or done",
         "place an assistant on a location",
         "put a card from your hand in your junkyard, or done",
         "discard your whole hand (yes), or keep it (done)",
         "build or modify for free with a card from your hand, or done")


def decision_text(view: Dict[str, Any]) -> Optional[str]:
    """One line saying what the seat to move is asked, when it is the viewer (else None): the
    cost still owed while paying, the card being placed, the gadgets by name. A forced move
    (one legal option) is then never a bare "done"."""
    me = view["observer"]
    if view["to_move"] != me or not view["step"]:
        return None
    step, ctx, b = view["step"], view["ctx"], view["players"][me]
    if step == "main":
        return f"your action phase: {b['ap']} AP left; build, modify, scrap, tweak a die, activate assistants, or done"
    if step == "skip":
        sittin = FEAT_NAMES.index("Just Sittin' Round")
        if b["down"][sittin]:
            return "preparation: play this turn (done), or skip it by revealing Just Sittin' Round (yes)"
        return "preparation: done to play this turn (skipping it needs the feat Just Sittin' Round)"
    if step == "pay":
        return (f"paying for your card: {ctx.get('owed', '?')} still owed; choose an unused die "
                f"(the dice paid must add up to exactly that)")
    if step == "target":
        card = ctx.get("card")
        named = TINKER_NAMES[card] if isinstance(card, int) and 0 <= card < len(TINKER_NAMES) else "the card"
        return f"choose the gadget that {named} goes on"
    if step == "deliver":
        names = ", ".join(f"gadget {g} = {_gadget_name(view, g)}" for g in range(len(b["gadgets"])))
        return f"delivery phase: deliver a gadget ({names}); done when none is full"
    if step == "keep":
        return f"rotation: keep 2 cards from your hand ({sum(b['kept'])} kept); the rest pass {view['direction']}"
    if step == "todo":
        item = b["todo"][0] if b.get("todo") else -1
        what = _TODO[item] if 0 <= item < len(_TODO) else "choose"
        if item == len(_TODO) - 1 and isinstance(ctx.get("card"), int):
            what = f"choose the gadget that {TINKER_NAMES[ctx['card']]} goes on"
        return f"event ({', '.join(view['turn_events']) or 'this turn'}): {what}"
    return _ASKS.get(step)


def describe_action(state: State, action: int, viewer: int) -> Optional[str]:
    """What a move of ``viewer``'s own decision refers to, by name, for a menu beside the move's
    fixed name: ``gadget 0`` -> ``Alien TP gadget``, ``gadget 0 socket 1`` -> the modification
    there, ``die 2`` -> its face. None when there is nothing to add (or it is not ``viewer``'s
    decision). Read from ``viewer``'s view only."""
    view = state.view(viewer)["internal"]
    if view["to_move"] != viewer or not view["step"]:
        return None
    block, i, j = decode(action)
    b = view["players"][viewer]
    if block == "GADGET" and i < len(b["gadgets"]):
        return gadget_text(b["gadgets"][i])
    if block == "MOD" and i < len(b["gadgets"]) and j + 1 < len(b["gadgets"][i]):
        m = b["gadgets"][i][1 + j]
        on = TINKER_NAMES[b["gadgets"][i][0]]
        return f"{TINKER_NAMES[m]} on {on}" if m >= 0 else f"an empty socket of {on}"
    if block == "DIE" and i < len(b["dice"]):
        return f"shows {b['dice'][i]}"
    return None


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
