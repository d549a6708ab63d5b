"""The club board (bower_host.club.web) served on loopback for a test."""

from contextlib import contextmanager

from bower_host.club.web import server
from webphone import running


@contextmanager
def serving(db, night: str):
    """Serve night ``night`` of library ``db`` on a free port; yields its base URL."""
    with running(server(db, night, "127.0.0.1", 0)) as url:
        yield url
