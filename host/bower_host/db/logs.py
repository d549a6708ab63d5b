"""A game log decoded, its header checked, and replayed through the engine
into finished hands (``replay``), and the ``hands`` row of each.

::

    rp = replay(text)                   # raises euchre.log.LogError
    rp.game, rp.hands                   # the engine's Game, [HandRecord]
    hand_row(rp.hands[0])               # {"number": 1, "dealer": ..., ...}

Device input is hostile until checked: the header's fields are validated
(``check_header``) before anything is replayed; ``decode(text,
salvage=True)`` keeps the good lines before a corrupt one and says which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NoReturn

from euchre import IllegalAction
from euchre import log as elog
from euchre.cards import SUITS, card_name
from euchre.game import game_from_header
from euchre.hand import REDEAL, SCORED, THROWN_IN
from euchre.logfile import split_lines
from euchre.notation import outcome_text

RESULT_NAMES = {SCORED: "scored", THROWN_IN: "thrown-in", REDEAL: "redeal"}
# The ``outcome`` column of a scored hand: the engine's outcome code
# (euchre.hand.OUTCOMES, stored as it is in ``outcome_code``) in the
# column's four words.
OUTCOME_WORDS = {"made": "made", "made_alone": "made", "march": "march", "lone_march": "march",
                 "best_march": "march", "unpartnered_march": "march", "euchred": "euchred",
                 "defend_euchre": "euchred", "renege": "renege"}


@dataclass
class HandRecord:
    """One finished hand of a replayed game."""
    number: int
    hand: Any                       # the engine's finished ``Hand`` (amended: the amendment's)
    events: list                    # [(phase before the event, event text), ...]
    scores: list                    # running scores per seat after the hand
    amended: dict | None = None     # amended (euchre.amend): the hand as first entered
    counted: bool = True            # False: played after the game's end (an amendment moved it)


@dataclass
class Replay:
    """A log decoded and replayed through the engine."""
    header: dict
    records: list                   # every payload after the header, undo lines included
    events: list                    # events with undo lines applied
    game: Any
    hands: list = field(default_factory=list)   # [HandRecord]
    dropped: str | None = None


@dataclass
class Decoded:
    """A log's lines, decoded (see ``decode``)."""
    header: dict
    records: list                   # payloads of every good line after the header, "undo" included
    events: list                    # the events once undo lines are applied
    linenos: list                   # the line number of each event
    dropped: str | None             # why a torn last line was dropped
    text: str = ""                  # the text decoded: the whole log, or its good prefix when damaged
    damaged: str | None = None      # a corrupt line before the last: which, why, what was left out
    damaged_line: int | None = None  # that line's number (1: the header)


def decode(text: str, salvage: bool = False) -> Decoded:
    """Decode a log's text (``euchre.log`` format).

    :param salvage: a corrupt line before the last (bad CRC, torn, not JSON)
        ends the log there instead of failing: the lines before it are
        decoded and ``damaged`` says which line it was.
    :raises euchre.log.LogError: unreadable log (names the line).
    """
    lines = list(split_lines(text))
    try:
        header, evs, dropped = elog.read_lines(lines)
    except elog.LogError:
        if not salvage:
            raise
        bad = _first_bad_line(lines)
        if bad is None or bad[0] < 2:
            raise
        n, why = bad
        d = decode("".join(lines[:n - 1]))
        d.damaged = (f"{why}; the log has {len(lines)} lines and the {len(lines) - n + 1} from line {n} on "
                     "were not imported")
        d.damaged_line = n
        return d
    good = len(lines) - (1 if dropped else 0)
    records = [elog.decode_line(lines[i], i + 1) for i in range(1, good)]
    return Decoded(header, records, [e for _, e in evs], [n for n, _ in evs], dropped, text)


def _first_bad_line(lines: list) -> tuple[int, str] | None:
    # (line number, error) of the first line that does not decode, if any.
    for i, line in enumerate(lines):
        try:
            elog.decode_line(line, i + 1)
        except elog.LogError as e:
            return i + 1, str(e)
    return None


#: Header ``started`` values accepted: Unix seconds from 1970 (0: the
#: device clock was never set) to 2100-01-01, the range ``bower clock`` sets.
MAX_STARTED = 4102444800
#: Longest player name (the device's are at most 8 characters) and game or
#: device id accepted from a header.
MAX_NAME = 64


def check_header(h: dict) -> None:
    """Refuse a header field of the wrong type or out of range before the
    engine sees it (a damaged or hostile device could send anything).

    :raises euchre.log.LogError: ``line 1: header field 'dealer' ...``.
    """
    def bad(name, why) -> NoReturn:
        raise elog.LogError(f"line 1: header field {name!r} {why}")

    def show(v):
        t = json.dumps(v)
        return t if len(t) <= 40 else t[:37] + "..."

    v = h.get("variant")
    if not isinstance(v, str) or not v:
        bad("variant", f"is {show(v)}, not a variant name")
    if h.get("options") is not None and not isinstance(h["options"], dict):
        bad("options", f"is {show(h['options'])}, not an object of options")
    p = h.get("players")
    if not isinstance(p, list) or not p or not all(
            isinstance(n, str) and 0 < len(n) <= MAX_NAME and n.isprintable() for n in p):
        bad("players", f"is {show(p)}, not a list of player names")
    d = h.get("dealer")
    if type(d) is not int or not 0 <= d < len(p):
        bad("dealer", f"is {show(d)}, not a seat number from 0 to {len(p) - 1}")
    if h.get("mode", "table") not in ("table", "cards"):
        bad("mode", f"is {show(h.get('mode'))}, not \"table\" or \"cards\"")
    t = h.get("started")
    if t is not None and (type(t) is not int or not 0 <= t < MAX_STARTED):
        bad("started", f"is {show(t)}, not a time between 1970 and 2100 (set the device clock: bower clock)")
    for k in ("id", "device"):
        x = h.get(k)
        if x is not None and not (isinstance(x, str) and 0 < len(x) <= MAX_NAME and x.isprintable()
                                  or type(x) is int and 0 <= x < 10 ** 12):
            bad(k, f"is {show(x)}, not an id")


