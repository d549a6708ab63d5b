"""What the power-cut tests share: a device on the real store over a flash
with a power switch (fakefs.FakeFS), and a driver that notes, after each
press, the flash work done so far and what the device shows (``observe``,
each test's own). The flash of a run cut at N is the uncut run's trace up
to N (FakeFS.cuts); a reboot is ``boot(flash.reboot())``.
"""

from uikit import Driver, Rng
from bower.store import Store
from bower.ui import App

INFO = {"version": "test", "device": "e6614103e7"}


def boot(fs):
    """The device powered on with flash ``fs``."""
    return App(Store("", fs=fs, device=INFO["device"]), INFO, Rng(5).randrange)


class Recorder(Driver):
    """Presses keys and notes, after each, ``(flash work so far,
    observe(app))`` in ``marks``."""

    def __init__(self, fs, observe):
        Driver.__init__(self, boot(fs))
        self.fs = fs
        self.observe = observe
        self.marks = []

    def press(self, ev, n=1):
        for _ in range(n):
            Driver.press(self, ev)
            self.marks.append((self.fs.spent, self.observe(self.app)))


def reboots(fs, marks, start, step, observe):
    """Cut the power at every ``step``-th unit of flash work from the press
    ``marks[start]`` on, and around every write, create, rename and remove,
    and boot each flash: yields ``(cut, app, observe(app), done, flight)``,
    ``done`` what the last press whose flash work was done by the cut
    showed and ``flight`` the next (the input in flight)."""
    first = marks[start][0]
    cuts = set(range(first, fs.spent + 1, step))
    for t in fs.trace:
        cuts.update((t[2] - 1, t[2]))
    for cut, flash in fs.cuts(sorted(c for c in cuts if c >= first)):
        i = start
        while i + 1 < len(marks) and marks[i + 1][0] <= cut:
            i += 1
        app = boot(flash.reboot())
        yield cut, app, observe(app), marks[i][1], marks[min(i + 1, len(marks) - 1)][1]
