"""A club round: an ordinary Classic game log whose header carries a ``club`` object.

The engine ignores header keys it does not know (``game_from_header`` reads
``variant``, ``options``, ``players``, ``dealer`` and ``mode``), so a round
replays, syncs and archives like any game; host/CLUB.md documents the object::

    "club": {"v": 1, "night": "fri-1a2b", "table": 3, "round": 2,
             "hands": 8, "minutes": null,
             "scoring": {"loner": 4, "set_loner": 2, "renege": 2}}

The four players are the header's ``players`` (roster names by seat: N, E,
S, W). The header's ``options`` carry the engine's club-round options
(:func:`round_options`: ``round_hands``, ``lone_march``, ``set_loner``,
``renege_points``), so the engine itself ends the round and scores it the
night's way; :func:`club_of` checks they agree with the ``club`` object.
:func:`round_result` scores a replayed round with the night's scoring
options (``club_points``: a no-op when the engine already used them, the
club's values swapped in for a log without them) and says whether the
other side accepted it (the log's ``accept`` event) and how many times an
acceptance was undone (a correction on the device).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from euchre.hand import REDEAL, SCORED

from bower_host.club.movement import EW, NS

KEY = "club"            # the header key of the round object
VERSION = 1

#: Scoring options a night may set: allowed values and the default (the
#: engine's Classic scoring).
SCORING = {
    "loner": ((4, 5), 4),            # a lone march (all five tricks alone)
    "set_loner": ((2, 3, 4), 2),     # to the defenders when a lone maker is euchred
    "renege": ((1, 2, 3, 4), 2),     # to the other side for a renege (a hand played alone: ``loner``)
}
#: Engine options every round plays with: no game end on points (see
#: :func:`round_options` for the rest).
ROUND_OPTIONS = {"winning_score": 99}
#: ``round_hands`` of a minutes round: the device ends it (``accept``
#: between hands) when time is called.
MINUTES_ROUND_HANDS = 99
ACCEPT = "accept"
UNDO = "undo"
NIGHT_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}\Z")
MAX_TABLES = 64
MAX_ROUNDS = 200


class RoundError(ValueError):
    """A round header or log that cannot count; the message says why."""


def default_scoring() -> dict:
    return {k: v[1] for k, v in SCORING.items()}


def check_scoring(s) -> dict:
    """The scoring object, every key present and allowed.

    :raises RoundError: a missing, unknown or out-of-range option.
    """
    if not isinstance(s, dict):
        raise RoundError(f"scoring is {s!r}, not an object")
    unknown = sorted(set(s) - set(SCORING))
    if unknown:
        raise RoundError(f"unknown scoring option {unknown[0]!r} (known: {', '.join(SCORING)})")
    out = {}
    for k, (allowed, default) in SCORING.items():
        v = s.get(k, default)
        if type(v) is not int or v not in allowed:
            raise RoundError(f"scoring {k} is {v!r}, not one of {', '.join(map(str, allowed))}")
        out[k] = v
    return out


def round_header(night: str, table: int, rnd: int, hands: int | None, minutes: int | None, scoring: dict) -> dict:
    """The ``club`` object for a round (checked)."""
    obj = {"v": VERSION, "night": night, "table": table, "round": rnd, "hands": hands, "minutes": minutes,
           "scoring": dict(scoring)}
    check_club(obj)
    return obj


def check_club(obj) -> dict:
    """Check a header's ``club`` object as a device could have written it.

    :raises RoundError: naming the field.
    """
    if not isinstance(obj, dict):
        raise RoundError(f"the header's club field is {str(obj)[:40]!r}, not an object")
    if obj.get("v") != VERSION:
        raise RoundError(f"club round format {obj.get('v')!r}: this bower reads format {VERSION}")
    night = obj.get("night")
    if not isinstance(night, str) or not NIGHT_KEY.match(night):
        raise RoundError(f"club night id {str(night)[:40]!r} is not an id")
    for k, top in (("table", MAX_TABLES), ("round", MAX_ROUNDS)):
        v = obj.get(k)
        if type(v) is not int or not 1 <= v <= top:
            raise RoundError(f"club {k} is {v!r}, not a number from 1 to {top}")
    hands, minutes = obj.get("hands"), obj.get("minutes")
    if (hands is None) == (minutes is None):
        raise RoundError("a club round has either hands or minutes")
    for k, v in (("hands", hands), ("minutes", minutes)):
        if v is not None and (type(v) is not int or not 1 <= v <= 99):
            raise RoundError(f"club {k} is {v!r}, not a number from 1 to 99")
    check_scoring(obj.get("scoring"))
    return obj


def round_options(club: dict) -> dict:
    """The Classic options a round of ``club`` plays with (what the device
    writes): no end on points, ``round_hands`` hands (99 for a minutes
    round) and the night's scoring."""
    s = check_scoring(club["scoring"])
    return {**ROUND_OPTIONS, "round_hands": club.get("hands") or MINUTES_ROUND_HANDS, "lone_march": s["loner"],
            "set_loner": s["set_loner"], "renege_points": s["renege"]}


