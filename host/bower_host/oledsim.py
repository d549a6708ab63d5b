"""The device's display, simulated for CPython: a fake I2C bus and an SSD1306.

``FakeI2C`` stands in for ``machine.I2C`` (and CircuitPython's ``busio.I2C``)
with devices attached by address; ``SSD1306Model`` is the display
controller as its I2C interface sees it: it decodes the control, command and
data bytes the driver sends into the chip's 1024-byte display RAM (GDDRAM),
following the SSD1306 datasheet: horizontal, vertical and page addressing
with auto-increment and wrap-around inside the column/page window, display
on/off, contrast, inversion, entire-display-on and the layout commands. So
the simulator's picture comes from the bytes on the bus, and tests check the
driver and the partial refresh instead of bypassing them
(:func:`bower_host.simhw.simulated_display` builds the whole stack).
"""

from __future__ import annotations

import errno
from typing import Any, Iterable, Union


Buffer = Union[bytes, bytearray, memoryview]

SSD1306_ADDR = 0x3C

# Parameter bytes that follow each multi-byte command.
_PARAMS = {
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column address window
    0x22: 2,  # page address window
    0x26: 6, 0x27: 6,  # horizontal scroll setup
    0x29: 5, 0x2A: 5,  # vertical and horizontal scroll setup
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump
    0xA3: 2,  # vertical scroll area
    0xA8: 1,  # multiplex ratio
    0xAD: 1,  # internal IREF (SSD1306B and later)
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide / oscillator
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins configuration
    0xDB: 1,  # VCOMH deselect level
}

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2


