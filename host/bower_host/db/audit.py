"""A library held against its raw archive (``bower library check``).

The raw archive is what ``rebuild`` makes a library from, so a library is
sound only when every game it holds has its raw log archived, byte for byte
as stored (its SHA-256), and every log archived as a game's is one of its
games. ``audit`` names each that is not.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from bower_host.db.archive import archived_logs


@dataclass
class Audit:
    """What ``audit`` found: each list holds one line per game or file."""
    missing: list = field(default_factory=list)     # a game whose raw log is not archived
    altered: list = field(default_factory=list)     # a game whose archived log is not the one stored
    unknown: list = field(default_factory=list)     # an archived ``<id>.log`` that is no game of the library
    versions: int = 0                               # other archived versions (``<id>.<sha>.log``): kept, not games

    def problems(self) -> list:
        return self.missing + self.altered + self.unknown


def audit(conn: sqlite3.Connection, raw_dir: Path) -> Audit:
    """Hold every game's row against the raw archive ``raw_dir``."""
    out = Audit()
    named = set()
    rows = conn.execute("SELECT id, device, game_key, raw_path, raw_sha256 FROM games ORDER BY id").fetchall()
    for gid, device, key, rel, sha in rows:
        game = f"game {gid} ({device}/{key})"
        if not rel:
            out.missing.append(f"{game}: no raw log was archived for it")
            continue
        path = raw_dir / rel
        named.add(path)
        try:
            data = path.read_bytes()
        except OSError:
            out.missing.append(f"{game}: its raw log {path} is missing")
            continue
        if hashlib.sha256(data).hexdigest() != sha:
            out.altered.append(f"{game}: its raw log {path} is not the log stored (altered since)")
    for path in archived_logs(raw_dir):
        if path in named:
            continue
        if path.name.count(".") > 1:     # (an id has no dot: ``<id>.<sha>.log``)
            out.versions += 1
        else:
            out.unknown.append(f"{path}: an archived log that is none of the library's games")
    return out
