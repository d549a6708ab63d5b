"""A league's data: clubs and their tokens, nights, players, seasons.

::

    lg = League.open("league.sqlite3")           # or a postgresql:// URL
    token = lg.add_club("Elks")                  # shown once; only its SHA-256 is kept
    out = lg.push(club_id, nights)               # [(key, "new" | "amended" | "unchanged", version)]
    lg.add_season("2026-27", starts, ends, rule="best", best=10, min_nights=5)

Every way a night enters the league is :meth:`League.push` (the command's
direct push and the server's endpoint both call it), one transaction per
night: a night is stored whole or not at all, and a night pushed again is
found by its digest and stored once. A push keeps each season's totals of
the night's players up to date (``season_players``), so standings are a
read of one row per player.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from bower_host.league import schema
from bower_host.league import rules as lr
from bower_host.league.sqldb import Conflict, Db, DbError, open_db
from bower_host.league.summary import digest
from bower_host.names import DEVICE_NAME

#: The season every league has from the start: every night, total points.
ALL_TIME = "all"
MAX_CLUB_NAME = 60
FOREVER = 2 ** 62


class LeagueError(Exception):
    """A league command that cannot be done; the message says why, in one line."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_club_name(name: str) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_CLUB_NAME or not name.isprintable():
        raise LeagueError(f"a club's name is 1 to {MAX_CLUB_NAME} printable characters, not {name[:40]!r}")
    return name.strip()