class SSD1306Model:
    """An SSD1306 (128x64) on I2C: decodes what the bus carries into ``gddram``.

    Each I2C write is one transaction: control bytes (Co bit 7, D/C# bit 6)
    followed by command or data bytes. ``gddram`` uses the frame buffer's
    layout (MONO_VLSB: byte ``page * 128 + column``, bit = row % 8), so after a
    full refresh it equals the driver's ``buffer``. Register state is in plain
    attributes (``display_on``, ``contrast``, ``inverted``, ``mode`` ...);
    ``transactions`` holds the size of every write since ``clear_stats()``
    and ``commands`` every decoded command as a tuple ``(opcode, *params)``.
    """

    WIDTH = 128
    PAGES = 8

    def __init__(self, addr: int = SSD1306_ADDR):
        self.addr = addr
        self.gddram = bytearray(self.WIDTH * self.PAGES)
        self.reset()
        self.clear_stats()

    def reset(self) -> None:
        """The registers after power-on / RESET (datasheet section 8.9); RAM is kept."""
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.mode = PAGE
        self.col_start, self.col_end = 0, self.WIDTH - 1
        self.page_start, self.page_end = 0, self.PAGES - 1
        self.col, self.page = 0, 0
        self.page_col_start = 0  # page mode: column start (commands 00h-1Fh)
        self.start_line = 0
        self.seg_remap = False
        self.com_reversed = False
        self.mux = 63
        self.offset = 0
        self.com_pins = 0x12
        self.clock = 0x80
        self.precharge = 0x22
        self.vcomh = 0x20
        self.charge_pump = False
        self.iref = None
        self.scrolling = False
        self._pending = None  # [opcode, params still to come, params so far]

    def clear_stats(self) -> None:
        """Forget the recorded transactions, commands and counters."""
        self.transactions = []
        self.commands = []
        self.data_bytes = 0
        self.unknown = []
        self.bad_control = 0

    @property
    def bytes(self) -> int:
        """Bytes received since ``clear_stats()`` (control, command and data; no address bytes)."""
        return sum(self.transactions)

    # --- the I2C interface ---

    def write(self, data: Buffer) -> None:
        """One I2C write transaction addressed to this chip (the bytes after the address)."""
        data = bytes(data)
        self.transactions.append(len(data))
        i, n = 0, len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x3F:
                self.bad_control += 1  # control bytes are Co D/C# 000000
            is_data = bool(ctrl & 0x40)
            if ctrl & 0x80:  # Co = 1: one byte, then another control byte
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
            else:  # Co = 0: the rest of the transaction is data or commands
                for b in data[i:]:
                    self._byte(b, is_data)
                return

    def read(self, n: int) -> bytes:
        """An I2C read: the status register (bit 6 set while the display is off)."""
        return bytes([0x00 if self.display_on else 0x40]) * n

    def _byte(self, b, is_data):
        if is_data:
            self._data(b)
            return
        p = self._pending
        if p is not None:
            p[2].append(b)
            p[1] -= 1
            if p[1] == 0:
                self._pending = None
                self._command(p[0], p[2])
        elif b in _PARAMS:
            self._pending = [b, _PARAMS[b], []]
        else:
            self._command(b, [])

    def _data(self, b):
        w = self.WIDTH
        self.gddram[self.page * w + self.col] = b
        self.data_bytes += 1
        if self.mode == HORIZONTAL:
            self.col += 1
            if self.col > self.col_end or self.col >= w:
                self.col = self.col_start
                self.page += 1
                if self.page > self.page_end or self.page >= self.PAGES:
                    self.page = self.page_start
        elif self.mode == VERTICAL:
            self.page += 1
            if self.page > self.page_end or self.page >= self.PAGES:
                self.page = self.page_start
                self.col += 1
                if self.col > self.col_end or self.col >= w:
                    self.col = self.col_start
        else:  # page addressing: the column wraps, the page stays
            self.col += 1
            if self.col >= w:
                self.col = self.page_col_start

    def _command(self, op, params):
        self.commands.append((op,) + tuple(params))
        page_mode = self.mode == PAGE
        if op == 0x20:
            self.mode = params[0] & 3  # 3 is invalid on the chip; kept as recorded
        elif op == 0x21:
            self.col_start, self.col_end = params[0] & 0x7F, params[1] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = params[0] & 7, params[1] & 7
            self.page = self.page_start
        elif op <= 0x0F:
            self.page_col_start = (self.page_col_start & 0xF0) | op
            if page_mode:
                self.col = self.page_col_start
        elif op <= 0x1F:
            self.page_col_start = ((op & 0x07) << 4) | (self.page_col_start & 0x0F)
            if page_mode:
                self.col = self.page_col_start
        elif 0xB0 <= op <= 0xB7:
            if page_mode:
                self.page = op & 7
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op == 0x81:
            self.contrast = params[0]
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xC0, 0xC8):
            self.com_reversed = op == 0xC8
        elif op == 0x8D:
            self.charge_pump = bool(params[0] & 0x04)
        elif op == 0xA8:
            self.mux = params[0] & 0x3F
        elif op == 0xD3:
            self.offset = params[0] & 0x3F
        elif op == 0xDA:
            self.com_pins = params[0]
        elif op == 0xD5:
            self.clock = params[0]
        elif op == 0xD9:
            self.precharge = params[0]
        elif op == 0xDB:
            self.vcomh = params[0]
        elif op == 0xAD:
            self.iref = params[0]
        elif op == 0x2E:
            self.scrolling = False
        elif op == 0x2F:
            self.scrolling = True
        elif op in (0x26, 0x27, 0x29, 0x2A, 0xA3, 0xE3):
            pass  # scroll setup (not animated here), NOP
        else:
            self.unknown.append(op)

    # --- what the panel shows ---

    def visible(self) -> bytes:
        """What the panel shows, as 1024 MONO_VLSB bytes (the frame buffer's layout).

        Takes display on/off, entire-display-on, inversion, the display start
        line and the two mirror settings into account. Upright is what
        micropython-lib's driver sets up (segment remap on, COM scan
        reversed), as on the common 0.96" modules; ``rotate(False)`` turns
        the picture by 180 degrees.
        """
        n = self.WIDTH * self.PAGES
        if not self.display_on:
            return bytes(n)
        if self.entire_on:
            return b"\xff" * n
        ram = bytes(self.gddram)
        if self.seg_remap and self.com_reversed and self.start_line == 0:
            out = ram
        else:
            out = bytearray(n)
            w, h = self.WIDTH, self.PAGES * 8
            for y in range(h):
                ry = (y + self.start_line) % h
                if not self.com_reversed:
                    ry = (h - 1 - y + self.start_line) % h
                for x in range(w):
                    rx = x if self.seg_remap else w - 1 - x
                    if ram[(ry >> 3) * w + rx] >> (ry & 7) & 1:
                        out[(y >> 3) * w + x] |= 1 << (y & 7)
            out = bytes(out)
        if self.inverted:
            out = bytes(b ^ 0xFF for b in out)
        return out


