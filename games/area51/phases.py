"""The Area 51 turn's state machine vocabulary: phases, decision steps and pending-draw kinds.

The names are the strings stored in a state's ``phase``, ``step`` and ``queue``
(and in its JSON); the flow between them is :mod:`.rules`.
"""

# Turn phases.
SETUP, PLAY, LAST, PICKUP, OVER = "setup", "play", "last_turns", "pickup_only", "over"
PHASES = (SETUP, PLAY, LAST, PICKUP, OVER)
# Decision steps (what the next decision is about).
S_DEAL, S_KIND, S_BUILD, S_ROUTE, S_NUMBER, S_PICK, S_COLLECT, S_FACE_UP, S_FACE_DOWN, S_LOAD, S_REFILL = (
    "deal", "kind", "build_target", "vehicle_route", "vehicle_number", "pick_target", "collect",
    "play_face_up", "play_face_down", "load", "refill")
STEPS = (S_DEAL, S_KIND, S_BUILD, S_ROUTE, S_NUMBER, S_PICK, S_COLLECT, S_FACE_UP, S_FACE_DOWN, S_LOAD,
         S_REFILL)
# Where a pending draw goes: a dealt start card, a blind card taken from the deck, a face-up card.
Q_DEAL, Q_DRAW, Q_ROW = "deal", "draw", "row"
