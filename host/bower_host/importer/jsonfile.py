"""``bower import`` of Bower's JSON export (``bower export -f json``).

Every game in it: a game that carries its device log (``"log"``) is stored
as exactly that log, else its log is rebuilt from its header fields and
events. Each field read is checked (its type, its bounds) before it is used,
and a wrong one is named: ``game 2: "players" is "AnnBob", not a list of
names``.
"""

from __future__ import annotations

from typing import Any

from euchre import Game, IllegalAction, Rules

from bower_host.db import MAX_NAME, MAX_STARTED
from bower_host.importer.common import ImportProblem, Item, dump_game, game_key, iso_seconds, replay_log, show
from bower_host.names import ID_RULE, id_problem


JSON_FORMAT = "bower-library-export"


def from_json(doc: dict, tick=None) -> list[Item]:
    """The games of Bower's JSON export (``tick(done, total)`` after each).

    :raises ImportProblem: a game that does not replay or disagrees with its own record.
    """
    games = doc.get("games")
    if type(doc.get("version")) is not int or doc["version"] != 1 or not isinstance(games, list):
        raise ImportProblem("a Bower JSON export of an unknown version (this bower reads version 1)")
    out = []
    for i, j in enumerate(games):
        where = f"game {i + 1}"
        if not isinstance(j, dict):
            raise ImportProblem(f"{where} is {show(j)}, not a game (an object as Bower exports it)")
        try:
            device, key = _id(j, "device", "a device id"), _id(j, "game_id", "a game id")
            where += f" ({device}/{key})"
            out.append(_json_game(j, device, key))
        except ImportProblem as e:
            raise ImportProblem(f"{where}: {e}") from None
        if tick is not None:
            tick(i + 1, len(games))
    return out


def _json_game(j: dict, device: str, key: str) -> Item:
    players = _players(j)
    variant = _field(j, "variant", lambda v: isinstance(v, str), "a variant name")
    scores = _field(j, "scores", lambda v: _ints(v) and len(v) == len(players), "a score per player")
    log = _field(j, "log", lambda v: v is None or isinstance(v, str), "a device log (text)", None)
    if log is not None:
        raw = log.encode("utf-8")
        rp = replay_log(raw, "its log")
        if (str(rp.header.get("device", device)), game_key(rp.header)) != (device, key):
            raise ImportProblem("its log belongs to another game")
        game = rp.game
    else:
        game = _replayed(j, variant, players)
        raw = dump_game(game, key, device, _started(j))
    if list(game.scores) != scores:
        raise ImportProblem(f"the replay scores {game.scores}, the file says {scores}")
    if list(game.players) != players or game.rules.name != variant:
        raise ImportProblem("its log and its fields name different players or variants")
    return Item(raw, device, key, f"{key}.log")


def _replayed(j: dict, variant: str, players: list) -> Game:
    # The game rebuilt from its fields and events.
    options = _field(j, "options", lambda v: v is None or isinstance(v, dict), "an object of options")
    dealer = _field(j, "first_dealer", lambda v: type(v) is int and 0 <= v < len(players),
                    f"a seat from 0 to {len(players) - 1}")
    mode = _field(j, "mode", lambda v: v in ("table", "cards"), '"table" or "cards"')
    start = _field(j, "initial_scores", lambda v: v is None or _ints(v), "a list of scores", None)
    events = _field(j, "events", lambda v: isinstance(v, list) and all(isinstance(e, str) for e in v),
                    "a list of events (text)")
    try:
        game = Game(Rules(variant, options), players, dealer, mode == "cards", start)
    except ValueError as e:           # the engine's own words: "unknown variant 'x' (one of: ...)"
        raise ImportProblem(_cut(str(e))) from None
    for n, ev in enumerate(events):
        try:
            game.apply(ev)
        except IllegalAction as e:
            raise ImportProblem(f"event {n + 1} ({show(ev)}) does not replay: {_cut(str(e))}") from None
    return game


def _started(j: dict) -> int | None:
    started = _field(j, "started", lambda v: v is None or isinstance(v, str), "a time (text)", None)
    t = iso_seconds(started)
    if started and (t is None or not 0 <= t < MAX_STARTED):
        raise ImportProblem(f'"started" is {show(started)}, not a time from 1970 to 2100')
    return t


_MISSING = object()


def _field(j: dict, name: str, good, what: str, default: Any = _MISSING) -> Any:
    """``j[name]``, checked by ``good``; ``default`` when it is absent (no default: required)."""
    if name not in j and default is not _MISSING:
        return default
    if name not in j:
        raise ImportProblem(f'"{name}" is missing ({what})')
    v = j[name]
    if not good(v):
        raise ImportProblem(f'"{name}" is {show(v)}, not {what}')
    return v


def _id(j: dict, name: str, what: str) -> str:
    # A device's or game's id, by the rule the library's gate applies (bower_host.names).
    return _field(j, name, lambda v: id_problem(v) is None, f"{what} ({ID_RULE})")


def _players(j: dict) -> list:
    return _field(j, "players", lambda v: isinstance(v, list) and v and all(_text(n) for n in v),
                  f"a list of names (each 1 to {MAX_NAME} printable characters)")


def _text(v) -> bool:
    return isinstance(v, str) and 0 < len(v) <= MAX_NAME and v.isprintable()


def _ints(v) -> bool:
    return isinstance(v, list) and all(type(x) is int for x in v)


def _cut(text: str) -> str:
    # The engine's words, which show the value refused: at most a line of them.
    return text if len(text) <= 200 else text[:197] + "..."
