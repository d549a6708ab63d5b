"""Where a library lives: its default file, and its side files beside it.

A library ``club.sqlite3`` keeps, beside its file and named after it:
``club.sqlite3.raw/`` (the raw logs: ``<device>/<id>.log``),
``club.sqlite3.partial/`` (unfinished downloads: ``<device>/<id>.part``)
and ``club.sqlite3.lock`` (the writer lock). Nothing a library does reads
or changes another's, so several libraries can share a directory.
"""

from __future__ import annotations

import os
from pathlib import Path

DB_NAME = "bower.sqlite3"
ENV_DB = "BOWER_DB"


def default_path() -> Path:
    """``$BOWER_DB``, else ``bower.sqlite3`` in the user's data directory."""
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir
    return Path(user_data_dir("bower")) / DB_NAME


def side_path(path: str | os.PathLike, what: str) -> Path:
    """The library ``path``'s side file ``what`` (``"raw"``, ``"partial"``,
    ``"lock"``): ``<file>.<what>`` beside it."""
    path = Path(path)
    return path.with_name(f"{path.name}.{what}")
