"""The club board (bower_host.club.web) served on loopback for a test."""

import threading
import time
from contextlib import contextmanager

from bower_host.club.web import server


@contextmanager
def serving(db, night: str):
    """Serve night ``night`` of library ``db`` on a free port; yields its base URL."""
    srv = server(db, night, "127.0.0.1", 0)
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    deadline = time.time() + 10
    while not srv.started and time.time() < deadline:
        time.sleep(0.02)
    try:
        yield "http://127.0.0.1:%d" % srv.servers[0].sockets[0].getsockname()[1]
    finally:
        srv.should_exit = True
        th.join(5)
