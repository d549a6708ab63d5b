# The SSD1306 model and fake I2C bus for display tests, on both interpreters.
#
# On CPython this re-exports bower_host.oledsim's FakeI2C and SSD1306Model
# (the ones the simulator uses). MicroPython cannot see host/, so the same
# names are bound to the compact MiniSSD1306 / MiniI2C below, written for
# MicroPython. Both decode the byte stream identically; test_display.py checks
# that by feeding random streams to both.

import sys

SSD1306_ADDR = 0x3C

# Parameter bytes of each multi-byte command (as oledsim._PARAMS).
_PARAMS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2,
           0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class MiniSSD1306:
    # GDDRAM, addressing and the on/off, contrast, invert registers of an
    # SSD1306 at power-on; write() takes one I2C write transaction.

    def __init__(self, addr=SSD1306_ADDR):
        self.addr = addr
        self.gddram = bytearray(1024)
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.charge_pump = False
        self.mode = 2  # page addressing
        self.col_start, self.col_end, self.page_start, self.page_end = 0, 127, 0, 7
        self.col, self.page, self.page_col_start = 0, 0, 0
        self._pending = None
        self.clear_stats()

    def clear_stats(self):
        self.transactions = []
        self.commands = []
        self.data_bytes = 0

    @property
    def bytes(self):
        return sum(self.transactions)

    def write(self, data):
        self.transactions.append(len(data))
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x80:
                if i < n:
                    self._byte(data[i], ctrl & 0x40)
                    i += 1
            else:
                while i < n:
                    self._byte(data[i], ctrl & 0x40)
                    i += 1

    def read(self, n):
        return bytes([0x00 if self.display_on else 0x40]) * n

    def _byte(self, b, is_data):
        if is_data:
            self._data(b)
        elif self._pending is not None:
            p = self._pending
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
        self.gddram[self.page * 128 + self.col] = b
        self.data_bytes += 1
        if self.mode == 0:
            self.col += 1
            if self.col > self.col_end or self.col >= 128:
                self.col = self.col_start
                self.page += 1
                if self.page > self.page_end or self.page >= 8:
                    self.page = self.page_start
        elif self.mode == 1:
            self.page += 1
            if self.page > self.page_end or self.page >= 8:
                self.page = self.page_start
                self.col += 1
                if self.col > self.col_end or self.col >= 128:
                    self.col = self.col_start
        else:
            self.col += 1
            if self.col >= 128:
                self.col = self.page_col_start

    def _command(self, op, params):
        self.commands.append(tuple([op] + params))
        page_mode = self.mode == 2
        if op == 0x20:
            self.mode = params[0] & 3
        elif op == 0x21:
            self.col_start = self.col = params[0] & 0x7F
            self.col_end = params[1] & 0x7F
        elif op == 0x22:
            self.page_start = self.page = params[0] & 7
            self.page_end = params[1] & 7
        elif op <= 0x0F:
            self.page_col_start = (self.page_col_start & 0xF0) | op
            if page_mode:
                self.col = self.page_col_start
        elif op <= 0x1F:
            self.page_col_start = ((op & 7) << 4) | (self.page_col_start & 0x0F)
            if page_mode:
                self.col = self.page_col_start
        elif 0xB0 <= op <= 0xB7:
            if page_mode:
                self.page = op & 7
        elif op == 0x81:
            self.contrast = params[0]
        elif op == 0xAE or op == 0xAF:
            self.display_on = op == 0xAF
        elif op == 0xA6 or op == 0xA7:
            self.inverted = op == 0xA7
        elif op == 0xA4 or op == 0xA5:
            self.entire_on = op == 0xA5
        elif op == 0x8D:
            self.charge_pump = bool(params[0] & 4)


class MiniI2C:
    # machine.I2C's writeto/writevto/scan; an unanswered address is EIO.

    def __init__(self, *devices):
        if not devices:
            devices = (MiniSSD1306(),)
        self.devices = {}
        for d in devices:
            self.devices[d.addr] = d
        self.device = devices[0]

    def _dev(self, addr):
        if addr not in self.devices:
            raise OSError(5)  # EIO, as the Pico reports a NACKed address
        return self.devices[addr]

    def scan(self):
        return sorted(self.devices)

    def writeto(self, addr, buf, stop=True):
        self._dev(addr).write(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join([bytes(b) for b in vector])
        self._dev(addr).write(data)
        return len(data)


if sys.implementation.name == "micropython":
    FakeI2C = MiniI2C
    SSD1306Model = MiniSSD1306
else:
    from bower_host.oledsim import FakeI2C, SSD1306Model  # noqa: F401