def check_options(options, club: dict) -> bool:
    """Check a header's club-round options against its ``club`` object.

    Returns True when the options make the game a club round (``round_hands``
    above 0: the engine ends it and it can be accepted), False for a log
    without them (an older or another tool's).

    :raises RoundError: an option that disagrees, naming it.
    """
    if not isinstance(options, dict) or not options.get("round_hands"):
        return False
    want = round_options(club)
    length = f"{club['hands']} hands" if club.get("hands") else f"{club['minutes']} minutes (round_hands " \
                                                                  f"{MINUTES_ROUND_HANDS})"
    why = {"round_hands": f"the round is {length}",
           "lone_march": f"the club's lone march is worth {want['lone_march']}",
           "set_loner": f"the club's euchred loner is worth {want['set_loner']}",
           "renege_points": f"the club's renege is worth {want['renege_points']}"}
    for k, text in why.items():
        if options.get(k) != want[k]:
            raise RoundError(f"the header's option {k} is {options.get(k)!r}, but {text}")
    return True


def club_of(header: dict) -> dict | None:
    """The header's checked ``club`` object, or None for an ordinary game.

    :raises RoundError: a club object that is not a valid round, a round
        that is not a four-player Classic game, or club-round options that
        disagree with the club object.
    """
    if KEY not in header:
        return None
    obj = check_club(header[KEY])
    if header.get("variant") != "classic" or len(header.get("players") or ()) != 4:
        raise RoundError("a club round is a Classic game of four players")
    check_options(header.get("options"), obj)
    return obj


def undone_accepts(records) -> list:
    """The record indexes (in ``db.Replay.records``, undo lines included)
    of every ``accept`` a later ``undo`` took back -- each one a result
    corrected on the device after the other side had accepted it -- in the
    order they were given."""
    stack: list = []
    out = []
    for i, rec in enumerate(records):
        if rec == UNDO:
            if stack:
                j, ev = stack.pop()
                if ev == ACCEPT:
                    out.append(j)
        elif isinstance(rec, str):
            stack.append((i, rec))
    return sorted(out)


# ----- scoring a round ----------------------------------------------------------

@dataclass
class HandResult:
    number: int
    points: list            # club points per seat
    outcome: str            # the engine's outcome code (euchre.hand.OUTCOMES)
    alone: int | None       # seat of a lone maker
    euchred: bool


@dataclass
class RoundResult:
    """A round scored with the night's options: per seat (N, E, S, W)."""
    players: list
    points: list                  # the side's round total, per seat
    hands: int                    # hands counted (scored or thrown in)
    complete: bool
    winner: int                   # NS or EW (ties: see ``winner_of``)
    loners: list                  # lone marches per seat
    euchres: list                 # hands in which the seat's side euchred the makers
    detail: list = field(default_factory=list)  # [HandResult]
    accepted: bool = False        # the log ends accepted by the other side (``accept``)
    corrections: int = 0          # acceptances later undone (corrected on the device)
    target: int | None = None     # hands the round is played to (None: a minutes round)
    why: str = ""                 # why a round that cannot count does not (else "")

    def key(self) -> tuple:
        """What two reports of the same round must agree on."""
        return tuple(self.players), tuple(self.points), self.hands, self.complete

    @property
    def awaiting(self) -> bool:
        """Played out (all its hands) but not accepted: not counted yet."""
        return awaiting(self.to_json(), self.target)

    def to_json(self) -> dict:
        return {"players": self.players, "points": self.points, "hands": self.hands, "complete": self.complete,
                "winner": self.winner, "loners": self.loners, "euchres": self.euchres, "accepted": self.accepted,
                "corrections": self.corrections}

    def text(self) -> str:
        p = self.players
        state = "" if self.complete else ", awaiting acceptance" if self.awaiting else \
            f", {self.hands} hands so far"
        return f"{p[0]} & {p[2]} {self.points[0]}, {p[1]} & {p[3]} {self.points[1]}{state}"


