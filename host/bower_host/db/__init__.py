"""The game library: every synced game in one SQLite file, raw logs beside it.

::

    lib = Library()                     # BOWER_DB, else the user's data dir
    r = lib.add_log(raw_bytes, device="e6614103e7", name="g0001.log")
    r.status                            # "new", "duplicate", "updated" or "refused"
    lib.games()                         # one row per game
    lib.hands(r.game_id)                # one row per finished hand

A game's identity is ``(device, header "id")``. Every game enters through
one gate, ``add_log`` (``gate.vet``: size, UTF-8, every line's CRC, the
header's types and bounds, the device's and game's ids, the players' names,
the whole game replayed through the engine; then the library's copy of the
game: new, a duplicate, a longer version, or a conflict). A refused log
stores nothing, anywhere. An admitted one is archived as
``<library>.raw/<device>/<id>.log`` next to the database (each library owns
its side files, named after its file: ``side_path``; host/EXPORTS.md, "The
library's files") and its rows are written in one transaction, with the
caller's own rows (``admit``: a club round's result); if that fails, the
archived file is taken back. A good archived log is only ever replaced by a
longer version of itself.

Device input is hostile until checked, and a log with a corrupt line in the
middle is stored up to that line and marked ``damaged`` (the line number
and why), its whole raw log archived. ``Library`` checks the file when it
opens it and raises ``LibraryDamaged`` for bad pages or a missing table;
``Library.audit`` holds the rows against the raw archive (``bower library
check``); ``rebuild`` makes a new library from the raw archive.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[i]``
takes a database from version ``i`` to ``i + 1`` (the club night tables
too, since version 4). A database newer than this code knows is refused.

The parts, each importing only those above it:

* ``errors`` -- ``LibraryError``, ``LibraryDamaged``;
* ``paths`` -- the default library and each library's side files;
* ``schema`` -- the tables, the versioned migrations, ``transaction``;
* ``logs`` -- a log decoded, checked and replayed into hands;
* ``archive`` -- the raw log archive;
* ``gate`` -- what a log must be to enter the library (``vet``, ``Refused``);
* ``rows`` -- game and hand rows written and read back checked;
* ``sides`` -- what is a Bower library, and an older bower's shared side files;
* ``library`` -- ``Library``;
* ``lock`` -- one writer at a time;
* ``rebuild`` -- a damaged library made anew from its raw logs.

This package's names are the library's interface (``from bower_host.db
import Library``); its parts import each other, never this face.
"""

from bower_host.db.archive import archived_logs, safe_name
from bower_host.db.errors import LibraryDamaged, LibraryError
from bower_host.db.gate import MAX_LOG_BYTES, Refused, names_problem, vet
from bower_host.db.library import AddResult, Library
from bower_host.db.lock import writer_lock
from bower_host.db.logs import (MAX_NAME, MAX_STARTED, OUTCOME_WORDS, RESULT_NAMES, Decoded, HandRecord, Replay,
                                check_header, decode, hand_row, is_quick, replay, replay_decoded)
from bower_host.db.paths import DB_NAME, ENV_DB, default_path, side_path
from bower_host.db.rebuild import rebuild, rebuild_check
from bower_host.db.schema import BOWER_TABLES, MIGRATIONS, SCHEMA, migrate, schema_version, transaction
from bower_host.db.sides import LEGACY_SIDES, adopt_legacy_side_files

__all__ = [
    "AddResult", "BOWER_TABLES", "DB_NAME", "Decoded", "ENV_DB", "HandRecord", "LEGACY_SIDES", "Library",
    "LibraryDamaged", "LibraryError", "MAX_LOG_BYTES", "MAX_NAME", "MAX_STARTED", "MIGRATIONS", "OUTCOME_WORDS",
    "RESULT_NAMES", "Refused", "Replay", "SCHEMA", "adopt_legacy_side_files", "archived_logs", "check_header",
    "decode", "default_path", "hand_row", "is_quick", "migrate", "names_problem", "rebuild", "rebuild_check",
    "replay", "replay_decoded", "safe_name", "schema_version", "side_path", "transaction", "vet", "writer_lock",
]
