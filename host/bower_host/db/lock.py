"""One writer at a time: the library's writer lock (``<db file>.lock``)."""

from __future__ import annotations

import os
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

from bower_host.db.errors import LibraryError, check_file_path
from bower_host.db.paths import default_path, real_path, side_path
from bower_host.errors import os_cause, shown_name
from bower_host.oslock import Held, exclusive


@contextmanager
def writer_lock(path: str | os.PathLike | None, what: str, wait: float = 0.0) -> Iterator[Path]:
    """Hold the library's writer lock (``<db file>.lock`` beside its real
    file: an OS file lock that dies with its process, and a file that exists
    only while ``what``, such as ``"bower sync"``, writes). ``wait``: seconds
    to keep trying while another holds it (a command beside ``bower club
    serve``, which holds it a few milliseconds per write).

    :raises LibraryError: another bower holds it (still, after ``wait``), or
        the directory cannot be written to.
    """
    shown = Path(path).expanduser() if path else default_path()
    check_file_path(shown, write=True)
    lock = side_path(real_path(shown), "lock")
    with ExitStack() as stack:
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            deadline = time.monotonic() + wait
            while True:
                try:
                    stack.enter_context(exclusive(lock, what))
                    break
                except Held:
                    if time.monotonic() >= deadline:
                        raise
                    time.sleep(0.02)
        except Held as e:
            raise LibraryError(f"the game library {shown} is in use by {e}: wait for it to finish, then try "
                               "again") from None
        except OSError as e:
            raise LibraryError(f"cannot write to {shown_name(lock.parent)}, where the library's lock file goes: "
                               f"{os_cause(e)}") from None
        yield lock
