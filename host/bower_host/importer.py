"""``bower import FILE...``: bring exported games (back) into the library.

Each FILE is one of:

* Bower's JSON export (``bower export -f json``): every game in it; a game
  that carries its device log (``"log"``) is stored as exactly that log,
  else its log is rebuilt from its header fields and events;
* an EGN file (``.egn``, 1.0 to 1.6, Bower's own or another tool's Classic
  game; packed deals too): a card-mode game is rebuilt from the deal (given,
  or recovered from the tricks and the discard), the bids, the exchanges and
  the tricks; a table-mode game exported with ``--table-results`` from the
  Bower events noted on each deal; another tool's game whose cards are not
  all known as a table-mode game (bids and who took each trick), said in
  ``Item.note``; ``initialScore`` is the game's ``start``;
* a device log (what ``bower sync`` archives under ``<library>.raw/``).

Every game is replayed through the engine before anything is stored, and
checked against what the file claims (scores, EGN's own scoring of each
deal, the dealers); then it is stored the way ``bower sync`` stores a log
(``Library.add_log``), so importing twice stores once. A file that fails
any check is reported in one line (``bower: FILE: reason``) and nothing of
it is stored; the other files still go in.

::

    bower import season.json g0001.egn bower.sqlite3.raw/e6614103e7/g0002.log
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from euchre import Game, IllegalAction, Rules
from euchre import log as elog
from euchre.cardmode import shuffled_deck
from euchre.cards import HIGH_JOKER, card_name
from euchre.hand import P_BID1, P_BID2, P_DECLARE, P_DEFEND, P_DISCARD, P_GIVE, P_GIVEBACK, P_PLAY, P_UP
from euchre.notation import outcome_text

from bower_host import egn
from bower_host.errors import CommandError
from bower_host.db import Library, LibraryError, decode, replay_decoded

JSON_FORMAT = "bower-library-export"
_GAME_ID = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_-]{0,63})/([A-Za-z0-9][A-Za-z0-9_.-]{0,63})$")
# EGN ruleset keys Bower can only take at their default (the name, the default).
_EGN_DEFAULTS = {"min_rank": 9, "num_deals": 0, "loner_euchred_score": 2, "go_under": False,
                 "num_players": 4, "allow_no_trump": False, "fast_break": False, "four_trick_tokens": False}


class ImportProblem(Exception):
    """A file (or a game in it) that cannot be imported; the message says why."""


@dataclass
class Item:
    """One game log ready to store."""
    raw: bytes
    device: str
    key: str
    name: str
    note: str = ""      # what the user should know of how it went in (one line)


# ----- reading files ------------------------------------------------------------

def read_file(path: Path, device: str | None = None, tick=None) -> list[Item]:
    """The games of one file, each replayed and checked (``tick(done, total)``
    after each game of a JSON export, if given).

    :raises ImportProblem: the file, or any game in it, does not import.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ImportProblem(f"cannot read it: {e.strerror or e}") from e
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ImportProblem(f"not UTF-8 text ({e.reason} at byte {e.start})") from e
    doc = None
    if text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
        except ValueError as e:
            raise ImportProblem(f"not valid JSON: {e}") from e
    if isinstance(doc, dict) and doc.get("format") == JSON_FORMAT:
        return from_json(doc, tick)
    if isinstance(doc, dict) and doc.get("fileType", doc.get("file_type")) == egn.FILE_TYPE:
        return [from_egn(doc)]
    if doc is not None:
        raise ImportProblem("a JSON file that is neither Bower's export (format bower-library-export) "
                            "nor an EGN file (fileType Euchre Game Notation)")
    return [from_log(data, path.name, device)]


def from_log(raw: bytes, name: str, device: str | None = None) -> Item:
    """A device log, checked by replay.

    :raises ImportProblem: it does not decode or replay, or names no device.
    """
    rp = _replay(raw, "the log")
    dev = rp.header.get("device") or device
    if not dev:
        raise ImportProblem("the log names no device (its header has none): give --device ID")
    if device and rp.header.get("device") and str(rp.header["device"]) != device:
        raise ImportProblem(f"the log says device {rp.header['device']}, not {device}")
    return Item(raw, str(dev), _key(rp.header), name)


def _replay(raw: bytes, what: str):
    try:
        rp = replay_decoded(decode(raw.decode("utf-8")))
    except (elog.LogError, UnicodeDecodeError) as e:
        raise ImportProblem(f"{what} does not replay: {e}") from e
    if rp.dropped:
        raise ImportProblem(f"{what} has a torn last line ({rp.dropped})")
    return rp


