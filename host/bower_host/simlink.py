"""The simulator's USB serial: the firmware's own link on a pseudo-terminal.

A Pico running Bower answers the sync protocol (host/PROTOCOL.md) on its USB
serial port with ``bower.link.Link``, polled from the device loop
(``bower.board``). ``bower sim --serve`` does the same on CPython: a
pseudo-terminal stands in for the USB cable, its far end (``/dev/pts/N``) is
the port the host opens, and the sim's loop hands what arrives to the very
``Link`` (and ``bower.protocol``) the device runs, over the sim's store. So
``bower sync --port``, ``bower roster push --port``, ``bower rules push
--port`` and ``bower clock --port`` talk to the simulator exactly as to a
Pico::

    served = SimLink(store, info, link="sim-port")   # also a symlink to the port
    served.port                                       # '/dev/pts/7'
    while ...:
        select.select([served, ...], [], [], 0.1)     # a SimLink has a fileno()
        served.serve()                                # answers what is waiting
    served.close()

Only the cable is simulated: the pseudo-terminal is in raw mode like a
CDC-ACM port, and a host that stops reading stalls a reply for at most
``WRITE_TIMEOUT`` seconds before the rest of it is dropped (a Pico's USB
buffer with nobody reading drops too), so the simulated device never hangs.
"""

from __future__ import annotations

import os
import select
import time
import tty

from bower_host import simhw

simhw.install()

from bower.link import Link  # noqa: E402

WRITE_TIMEOUT = 2.0   # seconds a reply may wait for the host to read


class SimLink:
    """``bower.link.Link`` served on a pseudo-terminal.

    :param store: the simulated device's ``bower.store.Store`` (the app's own).
    :param info: ``{"version", "device"}`` as the device's ``board.run`` gives ``Link``.
    :param link: a path to make a symlink to the port at (None: none); an
        existing symlink there is replaced, any other file refused.
    :raises OSError: no pseudo-terminal, or the symlink cannot be made.
    """

    def __init__(self, store, info, link: str | None = None, clock=None):
        self.master, self.slave = os.openpty()
        # Raw mode at once (a CDC-ACM port echoes nothing); the slave stays
        # open here so the master never sees a hang-up between host sessions.
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.symlink = None
        self.dropped = 0          # reply bytes nobody read within WRITE_TIMEOUT
        self._rx = os.fdopen(self.master, "rb", buffering=0, closefd=False)
        self.link = Link(store, info, self._write, clock=clock, stdin=self._rx)
        if link:
            try:
                self._make_symlink(link)
            except OSError:
                self.close()
                raise

    def _make_symlink(self, path: str) -> None:
        if os.path.lexists(path):
            if not os.path.islink(path):
                raise FileExistsError(f"{path} exists and is not a link a simulator made: choose another path")
            os.remove(path)       # a simulator that was killed left it
        os.symlink(self.port, path)
        self.symlink = path

    @property
    def name(self) -> str:
        """What the host passes as ``--port``: the symlink if there is one, else the port."""
        return self.symlink or self.port

    def fileno(self) -> int:
        return self.master

    def serve(self, budget: float = 0.05) -> int:
        """Answer the requests waiting (for at most about ``budget`` seconds); returns the link's request count."""
        end = time.monotonic() + budget
        while self.master >= 0 and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0)
            if not ready:
                break
            self.link.poll()          # at most two lines per call, like the device loop
        return self.link.requests

    def _write(self, data) -> None:
        view = memoryview(bytes(data))
        deadline = time.monotonic() + WRITE_TIMEOUT
        while view and self.master >= 0:
            try:
                n = os.write(self.master, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except OSError:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                self.dropped += len(view)
                return
            select.select([], [self.master], [], min(left, 0.05))

    def close(self) -> None:
        """Close the pseudo-terminal and remove the symlink (if it still points at it)."""
        if self.symlink:
            try:
                if os.readlink(self.symlink) == self.port:
                    os.remove(self.symlink)
            except OSError:
                pass
            self.symlink = None
        self._rx.close()
        for fd in (self.master, self.slave):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self.slave = -1

    def __enter__(self) -> "SimLink":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
