"""A fake Bower device behind a pseudo-terminal, for the host link tests.

The device side is the real firmware: ``bower.link.Link`` answering from a
real ``bower.store.Store`` on a temp directory, with games recorded through
the engine exactly as the device UI records them. A thread plays the device's
main loop: it reads what the host wrote to the pty, hands complete lines to
``Link.feed`` and writes the replies back. The host opens ``device.port``
(the pty's slave end) with pyserial, like a real ``/dev/ttyACM0``.

Faults a test can switch on (all counted in GET requests received):

* ``corrupt``: a function applied to every write (flip bytes in replies);
* ``mute_after_gets=N``: answer N GETs, then go silent (a hung device);
* ``vanish_after_gets=N``: answer N GETs, then close the pty (unplugged)
  a moment later;
* ``reset_at_get=N``: the Nth GET is lost in a reset: garbage and the
  MicroPython banner come out and a fresh ``Link`` serves from then on;
* ``banner()``: print REPL noise now.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty

from bower.link import Link
from bower.store import Store
from bower_host.simhw import HostFs
from euchre import Game, Rules

BANNER = (b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\n"
          b'Type "help()" for more information.\r\n>>> ')
SKIP = ("redeal", "renege", "acenoface", "ninetens", "throwin")


def random_table_game(variant: str = "classic", seed: int = 1, players=None, dealer: int = 0,
                      options=None, max_events: int = 4000) -> list[str]:
    """Events of a whole table-mode game with random legal inputs (no redeals or reneges)."""
    g = Game(Rules(variant, **(options or {})), players, dealer=dealer)
    rng = random.Random(seed)
    events = []
    while not g.result and len(events) < max_events:
        acts = [x for x in g.legal_actions() if not x.startswith("quick")]   # (entered in full)
        a = rng.choice([x for x in acts if not x.startswith(SKIP)] or acts)
        g.apply(a)
        events.append(a)
    return events


def record_game(store: Store, variant: str, events: list[str], players=None, dealer: int = 0,
                options=None, started: int = 1763700000) -> str:
    """Record a game on ``store`` input by input, as the device does; returns its id."""
    g = Game(Rules(variant, **(options or {})), players, dealer=dealer)
    gid = store.new_game(g, started=started)
    for e in events:
        if e == "undo":
            g.undo()
        else:
            g.apply(e)
        store.record(g, e)
    return gid


class FakeDevice:
    """The real link and store on one end of a pty; ``port`` is the other end."""

    def __init__(self, root, device_id: str = "e6614103e7", version: str = "0.2.0", clock=None):
        self.store = Store(str(root), fs=HostFs(), device=device_id)
        self.info = {"version": version, "device": device_id, "board": {"board": "pico"}}
        self.clock = clock or (lambda: 1000)
        self.master, self.slave = os.openpty()
        # Raw mode on the slave at once: no echo of what the device writes
        # before pyserial opens the port (pyserial sets raw mode too).
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.link = self._new_link()
        self.corrupt = None
        self.mute_after_gets = None
        self.vanish_after_gets = None
        self.reset_at_get = None
        self.requests: list[bytes] = []
        self.gets = 0
        self.sent = 0
        self.resets = 0
        self._pending = b""
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = None
        self.error = None

    def _new_link(self) -> Link:
        return Link(self.store, self.info, self._send, clock=self.clock)

    # ----- the loop ---------------------------------------------------------

    def start(self) -> "FakeDevice":
        self._thread = threading.Thread(target=self._run, name="fake-device", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = self.slave = -1

    def __enter__(self) -> "FakeDevice":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        try:
            while not self._stop.is_set() and self.master >= 0:
                r, _, _ = select.select([self.master], [], [], 0.02)
                if not r:
                    continue
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                if not data:
                    return
                self._incoming(data)
        except Exception as e:  # surfaced by tests through .error
            self.error = e

    def _incoming(self, data: bytes) -> None:
        self._pending += data
        while b"\n" in self._pending:
            line, self._pending = self._pending.split(b"\n", 1)
            line += b"\n"
            if line.startswith(b"#B? "):
                self.requests.append(line)
                words = line.split(b" ")
                if len(words) > 2 and words[2] == b"GET":
                    self.gets += 1
                    if self._fault():
                        continue
                elif self.mute_after_gets is not None and self.gets >= self.mute_after_gets:
                    continue
            self.link.feed(line)

    def _fault(self) -> bool:
        # True: this GET gets no answer.
        n = self.gets
        if self.vanish_after_gets is not None and n > self.vanish_after_gets:
            time.sleep(0.5)           # the host reads what was sent; then the cable is pulled
            os.close(self.master)
            self.master = -1
            return True
        if self.mute_after_gets is not None and n > self.mute_after_gets:
            return True
        if self.reset_at_get is not None and n == self.reset_at_get:
            self.resets += 1
            self._raw_write(b"\x00\xff\xfe garbage \x1b[0m" + bytes(range(1, 40)) + b"\r\n")
            self.banner()
            self.link = self._new_link()
            return True
        return False

    # ----- output -----------------------------------------------------------

    def banner(self) -> None:
        """Print REPL noise (as after a reset or a Ctrl-D)."""
        self._raw_write(BANNER + b"\r\n")

    def _send(self, data: bytes) -> None:
        if self.corrupt is not None:
            data = self.corrupt(bytes(data))
        self._raw_write(data)

    def _raw_write(self, data: bytes) -> None:
        with self._lock:
            view = memoryview(data)
            while view and self.master >= 0:
                n = os.write(self.master, view)
                view = view[n:]
                self.sent += n