def replay(text: str) -> Replay:
    """Decode and replay a log, capturing each hand as it finishes.

    :raises euchre.log.LogError: unreadable log or an event the rules refuse.
    """
    return replay_decoded(decode(text))


def replay_decoded(d: Decoded) -> Replay:
    """Replay a decoded log (see ``replay``)."""
    check_header(d.header)
    try:
        game = game_from_header(d.header)
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise elog.LogError(f"line 1: {e}") from e
    out = Replay(d.header, d.records, d.events, game, dropped=d.dropped)
    current: list = []
    for ev, lineno in zip(d.events, d.linenos):
        number = game.hand_no
        phase = game.hand.phase
        amending = game.amending is not None or ev.startswith("amend ")
        try:
            game.apply(ev)
        except (IllegalAction, ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            # A line with a good CRC the rules refuse (or cannot even parse).
            raise elog.LogError(f"line {lineno} ({ev[:40]}): {e}") from e
        if amending:
            if game.amending is None:
                _amended(out, game)
            continue
        current.append((phase, ev))
        if game.hand_no != number:
            out.hands.append(HandRecord(number, game.last_hand, current, list(game.scores)))
            current = []
    return out


def _amended(out: Replay, game) -> None:
    # An amendment was made (euchre.amend): its hand's record holds the hand
    # as amended (the first entry kept in ``amended``), and every record's
    # running scores and whether it counted follow the game's new history.
    from euchre.amend import records
    n, old, new, *_ = game.last_amend
    rec = out.hands[n - 1]
    if rec.amended is None:
        h = rec.hand
        rec.amended = {"outcome": OUTCOME_WORDS.get(h.outcome) if h.result == SCORED else None,
                       "outcome_code": h.outcome, "renege": h.renege if h.renege >= 0 else None,
                       "points": list(old), "result": RESULT_NAMES[h.result]}
    rec.hand = game.amended_hand
    scores = list(game.history_base)
    for r, (_, result, _d, points) in zip(out.hands, records(game)):
        r.counted = r.number < game.hand_no
        if result == SCORED and r.counted:
            scores = [a + b for a, b in zip(scores, points)]
        r.scores = list(scores)


def is_quick(rec: HandRecord) -> bool:
    """Whether the hand is as entered in quick score: as who made trump and
    how it ended (``quick N`` ..., euchre.quick), not bid by bid. An amended
    hand is (euchre.amend enters it so), whatever its first entry was: its
    bids and tricks no longer tell how it went, so nothing of them is
    stored or shown."""
    return rec.amended is not None or bool(rec.events) and rec.events[0][1].startswith("quick")


def hand_row(rec: HandRecord) -> dict:
    """The ``hands`` row of a finished hand (without ``game_id``)."""
    h = rec.hand
    r = h.rules
    scored = h.result == SCORED
    maker = h.maker if h.maker >= 0 else None
    maker_tricks = h.maker_tricks() if scored and maker is not None else None
    outcome = OUTCOME_WORDS[h.outcome] if scored else None
    partner = None
    if r.call_partner and 0 <= h.partner < h.n:
        partner = h.partner
    tricks, lone_defender = list(h.tricks), h.lone_defender if h.lone_defender >= 0 else None
    if is_quick(rec):
        # Quick score (euchre.quick): how the hand ended, not its tricks (the
        # engine books them nominally: none here, no count); a partnership
        # names its side, not the maker's or the lone defender's seat.
        maker_tricks, tricks = None, [0] * h.n
        if r.teams:
            maker = lone_defender = None
    return {
        "number": rec.number,
        "dealer": h.dealer,
        "upcard": card_name(h.upcard) if h.upcard >= 0 else None,
        "up_suit": SUITS[h.up_suit] if 0 <= h.up_suit < 4 else None,
        "maker": maker,
        "trump": SUITS[h.trump] if 0 <= h.trump < 4 else None,
        "alone": h.alone,
        "lone_defender": lone_defender,
        "partner_card": card_name(h.partner_card) if h.partner_card >= 0 else None,
        "partner": partner,
        "tricks": tricks,
        "points": list(h.points or [0] * h.n),
        "maker_tricks": maker_tricks,
        "outcome": outcome,
        "outcome_code": h.outcome,
        "renege": h.renege if scored and h.renege >= 0 else None,
        "reason": outcome_text(h.outcome, h.renege),
        "result": RESULT_NAMES[h.result],
        "scores": list(rec.scores),
        "amended": json.dumps(rec.amended, sort_keys=True) if rec.amended else None,
        "counted": int(rec.counted),
    }
