"""The throw-away PostgreSQL server the league tests run on
(tests/host/pgserver.py, the pg_server and pg_url fixtures)."""

from __future__ import annotations

import pytest

psycopg = pytest.importorskip("psycopg")

from pgserver import PgError, PgServer  # noqa: E402


def connect(url, **kw):
    return psycopg.connect(url, connect_timeout=10, **kw)


@pytest.fixture(scope="module")
def own_server(pg_server, tmp_path_factory):
    """A server of this module's own, for restarting and killing (pg_server
    is the worker's, shared by its tests; asking for it skips the module
    where PostgreSQL is missing)."""
    server = PgServer().start()
    yield server
    server.cleanup()


def test_url_and_socket(pg_server):
    assert pg_server.url.startswith("postgresql://bower@/postgres?host=/tmp/bpg")
    assert pg_server.database_url("x").startswith("postgresql://bower@/x?")
    assert len(f"{pg_server.sock}/.s.PGSQL.{pg_server.port}".encode()) < 107
    assert (pg_server.bin / "initdb").exists()


def test_table_round_trip(pg_url):
    with connect(pg_url) as conn:
        conn.execute("CREATE TABLE club (id serial PRIMARY KEY, name text NOT NULL)")
        conn.execute("INSERT INTO club (name) VALUES (%s), (%s)", ("Ann's", "Bob's"))
    with connect(pg_url) as conn:
        assert conn.execute("SELECT name FROM club ORDER BY id").fetchall() == [("Ann's",), ("Bob's",)]
        assert conn.execute("SHOW server_encoding").fetchone() == ("UTF8",)


def test_databases_are_isolated(pg_server):
    a, b = pg_server.create_database("iso_a"), pg_server.create_database("iso_b")
    with connect(a) as conn:
        conn.execute("CREATE TABLE t (x int)")
        conn.execute("INSERT INTO t VALUES (1)")
    with connect(b) as conn:
        assert conn.execute("SELECT to_regclass('t')").fetchone() == (None,)
        conn.execute("CREATE TABLE t (x int)")
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)


def test_restart_keeps_committed_rows(own_server):
    url = own_server.create_database("restarted")
    with connect(url) as conn:
        conn.execute("CREATE TABLE t (x int)")
        conn.execute("INSERT INTO t VALUES (1), (2)")
    held = connect(url, autocommit=True)
    own_server.restart()
    with pytest.raises(psycopg.OperationalError):       # a fast stop cuts its clients off
        held.execute("SELECT 1")
    held.close()
    with connect(url) as conn:
        assert conn.execute("SELECT x FROM t ORDER BY x").fetchall() == [(1,), (2,)]


def test_kill_then_start_recovers_committed_rows(own_server):
    url = own_server.create_database("killed")
    with connect(url) as conn:
        conn.execute("CREATE TABLE t (x int)")
        conn.execute("INSERT INTO t SELECT generate_series(1, 1000)")
    pending = connect(url)
    pending.execute("INSERT INTO t VALUES (-1)")         # never committed
    own_server.kill()
    pending.close()
    own_server.start()
    with connect(url) as conn:
        assert conn.execute("SELECT count(*), min(x) FROM t").fetchone() == (1000, 1)


def test_a_failed_start_says_why(own_server):
    second = PgServer()
    with pytest.raises(PgError, match=r"PostgreSQL start failed.*postmaster\.pid"):
        second.start(own_server.base)                   # the same data directory, in use
    second.stop()
    with connect(own_server.url) as conn:                # (the first one is untouched)
        assert conn.execute("SELECT 1").fetchone() == (1,)
