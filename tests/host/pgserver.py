"""A throw-away PostgreSQL server for the tests: Debian's binaries, a data
directory of its own, reached only over a Unix socket (no TCP port).

``PgServer().start(base_dir)`` runs initdb (once) and starts the server;
``create_database(name)`` gives a test its own database. initdb and postgres
refuse to run as root: as root the server runs as the ``postgres`` user
(``runuser``), in directories made its own. fsync stays on (the fault tests
kill the server and count on what was committed).
"""

from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

USER = "bower"            # the superuser initdb makes (trust auth: no password)
START_TIMEOUT = 30        # seconds pg_ctl waits for the server to take connections
STOP_TIMEOUT = 30
SETTINGS = {
    "listen_addresses": "",        # the Unix socket only
    "max_connections": "200",      # the tests push from 50 clubs at once
    "shared_buffers": "32MB",
}


class PgError(RuntimeError):
    """The server would not start or stop (with its log's last lines)."""


def find_bin() -> Path | None:
    """The bin directory of the highest installed PostgreSQL (Debian's
    /usr/lib/postgresql/N/bin) that has initdb; None when there is none."""
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    found = [d for d in found if re.fullmatch(r"\d+(\.\d+)?", d.parent.name)]
    if not found:
        return None
    return max(found, key=lambda d: tuple(int(x) for x in d.parent.name.split(".")))