def _key(header: dict) -> str:
    key = header.get("id")
    if not isinstance(key, (str, int)) or isinstance(key, bool) or not str(key):
        raise ImportProblem("the log's header has no game id")
    return str(key)


def _timestamp(iso) -> int | None:
    if not isinstance(iso, str) or not iso:
        return None
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00").replace(" ", "T"))
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return int(t.timestamp())


def _dump(game, key: str, device: str, started: int | None) -> bytes:
    extra: dict[str, str | int] = {"id": key, "device": device}
    if started:
        extra["started"] = started
    return elog.dumps(game, extra=extra).encode("utf-8")


# ----- Bower's JSON export ---------------------------------------------------------

def from_json(doc: dict, tick=None) -> list[Item]:
    """The games of Bower's JSON export (``tick(done, total)`` after each).

    :raises ImportProblem: a game that does not replay or disagrees with its own record.
    """
    if doc.get("version") != 1 or not isinstance(doc.get("games"), list):
        raise ImportProblem("a Bower JSON export of an unknown version (this bower reads version 1)")
    out = []
    for i, j in enumerate(doc["games"]):
        where = f"game {i + 1}" + (f" ({j.get('device')}/{j.get('game_id')})" if isinstance(j, dict) else "")
        try:
            out.append(_json_game(j))
        except ImportProblem as e:
            raise ImportProblem(f"{where}: {e}") from e
        except (KeyError, TypeError, ValueError, IllegalAction) as e:
            raise ImportProblem(f"{where}: not a game as Bower exports it ({type(e).__name__}: {e})") from e
        if tick is not None:
            tick(i + 1, len(doc["games"]))
    return out


def _json_game(j: dict) -> Item:
    device, key = str(j["device"]), str(j["game_id"])
    if isinstance(j.get("log"), str):
        raw = j["log"].encode("utf-8")
        rp = _replay(raw, "its log")
        if (str(rp.header.get("device", device)), _key(rp.header)) != (device, key):
            raise ImportProblem("its log belongs to another game")
        game = rp.game
    else:
        game = Game(Rules(j["variant"], j["options"]), j["players"], j["first_dealer"], j["mode"] == "cards",
                    j.get("initial_scores"))
        for n, ev in enumerate(j["events"]):
            try:
                game.apply(ev)
            except (IllegalAction, ValueError) as e:
                raise ImportProblem(f"event {n + 1} ({ev}) does not replay: {e}") from e
        raw = _dump(game, key, device, _timestamp(j.get("started")))
    if list(game.scores) != list(j["scores"]):
        raise ImportProblem(f"the replay scores {game.scores}, the file says {j['scores']}")
    if list(game.players) != list(j["players"]) or game.rules.name != j["variant"]:
        raise ImportProblem("its log and its fields name different players or variants")
    return Item(raw, device, key, f"{key}.log")


# ----- EGN ---------------------------------------------------------------------------

