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
* a device log (what ``bower sync`` archives under ``<library>.raw/``);
* a phone's export (the web build's "Export logs": a zip of its logs,
  ``DEVICE/GAME.log`` each), each log stored as ``bower sync`` stores a
  Pico's (:mod:`.archive`).

Every game is replayed through the engine before anything is stored, and
checked against what the file claims (scores, EGN's own scoring of each
deal, the dealers); then every game goes through the library's one gate
(``Library.add_log``, as ``bower sync``'s logs do: ids, names, the replay,
the library's copy), so importing twice stores once. A file that fails any
check is reported in one line (``bower: FILE: reason``) and nothing of it
is stored; the other files still go in, and the command exits 1.

::

    bower import season.json g0001.egn bower.sqlite3.raw/e6614103e7/g0002.log

The formats are read in :mod:`.jsonfile`, :mod:`.egnfile`, :mod:`.archive`
and :mod:`.foreign` (a game played with cards), into :mod:`.common`'s ``Item``;
this module picks the reader for each file and checks what they return;
the command (:mod:`bower_host.commands.imports`) stores it.
"""

from __future__ import annotations

from pathlib import Path

from bower_host import egn
from bower_host.db import Library
from bower_host.importer.archive import from_archive, is_archive
from bower_host.importer.common import ImportProblem, Item, from_log
from bower_host.importer.egnfile import from_egn
from bower_host.importer.jsonfile import JSON_FORMAT, from_json
from bower_host.inputs import IMPORT_LIMIT, InputError, load_json, read_input, utf8_text


# ----- reading files ------------------------------------------------------------

def read_file(path: Path, device: str | None = None, tick=None) -> list[Item]:
    """The games of one file, each replayed and checked (``tick(done, total)``
    after each game of a JSON export, if given).

    :raises ImportProblem: the file, or any game in it, does not import.
    """
    from bower_host.syncer import MAX_LOG_BYTES, size_text
    try:
        data = read_input(path, IMPORT_LIMIT, "it")
        if is_archive(data):
            return from_archive(data, device)
        text = utf8_text(data, "it")
        doc = load_json(text) if text.lstrip().startswith("{") else None
    except InputError as e:
        raise ImportProblem(str(e)) from None
    if isinstance(doc, dict) and doc.get("format") == JSON_FORMAT:
        return from_json(doc, tick)
    if isinstance(doc, dict) and doc.get("fileType", doc.get("file_type")) == egn.FILE_TYPE:
        return [from_egn(doc)]
    if doc is not None:
        raise ImportProblem("a JSON file that is neither Bower's export (format bower-library-export) "
                            "nor an EGN file (fileType Euchre Game Notation)")
    if len(data) > MAX_LOG_BYTES:
        raise ImportProblem(f"it is {size_text(len(data))}, more than the {size_text(MAX_LOG_BYTES)} a device log "
                            "can be (and not a JSON export or EGN file)")
    return [from_log(data, path.name, device)]


# ----- storing ---------------------------------------------------------------------

def checked(lib: Library, items: list[Item]) -> list[Item]:
    """The file's games, every one let in by the library's gate (a dry run:
    nothing written), so that a file goes in whole or not at all.

    :raises ImportProblem: the first game refused, and why.
    """
    seen: dict = {}
    for it in items:
        if seen.setdefault((it.device, it.key), it.raw) != it.raw:
            raise ImportProblem(f"{it.device}/{it.key} is in the file twice, with different logs; nothing stored")
        r = lib.add_log(it.raw, it.device, it.name, it.key, salvage=it.salvage,
                        dry_run=True)
        if r.status == "refused":
            raise ImportProblem(f"{r.message}; nothing of the file stored")
    return items
