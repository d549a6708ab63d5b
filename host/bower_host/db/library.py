"""``Library``: the SQLite game library, opened and checked, logs added,
games and hands read (the package's docstring has the whole picture)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from euchre import log as elog

from bower_host.db.archive import archive_log, archive_new, archived_logs, safe_name
from bower_host.db.errors import LibraryDamaged, LibraryError, check_file_path, is_damage, write_hint
from bower_host.db.logs import Decoded, Replay, decode, hand_row, replay_decoded
from bower_host.db.paths import default_path, side_path
from bower_host.db.rows import read_game, read_hand, write_game
from bower_host.db.schema import SCHEMA, migrate
from bower_host.db.sides import adopt_legacy_side_files, foreign_tables, header_problem
from bower_host.errors import os_error


@dataclass
class AddResult:
    """What ``Library.add_log`` did."""
    status: str                     # "new", "duplicate", "updated" or "mismatch"
    game_id: int | None             # the game's DB id (None for a mismatch with no stored game)
    message: str
    archived: Path | None = None    # where the raw log was archived, if it was written
    dropped: str | None = None      # a torn last line that was dropped
    damaged: str | None = None      # stored only up to a corrupt line: which, and why
    replay: Replay | None = None    # the replayed game (what was stored)
    damaged_line: int | None = None  # the corrupt line's number (with ``damaged``)

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
        self.path = Path(path).expanduser() if path else default_path()
        check_file_path(self.path, write=create)
        owner = Path(sides) if sides is not None else self.path
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
        db = "" if self.path == default_path() else f" --db {self.path}"
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

    # ----- adding logs -----------------------------------------------------------

    def add_log(self, raw: bytes, device: str, name: str, key: str | None = None) -> AddResult:
        """Store one game log from ``device`` (its file there is ``name``).

        ``key``: the game id the device listed it under; a header naming
        another id is a mismatch (a device cannot file a log as another game).

        :returns: an ``AddResult`` whose ``status`` is ``"new"``, ``"duplicate"``
            (this exact log is stored: nothing written), ``"updated"`` (a longer
            version of a stored game: its rows are replaced) or ``"mismatch"``
            (the log does not replay, or conflicts with the stored copy: the raw
            log is archived under a new name and nothing else is stored).
        """
        raw = bytes(raw)
        sha = hashlib.sha256(raw).hexdigest()
        stem = safe_name(Path(name).stem if name else sha[:12])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return self._mismatch(raw, sha, device, stem, None, f"not UTF-8 text ({e.reason} at byte {e.start})")
        try:
            dec = decode(text, salvage=True)
        except elog.LogError as e:
            return self._mismatch(raw, sha, device, stem, None, f"unreadable log: {e}")
        header, records, dropped, damaged = dec.header, dec.records, dec.dropped, dec.damaged
        hkey = header.get("id")
        hkey = str(hkey) if isinstance(hkey, (str, int)) and str(hkey) else None
        if key is not None and hkey is not None and hkey != key:
            return self._mismatch(raw, sha, device or "unknown", key, None,
                                  f"the log says it is game {json.dumps(hkey)[:24]}, but the device lists it as {key}")
        key = hkey or key or stem
        hdev = header.get("device")
        device = device or (str(hdev) if hdev else "")
        if not device:
            return self._mismatch(raw, sha, "unknown", key, None, "no device id: neither given nor in the header")
        if hdev and str(hdev) != device:
            return self._mismatch(raw, sha, device, key, None,
                                  f"the header says device {hdev}, but the log came from device {device}")
        try:
            rp = replay_decoded(dec)
        except elog.LogError as e:
            return self._mismatch(raw, sha, device, key, None, f"does not replay: {e}")
        note = f" (torn last line dropped: {dropped})" if dropped else ""
        if damaged:
            note += f" (DAMAGED, stored up to the corrupt line: {damaged})"

        def result(status, gid, message, path=None):
            return AddResult(status, gid, message, path, dropped, damaged, rp, damaged_line=dec.damaged_line)

        old = self.conn.execute("SELECT id, raw_sha256, log, events FROM games WHERE device = ? AND game_key = ?",
                                (device, key)).fetchone()
        if old is None:
            path = archive_log(self.raw_dir, device, key, raw)
            gid = self._store(None, rp, raw, sha, device, key, name, path, dec)
            return result("new", gid, f"{device}/{key}: {self._summary(rp)}{note}", path)
        gid = old["id"]
        if old["raw_sha256"] == sha:
            return result("duplicate", gid, f"{device}/{key}: already stored, unchanged{note}")
        try:
            stored = decode(old["log"])
        except elog.LogError as e:
            raise LibraryDamaged(f"the stored log of {device}/{key} is unreadable ({e})") from e
        o_header, o_records = stored.header, stored.records
        if o_header != header:
            diff = sorted(k for k in set(o_header) | set(header) if o_header.get(k) != header.get(k))
            return self._mismatch(raw, sha, device, key, gid,
                                  f"a different game with the same id (header differs in: {', '.join(diff)}); "
                                  "the stored game was kept")
        n_old, n_new = len(o_records), len(records)
        if records[:n_old] == o_records and (n_new > n_old or damaged):
            # Longer, or the same good lines of a damaged log that grew: keep its raw bytes.
            path = archive_log(self.raw_dir, device, key, raw)
            self._store(gid, rp, raw, sha, device, key, name, path, dec)
            return result("updated", gid, f"{device}/{key}: {n_new - n_old} more lines; {self._summary(rp)}{note}",
                          path)
        if records == o_records:
            return result("duplicate", gid, f"{device}/{key}: same events as stored{note}")
        if o_records[:n_new] == records:
            why = f"an older copy ({n_new} lines after the header; the stored one has {n_old})"
        else:
            at = next(i for i in range(min(n_old, n_new)) if records[i] != o_records[i])
            why = f"not an extension of the stored copy (line {at + 2} differs)"
        return self._mismatch(raw, sha, device, key, gid, why + "; the stored game was kept")

    def _summary(self, rp: Replay) -> str:
        g = rp.game
        state = "over" if g.result else f"in progress, hand {g.hand_no}"
        return f"{g.rules.title}, {len(rp.hands)} hands, {state}"

    def _mismatch(self, raw, sha, device, key, gid, why) -> AddResult:
        path = archive_new(self.raw_dir, device, f"{key}.mismatch-{sha[:12]}", raw)
        return AddResult("mismatch", gid, f"{device}/{key}: {why}; raw log kept as {path}", path)

    def _store(self, gid, rp: Replay, raw, sha, device, key, name, path, dec: Decoded) -> int:
        g = rp.game
        h = rp.header
        started = h.get("started")
        started = started if isinstance(started, int) and not isinstance(started, bool) and started > 0 else None
        rel = str(path.relative_to(self.raw_dir)) if path else None
        game = {
            "device": device, "game_key": key, "source_name": name, "variant": g.rules.name,
            "options": g.rules.options, "players": g.players, "mode": "cards" if g.cards else "table",
            "first_dealer": g.first_dealer, "started": started, "finished": 1 if g.result else 0,
            "result": g.result[1] if g.result else None, "winners": list(g.result[0]) if g.result else None,
            "scores": g.scores, "hands": len(rp.hands), "events": len(rp.events), "raw_sha256": sha,
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