def from_egn(doc: dict) -> Item:
    """A Classic game from an EGN file (1.0 to 1.6), rebuilt event by event
    and replayed.

    A card-mode game when every card each player held is known: from
    ``playerCards``, or recovered from the tricks (EGN's lead rules say who
    played each card), the dealer's ``discard`` and, in 1.0 files, the
    ``kitty``. Otherwise (a lone maker's partner whose cards are not
    recorded, a pick-up without its discard, a deal not played out...) a
    table-mode game: the upcard's suit, every bid and who took each trick,
    which is all Bower's table mode records; ``Item.note`` says why.

    :raises ImportProblem: the file is not a Classic game Bower can replay, it
        contradicts itself, or Bower's replay disagrees with EGN's rules or
        the file's scores.
    """
    md = doc.get("metadata")
    if not isinstance(md, dict) or not isinstance(doc.get("deals"), list):
        raise ImportProblem("an EGN file needs metadata and deals")
    if not egn.readable_version(doc.get("version")):
        raise ImportProblem(f"EGN version {doc.get('version')!r}: this bower reads {egn.READS}")
    try:
        full = egn.expand(egn.upgrade(doc))
    except egn.EgnError as e:
        raise ImportProblem(str(e)) from e
    md = full["metadata"]
    players = md.get("players") or []
    players = [p.get("name") if isinstance(p, dict) else p for p in players] if isinstance(players, list) else []
    if len(players) != 4 or not all(isinstance(p, str) and 0 < len(p) <= 64 and p.isprintable() for p in players):
        # (the names a log's header takes: bower_host.db.logs.check_header)
        raise ImportProblem("Bower imports 4-player Classic games: the file does not name 4 players "
                            "(each in printable characters, at most 64)")
    rs = md.get("ruleset") or {}
    if not isinstance(rs, dict):
        raise ImportProblem("the ruleset is not an object")
    rules = _rules(rs)
    start = _start(md.get("initialScore"), rules)
    deals = [_same_cards(d) for d in full["deals"]]
    if not deals:
        raise ImportProblem("the file has no deals")
    note = ""
    try:
        first = deals[0]["initialState"]["dealer"]
        bower_table = any(_events_note(d) is not None for d in deals)
        complete, why = (None, "") if bower_table else _recover(deals, rs)
        cards = complete is not None
        if why:
            note = ("imported as a table-mode game (the upcard's suit, the bids and who took each trick; "
                    f"no cards): {why}")
        game = Game(rules, players, first, cards=cards, start=start + start)
        for i, deal in enumerate(deals):
            if game.is_terminal():
                raise ImportProblem(f"deal {i}: the game was already over ({game.scores[0]}-{game.scores[1]} "
                                    f"after deal {i - 1}, playing to {rules.winning_score})")
            dealer = deal["initialState"]["dealer"]
            if game.hand.dealer != dealer:
                raise ImportProblem(f"deal {i}: the dealer is seat {dealer}, but the deal passes to seat "
                                    f"{game.hand.dealer}")
            last = i == len(deals) - 1
            if bower_table:
                _table_deal(game, deal, i)
            elif complete is not None:
                _card_deal(game, complete[i], i, rs, last)
            else:
                _foreign_table_deal(game, deal, i, rs, last)
    except egn.EgnError as e:
        raise ImportProblem(str(e)) from e
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        raise ImportProblem(f"not an EGN deal Bower can read ({type(e).__name__}: {e})") from e
    final = md.get("finalScore")
    if final is not None and list(final) != list(game.scores[:2]):
        raise ImportProblem(f"the replay ends {game.scores[0]}-{game.scores[1]}, the file's finalScore "
                            f"says {final[0]}-{final[1]}")
    gid = md.get("gameId")
    m = _GAME_ID.match(gid) if isinstance(gid, str) else None
    if m:
        device, key = m.group(1), m.group(2)
    else:
        digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode("utf-8")).hexdigest()[:12]
        device, key = "egn", f"egn-{digest}"
    raw = _dump(game, key, device, _timestamp(md.get("date")))
    if bower_table:
        # The deals Bower would write for this game must be the file's.
        again = egn.from_log(raw.decode("utf-8"), table_results=True)["deals"]
        if _strip(again) != _strip(deals):
            raise ImportProblem("its deals do not match the Bower events noted on them")
    return Item(raw, device, key, f"{key}.log", note)


def _start(score, rules: Rules) -> list:
    # [team 0/2, team 1/3] a game starts at (EGN's initialScore, 0-0 if none).
    if score is None:
        return [0, 0]
    if not (isinstance(score, list) and len(score) == 2 and all(type(x) is int for x in score)):
        raise ImportProblem(f"initialScore is {json.dumps(score)[:40]}, not two whole numbers")
    target = rules.winning_score
    if max(score) >= target:
        raise ImportProblem(f"the game starts at {score[0]}-{score[1]}, at or past its target of {target}: "
                            "it is over before the first deal")
    if min(score) < -99:
        raise ImportProblem(f"the game starts at {score[0]}-{score[1]}: Bower keeps scores from -99")
    return list(score)


def _strip(deals):
    return [{"dealer": d["initialState"]["dealer"], "up": d["initialState"]["upCard"],
             "calls": d["phases"][0]["calls"], "alone": bool(d["phases"][0].get("isAlone"))} for d in deals]


def _rules(rs: dict) -> Rules:
    for k, default in _EGN_DEFAULTS.items():
        if rs.get(k, default) != default:
            raise ImportProblem(f"the ruleset has {k}: {rs[k]!r}, a rule Bower does not play "
                                f"(Bower's Classic Euchre has {k} {default!r})")
    if rs.get("winning_score", 10) == 0:
        raise ImportProblem("the ruleset has no winning score: Bower's games are played to a target")
    opts = {k: rs[k] for k in egn.RULESET_OPTIONS if k in rs}
    opts["std"] = bool(rs.get("std", True))     # EGN's default: stick the dealer
    try:
        rules = Rules("classic", **opts)
    except (TypeError, ValueError) as e:
        raise ImportProblem(f"the ruleset is not one Bower plays: {e}") from e
    want = egn.ruleset(rules).get("loner_march_score", 4)
    if rs.get("loner_march_score", 4) != want:
        raise ImportProblem(f"the ruleset has loner_march_score {rs['loner_march_score']}; Bower's rules give "
                            f"{want}" + (" (3 with partner's best)" if rules.options.get("partners_best") else ""))
    return rules


