"""``bower sim``: the device, simulated with the very same firmware.

The firmware's UI core (``bower.ui``), its flash store and its display layer
(``bower.display`` over the vendored micropython-lib ``ssd1306`` driver) run
unchanged on CPython. The driver talks to a fake I2C bus with an SSD1306 model
behind it, and the picture shown is the model's display RAM: what the chip
would show, decoded from the bytes the driver sent.

Keys: up/down arrows (or k/j), Enter or space = OK, Backspace or Esc = BACK,
``l`` = long OK (game menu), ``z`` = long BACK (undo), ``q`` = quit. Scripted
runs take the letters of ``bower.keys.parse_keys`` (``u d o b O B``).
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import sys
import time

from bower_host import devicesim

devicesim.install()

from bower import keys as K  # noqa: E402
from bower.display import Display  # noqa: E402
from bower.store import Store  # noqa: E402
from bower.ui import App  # noqa: E402
import ssd1306  # noqa: E402

from bower_host import screen  # noqa: E402

SIM_DEVICE_ID = "5131a7e0b0e50000"


def default_flash_dir() -> str:
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("bower"), "sim-flash")


class Device:
    """The simulated device: app, store, driver, bus and display model."""

    def __init__(self, flash_dir: str, rand_below=None):
        os.makedirs(flash_dir, exist_ok=True)
        self.bus = devicesim.FakeI2C()
        self.driver = ssd1306.SSD1306_I2C(128, 64, self.bus, 0x3C)
        self.display = Display(self.driver)
        self.store = Store(flash_dir, device=SIM_DEVICE_ID)
        info = {"version": _firmware_version(), "device": SIM_DEVICE_ID, "time": lambda: int(time.time())}
        self.start = time.monotonic()
        self.app = App(self.store, info, rand_below, self.now())
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
        return devicesim.gddram(self.bus)

    def lit(self) -> bool:
        return devicesim.display_on(self.bus)


def _firmware_version() -> str:
    import bower

    return getattr(bower, "__version__", "sim")


def draw_terminal(dev: Device, out=None, clear: bool = True) -> None:
    out = out or sys.stdout   # looked up now: stdout may have been replaced
    art = screen.halfblocks(dev.gddram() if dev.lit() else bytes(1024))
    border = "+" + "-" * 128 + "+"
    lines = [border] + ["|" + line + "|" for line in art.splitlines()] + [border]
    if clear:
        out.write("\x1b[H\x1b[2J")
    out.write("\n".join(lines) + "\n")
    out.write("arrows/jk move  Enter OK  Backspace BACK  l long-OK  z undo  q quit\n")
    out.flush()


MAX_PRESSES = 100_000   # a scripted run longer than this is a typo (and takes minutes)


def _scale(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    if not 1 <= v <= 64:
        raise argparse.ArgumentTypeError(f"{v} is out of range: 1 to 64 screenshot pixels per OLED pixel")
    return v


def run_script(dev: Device, keys: str, step_ms: int = 200) -> None:
    now = dev.now()
    for ev in K.parse_keys(keys, MAX_PRESSES):
        now += step_ms
        dev.press(ev, now)


_ESC_KEYS = {"[A": K.UP, "[B": K.DOWN, "OA": K.UP, "OB": K.DOWN}
_KEYS = {"k": K.UP, "j": K.DOWN, "\r": K.OK, "\n": K.OK, " ": K.OK, "\x7f": K.BACK, "\x08": K.BACK,
         "l": K.OK_LONG, "z": K.BACK_LONG}


def interactive(dev: Device) -> None:
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        draw_terminal(dev)
        while True:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                dirty_before = dev.app.dirty
                dev.tick()
                if dirty_before or dev.bytes_sent[-1]:
                    draw_terminal(dev)
                continue
            ch = os.read(fd, 1).decode("latin-1")
            if ch == "q":
                break
            ev = None
            if ch == "\x1b":
                more, _, _ = select.select([fd], [], [], 0.02)
                if more:
                    ev = _ESC_KEYS.get(os.read(fd, 2).decode("latin-1"))
                else:
                    ev = K.BACK
            else:
                ev = _KEYS.get(ch)
            if ev is not None:
                dev.press(ev)
                draw_terminal(dev)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\n")


def do_sim(args) -> int:
    from bower_host.cli import CommandError

    flash = args.flash or default_flash_dir()
    if args.fresh and os.path.isdir(flash):
        shutil.rmtree(flash)
    rand = None
    if args.seed is not None:
        import random

        rnd = random.Random(args.seed)
        rand = rnd.randrange
    if args.keys is not None:
        try:
            K.parse_keys(args.keys, MAX_PRESSES)   # refused before the device starts
        except ValueError as e:
            raise CommandError(f"--keys: {e}")
    try:
        dev = Device(flash, rand)
    except OSError as e:
        raise CommandError(f"cannot use the simulated flash at {flash}: {e}")
    if args.keys is not None:
        try:
            run_script(dev, args.keys)
        except ValueError as e:
            raise CommandError(str(e))
        draw_terminal(dev, clear=False)
    elif sys.stdin.isatty():
        interactive(dev)
    else:
        try:
            run_script(dev, sys.stdin.read())
        except ValueError as e:
            raise CommandError(f"keys on standard input: {e}")
        draw_terminal(dev, clear=False)
    if args.screenshot:
        screen.save_png(dev.gddram() if dev.lit() else bytes(1024), args.screenshot, scale=args.scale)
        print(f"screenshot: {args.screenshot}")
    return 0


def register(sub) -> None:
    p = sub.add_parser("sim", help="run the device firmware in a simulator (keyboard as buttons, OLED in the terminal)")
    p.add_argument("--keys", help="scripted presses instead of the keyboard: u d o b, O (long OK), B (long BACK: undo); "
                                  "a number repeats the next key, e.g. '3d o'")
    p.add_argument("--screenshot", metavar="PNG", help="save the final screen as a PNG")
    p.add_argument("--scale", type=_scale, default=4, help="screenshot pixels per OLED pixel (default 4)")
    p.add_argument("--flash", metavar="DIR", help="directory standing in for the device's flash "
                                                  "(default: the user data directory's sim-flash)")
    p.add_argument("--fresh", action="store_true", help="wipe the simulated flash first (a new device)")
    p.add_argument("--seed", type=int, help="seed for the first-dealer draw")
    p.set_defaults(func=do_sim)
