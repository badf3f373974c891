"""Area 1851's automatic steps in words (:mod:`aiplay.views.narrate`), read from the reader's views.

The other inventors' choices in a simultaneous phase are hidden until it ends; at that
moment their results show in the public parts of the view (gadgets, dice, assistants,
feats, junkyard sizes), and this says what became public: "player 1 built Alien TP
gadget, used 2 dice, took a feat". Events revealed and the hand rotation get a line too.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from aiplay.views.narrate import generic_events, shares, who

#: The score lines are said here, before the next phase's name (events below), not after it.
GENERIC_EVENTS = False


#: The phases as a person reads them.
PHASES = {"setup_deal": "set-up: the cards are dealt", "setup_place": "set-up: each inventor places an assistant",
          "event": "event phase", "event_choice": "event: each inventor makes the event's choice",
          "prep_cheat": "preparation: each inventor may set one die (Not Cheatin')",
          "prep_skip": "preparation phase", "prep_draw": "preparation: draw up to 5 and roll the dice",
          "action": "action phase", "delivery": "delivery phase", "assistants": "assistants phase",
          "rotation": "rotation: hands are passed", "over": "the game is over"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _mods(seat: Mapping[str, Any]) -> Counter:
    return Counter(s.get("mod") for g in seat.get("gadgets") or [] for s in g.get("sockets") or [] if s.get("mod"))


#: The simultaneous phases: another seat's choices in them are hidden until the phase ends (spec, "Rulings").
SECRET_PHASES = ("setup_place", "event_choice", "prep_skip", "prep_cheat", "action", "delivery", "assistants",
                 "rotation")
#: What a seat reads for another seat's moves in a simultaneous phase (rules.redacted_action_name).
HIDDEN_NAMES = ("a hidden choice", "a hidden chance event")
#: A phase as the place in a sentence where hidden choices were made.
PHASE_WORDS = {"setup_place": "the set-up", "event_choice": "the event's choice", "prep_skip": "the preparation",
               "prep_cheat": "the preparation (Not Cheatin')", "action": "the action phase",
               "delivery": "the delivery phase", "assistants": "the assistants phase", "rotation": "the rotation"}


def _where(counts: Counter) -> str:
    return _join_and([f"the {place}" + (f" ({n})" if n > 1 else "") for place, n in counts.items()])


def _join_and(parts: Sequence[str]) -> str:
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _assistants(old: Mapping[str, Any], new: Mapping[str, Any]) -> List[str]:
    """Assistants placed or moved, from where they stand (waiting and effect spaces together)."""
    def stands(seat: Mapping[str, Any]) -> Counter:
        return Counter(seat.get("assistants_waiting") or {}) + Counter(seat.get("assistants_active") or {})
    gained, lost = stands(new) - stands(old), stands(old) - stands(new)
    parts: List[str] = []
    if gained and lost:
        parts.append(f"moved an assistant from {_where(lost)} to {_where(gained)}")
    elif gained:
        parts.append(f"placed {_plural(sum(gained.values()), 'assistant')} at {_where(gained)}")
    elif lost:
        parts.append(f"took {_plural(sum(lost.values()), 'assistant')} off {_where(lost)}")
    active = Counter(new.get("assistants_active") or {}) - Counter(old.get("assistants_active") or {})
    if active:
        parts.append(f"activated {_plural(sum(active.values()), 'assistant')} at {_where(active)}")
    return parts


def _seat_changes(old: Mapping[str, Any], new: Mapping[str, Any], own: bool) -> List[str]:
    """What changed in one seat's public facts, as past-tense phrases ("built Alien TP gadget")."""
    parts: List[str] = []
    built = Counter(g.get("gadget") for g in new.get("gadgets") or []) - Counter(
        g.get("gadget") for g in old.get("gadgets") or [])
    gone = Counter(g.get("gadget") for g in old.get("gadgets") or []) - Counter(
        g.get("gadget") for g in new.get("gadgets") or [])
    parts += [f"built {name}" for name in built.elements()]
    parts += [f"added {name}" for name in (_mods(new) - _mods(old)).elements()]
    parts += [f"gave up {name} (delivered or junked)" for name in gone.elements()]
    used = sum(1 for d in new.get("dice") or [] if d.get("used")) - sum(1 for d in old.get("dice") or [] if d.get("used"))
    if used > 0:
        parts.append(f"paid {_plural(used, 'die')}".replace("dies", "dice"))
    values_a = [d.get("value") for d in old.get("dice") or []]
    values_b = [d.get("value") for d in new.get("dice") or []]
    if len(values_a) == len(values_b) and values_a != values_b:
        parts.append("changed its dice from " + _join_and([str(v) for v in values_a]) + " to "
                     + _join_and([str(v) for v in values_b]))
    parts += _assistants(old, new)
    feats = int(new.get("feats_face_down_count") or 0) + len(new.get("feats_revealed") or []) - (
        int(old.get("feats_face_down_count") or 0) + len(old.get("feats_revealed") or []))
    if feats > 0:
        parts.append(f"took {_plural(feats, 'feat')}")
    for feat in (new.get("feats_revealed") or [])[len(old.get("feats_revealed") or []):]:
        parts.append(f"revealed the feat {feat}")
    junk = int(new.get("junkyard_size") or 0) - int(old.get("junkyard_size") or 0)
    if junk > 0:
        parts.append(f"put {_plural(junk, 'card')} in its junkyard")
    elif junk < 0:
        parts.append(f"took {_plural(-junk, 'card')} out of its junkyard")
    kept = int(new.get("held_back_size") or 0) - int(old.get("held_back_size") or 0)
    if kept > 0:
        parts.append(f"set {_plural(kept, 'card')} aside")
    hand_a, hand_b = int(old.get("hand_size") or 0), int(new.get("hand_size") or 0)
    if hand_a != hand_b:
        parts.append(f"now holds {_plural(hand_b, 'card')} (had {hand_a})")
    score = int(new.get("score") or 0) - int(old.get("score") or 0)
    if score:
        parts.append(f"{'gained' if score > 0 else 'lost'} {_plural(abs(score), 'reputation point')} "
                     f"(now {new.get('score')})")
    return parts