def awaiting(res: dict, hands: int | None) -> bool:
    """A stored result (``RoundResult.to_json``) of a round of ``hands``
    hands that has them all but is not complete: it waits for the other
    side's acceptance. (A minutes round cannot tell: it shows as playing.)"""
    return not res.get("complete") and not res.get("accepted") and hands is not None and \
        res.get("hands", 0) >= hands


def club_points(h, scoring: dict) -> list:
    """Points per seat of a finished engine hand under the club's options.

    The engine's points say who scores; the club's options change how much a
    lone march, a euchred loner and a renege are worth.
    """
    pts = list(h.points or [0, 0, 0, 0])
    if h.result != SCORED:
        return pts
    if h.renege >= 0:
        v = scoring["loner"] if (h.alone or h.lone_defender >= 0) else scoring["renege"]
    elif h.maker_tricks() < h.rules.tricks_to_make:
        if not h.alone or h.lone_defender >= 0:
            return pts
        v = scoring["set_loner"]
    elif h.alone == 1 and h.maker_tricks() == h.rules.hand_size:
        v = scoring["loner"]
    else:
        return pts
    return [0 if x == 0 else (v if x > 0 else -v) for x in pts]


def winner_of(points: list, detail: list) -> int:
    """The side that won a round: more points; level, the side that scored
    the round's last scoring hand; nothing scored at all, N/S."""
    if points[NS] != points[EW]:
        return NS if points[NS] > points[EW] else EW
    for hr in reversed(detail):
        if hr.points[NS] != hr.points[EW]:
            return NS if hr.points[NS] > hr.points[EW] else EW
    return NS


def round_result(replay, club: dict, closed: bool = False) -> RoundResult:
    """Score a replayed round (``db.Replay``).

    A hand counts when it passed the deal on (scored or thrown in; a misdeal
    is redealt and does not). ``hands`` rounds count their first N hands;
    ``minutes`` rounds count every hand. Every round needs the other side's
    acceptance (the log's ``accept``) to be complete: a ``hands`` round with
    its N hands and accepted; a ``minutes`` round accepted, or ``closed``
    (handed in, or its time is up). A log whose options make no club round
    (no ``round_hands``: an older or another tool's) cannot record an
    acceptance, so it never completes (``why`` says so).
    """
    scoring = check_scoring(club["scoring"])
    limit = club.get("hands")
    points = [0, 0, 0, 0]
    loners = [0, 0, 0, 0]
    euchres = [0, 0, 0, 0]
    detail = []
    counted = 0
    for rec in replay.hands:
        h = rec.hand
        if h.result == REDEAL:
            continue
        if limit is not None and counted >= limit:
            break
        counted += 1
        pts = club_points(h, scoring)
        alone = None
        euchred = False
        if h.result == SCORED and h.renege < 0:
            if h.alone and h.maker_tricks() == h.rules.hand_size:
                loners[h.maker] += 1
                alone = h.maker
            if h.maker_tricks() < h.rules.tricks_to_make:
                euchred = True
                for s in range(4):
                    if s % 2 != h.maker % 2:
                        euchres[s] += 1
        for s in range(4):
            points[s] += pts[s]
        detail.append(HandResult(rec.number, pts, h.outcome, alone, euchred))
    game = replay.game
    accepted = bool(getattr(game, "accepted", False))
    corrections = len(undone_accepts(getattr(replay, "records", None) or ()))
    why = ""
    if not getattr(game.rules, "round_hands", 0):
        done = False
        why = "its header's options have no round_hands (an older bower's or another tool's log), so it " \
              "cannot record the other side's acceptance"
    elif limit is not None:
        done = accepted and counted >= limit
        if accepted and counted < limit:
            why = f"accepted after {counted} of its {limit} hands"
    else:
        done = accepted or closed
    # Both partners hold the side's total; a renege deducted from one side
    # shows there too (the engine books it to both partners).
    return RoundResult(list(game.players), points, counted, done, winner_of(points, detail),
                       loners, euchres, detail, accepted, corrections, limit, why)
