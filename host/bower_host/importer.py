"""``bower import FILE...``: bring exported games (back) into the library.

Each FILE is one of:

* Bower's JSON export (``bower export -f json``): every game in it; a game
  that carries its device log (``"log"``) is stored as exactly that log,
  else its log is rebuilt from its header fields and events;
* an EGN file (``.egn``, Bower's own or another tool's Classic game; packed
  deals too): a card-mode game is rebuilt from the deal, the bids, the
  exchanges and the tricks; a table-mode game exported with
  ``--table-results`` from the Bower events noted on each deal;
* a device log (what ``bower sync`` archives under ``raw/``).

Every game is replayed through the engine before anything is stored, and
checked against what the file claims (scores, EGN's own scoring of each
deal, the dealers); then it is stored the way ``bower sync`` stores a log
(``Library.add_log``), so importing twice stores once. A file that fails
any check is reported in one line (``bower: FILE: reason``) and nothing of
it is stored; the other files still go in.

::

    bower import season.json g0001.egn raw/e6614103e7/g0002.log
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

from euchre import Game, IllegalAction, Rules
from euchre import log as elog
from euchre.cardmode import shuffled_deck
from euchre.cards import card_name
from euchre.hand import P_BID1, P_BID2, P_DECLARE, P_DEFEND, P_DISCARD, P_GIVE, P_GIVEBACK, P_PLAY

from bower_host import egn
from bower_host.cli import CommandError
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


# ----- reading files ------------------------------------------------------------

def read_file(path: Path, device: str | None = None) -> list[Item]:
    """The games of one file, each replayed and checked.

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
        return from_json(doc)
    if isinstance(doc, dict) and doc.get("fileType") == egn.FILE_TYPE:
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

def from_json(doc: dict) -> list[Item]:
    """The games of Bower's JSON export.

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
        game = Game(Rules(j["variant"], j["options"]), j["players"], j["first_dealer"], j["mode"] == "cards")
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
    """A Classic game from an EGN file, rebuilt event by event and replayed.

    :raises ImportProblem: the file is not a Classic game Bower can replay, or
        Bower's replay disagrees with EGN's rules or the file's scores.
    """
    md = doc.get("metadata")
    if not isinstance(md, dict) or not isinstance(doc.get("deals"), list):
        raise ImportProblem("an EGN file needs metadata and deals")
    if not re.match(r"^1\.[23456](?:\.\d+)?$", str(doc.get("version"))):
        raise ImportProblem(f"EGN version {doc.get('version')!r}: this bower reads 1.2 to 1.6")
    try:
        full = egn.expand(doc)
    except egn.EgnError as e:
        raise ImportProblem(str(e)) from e
    players = [p["name"] if isinstance(p, dict) else p for p in md.get("players") or []]
    if len(players) != 4 or not all(isinstance(p, str) and p for p in players):
        raise ImportProblem("Bower imports 4-player Classic games: the file does not name 4 players")
    if list(md.get("initialScore") or [0, 0]) != [0, 0]:
        raise ImportProblem(f"the game starts at {md['initialScore']}: Bower's games start at 0-0")
    rs = md.get("ruleset") or {}
    if not isinstance(rs, dict):
        raise ImportProblem("the ruleset is not an object")
    rules = _rules(rs)
    deals = full["deals"]
    if not deals:
        raise ImportProblem("the file has no deals")
    try:
        first = deals[0]["initialState"]["dealer"]
        table = any(_events_note(d) is not None for d in deals)
        game = Game(rules, players, first, cards=not table)
        for i, deal in enumerate(deals):
            if game.is_terminal():
                raise ImportProblem(f"deal {i}: the game was already over")
            dealer = deal["initialState"]["dealer"]
            if game.hand.dealer != dealer:
                raise ImportProblem(f"deal {i}: the dealer is seat {dealer}, but the deal passes to seat "
                                    f"{game.hand.dealer}")
            if table:
                _table_deal(game, deal, i)
            else:
                _card_deal(game, deal, i, rs)
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
    if table:
        # The deals Bower would write for this game must be the file's.
        again = egn.from_log(raw.decode("utf-8"), table_results=True)["deals"]
        if _strip(again) != _strip(deals):
            raise ImportProblem("its deals do not match the Bower events noted on them")
    return Item(raw, device, key, f"{key}.log")


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


def _card_deal(game, deal: dict, i: int, rs: dict) -> None:
    st = deal["initialState"]
    hands = [[egn.bower_card(c) for c in hand] for hand in st.get("playerCards") or []]
    if len(hands) != 4 or any(len(h) != 5 for h in hands):
        raise ImportProblem(f"deal {i} has no table-mode record and not every player's five cards "
                            "(playerCards): Bower needs the whole deal to replay card play")
    up = egn.bower_card(st["upCard"])
    bid = egn._phase(deal, "EUCHRE_BIDDING")
    if bid is None:
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
                raise ImportProblem(f"deal {i}: the calls end before the bidding does")
            c = calls.pop(0)
            if c == "Pass":
                ev = "pass"
            else:
                ev = "order" if c == "Order" else f"call {c.upper()}"
                ev += (" alone" if alone else "") + (" best" if alone and best is not None else "")
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
                raise ImportProblem(f"deal {i}: the tricks end before the hand does (Bower needs every card)")
            ev = card_name(plays.pop(0))
        else:
            raise ImportProblem(f"deal {i}: Bower asks for {', '.join(legal[:4])}, which EGN does not record")
        _apply(game, ev, i)
    if calls or plays:
        raise ImportProblem(f"deal {i}: {len(calls)} calls and {len(plays)} cards after the hand was over")
    h = game.last_hand
    out = egn.deal_outcome(deal, rs)
    if out.delta is not None and out.delta != list(h.points[:2]):
        raise ImportProblem(f"deal {i}: EGN's rules score it {out.delta}, Bower's replay {list(h.points[:2])} "
                            f"({h.reason})")


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
    lib = Library(args.db)
    failed = 0
    with lib:
        for name in args.files:
            path = Path(name)
            try:
                items = read_file(path, args.device)
                for it in items:
                    why = _conflict(lib, it)
                    if why:
                        raise ImportProblem(why + "; nothing stored")
            except ImportProblem as e:
                print(f"bower: {name}: {e}", file=sys.stderr)
                failed += 1
                continue
            for it in items:
                older = lib.find(f"{it.device}/{it.key}")
                if older and len(decode(older[0]["log"]).records) > len(decode(it.raw.decode()).records):
                    print(f"{name}: kept {it.device}/{it.key}: the library's copy is longer")
                    continue
                res = lib.add_log(it.raw, it.device, it.name)
                print(f"{name}: {res.status} {res.message}")
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
