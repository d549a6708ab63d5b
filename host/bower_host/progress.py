"""Progress bars on standard error for the commands that can run long
(``bower import`` of many files or games, ``bower export`` of a large
library).

A bar is drawn only when standard error is a terminal, and only once the
work has run for :data:`AFTER` seconds, so a quick run (and every run whose
standard error is a pipe or a file, as in the tests) prints nothing more. It
is rich's live display, gone when the work ends (transient). Standard output
is left as it is: lines printed to it meanwhile go above the bar when it is
the same terminal, and straight to their pipe or file when it is not.

::

    with Progress() as bar:
        bar.set("files", "importing", total=len(files))
        for f in files:
            ...
            bar.advance("files")
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, TextIO

from bower_host.errors import printable

#: Seconds of work before a bar appears.
AFTER = 0.5


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):   # no isatty, or a closed file
        return False


class Progress:
    """Named bars (``set``/``advance``/``drop``), drawn lazily; a context manager."""

    def __init__(self, stream: TextIO | None = None, after: float | None = None):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = _is_terminal(self.stream) and os.environ.get("TERM") != "dumb"
        self.after = AFTER if after is None else after
        self.started = time.monotonic()
        self._bars: dict[str, dict] = {}        # key -> description, completed, total
        self._live: Any = None                  # rich.progress.Progress, once shown
        self._ids: dict[str, Any] = {}

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    @property
    def shown(self) -> bool:
        """Whether a bar is on the screen now."""
        return self._live is not None

    def set(self, key: str, description: str | None = None, *, completed: int | None = None,
            total: int | None = None) -> None:
        """Add the bar ``key``, or change its text, count or total."""
        bar = self._bars.setdefault(key, {"description": "", "completed": 0, "total": None})
        if description is not None:
            bar["description"] = printable(description)       # a file name may hold ESC
        if completed is not None:
            bar["completed"] = completed
        if total is not None:
            bar["total"] = total
        self._show(key)

    def advance(self, key: str, n: int = 1) -> None:
        """Count ``n`` more done on the bar ``key``, if there is one."""
        bar = self._bars.get(key)
        if bar is not None:
            bar["completed"] += n
            self._show(key)

    def drop(self, key: str) -> None:
        """Remove the bar ``key`` (its work is done)."""
        self._bars.pop(key, None)
        task = self._ids.pop(key, None)
        if self._live is not None and task is not None:
            self._live.remove_task(task)

    def _show(self, key: str) -> None:
        if not self.enabled:
            return
        if self._live is None:
            if time.monotonic() - self.started < self.after:
                return
            self._start()
            return
        bar = self._bars[key]
        if key in self._ids:
            self._live.update(self._ids[key], **bar)
        else:
            self._ids[key] = self._live.add_task(**bar)

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                                   TimeRemainingColumn)
        from rich.table import Column
        console = Console(file=self.stream, highlight=False)
        # The counts stay in sight: a long description is cut short, not them.
        what = TextColumn("{task.description}", markup=False,
                          table_column=Column(max_width=40, no_wrap=True, overflow="ellipsis"))
        self._live = RichProgress(what, BarColumn(), MofNCompleteColumn(),
                                  TimeRemainingColumn(), console=console, transient=True,
                                  redirect_stdout=_is_terminal(sys.stdout), redirect_stderr=True)
        for key, bar in self._bars.items():
            self._ids[key] = self._live.add_task(**bar)
        self._live.start()
