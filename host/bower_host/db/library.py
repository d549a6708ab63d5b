"""``Library``: the SQLite game library, opened and checked, logs added,
games and hands read (the package's docstring has the whole picture)."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from euchre import log as elog

from bower_host.db.archive import archive_log, archived_logs, archived_other
from bower_host.db.errors import LibraryDamaged, LibraryError, check_file_path, is_damage, write_hint
from bower_host.db.gate import CONFLICT, Refused, Vetted, vet
from bower_host.db.logs import Replay, decode, hand_row
from bower_host.db.paths import default_path, real_path, side_path
from bower_host.db.rows import read_game, read_hand, write_game
from bower_host.db.schema import SCHEMA, migrate, transaction
from bower_host.db.sides import adopt_legacy_side_files, foreign_tables, header_problem
from bower_host.errors import os_error


#: A caller's own check of a game at the gate (``Library.add_log``'s ``admit``).
Admit = Callable[[Replay, str, str], "Callable[[sqlite3.Connection, int | None], None] | None"]


@dataclass
class AddResult:
    """What ``Library.add_log`` did."""
    status: str                     # "new", "duplicate", "updated" or "refused"
    game_id: int | None             # the game's DB id (None when refused)
    message: str
    archived: Path | None = None    # where the raw log was archived, if it was written
    dropped: str | None = None      # a torn last line that was dropped
    damaged: str | None = None      # stored only up to a corrupt line: which, and why
    replay: Replay | None = None    # the replayed game (what was stored)
    damaged_line: int | None = None  # the corrupt line's number (with ``damaged``)
    why: str = ""                   # refused: the reason in words, without the game's place
    reason: str = ""                # refused: which rule (bower_host.db.gate's codes: TOO_BIG, ...)

    def __str__(self) -> str:
        return f"{self.status}: {self.message}"


class Library:
    """The SQLite game library. See the package's docstring (``bower_host.db``).

    :param path: the database file (default: ``default_path()``).
    :param create: make the file when it does not exist (False for read-only use).
    :raises LibraryError: the file cannot be opened, is missing (``create`` False)
        or has an unknown schema.
    """

    def __init__(self, path: str | os.PathLike | None = None, clock=time.time, create: bool = True,
                 sides: str | os.PathLike | None = None):
        # ``sides``: use that library's side files (``rebuild`` builds a
        # temporary file that becomes ``sides``, from and into its archive).
        # One library however it is reached (a symlink, a relative or ``..``
        # path): its real file, whose side files are its own.
        shown = Path(path).expanduser() if path else default_path()
        check_file_path(shown, write=create)
        self.path = real_path(shown)
        owner = real_path(sides) if sides is not None else self.path
        self.raw_dir = side_path(owner, "raw")
        self.partial_dir = side_path(owner, "partial")
        self._clock = clock
        #: Why an older bower's shared ``raw/`` or ``partial/`` beside this
        #: library was left where it is (``adopt_legacy_side_files``), or None.
        self.side_note: str | None = None
        if not create and not self.path.is_file():
            # Read commands: a mistyped path must not become a new, empty library.
            raise LibraryError(f"the game library {self.path} is empty (no such file): sync a device first "
                               "(bower sync), or give the right --db")
        if sides is None:
            kind, note = adopt_legacy_side_files(self.path) or (None, None)
            if kind == "moved":
                print(f"bower: {note}", file=sys.stderr)
            elif kind == "left":
                self.side_note = note   # said by `library check`, a damaged library's error and `rebuild`
        # SQLite takes a file shorter than a page for a new, empty database
        # and writes over it: a file that is not a whole SQLite database is
        # never given to it, and one cut to nothing beside its archive is a
        # damaged library, not a new one.
        problem = header_problem(self.path)
        if problem is None and self.path.is_file() and self.path.stat().st_size == 0 \
                and archived_logs(self.raw_dir):
            problem = "the file is empty"
        if problem:
            raise self.damaged(problem)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(self.path), isolation_level=None)
        except (OSError, ValueError, sqlite3.Error) as e:   # ValueError: a NUL in the path
            why = os_error(e) if isinstance(e, OSError) else f"{e}{write_hint(self.path, e)}"
            raise LibraryError(f"cannot open the game library {self.path}: {why}") from e
        self.conn.row_factory = sqlite3.Row
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            foreign = foreign_tables(self.conn)
            if foreign:
                raise LibraryError(f"{self.path} is not a Bower game library: it is another program's SQLite "
                                   f"database (tables {', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}); "
                                   "give the right --db (nothing was changed)")
            migrate(self.conn)
            self._check()
        except sqlite3.DatabaseError as e:
            self.conn.close()
            hint = write_hint(self.path, e)
            if hint and not is_damage(e):
                raise LibraryError(f"cannot use the game library {self.path}: {e}{hint}") from e
            raise self.damaged(str(e)) from e    # a schema migrations cannot read (a table too many, ...)
        except LibraryError:
            self.conn.close()
            raise

    def _check(self) -> None:
        # Every table and column read here, and sound pages (a quick check:
        # one pass over the file, no index cross-checks).
        for table, cols in SCHEMA.items():
            have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
            if not have:
                raise self.damaged(f"no table {table}")
            missing = [c for c in cols if c not in have]
            if missing:
                raise self.damaged(f"table {table} lacks {', '.join(missing)}")
        problems = [r[0] for r in self.conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise self.damaged(problems[0])

    def damaged(self, why: str) -> LibraryDamaged:
        """The one-line error for this library being damaged, with the way out."""
        n = len(archived_logs(self.raw_dir))
        db = "" if self.path == real_path(None) else f" --db {self.path}"
        why = (why.splitlines() or ["?"])[0][:120]
        if n:
            err = LibraryDamaged(f"the game library {self.path} is damaged ({why}): run "
                                 f"`bower library rebuild{db}` to rebuild it from the {n} raw logs in {self.raw_dir}")
        elif self.side_note:
            err = LibraryDamaged(f"the game library {self.path} is damaged ({why}) and has no raw logs of its own "
                                 f"in {self.raw_dir} to rebuild it from: {self.side_note}")
        else:
            err = LibraryDamaged(f"{self.path} is not a usable game library ({why}) and no raw logs to rebuild it "
                                 f"from are beside it in {self.raw_dir}: give the right --db, or sync your "
                                 "devices into a new library")
        err.why = why
        return err

    def verify(self) -> None:
        """Check the whole library: every page (SQLite's full integrity
        check) and every game and hand row readable as this code writes them.

        :raises LibraryDamaged: what is wrong, with the way out.
        """
        try:
            problems = [r[0] for r in self.conn.execute("PRAGMA integrity_check(3)")]
            if problems != ["ok"]:
                raise self.damaged(problems[0])
            for g in self.games():
                self.hands(g["id"])
        except sqlite3.DatabaseError as e:
            raise self.damaged(str(e)) from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----- adding logs: the one gate ------------------------------------------------

    def add_log(self, raw: bytes, device: str | None, name: str, key: str | None = None, *, salvage: bool = True,
                admit: Admit | None = None, dry_run: bool = False) -> AddResult:
        """Let one game log from ``device`` (its file there is ``name``) in
        through the gate (``db.gate.vet``), and store it.

        ``key``: the game id the device listed it under; a header naming
        another id is refused (a device cannot file a log as another game).
        ``salvage``: store the good lines before a corrupt one (a device's
        log); False refuses it. ``admit(replay, device, key)``: the caller's
        own check (a club round must fit its night), run before anything is
        written: it raises ``gate.Refused``, or returns ``write(conn,
        game_id)`` for the caller's rows, written in the game's transaction
        (or None). ``dry_run``: say what would happen, write nothing.

        :returns: an ``AddResult`` whose ``status`` is ``"new"``,
            ``"duplicate"`` (this log, or a longer version of it, is stored:
            nothing written for the game), ``"updated"`` (a longer version
            of a stored game: its rows are replaced) or ``"refused"`` (the
            message says why; nothing was written, anywhere).
        """
        where = f"{device or '?'}/{key or Path(name or '?').stem}"
        try:
            v = vet(raw, device, name, key, salvage)
            where = f"{v.device}/{v.key}"
            status, gid, said = self._against_stored(v)
            write = admit(v.replay, v.device, v.key) if admit is not None else None
        except Refused as e:
            return AddResult("refused", None, f"{e.where or where}: {e}", why=str(e), reason=e.code)
        dec, rp = v.decoded, v.replay
        note = f" (torn last line dropped: {dec.dropped})" if dec.dropped else ""
        if dec.damaged:
            note += f" (DAMAGED, stored up to the corrupt line: {dec.damaged})"
        out = AddResult(status, gid, f"{where}: {said or self._summary(rp)}{note}", None, dec.dropped, dec.damaged,
                        rp, damaged_line=dec.damaged_line)
        if dry_run or status == "duplicate" and write is None:
            return out
        undo = None
        if status != "duplicate":
            out.archived, undo = archive_log(self.raw_dir, v.device, v.key, v.raw)
        try:
            with transaction(self.conn):
                if status != "duplicate":
                    out.game_id = self._store(gid, v, out.archived)
                if write is not None:
                    write(self.conn, out.game_id)
        except BaseException:
            if undo is not None:
                undo()
            raise
        return out

    def _against_stored(self, v: Vetted) -> tuple[str, int | None, str]:
        # (status, the stored game's id, what to say instead of the summary)
        # of a vetted log against the library's copy of its game.
        old = self.conn.execute("SELECT id, raw_sha256, log FROM games WHERE device = ? AND game_key = ?",
                                (v.device, v.key)).fetchone()
        if old is None:
            other = archived_other(self.raw_dir, v.device, v.key, v.raw)
            if other is not None:
                raise Refused(f"the raw archive holds another log of this game that the library lacks ({other}): "
                              "nothing was stored; run `bower library check`", code=CONFLICT)
            return "new", None, ""
        gid = old["id"]
        if old["raw_sha256"] == v.sha:
            return "duplicate", gid, "already stored, unchanged"
        try:
            stored = decode(old["log"])
        except elog.LogError as e:
            raise LibraryDamaged(f"the stored log of {v.device}/{v.key} is unreadable ({e})") from e
        header, records, o_records = v.decoded.header, v.decoded.records, stored.records
        if stored.header != header:
            diff = sorted(k for k in set(stored.header) | set(header) if stored.header.get(k) != header.get(k))
            raise Refused(f"a different game with the same id (header differs in: {', '.join(diff)}); the stored "
                          "game was kept", code=CONFLICT)
        n_old, n_new = len(o_records), len(records)
        if records[:n_old] == o_records and (n_new > n_old or v.decoded.damaged):
            # Longer, or the same good lines of a damaged log that grew: keep its raw bytes.
            return "updated", gid, ""
        if records == o_records:
            return "duplicate", gid, "same events as stored"
        if o_records[:n_new] == records:
            return "duplicate", gid, (f"an older copy ({n_new} lines after the header; the stored one has {n_old}): "
                                      "nothing new")
        at = next(i for i in range(min(n_old, n_new)) if records[i] != o_records[i])
        raise Refused(f"not an extension of the stored copy (line {at + 2} differs); the stored game was kept",
                      code=CONFLICT)

    def _summary(self, rp: Replay) -> str:
        g = rp.game
        state = "over" if g.result else f"in progress, hand {g.hand_no}"
        return f"{g.rules.title}, {len(rp.hands)} hands, {state}"

    def _store(self, gid: int | None, v: Vetted, path: Path | None) -> int:
        # The game's rows (inside the caller's transaction).
        rp, dec = v.replay, v.decoded
        g = rp.game
        started = rp.header.get("started")
        started = started if isinstance(started, int) and not isinstance(started, bool) and started > 0 else None
        rel = str(path.relative_to(self.raw_dir)) if path else None
        game = {
            "device": v.device, "game_key": v.key, "source_name": v.name, "variant": g.rules.name,
            "options": g.rules.options, "players": g.players, "mode": "cards" if g.cards else "table",
            "first_dealer": g.first_dealer, "started": started, "finished": 1 if g.result else 0,
            "result": g.result[1] if g.result else None, "winners": list(g.result[0]) if g.result else None,
            "scores": g.scores, "hands": len(rp.hands), "events": len(rp.events), "raw_sha256": v.sha,
            "raw_path": rel, "log": dec.text, "dropped": rp.dropped, "synced_at": int(self._clock()),
            "damaged": dec.damaged,
        }
        return write_game(self.conn, gid, game, g.players, [hand_row(rec) for rec in rp.hands])

    # ----- reading ---------------------------------------------------------------

    def games(self, variant: str | None = None) -> list[dict]:
        """Every game (newest start first), as dicts with JSON columns decoded."""
        sql = "SELECT * FROM games"
        args: tuple = ()
        if variant:
            sql += " WHERE variant = ?"
            args = (variant,)
        sql += " ORDER BY COALESCE(started, 0) DESC, id DESC"
        return [self._game(r) for r in self.conn.execute(sql, args)]

    def game(self, gid: int) -> dict | None:
        """The game with DB id ``gid``, or None."""
        r = self.conn.execute("SELECT * FROM games WHERE id = ?", (gid,)).fetchone()
        return self._game(r) if r else None

    def find(self, ref: str) -> list[dict]:
        """Games matching ``ref``: a DB id, ``device/game id``, or a game id alone."""
        ref = str(ref).strip()
        if "/" in ref:
            dev, key = ref.split("/", 1)
            rows = self.conn.execute("SELECT * FROM games WHERE device = ? AND game_key = ?", (dev, key))
            return [self._game(r) for r in rows]
        out = []
        if ref.isascii() and ref.isdigit() and len(ref) < 19:     # an SQLite integer
            g = self.game(int(ref))
            if g:
                return [g]
        rows = self.conn.execute("SELECT * FROM games WHERE game_key = ? ORDER BY id", (ref,))
        out += [self._game(r) for r in rows]
        return out

    def hands(self, gid: int) -> list[dict]:
        """The finished hands of a game, in order.

        :raises LibraryDamaged: a row that this code could not have written.
        """
        g = self.conn.execute("SELECT players FROM games WHERE id = ?", (gid,)).fetchone()
        try:
            n = len(json.loads(g[0])) if g else 0
        except (TypeError, ValueError):
            n = 0
        rows = self.conn.execute("SELECT * FROM hands WHERE game_id = ? ORDER BY number", (gid,))
        out = []
        for r in rows:
            d, bad = read_hand(r, n)
            if bad:
                raise self.damaged(f"hand {d.get('number')!r} of game {gid} is unreadable: {bad}")
            out.append(d)
        return out

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def _game(self, r: sqlite3.Row) -> dict:
        """A games row as a dict, JSON decoded and checked.

        :raises LibraryDamaged: a row that this code could not have written.
        """
        d, bad = read_game(r)
        if bad:
            raise self.damaged(f"game {d.get('id')!r} is unreadable: {bad}")
        return d