class League:
    def __init__(self, db: Db, clock=time.time):
        self.db = db
        self.clock = clock

    # ----- opening ------------------------------------------------------------------

    @classmethod
    def create(cls, spec: str, name: str, clock=time.time) -> "League":
        """Make a league in ``spec`` (a new SQLite file, or an empty PostgreSQL database).

        :raises LeagueError: it exists, holds something else, or cannot be reached.
        """
        name = name.strip() if isinstance(name, str) else name
        if not name or len(name) > 80 or not name.isprintable():
            raise LeagueError("a league's name is 1 to 80 printable characters")
        try:
            db = open_db(spec, create=True)
        except DbError as e:
            raise LeagueError(str(e)) from None
        try:
            schema.create(db, name, int(clock()))
            with db.transaction():
                db.run("INSERT INTO seasons (name, club_id, starts, ends, rule, best, min_nights) "
                       "VALUES (?, NULL, 0, ?, 'total', NULL, 1)", (ALL_TIME, FOREVER))
        except DbError as e:
            db.close()
            raise LeagueError(str(e)) from None
        return cls(db, clock)

    @classmethod
    def open(cls, spec: str, clock=time.time) -> "League":
        """The league in ``spec``.

        :raises LeagueError: no league there, a damaged or newer one, or no connection.
        """
        try:
            db = open_db(spec)
        except DbError as e:
            raise LeagueError(str(e)) from None
        try:
            if schema.version(db) is None:
                raise DbError(f"{spec} holds no league: make one with bower league new NAME --db {spec}")
            schema.migrate(db)
        except DbError as e:
            db.close()
            raise LeagueError(str(e)) from None
        return cls(db, clock)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "League":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def stamp(self) -> tuple:
        """What changes whenever a standings could: the last push (a new or
        amended night), season, rename or merge. Read before the standings,
        a cache keyed by it never serves standings older than its key."""
        return self.db.row("SELECT (SELECT COALESCE(MAX(id), 0) FROM pushes), "
                           "(SELECT COALESCE(MAX(id), 0) FROM seasons), "
                           "(SELECT COALESCE(MAX(id), 0) FROM identity_log)") or ()

    @property
    def name(self) -> str:
        return str(self.db.value("SELECT value FROM league_meta WHERE key = 'name'"))

    # ----- clubs ------------------------------------------------------------------------

    def add_club(self, name: str) -> str:
        """Register a club; returns its push token (kept only as a digest)."""
        name = check_club_name(name)
        token = secrets.token_urlsafe(24)
        try:
            with self.db.transaction():
                if self.db.row("SELECT 1 FROM clubs WHERE name = ?", (name,)):
                    raise LeagueError(f"the league already has a club {name!r}")
                self.db.run("INSERT INTO clubs (name, token, added) VALUES (?, ?, ?)",
                            (name, token_digest(token), int(self.clock())))
        except DbError as e:
            raise LeagueError(str(e)) from None
        return token

    def new_token(self, club: str) -> str:
        """A new token for ``club``; the old one stops working."""
        cid = self.club_id(club)
        token = secrets.token_urlsafe(24)
        with self.db.transaction():
            self.db.run("UPDATE clubs SET token = ? WHERE id = ?", (token_digest(token), cid))
        return token

    def clubs(self) -> list:
        """``[(id, name, nights, last pushed)]`` by name."""
        return self.db.rows(
            "SELECT c.id, c.name, COUNT(n.id), MAX(n.pushed_at) FROM clubs c LEFT JOIN nights n ON n.club_id = c.id "
            "GROUP BY c.id, c.name ORDER BY c.name")

    def club_id(self, name: str | None) -> int:
        """The id of the club ``name`` (None: the league's only club)."""
        if name is None:
            rows = self.db.rows("SELECT id, name FROM clubs ORDER BY name")
            if len(rows) == 1:
                return int(rows[0][0])
            if not rows:
                raise LeagueError("the league has no club yet: add one with bower league club add NAME")
            raise LeagueError(f"the league has {len(rows)} clubs: say which with --club "
                              f"({', '.join(r[1] for r in rows[:5])}{', ...' if len(rows) > 5 else ''})")
        cid = self.db.value("SELECT id FROM clubs WHERE name = ?", (name,))
        if cid is None:
            raise LeagueError(f"the league has no club {name!r} (bower league club list shows them)")
        return int(cid)

    def club_of_token(self, token: str) -> tuple | None:
        """``(id, name)`` of the club whose token this is, or None."""
        return self.db.row("SELECT id, name FROM clubs WHERE token = ?", (token_digest(token),))

    # ----- pushes --------------------------------------------------------------------------

    def push(self, club_id: int, nights: list) -> list:
        """Store checked night summaries (``summary.check_payload``) for the
        club: ``[(key, outcome, version)]``, outcome "new", "amended" or
        "unchanged". Each night in its own transaction; a race with another
        writer of the same rows is retried.

        :raises DbError: the database failed (the nights before it are stored).
        """
        out = []
        for night in nights:
            for attempt in range(5):
                try:
                    out.append(self._push_night(club_id, night))
                    break
                except Conflict:
                    if attempt == 4:
                        raise
                    time.sleep(0.01 * (attempt + 1))
        return out

    def _push_night(self, club_id: int, night: dict) -> tuple:
        db = self.db
        d = digest(night)
        now = int(self.clock())
        with db.transaction():
            # The club's pushes take turns: two nights of the same players,
            # each recounting their season rows from the nights it could see,
            # would otherwise race for those rows (on PostgreSQL) until the
            # retries ran out.
            db.lock_row("clubs", club_id)
            old = db.row("SELECT id, digest, version, played FROM nights WHERE club_id = ? AND key = ?",
                         (club_id, night["key"]))
            if old and old[1] == d:
                return night["key"], "unchanged", int(old[2])
            affected: set = set()
            dates = {night["played"]}
            if old:
                nid, version = int(old[0]), int(old[2]) + 1
                dates.add(int(old[3]))
                affected |= {int(r[0]) for r in db.rows("SELECT player_id FROM night_players WHERE night_id = ?",
                                                        (nid,))}
                db.run("DELETE FROM night_players WHERE night_id = ?", (nid,))
                db.run("UPDATE nights SET name = ?, played = ?, tables = ?, rounds = ?, digest = ?, version = ?, "
                       "pushed_at = ? WHERE id = ?",
                       (night["name"], night["played"], night["tables"], night["rounds"], d, version, now, nid))
                outcome = "amended"
            else:
                version = 1
                nid = int(db.value("INSERT INTO nights (club_id, key, name, played, tables, rounds, digest, version, "
                                   "pushed_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?) RETURNING id",
                                   (club_id, night["key"], night["name"], night["played"], night["tables"],
                                    night["rounds"], d, now)))
                outcome = "new"
            ids = self._player_ids(club_id, [p["name"] for p in night["players"]])
            db.many("INSERT INTO night_players (night_id, player_id, place, points, rounds, won, loners, euchres) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(nid, ids[p["name"]], p["place"], p["points"], p["rounds"], p["won"], p["loners"], p["euchres"])
                     for p in night["players"]])
            affected |= set(ids.values())
            for sid in self._seasons_at(club_id, dates):
                self._recount(sid, affected)
            db.run("INSERT INTO pushes (club_id, night_key, at, outcome, version) VALUES (?, ?, ?, ?, ?)",
                   (club_id, night["key"], now, outcome, version))
        return night["key"], outcome, version

    def _player_ids(self, club_id: int, names: list) -> dict:
        """``{name: player id}``, making a player for each name the club has not used before."""
        db = self.db
        marks = ",".join("?" * len(names))
        have = {r[0]: int(r[1]) for r in db.rows(
            f"SELECT name, player_id FROM player_names WHERE club_id = ? AND name IN ({marks})",
            [club_id, *names])}
        for nm in sorted(set(names) - set(have)):
            # (every member's name is among player_names: a name not there is a new player)
            pid = db.value("INSERT INTO members (club_id, name) VALUES (?, ?) RETURNING id", (club_id, nm))
            db.run("INSERT INTO player_names (club_id, name, player_id) VALUES (?, ?, ?)", (club_id, nm, pid))
            have[nm] = int(pid)
        return have

    def _seasons_at(self, club_id: int, dates: set) -> list:
        out: set = set()
        for when in dates:
            out |= {int(r[0]) for r in self.db.rows(
                "SELECT id FROM seasons WHERE (club_id IS NULL OR club_id = ?) AND starts <= ? AND ends > ?",
                (club_id, when, when))}
        return sorted(out)

    def _recount(self, season_id: int, players: set) -> None:
        """Rewrite the season's rows of ``players`` from their nights."""
        db = self.db
        if not players:
            return
        season = db.row("SELECT club_id, starts, ends, rule, best, min_nights FROM seasons WHERE id = ?",
                        (season_id,))
        if season is None:
            return
        club, starts, ends, rule, best, min_nights = season
        ids = sorted(players)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            db.run(f"DELETE FROM season_players WHERE season_id = ? AND player_id IN ({marks})", [season_id, *chunk])
            where = "" if club is None else " AND n.club_id = ?"
            rows = db.rows(
                "SELECT np.player_id, np.points, np.place, np.won, np.loners, np.euchres FROM night_players np "
                f"JOIN nights n ON n.id = np.night_id WHERE np.player_id IN ({marks}) AND n.played >= ? "
                f"AND n.played < ?{where}", [*chunk, starts, ends, *([] if club is None else [club])])
            by: dict = {}
            for pid, *rest in rows:
                by.setdefault(pid, []).append(rest)
            names = {int(r[0]): (r[1], r[2]) for r in db.rows(
                f"SELECT m.id, m.name, c.name FROM members m JOIN clubs c ON c.id = m.club_id WHERE m.id IN ({marks})",
                chunk)}
            db.many("INSERT INTO season_players (season_id, player_id, name, club, placed, nights, points, score, "
                    "won, loners, euchres, best_night) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(season_id, pid, *names[int(pid)], int(len(nights) >= min_nights),
                      *lr.totals(rule, best, nights)) for pid, nights in by.items()])

    # ----- seasons -----------------------------------------------------------------------

    def add_season(self, name: str, starts: int, ends: int, rule: str = "total", best: int | None = None,
                   min_nights: int = 1, club: str | None = None) -> None:
        """A season: the nights from ``starts`` (inclusive) to ``ends``
        (exclusive), of one club or (``club`` None) of every club."""
        try:
            lr.check_rule(rule, best, min_nights)
        except lr.RuleError as e:
            raise LeagueError(str(e)) from None
        if not isinstance(name, str) or not name.strip() or len(name) > 60 or not name.isprintable():
            raise LeagueError("a season's name is 1 to 60 printable characters")
        if not starts < ends:
            raise LeagueError("a season ends after it starts (--to after --from)")
        cid = None if club is None else self.club_id(club)
        db = self.db
        with db.transaction():
            if db.row("SELECT 1 FROM seasons WHERE name = ?", (name,)):
                raise LeagueError(f"the league already has a season {name!r}")
            sid = int(db.value("INSERT INTO seasons (name, club_id, starts, ends, rule, best, min_nights) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                               (name, cid, starts, ends, rule, best, min_nights)))
            where = "" if cid is None else " AND n.club_id = ?"
            players = {int(r[0]) for r in db.rows(
                "SELECT DISTINCT np.player_id FROM night_players np JOIN nights n ON n.id = np.night_id "
                f"WHERE n.played >= ? AND n.played < ?{where}", [starts, ends, *([] if cid is None else [cid])])}
            self._recount(sid, players)

    def seasons(self) -> list:
        """``[(name, club or None, starts, ends, rule, best, min_nights)]``, newest first."""
        return self.db.rows("SELECT s.name, c.name, s.starts, s.ends, s.rule, s.best, s.min_nights FROM seasons s "
                            "LEFT JOIN clubs c ON c.id = s.club_id ORDER BY s.starts DESC, s.id DESC")

    def season(self, name: str | None) -> tuple:
        """``(id, name, club, starts, ends, rule, best, min_nights)`` of the season (None: all time)."""
        r = self.db.row("SELECT s.id, s.name, c.name, s.starts, s.ends, s.rule, s.best, s.min_nights FROM seasons s "
                        "LEFT JOIN clubs c ON c.id = s.club_id WHERE s.name = ?", (name or ALL_TIME,))
        if r is None:
            raise LeagueError(f"the league has no season {name!r} (bower league season list shows them)")
        return r

    # ----- players -------------------------------------------------------------------------

    def rename(self, club: str, old: str, new: str) -> None:
        """The player ``old`` of ``club`` is called ``new`` from now on; the
        club's nights that say ``old`` still count for them."""
        cid = self.club_id(club)
        if not DEVICE_NAME.match(new):
            raise LeagueError(f"bad player name {new!r}: 1 to 8 printable ASCII characters, as on the device")
        db = self.db
        with db.transaction():
            db.lock_row("clubs", cid)         # after the club's pushes running now, before the next
            pid = db.value("SELECT player_id FROM player_names WHERE club_id = ? AND name = ?", (cid, old))
            if pid is None:
                raise LeagueError(f"{club} has no player {old!r}")
            other = db.value("SELECT player_id FROM player_names WHERE club_id = ? AND name = ?", (cid, new))
            if other is not None and other != pid:
                raise LeagueError(f"{club} already has a player {new!r}: if they are one person, merge them "
                                  f"(bower league player merge --club ... {old!r} {new!r})")
            db.run("UPDATE members SET name = ? WHERE id = ?", (new, pid))
            db.run("UPDATE season_players SET name = ? WHERE player_id = ?", (new, pid))
            if other is None:
                db.run("INSERT INTO player_names (club_id, name, player_id) VALUES (?, ?, ?)", (cid, new, pid))
            db.run("INSERT INTO identity_log (club_id, at, kind, old, new) VALUES (?, ?, 'rename', ?, ?)",
                   (cid, int(self.clock()), old, new))

    def merge(self, club: str, source: str, into: str) -> None:
        """``source`` and ``into`` are one person: every night of ``source``
        counts for ``into``, and the name ``source`` is theirs from now on.

        :raises LeagueError: they played the same night (two people), or one is unknown.
        """
        cid = self.club_id(club)
        db = self.db
        with db.transaction():
            db.lock_row("clubs", cid)         # after the club's pushes running now, before the next
            a = db.value("SELECT player_id FROM player_names WHERE club_id = ? AND name = ?", (cid, source))
            b = db.value("SELECT player_id FROM player_names WHERE club_id = ? AND name = ?", (cid, into))
            for nm, pid in ((source, a), (into, b)):
                if pid is None:
                    raise LeagueError(f"{club} has no player {nm!r}")
            if a == b:
                raise LeagueError(f"{source!r} and {into!r} are already one player")
            both = db.value("SELECT n.key FROM night_players x JOIN night_players y ON x.night_id = y.night_id "
                            "JOIN nights n ON n.id = x.night_id WHERE x.player_id = ? AND y.player_id = ?", (a, b))
            if both is not None:
                raise LeagueError(f"{source!r} and {into!r} both played night {both}: they are two people, not one")
            db.run("UPDATE night_players SET player_id = ? WHERE player_id = ?", (b, a))
            db.run("UPDATE player_names SET player_id = ? WHERE player_id = ?", (b, a))
            db.run("DELETE FROM season_players WHERE player_id = ?", (a,))
            db.run("DELETE FROM members WHERE id = ?", (a,))
            for (sid,) in db.rows("SELECT id FROM seasons"):
                self._recount(int(sid), {int(b)})
            db.run("INSERT INTO identity_log (club_id, at, kind, old, new) VALUES (?, ?, 'merge', ?, ?)",
                   (cid, int(self.clock()), source, into))

    def identity_log(self) -> list:
        return self.db.rows("SELECT l.at, c.name, l.kind, l.old, l.new FROM identity_log l "
                            "JOIN clubs c ON c.id = l.club_id ORDER BY l.id")