class PgServer:
    def __init__(self, bin_dir: Path | None = None, port: int = 5432):
        self.bin = bin_dir or find_bin()
        if self.bin is None:
            raise PgError("PostgreSQL is not installed (Debian: postgresql)")
        self.port = port        # names the socket file only: no TCP
        self.base: Path | None = None
        self.sock: str | None = None
        self.running = False
        self._owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None

    # -- paths and URLs

    @property
    def data(self) -> Path:
        assert self.base is not None, "start() first"
        return self.base / "data"

    @property
    def log(self) -> Path:
        assert self.base is not None, "start() first"
        return self.base / "server.log"

    @property
    def url(self) -> str:
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        """The libpq URL of database ``name`` on this server."""
        assert self.sock is not None, "start() first"
        return f"postgresql://{USER}@/{name}?host={self.sock}&port={self.port}"

    # -- life cycle

    def start(self, base_dir: str | os.PathLike | None = None) -> PgServer:
        """Start the server (initdb first when its data directory is new).
        ``base_dir`` is needed the first time; after stop() or kill() the
        same data directory is started again."""
        if self.running:
            return self
        if base_dir is not None:
            self.base = Path(base_dir).resolve()
        if self.base is None:
            # Its own folder in /tmp, not under pytest's: pytest makes its folder 0700
            # again as each session (each xdist worker) starts, and the server's user
            # must keep reaching its data directory (pg_ctl stop reads the pid file).
            self.base = Path(tempfile.mkdtemp(prefix="bowerpg-", dir="/tmp"))
            self._made_base = True
        self._mkdir(self.base)
        if self.sock is None:
            # A short path of its own: a socket's path must stay under 107 bytes.
            self.sock = tempfile.mkdtemp(prefix="bpg", dir="/tmp")
            self._own(Path(self.sock))
        if not (self.data / "PG_VERSION").exists():
            self._run(["initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                       "--locale=C", "--no-sync"], timeout=120, what="initdb")
        opts = " ".join(f"-c {k}={v!r}" if v == "" else f"-c {k}={v}" for k, v in SETTINGS.items())
        opts += f" -c unix_socket_directories={self.sock} -p {self.port}"
        self._run(["pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w", "-t", str(START_TIMEOUT),
                   "-o", opts], timeout=START_TIMEOUT + 10, what="start")
        self.running = True
        return self

    def stop(self) -> None:
        """Stop at once (``-m immediate``: no checkpoint); the socket
        directory goes. Does nothing when the server is not running."""
        self._stop("immediate")
        if self.sock is not None:
            shutil.rmtree(self.sock, ignore_errors=True)
            self.sock = None

    def cleanup(self) -> None:
        """Stop, and remove the data directory when start() made it."""
        self.stop()
        if getattr(self, "_made_base", False) and self.base is not None:
            shutil.rmtree(self.base, ignore_errors=True)
            self.base = None

    def restart(self) -> PgServer:
        """Stop (``-m fast``: clients are cut off, a checkpoint is written)
        and start again on the same data directory and socket."""
        self._stop("fast")
        return self.start()

    def kill(self) -> None:
        """SIGKILL the postmaster and its backends, as a crash would (no
        shutdown, no checkpoint); start() afterwards recovers from the WAL."""
        pid = self._pid()
        self.running = False
        if pid is None:
            return
        shm = self._lock_lines()[6:7]       # "key shmid" of its System V segment
        pids = [pid, *_children(pid)]       # each backend is a session leader of its own
        for p in pids:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + STOP_TIMEOUT
        while any(_alive(p) for p in pids):
            if time.monotonic() > deadline:
                raise PgError(f"PostgreSQL (pid {pid}) still runs {STOP_TIMEOUT} s after SIGKILL")
            time.sleep(0.02)
        # Dead, but a zombie until init reaps it (some inits take seconds):
        # its pid would still answer, and the next postmaster would take the
        # lock files naming it for a server still running. They are stale.
        assert self.sock is not None
        for stale in (self.data / "postmaster.pid", Path(self.sock) / f".s.PGSQL.{self.port}.lock"):
            stale.unlink(missing_ok=True)
        # The next start on this data directory would reuse its segment; a
        # session that ends here would leave it behind.
        if shm and len(shm[0].split()) == 2:
            subprocess.run(["ipcrm", "-m", shm[0].split()[1]], capture_output=True, timeout=10)

    def create_database(self, name: str) -> str:
        """CREATE DATABASE ``name``; its URL."""
        import psycopg
        from psycopg import sql
        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.database_url(name)

    # -- helpers

    def _stop(self, mode: str) -> None:
        if not self.running:
            return
        self.running = False
        self._run(["pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", str(STOP_TIMEOUT)],
                  timeout=STOP_TIMEOUT + 10, what="stop")

    def _lock_lines(self) -> list[str]:
        try:
            return (self.data / "postmaster.pid").read_text().splitlines()
        except OSError:
            return []

    def _pid(self) -> int | None:
        try:
            return int(self._lock_lines()[0])
        except (ValueError, IndexError):
            return None

    def _run(self, args: list[str], timeout: float, what: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self._owner is not None:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.base)
        except subprocess.TimeoutExpired:
            raise PgError(f"PostgreSQL {what} took over {timeout:g} s{self._log_tail()}") from None
        if r.returncode != 0:
            out = (r.stdout + r.stderr).strip().splitlines()[-10:]
            raise PgError(f"PostgreSQL {what} failed ({r.returncode}): " + " | ".join(out) + self._log_tail())

    def _log_tail(self, lines: int = 15) -> str:
        try:
            tail = self.log.read_text(errors="replace").strip().splitlines()[-lines:]
        except OSError:
            return ""
        return "; server log: " + " | ".join(tail) if tail else ""

    def _mkdir(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self._own(path)

    def _own(self, path: Path) -> None:
        """As root: the directory becomes the postgres user's, and every
        directory above it can be passed through (pytest's are 0700)."""
        if self._owner is None:
            return
        os.chown(path, self._owner.pw_uid, self._owner.pw_gid)
        os.chmod(path, 0o755)
        for parent in path.parents:
            mode = parent.stat().st_mode
            if not mode & stat.S_IXOTH:
                os.chmod(parent, stat.S_IMODE(mode) | stat.S_IXOTH)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for stat_file in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat_file) as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(stat_file.split("/")[2]))
        except (OSError, ValueError, IndexError):
            pass
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, waiting to be reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
