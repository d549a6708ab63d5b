"""The device ``bower sim`` runs: the very same firmware on CPython.

:class:`Device` is the firmware's UI core (``bower.ui.App``), its flash
store over a directory (``simhw.HostFs``) and its display layer
(``bower.display`` over the vendored ``ssd1306`` driver) on a fake I2C bus
with an SSD1306 model behind it (:mod:`bower_host.oledsim`). Each
simulated flash is its own device: its id is kept in the flash directory
(:func:`device_id`).
"""

from __future__ import annotations

import os
import time

from bower_host import simhw, oledsim

simhw.install()

from bower.keyscript import parse_keys  # noqa: E402
from bower.display import Display  # noqa: E402
from bower.store import Store  # noqa: E402
from bower.ui import App  # noqa: E402
import ssd1306  # noqa: E402


SIM_DEVICE_ID = "5131a7e0b0e50000"   # the id of a flash made before each flash had its own
DEVICE_ID_FILE = "sim-device-id"      # beside the store's files: the simulated board's unique id


def default_flash_dir() -> str:
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("bower"), "sim-flash")


def device_id(flash_dir: str) -> str:
    """The simulated board's id: made once per flash directory and kept there.

    A flash that holds games from before ids were kept keeps the old fixed id
    (its games' headers carry it).
    """
    path = os.path.join(flash_dir, DEVICE_ID_FILE)
    try:
        with open(path) as f:
            dev = f.read().strip()
        if 1 <= len(dev) <= 32 and all(c in "0123456789abcdef" for c in dev):
            return dev
    except OSError:
        pass
    try:
        old = any(n.endswith(".log") for n in os.listdir(os.path.join(flash_dir, "games")))
    except OSError:
        old = False
    dev = SIM_DEVICE_ID if old else "5131" + os.urandom(6).hex()
    with open(path, "w") as f:
        f.write(dev + "\n")
    return dev


class Device:
    """The simulated device: app, store, driver, bus and display model."""

    def __init__(self, flash_dir: str, rand_below=None):
        os.makedirs(flash_dir, exist_ok=True)
        self.flash_dir = flash_dir
        self.id = device_id(flash_dir)
        self.bus = oledsim.FakeI2C()
        self.driver = ssd1306.SSD1306_I2C(128, 64, self.bus, 0x3C)
        self.display = Display(self.driver)
        self.store = Store(flash_dir, fs=simhw.HostFs(flash_dir), device=self.id)
        self.info = {"version": _firmware_version(), "device": self.id, "time": lambda: int(time.time())}
        self.start = time.monotonic()
        self.app = App(self.store, self.info, rand_below, self.now())
        self.bytes_sent = []
        self.flush()

    def now(self) -> int:
        return int((time.monotonic() - self.start) * 1000)

    def flush(self) -> int:
        app = self.app
        self.display.contrast(app.contrast)
        self.display.power(not app.asleep)
        sent = 0
        if app.dirty:
            app.render(self.display.fb)
            sent = self.display.show()
        self.bytes_sent.append(sent)
        return sent

    def press(self, ev: int, now: int | None = None) -> None:
        now = self.now() if now is None else now
        self.app.handle(ev, now)
        self.app.tick(now)
        self.flush()

    def tick(self) -> None:
        self.app.tick(self.now())
        self.flush()

    def gddram(self) -> bytes:
        return oledsim.gddram(self.bus)

    def lit(self) -> bool:
        return oledsim.display_on(self.bus)


def _firmware_version() -> str:
    import bower

    return getattr(bower, "__version__", "sim")


MAX_PRESSES = 100_000   # a scripted run longer than this is a typo (and takes minutes)


def run_script(dev: Device, keys: str, step_ms: int = 200) -> None:
    now = dev.now()
    for ev in parse_keys(keys, MAX_PRESSES):
        now += step_ms
        dev.press(ev, now)


def unsynced_games(flash: str) -> list[str]:
    """Ids of the games on a simulated flash that no ``bower sync`` has stored yet."""
    if not os.path.isdir(os.path.join(flash, "games")):
        return []
    store = Store(flash, fs=simhw.HostFs(flash), device=device_id(flash))
    from bower.store import extra
    return [g["id"] for g in extra("past").games(store) if not g["synced"]]
