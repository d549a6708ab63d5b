"""``bower import`` of Bower's JSON export (``bower export -f json``).

Every game in it: a game that carries its device log (``"log"``) is stored
as exactly that log, else its log is rebuilt from its header fields and
events.
"""

from __future__ import annotations

from euchre import Game, IllegalAction, Rules

from bower_host.importer.common import ImportProblem, Item, dump_game, game_key, replay_log, iso_seconds


JSON_FORMAT = "bower-library-export"


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
        rp = replay_log(raw, "its log")
        if (str(rp.header.get("device", device)), game_key(rp.header)) != (device, key):
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
        raw = dump_game(game, key, device, iso_seconds(j.get("started")))
    if list(game.scores) != list(j["scores"]):
        raise ImportProblem(f"the replay scores {game.scores}, the file says {j['scores']}")
    if list(game.players) != list(j["players"]) or game.rules.name != j["variant"]:
        raise ImportProblem("its log and its fields name different players or variants")
    return Item(raw, device, key, f"{key}.log")