def phase_ended(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """A simultaneous phase ended at this step: the other seats' choices in it are public now."""
    return before.get("phase") in SECRET_PHASES and before.get("phase") != after.get("phase")


def revealed(before: Mapping[str, Any], after: Mapping[str, Any], viewer: Optional[int]) -> Dict[int, List[str]]:
    """Per other seat, what its hidden choices of the phase that just ended made public.

    ``before`` shows the other seats as they were when the phase began (the view's rule), so the
    difference to ``after`` is the whole phase's public result, and nothing a seat may not see.
    """
    out: Dict[int, List[str]] = {}
    for old, new in zip(before.get("seats") or [], after.get("seats") or []):
        seat = int(new.get("seat"))
        if seat != viewer:
            out[seat] = _seat_changes(old, new, False)
    return out


def _discarded(before: Mapping[str, Any], after: Mapping[str, Any]) -> List[str]:
    gained = Counter(after.get("discard") or {}) - Counter(before.get("discard") or {})
    return list(gained.elements())


def events(before: Mapping[str, Any], after: Mapping[str, Any], mover: int, name: str,
           viewer: Optional[int]) -> List[str]:
    lines: List[str] = []
    for event in (after.get("events") or [])[len(before.get("events") or []):]:
        lines.append(f"event revealed: {event}")
    ended = phase_ended(before, after)
    if ended:
        where = PHASE_WORDS.get(str(before.get("phase")), "the phase")
        quiet = []
        for seat, parts in revealed(before, after, viewer).items():
            parts = [x for x in parts if "reputation point" not in x]  # the generic score line says it
            if parts:
                lines.append(f"player {seat} in {where}: " + ", ".join(parts))
            else:
                quiet.append(str(seat))
        if quiet:
            lines.append(f"{'player' if len(quiet) == 1 else 'players'} {_join_and(quiet)} in {where}: "
                         "nothing anyone can see")
        cards = _discarded(before, after)
        if cards and viewer is not None:
            lines.append(f"the others put {_join_and(cards)} on the discard pile")
    # Points first, then the phase that begins (a delivery's points belong to the phase that ended).
    lines.extend(x.replace(" points (", " reputation (").replace(" point (", " reputation (")
                 for x in generic_events(before, after))
    if before.get("phase") != after.get("phase") and after.get("phase"):
        lines.append(PHASES.get(str(after.get("phase")), f"phase: {after.get('phase')}"))
    if not ended and mover >= 0:
        for old, new in zip(before.get("seats") or [], after.get("seats") or []):
            seat = new.get("seat")
            # Own moves are told by their names; a chance step by the chance sentence.
            if seat == viewer and mover == viewer:
                continue
            parts = _seat_changes(old, new, seat == viewer)
            if parts:
                lines.append(f"player {seat} " + ", ".join(parts))
    if before.get("pass_direction") != after.get("pass_direction") and after.get("pass_direction"):
        lines.append(f"hands now pass to the {after.get('pass_direction')}")
    return lines


_DRAW = re.compile(r"p(\d+) draws (?:(feat) )?(.+)")
_DIE = re.compile(r"p(\d+) die \d+ shows (\d+)")


def chance_lines(names: List[str], viewer: Optional[int]) -> List[str]:
    """Chance steps that came together, in plain sentences: a deal, the dice rolled, a feat drawn."""
    lines: List[str] = []
    cards: List[Tuple[int, Optional[str]]] = []
    feats: List[Tuple[int, Optional[str]]] = []
    rolls: Dict[int, List[str]] = {}

    def flush() -> None:
        lines.extend(shares(cards, viewer, "drew", "drew"))
        lines.extend(shares(feats, viewer, "drew", "drew", ("feat", "feats")))
        for seat, values in rolls.items():
            lines.append(f"{who(seat, viewer)} rolled {_join_and(values)}.")
        cards.clear()
        feats.clear()
        rolls.clear()

    for name in names:
        die, draw = _DIE.fullmatch(name), _DRAW.fullmatch(name)
        if die:
            rolls.setdefault(int(die.group(1)), []).append(die.group(2))
        elif name.endswith("draws and rolls nothing") or name in HIDDEN_NAMES:
            continue  # a step of the engine's that changes nothing (or belongs to a hidden turn)
        elif draw and draw.group(3) in ("a card", "a feat"):
            (feats if draw.group(3) == "a feat" else cards).append((int(draw.group(1)), None))
        elif draw:
            (feats if draw.group(2) else cards).append(
                (int(draw.group(1)), f"the feat {draw.group(3)}" if draw.group(2) else draw.group(3)))
        elif name.startswith("reveal "):
            continue  # the event line says it ("event revealed: ...")
        else:
            flush()
            text = re.sub(r"\bp(\d+)\b", r"player \1", name)
            lines.append(text[:1].upper() + text[1:] + ".")
    flush()
    return lines


def past_tense(name: str) -> Optional[str]:
    for pattern, phrase in ((r"take a feat", "took a feat"), (r"scrap (.+)", "scrapped {0}"),
                            (r"reveal feat (.+)", "revealed the feat {0}"),
                            (r"move assistant (.+) -> (.+)", "moved an assistant to the {1}"),
                            (r"place assistant at (.+)", "placed an assistant at the {0}"),
                            (r"activate 1 at (.+)", "activated 1 assistant at the {0}"),
                            (r"activate (\d+) at (.+)", "activated {0} assistants at the {1}"),
                            (r"hand: (.+)", "played {0}"),
                            (r"tweak die (\d+) \+1", "raised die {0} by 1 (a junkyard card thrown away)"),
                            (r"tweak die (\d+) -1", "lowered die {0} by 1 (a junkyard card thrown away)"),
                            (r"workshop tweak die (\d+) \+1", "raised die {0} by 1 (the Workshop's free tweak)"),
                            (r"workshop tweak die (\d+) -1", "lowered die {0} by 1 (the Workshop's free tweak)"),
                            (r"set die (\d+) to (\d+)", "set die {0} to {1}"),
                            (r"junkyard: (.+)", "chose {0} from the junkyard"),
                            (r"draw a card", "drew a card"), (r"(yes|no)", "said {0}")):
        found = re.fullmatch(pattern, name)
        if found:
            return phrase.format(*found.groups())
    if name in ("done",) or re.fullmatch(r"die \d+|gadget \d+( socket \d+)?", name):
        return ""
    return None


def outcome_reason(view: Mapping[str, Any], returns: Sequence[float], scores: Sequence[float]) -> Optional[str]:
    parts = [f"player {s.get('seat')} {s.get('score')} reputation ({_plural(len(s.get('feats_revealed') or []), 'feat')}"
             f" revealed, junkyard {s.get('junkyard_size')})" for s in view.get("seats") or []]
    return ("Most reputation wins (ties: the smaller junkyard, then more feats): " + "; ".join(parts) + ".") if parts else None
