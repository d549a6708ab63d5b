"""``bower import`` of an EGN file (``.egn``, 1.0 to 1.6).

:func:`from_egn` reads the ruleset, the players and the deals; Bower's
own table-mode games are rebuilt from the events noted on each deal here,
and card-mode games and other tools' games by :mod:`.foreign`.
"""

from __future__ import annotations

import hashlib
import json
import re

from euchre import Game, Rules

from bower_host import egn
from bower_host.importer.common import ImportProblem, Item, apply_event, dump_game, iso_seconds, show
from bower_host.importer.foreign import card_deal, foreign_table_deal, recover_hands, same_cards


_GAME_ID = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_-]{0,63})/([A-Za-z0-9][A-Za-z0-9_.-]{0,63})$")
# EGN ruleset keys Bower can only take at their default (the name, the default).
_EGN_DEFAULTS = {"min_rank": 9, "num_deals": 0, "go_under": False,
                 "num_players": 4, "allow_no_trump": False, "fast_break": False, "four_trick_tokens": False}


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
    if not egn.read.readable_version(doc.get("version")):
        raise ImportProblem(f"EGN version {doc.get('version')!r}: this bower reads {egn.read.READS}")
    try:
        full = egn.read.expand(egn.read.upgrade(doc))
    except egn.cards.EgnError as e:
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
    deals = [same_cards(d) for d in full["deals"]]
    if not deals:
        raise ImportProblem("the file has no deals")
    note = ""
    i = 0
    try:
        first = deals[0]["initialState"]["dealer"]
        if type(first) is not int or not 0 <= first < 4:       # (true and false are not seats either)
            raise ImportProblem(f"deal 0: the dealer {first!r} is not a seat from 0 to 3")
        bower_table = any(_events_note(d) is not None for d in deals)
        complete, why = (None, "") if bower_table else recover_hands(deals, rs)
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
                card_deal(game, complete[i], i, rs, last)
            else:
                foreign_table_deal(game, deal, i, rs, last)
    except egn.cards.EgnError as e:
        raise ImportProblem(str(e)) from e
    except KeyError as e:
        raise ImportProblem(f"deal {i}: not an EGN deal Bower can read (no {show(e.args[0])} where EGN has "
                            "one)") from None
    except (TypeError, IndexError, AttributeError):
        raise ImportProblem(f"deal {i}: not an EGN deal Bower can read (a field of the wrong type, or a list "
                            "too short)") from None
    final = md.get("finalScore")
    if final is not None and not (isinstance(final, list) and len(final) == 2):
        raise ImportProblem(f"finalScore is {show(final)}, not two scores")
    if final is not None and final != list(game.scores[:2]):
        raise ImportProblem(f"the replay ends {game.scores[0]}-{game.scores[1]}, the file's finalScore "
                            f"says {final[0]}-{final[1]}")
    gid = md.get("gameId")
    m = _GAME_ID.match(gid) if isinstance(gid, str) else None
    if m:
        device, key = m.group(1), m.group(2)
    else:
        digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode("utf-8")).hexdigest()[:12]
        device, key = "egn", f"egn-{digest}"
    raw = dump_game(game, key, device, iso_seconds(md.get("date")))
    if bower_table:
        # The deals Bower would write for this game must be the file's.
        again = egn.from_log(raw.decode("utf-8"), table_results=True)["deals"]
        try:
            same = _strip(again) == _strip(deals)
        except (KeyError, TypeError, IndexError, AttributeError):     # a deal without its bids
            same = False
        if not same:
            raise ImportProblem("its deals do not match the Bower events noted on them")
    return Item(raw, device, key, f"{key}.log", note)


def _start(score, rules: Rules) -> list:
    # [team 0/2, team 1/3] a game starts at (EGN's initialScore, 0-0 if none).
    if score is None:
        return [0, 0]
    if not (isinstance(score, list) and len(score) == 2 and all(type(x) is int for x in score)):
        raise ImportProblem(f"initialScore is {show(score)}, not two whole numbers")
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
    set_loner = rs.get("loner_euchred_score", 2)
    if set_loner == 4 and type(set_loner) is int:
        opts["lone_euchre_4"] = True
    elif set_loner != 2 or type(set_loner) is not int:
        raise ImportProblem(f"the ruleset has loner_euchred_score: {set_loner!r}, a rule Bower does not play "
                            "(Bower's Classic Euchre gives 2, or 4 with lone_euchre_4)")
    try:
        rules = Rules("classic", **opts)
    except ValueError as e:            # the engine's words: "winning_score must be ..."
        raise ImportProblem(f"the ruleset is not one Bower plays: {e}") from e
    want = egn.ruleset(rules).get("loner_march_score", 4)
    said = rs.get("loner_march_score", 4)
    if said != want:
        raise ImportProblem(f"the ruleset has loner_march_score {show(said)}; Bower's rules give {want}"
                            + (" (3 with partner's best)" if rules.options.get("partners_best") else ""))
    return rules


def _events_note(deal: dict):
    bid = egn.read.phase_of(deal, "EUCHRE_BIDDING") or {}
    for notes in (bid.get("callAnnotations") or {}).values():
        for n in notes:
            m = egn._EVENTS_RE.match(n)
            if m:
                return [e.strip() for e in m.group(1).split(";") if e.strip()]
    return None


def _table_deal(game, deal: dict, i: int) -> None:
    events = _events_note(deal)
    if events is None:
        raise ImportProblem(f"deal {i} has no cards and no Bower record of what happened at the table")
    number = game.hand_no
    for ev in events:
        apply_event(game, ev, i)
    if game.hand_no == number:
        raise ImportProblem(f"deal {i}: the noted events do not finish the hand")
