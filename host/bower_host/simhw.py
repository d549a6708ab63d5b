"""The device's hardware, simulated for CPython: shims, the flash, the display stack.

``install()`` lets CPython import what the firmware imports on the Pico:
``framebuf`` (``bower_host.framebuf``, pixel-identical to MicroPython's),
and ``micropython`` (``const`` and friends); the vendored driver
(``import ssd1306``) is on the path already (bower_host puts the device's
code there). The simulator and the tests call it
first; it is idempotent.

``HostFs`` is the store's filesystem on the host, sized like a Pico's
flash. The display is :mod:`bower_host.oledsim`'s ``SSD1306Model`` behind a
``FakeI2C`` (the datasheet's controller, decoded from the bytes on the
bus); ``simulated_display()`` builds the whole stack::

    from bower_host import simhw
    from bower_host.oledsim import FakeI2C
    simhw.install()
    import ssd1306
    bus = FakeI2C()                           # an SSD1306 at 0x3C
    oled = ssd1306.SSD1306_I2C(128, 64, bus)
    oled.text("Hi", 0, 0, 1)
    oled.show()
    bus.device.gddram == oled.buffer          # True
"""
from __future__ import annotations

import os
import sys
import types
from typing import Any

from bower_host.oledsim import FakeI2C, SSD1306Model, SSD1306_ADDR


# --- install ------------------------------------------------------------------


def _micropython_module():
    mod: Any = types.ModuleType("micropython")   # attributes set below
    mod.__doc__ = "CPython stand-in for MicroPython's micropython module (bower_host.simhw)."
    mod.const = lambda x: x
    mod.kbd_intr_char = 3  # what kbd_intr() last set (3 = Ctrl-C interrupts, -1 = off)

    def kbd_intr(ch):
        mod.kbd_intr_char = ch

    mod.kbd_intr = kbd_intr
    mod.alloc_emergency_exception_buf = lambda size: None
    return mod


def install() -> None:
    """Make ``framebuf`` and ``micropython`` importable on CPython.

    Does nothing on MicroPython, and nothing twice.
    """
    if sys.implementation.name == "micropython":
        return
    if "framebuf" not in sys.modules:
        from bower_host import framebuf

        sys.modules["framebuf"] = framebuf
    if "micropython" not in sys.modules:
        sys.modules["micropython"] = _micropython_module()


# --- the flash ----------------------------------------------------------------


#: The Pico's filesystem: the rp2 port's RPI_PICO build gives littlefs
#: 1,441,792 bytes (``MICROPY_HW_FLASH_STORAGE_BYTES (1408 * 1024)`` in
#: micropython/micropython ports/rp2/boards/RPI_PICO/mpconfigboard.h), in
#: 4 KB blocks.
FLASH_BYTES = 1408 * 1024
FLASH_BLOCK = 4096
#: Files up to this size live inside their directory's metadata on littlefs
#: (MicroPython's cache of 4 x 256-byte programs, an eighth of a block): no
#: block of their own.
INLINE_BYTES = 512


class HostFs:
    """The store's filesystem on the host: ``os`` plus ``open``, minus
    ``os.sync`` (which would flush every disk of the machine per input).
    ``Store(root, fs=HostFs(root))`` (the simulator and the tests).

    ``statvfs`` answers for a Pico's flash, not for the host's disk: the
    rp2 build's 1,441,792 bytes (``FLASH_BYTES``) less the blocks the files
    under ``root`` would take on littlefs (every file over ``INLINE_BYTES``
    its 4 KB blocks, every directory a metadata pair), so the simulated
    storage screens say what a Pico would (a real one also holds the
    firmware's modules in /lib: somewhat less)."""

    open = staticmethod(open)
    sync = None

    def __init__(self, root: str | None = None):
        self.root = root

    def __getattr__(self, name):
        return getattr(os, name)

    def statvfs(self, path):
        root = self.root
        if root is None:
            # The store asks for its games directory (or the root before one exists).
            path = os.path.abspath(path)
            root = os.path.dirname(path) if os.path.basename(path) in ("games", "past") else path
        used = 2                                   # the root's metadata pair
        for _d, dirs, files in os.walk(root):
            used += 2 * len(dirs)
            for f in files:
                try:
                    n = os.path.getsize(os.path.join(_d, f))
                except OSError:
                    continue
                if n > INLINE_BYTES:
                    used += -(-n // FLASH_BLOCK)
        total = FLASH_BYTES // FLASH_BLOCK
        free = max(0, total - used)
        return (FLASH_BLOCK, FLASH_BLOCK, total, free, free, 0, 0, 0, 0, 255)


# --- helpers for the simulator ------------------------------------------------


def simulated_display(width: int = 128, height: int = 64) -> tuple[Any, Any, FakeI2C, SSD1306Model]:
    """A ready display stack: ``(display, driver, bus, model)``.

    The vendored micropython-lib driver on a ``FakeI2C`` with an
    ``SSD1306Model``, wrapped in ``bower.display.Display``.
    """
    install()
    import ssd1306

    from bower.display import Display

    bus = FakeI2C()
    driver = ssd1306.SSD1306_I2C(width, height, bus, SSD1306_ADDR)
    return Display(driver), driver, bus, bus.device