def _events_note(deal: dict):
    bid = egn._phase(deal, "EUCHRE_BIDDING") or {}
    for notes in (bid.get("callAnnotations") or {}).values():
        for n in notes:
            m = egn._EVENTS_RE.match(n)
            if m:
                return [e.strip() for e in m.group(1).split(";") if e.strip()]
    return None


def _apply(game, ev: str, i: int) -> None:
    try:
        game.apply(ev)
    except (IllegalAction, ValueError) as e:
        raise ImportProblem(f"deal {i}: {ev!r} does not replay: {e}") from e


def _table_deal(game, deal: dict, i: int) -> None:
    events = _events_note(deal)
    if events is None:
        raise ImportProblem(f"deal {i} has no cards and no Bower record of what happened at the table")
    number = game.hand_no
    for ev in events:
        _apply(game, ev, i)
    if game.hand_no == number:
        raise ImportProblem(f"deal {i}: the noted events do not finish the hand")


# ----- other tools' EGN: the cards each player held, or the table's record --------------

class _Unknown(Exception):
    """A deal whose cards cannot all be known (the message says which): the
    game goes in as table mode."""


_DECK = [r + s for r in "9TJQKA" for s in "cdhs"]


def _same_cards(x: Any) -> Any:
    # ``x`` with each card written one way: "N" (EGN's alias) as "9", the
    # suit lower case, so that cards compare as text.
    if isinstance(x, dict):
        return {k: _same_cards(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_same_cards(v) for v in x]
    if isinstance(x, str) and len(x) == 2 and x[0] in "789NTJQKA" and x[1] in "cdhsCDHS":
        return ("9" if x[0] == "N" else x[0]) + x[1].lower()
    return x


def _hands_given(st: dict) -> list:
    # playerCards per seat as given: a seat's five cards, or [] (not recorded).
    pcs = st.get("playerCards")
    if pcs is None:
        return [[], [], [], []]
    if not isinstance(pcs, list) or len(pcs) != 4 or any(not isinstance(h, list) or len(h) not in (0, 5)
                                                         for h in pcs):
        raise ImportProblem("playerCards must list, for each of the 4 seats, its 5 cards or none")
    for h in pcs:
        for c in h:
            egn.bower_card(c)   # (refuses what is not a card)
    return [list(h) for h in pcs]


def _full(st: dict) -> bool:
    pcs = st.get("playerCards")
    return isinstance(pcs, list) and len(pcs) == 4 and all(isinstance(h, list) and len(h) == 5 for h in pcs)


def _recover(deals: list, rs: dict):
    # (the deals with every player's cards filled in, "") when every card can
    # be known, else (None, why not). Deals that contradict themselves are
    # refused either way (``_check_play``).
    out, why = [], ""
    for i, deal in enumerate(deals):
        _check_play(deal, i, rs, i == len(deals) - 1)
        if why:
            continue
        if _full(deal["initialState"]):
            out.append(deal)
            continue
        try:
            out.append(_complete(deal, i, rs))
        except _Unknown as e:
            why = str(e)
    return (None, why) if why else (out, "")


def _played(deal: dict, o) -> list:
    # The cards each seat played, by EGN's lead rules (``o``: deal_outcome).
    play = egn._phase(deal, "TRICK_PLAY")
    seats = [[], [], [], []]
    for trick, order in zip(play["tricks"] if play else [], o.seats or []):
        for c, s in zip(trick, order):
            seats[s].append(c)
    return seats


def _picked_up(deal: dict) -> bool:
    # The upcard was ordered up (round 1).
    bid = egn._phase(deal, "EUCHRE_BIDDING") or {}
    calls = bid.get("calls") or []
    return any(c != "Pass" for c in calls[:4])


def _check_play(deal: dict, i: int, rs: dict, last: bool) -> None:
    # What a file without every player's cards must still get right: known
    # cards, each played once, the upcard with the dealer who picked it up
    # (and nobody else), whole tricks (only the last deal may stop early),
    # suit followed by whoever later shows the suit, each listed hand
    # holding what its seat played, initialLead (EGN 1.0) where EGN's rules
    # put the first lead.
    st = deal["initialState"]
    given = _hands_given(st)
    up = st["upCard"]
    play = egn._phase(deal, "TRICK_PLAY")
    tricks = play["tricks"] if play else []
    cards = [c for t in tricks for c in t]
    for c in [up] + cards:
        egn.bower_card(c)
        if c not in _DECK and c != "B":
            raise ImportProblem(f"deal {i}: {c} is not in the deck Bower deals (9 to ace)")
    o = egn.deal_outcome(deal, rs)
    if o.maker is None:
        if cards:
            raise ImportProblem(f"deal {i}: cards are played but nobody made trump")
        return
    seen = [c for c in cards if cards.count(c) > 1]
    if seen:
        raise ImportProblem(f"deal {i}: {seen[0]} is played twice")
    per = 4 - len(o.sit_out)
    short = [k for k, t in enumerate(tricks) if len(t) != per]
    if len(tricks) > 5 or any(k != len(tricks) - 1 for k in short) or (short and len(tricks[-1]) > per):
        raise ImportProblem(f"deal {i}: its tricks are not tricks of {per} cards")
    if not last and (len(tricks) < 5 or short):
        raise ImportProblem(f"deal {i}: only {len(tricks) - len(short)} of its 5 tricks are played, and "
                            "deals follow it (a hand is played out or redealt)")
    lead = play.get("initialLead") if play else None
    if lead is not None and lead != o.first_lead:
        raise ImportProblem(f"deal {i}: initialLead says seat {lead} led, but EGN's lead rule makes seat "
                            f"{o.first_lead} lead, so who played which card cannot be told")
    played = _played(deal, o)
    dealer = st["dealer"]
    picked = _picked_up(deal) and dealer not in o.sit_out
    for s in range(4):
        if up in played[s] and not (picked and s == dealer):
            raise ImportProblem(f"deal {i}: seat {s} played {up}, the upcard, which "
                                + ("the dealer picked up" if picked else "was turned down"))
    discard = bid_discard = (egn._phase(deal, "EUCHRE_BIDDING") or {}).get("discard")
    if picked and len(played[dealer]) == 5 and up not in played[dealer]:
        discard = up    # the dealer discarded the upcard itself
    if picked and discard is not None and discard in played[dealer]:
        raise ImportProblem(f"deal {i}: the dealer discarded {discard} and then played it")
    if bid_discard is not None and discard != bid_discard:
        raise ImportProblem(f"deal {i}: the dealer played five cards without {up}, the upcard, so discarded "
                            f"it, but the file's discard is {bid_discard}")
    taken = {}
    bid = egn._phase(deal, "EUCHRE_BIDDING") or {}
    for x in bid.get("cardExchanges") or []:
        taken.setdefault(x["receiver"], []).extend(x["cards"])
    for s in range(4):
        if given[s]:
            held = set(given[s]) | set(taken.get(s, [])) | ({up} if picked and s == dealer else set())
            odd = [c for c in played[s] if c not in held]
            if odd:
                raise ImportProblem(f"deal {i}: seat {s} played {odd[0]}, which its playerCards do not hold")
    # Following suit: a seat that did not follow the suit led and later
    # plays that suit held it then (a renege, which EGN cannot record).
    trump = o.trump or ""       # (a maker made it)
    for k, (trick, order) in enumerate(zip(tricks, o.seats or [])):
        if len(trick) < 2:
            continue
        led = egn._eff(trick[0], trump)
        for c, s in zip(trick[1:], order[1:]):
            if egn._eff(c, trump) == led:
                continue
            later = [x for x in played[s][played[s].index(c) + 1:] if egn._eff(x, trump) == led]
            if later:
                raise ImportProblem(f"deal {i}, trick {k + 1}: seat {s} played {c} on a {trick[0]} lead but "
                                    f"held {later[0]} (a renege, which EGN has no way to record)")


def _complete(deal: dict, i: int, rs: dict) -> dict:
    # ``deal`` with every player's five cards (and the dealer's discard)
    # filled in from the tricks, or _Unknown saying what is not recorded.
    st = deal["initialState"]
    bid = egn._phase(deal, "EUCHRE_BIDDING")
    play = egn._phase(deal, "TRICK_PLAY")
    o = egn.deal_outcome(deal, rs)
    if bid is None or o.maker is None:
        raise _Unknown(f"deal {i} has no trump made, so nobody's cards are known")
    if bid.get("cardExchanges"):
        raise _Unknown(f"deal {i} exchanges cards (farmer's hand or partner's best) and not every "
                       "player's cards are recorded")
    tricks = play["tricks"] if play else []
    per = 4 - len(o.sit_out)
    if len(tricks) != 5 or any(len(t) != per for t in tricks):
        raise _Unknown(f"deal {i} stops after {len([t for t in tricks if len(t) == per])} of its 5 tricks, "
                       "so the cards not played are not known")
    defender = bid.get("aloneDefender", -1)
    if rs.get("defend_alone") and bid.get("isAlone") and isinstance(defender, int) and defender >= 0 \
            and defender != o.first_lead:
        raise _Unknown(f"deal {i}: seat {defender} defends alone and leads in Bower (004), but EGN's rules "
                       f"make seat {o.first_lead} lead")
    given = _hands_given(st)
    played = _played(deal, o)
    dealer, up = st["dealer"], st["upCard"]
    picked = _picked_up(deal) and dealer not in o.sit_out
    hands: list = [None] * 4
    for s in range(4):
        if given[s]:
            hands[s] = list(given[s])
        elif s in o.sit_out:
            who = "the lone maker's partner" if s == (o.maker + 2) % 4 else "the lone defender's partner"
            raise _Unknown(f"deal {i}: seat {s} ({who}) sat out and its cards are not recorded (playerCards)")
        else:
            hands[s] = [c for c in played[s] if not (picked and s == dealer and c == up)]
    discard = bid.get("discard")
    if picked and not given[dealer] and up not in played[dealer]:
        discard = up        # the dealer discarded the upcard itself (_check_play)
    elif picked and not given[dealer]:
        if discard is None:
            kitty = [c for c in st.get("kitty") or [] if c]
            left = [c for c in _DECK if c != up and c not in kitty and not any(c in h for h in hands if h)]
            if len(kitty) == 3 and len(left) == 1:
                discard = left[0]   # EGN 1.0's kitty tells it
            else:
                raise _Unknown(f"deal {i}: the dealer (seat {dealer}) picked up {up} and the discard is not "
                               "recorded, so the dealer's hand is not known")
        hands[dealer].append(discard)
    new = json.loads(json.dumps(deal))
    new["initialState"]["playerCards"] = hands
    if discard is not None:
        egn._phase(new, "EUCHRE_BIDDING")["discard"] = discard   # pyright: ignore[reportOptionalSubscript]
    return new


def _call_event(c: str, alone: bool, best: bool) -> str:
    if c == "Pass":
        return "pass"
    ev = "order" if c == "Order" else f"call {c.upper()}"
    return ev + (" alone" if alone else "") + (" best" if alone and best else "")


def _open_end(game, deal: dict, i: int, rs: dict, last: bool, what: str) -> None:
    # The record of deal ``i`` ends before its hand does: the last deal of a
    # game in progress, if EGN's rules do not score it yet.
    if not last:
        raise ImportProblem(f"deal {i}: {what} end before the hand does")
    d = egn.deal_outcome(deal, rs).delta
    if d and any(d):
        raise ImportProblem(f"deal {i}: play stops early; EGN's rules score it {d} already, but Bower "
                            "scores a hand once all its tricks are played")


def _foreign_table_deal(game, deal: dict, i: int, rs: dict, last: bool) -> None:
    # Table mode: the upcard's suit, each call, a lone defender, who took
    # each trick (by EGN's rules); a farmer's hand (003) is declared.
    st = deal["initialState"]
    up = st["upCard"]
    if egn.bower_card(up) >= HIGH_JOKER:
        raise ImportProblem(f"deal {i}: the joker was turned up and EGN does not record the suit the dealer "
                            "named for it")
    bid = egn._phase(deal, "EUCHRE_BIDDING") or {}
    calls = list(bid.get("calls") or [])
    alone = bool(bid.get("isAlone"))
    defender = bid.get("aloneDefender", -1)
    farmer = best = None
    for x in bid.get("cardExchanges") or []:
        if "sender" not in x and len(x["cards"]) == 3:
            farmer = x["receiver"]
        elif x.get("sender") == (x["receiver"] + 2) % 4 and len(x["cards"]) == 1:
            best = x["cards"][0]
        else:
            raise ImportProblem(f"deal {i}: a card exchange Bower has no rule for: {x}")
    o = egn.deal_outcome(deal, rs)
    won = list(o.winners or [])
    number = game.hand_no
    while game.hand_no == number and not game.is_terminal():
        h = game.hand
        legal = game.legal_actions()
        if h.phase == P_UP:
            ev = f"up {up[1].upper()}"
        elif h.phase in (P_BID1, P_BID2):
            if farmer is not None and f"farmers {farmer}" in legal:
                ev, farmer = f"farmers {farmer}", None
            elif not calls:
                return _open_end(game, deal, i, rs, last, "the calls")
            else:
                ev = _call_event(calls.pop(0), alone, best is not None)
        elif h.phase == P_DEFEND:
            ev = f"defend {defender}" if alone and f"defend {defender}" in legal else "defend none"
        elif h.phase == P_PLAY:
            if not won:
                return _open_end(game, deal, i, rs, last, "the tricks")
            ev = f"won {won.pop(0)}"
        else:
            raise ImportProblem(f"deal {i}: Bower asks for {', '.join(legal[:4])}, which EGN does not record")
        _apply(game, ev, i)
    if calls or won or farmer is not None:
        raise ImportProblem(f"deal {i}: {len(calls)} calls and {len(won)} tricks after the hand was over")
    _check_points(game, o, i)


def _check_points(game, o, i: int) -> None:
    h = game.last_hand
    if o.delta is not None and o.delta != list(h.points[:2]):
        raise ImportProblem(f"deal {i}: EGN's rules score it {o.delta}, Bower's replay {list(h.points[:2])} "
                            f"({outcome_text(h.outcome, h.renege)})")


def _card_deal(game, deal: dict, i: int, rs: dict, last: bool = False) -> None:
    st = deal["initialState"]
    hands = [[egn.bower_card(c) for c in hand] for hand in st.get("playerCards") or []]
    if len(hands) != 4 or any(len(h) != 5 for h in hands):
        raise ImportProblem(f"deal {i} has no table-mode record and not every player's five cards "
                            "(playerCards): Bower needs the whole deal to replay card play")
    up = egn.bower_card(st["upCard"])
    bid = egn._phase(deal, "EUCHRE_BIDDING")
    if bid is None:
        if last:
            return _open_end(game, deal, i, rs, last, "the calls")
        raise ImportProblem(f"deal {i} has no bidding")
    play = egn._phase(deal, "TRICK_PLAY")
    plays = [egn.bower_card(c) for t in (play["tricks"] if play else []) for c in t]
    farmer = best = None
    taken: list = []
    for x in bid.get("cardExchanges") or []:
        if "sender" not in x and len(x["cards"]) == 3:
            farmer, taken = x["receiver"], [egn.bower_card(c) for c in x["cards"]]
        elif x.get("sender") == (x["receiver"] + 2) % 4 and len(x["cards"]) == 1:
            best = egn.bower_card(x["cards"][0])
        else:
            raise ImportProblem(f"deal {i}: a card exchange Bower has no rule for: {x}")
    known = [c for h in hands for c in h] + [up] + taken
    if len(set(known)) != len(known):
        raise ImportProblem(f"deal {i}: a card is dealt twice")
    deck = sorted(shuffled_deck(game.rules, lambda n: 0))
    if not set(known) <= set(deck):
        raise ImportProblem(f"deal {i}: a card that is not in this game's deck")
    kitty = [up] + taken + [c for c in deck if c not in known]
    text = "/".join(" ".join(card_name(c) for c in h) for h in hands) + "/" + " ".join(card_name(c) for c in kitty)
    number = game.hand_no
    _apply(game, "deal " + text, i)
    calls = list(bid["calls"])
    alone = bool(bid.get("isAlone"))
    defender = bid.get("aloneDefender", -1)
    unplayed = set(deck) - set(plays)
    while game.hand_no == number and not game.is_terminal():
        h = game.hand
        legal = game.legal_actions()
        if h.phase == P_DECLARE:
            ev = f"farmers {farmer}" if f"farmers {farmer}" in legal else "pass"
        elif h.phase in (P_BID1, P_BID2):
            if not calls:
                return _open_end(game, deal, i, rs, last, "the calls")
            ev = _call_event(calls.pop(0), alone, best is not None)
        elif h.phase == P_DEFEND:
            ev = f"defend {defender}" if f"defend {defender}" in legal else \
                next((a for a in legal if a in ("pass", "defend none")), "pass")
        elif h.phase == P_DISCARD:
            ev = f"discard {card_name(egn.bower_card(bid['discard']))}" if bid.get("discard") else \
                _unplayed(legal, unplayed, i, "the dealer's discard")
        elif h.phase == P_GIVE:
            if best is None:
                raise ImportProblem(f"deal {i}: partner's best without the partner's card (cardExchanges)")
            ev = f"give {card_name(best)}"
        elif h.phase == P_GIVEBACK:
            ev = _unplayed(legal, unplayed, i, "the loner's discard")
        elif h.phase == P_PLAY:
            if not plays:
                return _open_end(game, deal, i, rs, last, "the tricks")
            ev = card_name(plays.pop(0))
        else:
            raise ImportProblem(f"deal {i}: Bower asks for {', '.join(legal[:4])}, which EGN does not record")
        _apply(game, ev, i)
    if calls or plays:
        raise ImportProblem(f"deal {i}: {len(calls)} calls and {len(plays)} cards after the hand was over")
    _check_points(game, egn.deal_outcome(deal, rs), i)


def _unplayed(legal: list, unplayed: set, i: int, what: str) -> str:
    # ``discard X`` / ``give X``: the one candidate never played.
    left = [a for a in legal if card_from(a) in unplayed]
    if len(left) != 1:
        raise ImportProblem(f"deal {i}: {what} is not recorded and the tricks do not tell it")
    return left[0]


def card_from(action: str) -> int:
    from euchre.cards import parse_card
    return parse_card(action.split()[-1])


# ----- storing ---------------------------------------------------------------------

def _conflict(lib: Library, item: Item) -> str | None:
    # Why the library's copy of this game rules this one out, if it does.
    found = lib.find(f"{item.device}/{item.key}")
    if not found:
        return None
    old = decode(found[0]["log"])
    new = decode(item.raw.decode("utf-8"))
    if old.header != new.header:
        return f"the library holds a different game {item.device}/{item.key} (game {found[0]['id']})"
    n = len(old.records)
    if new.records[:n] == old.records or old.records[:len(new.records)] == new.records:
        return None
    return f"the library holds {item.device}/{item.key} (game {found[0]['id']}) with other events"


def cmd_import(args: argparse.Namespace) -> int:
    # One writer at a time, as bower sync: the library's writer lock.
    from bower_host.db import writer_lock
    try:
        with writer_lock(args.db, "bower import"):
            return _import(args)
    except LibraryError as e:
        raise CommandError(str(e)) from None


def _import(args) -> int:
    from bower_host.progress import Progress

    lib = Library(args.db)
    failed = 0
    with lib, Progress() as bar:
        if len(args.files) > 1:
            bar.set("files", "importing", total=len(args.files))
        for name in args.files:
            path = Path(name)

            def tick(done, total, short=path.name):
                bar.set("games", f"{short}: checking", completed=done, total=total)
            try:
                items = read_file(path, args.device, tick)
                for it in items:
                    why = _conflict(lib, it)
                    if why:
                        raise ImportProblem(why + "; nothing stored")
            except ImportProblem as e:
                print(f"bower: {name}: {e}", file=sys.stderr)
                failed += 1
                bar.drop("games")
                bar.advance("files")
                continue
            for n, it in enumerate(items):
                if len(items) > 1:
                    bar.set("games", f"{path.name}: storing", completed=n, total=len(items))
                older = lib.find(f"{it.device}/{it.key}")
                if older and len(decode(older[0]["log"]).records) > len(decode(it.raw.decode()).records):
                    print(f"{name}: kept {it.device}/{it.key}: the library's copy is longer")
                    continue
                res = lib.add_log(it.raw, it.device, it.name)
                print(f"{name}: {res.status} {res.message}")
                if it.note:
                    print(f"{name}: {it.note}")
            bar.drop("games")
            bar.advance("files")
    if failed:
        print(f"bower: {failed} of {len(args.files)} files not imported", file=sys.stderr)
    return 1 if failed else 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("import", help="store games from Bower's JSON export, EGN files or device logs, "
                                      "each checked by replay (importing twice stores once)")
    p.add_argument("--db", metavar="FILE", help="the game library (default: $BOWER_DB, else bower.sqlite3 "
                                                "in your data directory)")
    p.add_argument("--device", metavar="ID", help="the device a log came from, when its header names none")
    p.add_argument("files", nargs="+", metavar="FILE", help="JSON exports, .egn files or device logs")
    p.set_defaults(func=cmd_import)