class FakeI2C:
    """A stand-in for ``machine.I2C`` (and CircuitPython's ``busio.I2C``).

    ``FakeI2C()`` has one ``SSD1306Model`` at 0x3C; ``FakeI2C(dev, ...)``
    attaches the given devices (anything with ``addr``, ``write(bytes)`` and
    ``read(n)``). Writing to an address nobody answers raises
    ``OSError(EIO)``, as the Pico's I2C does for a missing NACKed device.
    """

    def __init__(self, *devices: Any):
        if not devices:
            devices = (SSD1306Model(),)
        self.devices = {d.addr: d for d in devices}
        self._locked = False

    @property
    def device(self) -> Any:
        """The first attached device (the display, for ``FakeI2C()``)."""
        return next(iter(self.devices.values()))

    def _dev(self, addr):
        dev = self.devices.get(addr)
        if dev is None:
            raise OSError(errno.EIO, "EIO: nothing acknowledged address 0x%02X" % addr)
        return dev

    def scan(self) -> list[int]:
        """Addresses that acknowledge, sorted (machine.I2C.scan)."""
        return sorted(self.devices)

    def writeto(self, addr: int, buf: Buffer, stop: bool = True, *, start: int = 0, end: int | None = None) -> int:
        """One write transaction (machine.I2C; ``start``/``end`` as busio.I2C); returns the bytes acknowledged."""
        data = bytes(memoryview(buf)[start:end])
        self._dev(addr).write(data)
        return len(data)

    def writevto(self, addr: int, vector: Iterable[Buffer], stop: bool = True) -> int:
        """The buffers of ``vector`` back to back in one transaction (machine.I2C)."""
        data = b"".join(bytes(b) for b in vector)
        self._dev(addr).write(data)
        return len(data)

    def readfrom_into(self, addr: int, buf: bytearray | memoryview, stop: bool = True, *, start: int = 0,
                      end: int | None = None) -> None:
        """Read into ``buf`` (or ``buf[start:end]``)."""
        mv = memoryview(buf)[start:end]
        mv[:] = self._dev(addr).read(len(mv))

    def readfrom(self, addr: int, nbytes: int, stop: bool = True) -> bytes:
        """Read ``nbytes`` bytes."""
        return self._dev(addr).read(nbytes)

    # busio.I2C locking (adafruit_bus_device takes the lock around each write).
    def try_lock(self) -> bool:
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        self._locked = False

    def deinit(self) -> None:
        pass


def gddram(bus: FakeI2C) -> bytes:
    """The display RAM of the SSD1306 on ``bus`` (bytes, MONO_VLSB)."""
    return bytes(bus._dev(SSD1306_ADDR).gddram)


def display_on(bus: FakeI2C) -> bool:
    """Whether the SSD1306 on ``bus`` is switched on (0xAF)."""
    return bus._dev(SSD1306_ADDR).display_on


def visible(bus: FakeI2C) -> bytes:
    """What the panel on ``bus`` shows (``SSD1306Model.visible``)."""
    return bus._dev(SSD1306_ADDR).visible()
