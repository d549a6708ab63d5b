"""The display stack on CPython: the SSD1306 model, the fake bus, bower.display
with both driver families, and simhw's install().

(tests/firmware/test_display_portable.py holds the tests that also run under
MicroPython: init decoding, full and partial refresh, the byte figures.)
"""

import errno
import random
import sys

import pytest

import framebuf
import ssd1306
from bower.display import Display
from bower_host import simhw
from bower_host import oledsim
from bower_host.oledsim import FakeI2C, SSD1306Model
from ssd1306_model import MiniI2C, MiniSSD1306

FULL = 7 + 1 + 1024


def _cmd(*cmds):
    return bytes([0x00, *cmds])  # Co=0, D/C#=0: commands to the end


def _data(*data):
    return bytes([0x40, *data])  # Co=0, D/C#=1: data to the end


# --- the model ------------------------------------------------------------------


def test_horizontal_addressing_wraps_inside_the_window():
    m = SSD1306Model()
    m.write(_cmd(0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3))
    m.write(_data(*range(1, 8)))  # 3 columns x 2 pages = 6 bytes, then wraps
    assert [m.gddram[2 * 128 + c] for c in (10, 11, 12)] == [7, 2, 3]
    assert [m.gddram[3 * 128 + c] for c in (10, 11, 12)] == [4, 5, 6]
    assert (m.col, m.page) == (11, 2)
    assert m.data_bytes == 7 and m.transactions == [9, 8]


def test_vertical_addressing_goes_down_the_pages_first():
    m = SSD1306Model()
    m.write(_cmd(0x20, 0x01, 0x21, 0, 1, 0x22, 6, 7))
    m.write(_data(1, 2, 3, 4, 5))
    assert m.gddram[6 * 128 + 0] == 5 and m.gddram[7 * 128 + 0] == 2
    assert m.gddram[6 * 128 + 1] == 3 and m.gddram[7 * 128 + 1] == 4


def test_page_addressing_keeps_the_page_and_wraps_the_column():
    m = SSD1306Model()
    assert m.mode == oledsim.PAGE  # the power-on default
    m.write(_cmd(0xB3, 0x0E, 0x17))  # page 3, column 0x7E
    m.write(_data(9, 8, 7))
    # 9 -> column 126, 8 -> 127, then the column wraps to its start register
    # (126) on the same page: 7 overwrites the 9.
    assert m.gddram[3 * 128 + 126] == 7 and m.gddram[3 * 128 + 127] == 8
    assert (m.col, m.page) == (127, 3)
    assert not any(m.gddram[4 * 128:])


def test_control_bytes_with_continuation_and_commands_split_across_writes():
    m = SSD1306Model()
    # Co=1 pairs: a command, a data byte, another command, all in one write.
    m.write(bytes([0x80, 0xAF, 0xC0, 0x55, 0x80, 0xA7]))
    assert m.display_on and m.inverted and m.gddram[0] == 0x55
    # A parameter in its own transaction, as the drivers' write_cmd sends it.
    m.write(bytes([0x80, 0x81]))
    assert m.contrast == 0x7F
    m.write(bytes([0x80, 0x22]))
    assert m.contrast == 0x22 and (0x81, 0x22) in m.commands
    # Bits 5..0 of a control byte must be zero; an unknown command is noted.
    m.write(bytes([0x01, 0xFF]))
    assert m.bad_control == 1 and m.unknown == [0xFF]
    assert m.read(1) == b"\x00"  # status: display on
    m.write(_cmd(0xAE))
    assert m.read(2) == b"\x40\x40"


def test_visible_follows_on_off_invert_entire_on_and_rotation():
    disp, drv, bus, m = simhw.simulated_display()
    drv.pixel(0, 0, 1)
    disp.show()
    frame = bytes(drv.buffer)
    assert m.visible() == frame  # upright as micropython-lib sets it up
    drv.invert(1)
    assert m.visible() == bytes(b ^ 0xFF for b in frame)
    drv.invert(0)
    drv.rotate(0)  # 180 degrees: the top-left pixel shows bottom-right
    v = m.visible()
    assert v[7 * 128 + 127] == 0x80 and v[0] == 0
    drv.rotate(1)
    drv.write_cmd(0xA5)
    assert m.visible() == b"\xff" * 1024
    drv.write_cmd(0xA4)
    drv.poweroff()
    assert m.visible() == bytes(1024) and oledsim.display_on(bus) is False
    assert oledsim.gddram(bus) == frame and oledsim.visible(bus) == bytes(1024)


def _random_stream(rng, n):
    ops = [0x20, 0x21, 0x22, 0x81, 0x8D, 0xAE, 0xAF, 0xA6, 0xA7, 0xA4, 0xA5, 0xB0, 0xB5, 0x03, 0x1A, 0x40, 0xC8,
           0xA1, 0xD3, 0xA8, 0x2E, 0xE3]
    out = []
    for _ in range(n):
        ctrl = rng.choice([0x00, 0x40, 0x80, 0xC0, 0x40, 0x40])
        body = []
        for _ in range(rng.randint(0, 40)):
            if ctrl & 0x40 and rng.random() < 0.9:
                body.append(rng.randrange(256))
            else:
                body.append(rng.choice(ops) if rng.random() < 0.6 else rng.randrange(256))
        if ctrl & 0x80:  # Co=1: pairs of (control, byte)
            pairs = []
            for b in body:
                pairs += [rng.choice([0x80, 0xC0]), b]
            body = pairs
        out.append(bytes([ctrl] + body))
    return out


def test_the_micropython_mini_model_decodes_exactly_like_devicesims():
    # tests/firmware/ssd1306_model.py keeps a compact copy of the model for
    # MicroPython (which cannot see host/): both must agree on every stream.
    rng = random.Random(99)
    for _ in range(30):
        full, mini = SSD1306Model(), MiniSSD1306()
        for tx in _random_stream(rng, 40):
            full.write(tx)
            mini.write(tx)
            for attr in ("display_on", "contrast", "inverted", "entire_on", "charge_pump", "mode", "col_start",
                         "col_end", "page_start", "page_end", "col", "page", "page_col_start", "data_bytes"):
                assert getattr(full, attr) == getattr(mini, attr), attr
            assert full.gddram == mini.gddram
        assert full.commands == mini.commands and full.transactions == mini.transactions
    # And on what the real driver sends.
    buses = [FakeI2C(), MiniI2C()]
    drivers = [ssd1306.SSD1306_I2C(128, 64, b) for b in buses]
    for d in drivers:
        d.text("same", 3, 5, 1)
        d.show()
    assert buses[0].device.gddram == buses[1].device.gddram == drivers[0].buffer


# --- the bus ----------------------------------------------------------------------


def test_fake_i2c_refuses_an_address_nobody_answers():
    bus = FakeI2C()
    assert bus.scan() == [0x3C]
    with pytest.raises(OSError) as exc:
        bus.writeto(0x3D, b"\x00\xaf")
    assert exc.value.errno == errno.EIO
    with pytest.raises(OSError):
        bus.writevto(0x3D, [b"\x40", b"\x00"])
    with pytest.raises(OSError):
        ssd1306.SSD1306_I2C(128, 64, bus, 0x3D)
    with pytest.raises(OSError):
        bus.readfrom(0x3D, 1)
    assert bus.device.transactions == []  # nothing reached the display


def test_fake_i2c_speaks_busio_too():
    bus = FakeI2C()
    assert bus.try_lock() and not bus.try_lock()
    bus.unlock()
    assert bus.writeto(0x3C, b"\xff\x00\xaf\xff", start=1, end=3) == 2
    assert bus.device.display_on
    buf = bytearray(3)
    bus.readfrom_into(0x3C, buf, start=1)
    assert buf == b"\x00\x00\x00"


def test_two_devices_on_one_bus():
    a, b = SSD1306Model(0x3C), SSD1306Model(0x3D)
    bus = FakeI2C(a, b)
    one, two = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C), ssd1306.SSD1306_I2C(128, 64, bus, 0x3D)
    one.text("1", 0, 0, 1)
    one.show()
    assert any(a.gddram) and not any(b.gddram) and bus.scan() == [0x3C, 0x3D]
    assert two.buffer == b.gddram


# --- Display with other panels and Adafruit's driver ------------------------------


def test_a_narrow_panel_uses_the_middle_columns():
    bus = FakeI2C()
    drv = ssd1306.SSD1306_I2C(64, 48, bus)
    disp = Display(drv)
    drv.text("64x48", 0, 40, 1)
    m = bus.device
    m.clear_stats()
    assert disp.show() == 7 + 1 + 64 * 6
    assert (0x21, 32, 95) in m.commands and (0x22, 0, 5) in m.commands
    drv.pixel(63, 47, 1)
    m.clear_stats()
    disp.show()
    assert (0x21, 95, 95) in m.commands and (0x22, 5, 5) in m.commands
    ram = bytes(m.gddram)
    assert all(ram[p * 128 + 32:p * 128 + 96] == drv.buffer[p * 64:(p + 1) * 64] for p in range(6))


class _I2CDevice:
    # adafruit_bus_device.i2c_device.I2CDevice 5.2: probes with an empty
    # write, locks the bus around each transaction, writes buf[start:end].
    def __init__(self, i2c, device_address):
        self.i2c, self.device_address = i2c, device_address
        assert i2c.try_lock()
        try:
            i2c.writeto(device_address, b"")
        finally:
            i2c.unlock()

    def __enter__(self):
        assert self.i2c.try_lock(), "the bus is locked"
        return self

    def __exit__(self, *exc):
        self.i2c.unlock()
        return False

    def write(self, buf, *, start=0, end=None):
        self.i2c.writeto(self.device_address, buf, start=start, end=len(buf) if end is None else end)


class AdafruitStyleSSD1306(framebuf.FrameBuffer):
    # What adafruit_ssd1306.SSD1306_I2C 2.12 does on the bus: the frame lives
    # in buffer[1:] behind a 0x40 control byte, commands go one per
    # transaction through i2c_device, show() blasts the whole buffer.
    def __init__(self, width, height, i2c, *, addr=0x3C):
        self.i2c_device = _I2CDevice(i2c, addr)
        self.addr = addr
        self.temp = bytearray(2)
        self.buffer = bytearray(width * height // 8 + 1)
        self.buffer[0] = 0x40
        super().__init__(memoryview(self.buffer)[1:], width, height, framebuf.MONO_VLSB)
        self.width, self.height, self.pages = width, height, height // 8
        for cmd in (0xAF, 0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, height - 1, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5,
                    0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30, 0x8D, 0x14, 0xAF):
            self.write_cmd(cmd)
        self.fill(0)
        self.show()

    def write_cmd(self, cmd):
        self.temp[0], self.temp[1] = 0x80, cmd
        with self.i2c_device:
            self.i2c_device.write(self.temp)

    def show(self):
        for cmd in (0x21, 0, self.width - 1, 0x22, 0, self.pages - 1):
            self.write_cmd(cmd)
        with self.i2c_device:
            self.i2c_device.write(self.buffer)


def test_display_drives_an_adafruit_style_driver_through_its_i2c_device():
    bus = FakeI2C()
    drv = AdafruitStyleSSD1306(128, 64, bus)
    disp = Display(drv)
    m = bus.device
    drv.text("Adafruit", 0, 0, 1)
    m.clear_stats()
    assert disp.show() == FULL and m.transactions == [7, 1025]
    assert m.gddram == drv.buffer[1:]
    # A partial update borrows the byte before the span as its control byte
    # and puts it back.
    before = bytes(drv.buffer)
    drv.pixel(70, 20, 1)
    m.clear_stats()
    assert disp.show() == 7 + 1 + 1
    assert m.transactions == [7, 2] and m.gddram == drv.buffer[1:]
    after = bytearray(before)
    after[1 + 2 * 128 + 70] |= 1 << 4
    assert drv.buffer == after and drv.buffer[0] == 0x40
    assert disp.contrast(10) == 3 and m.contrast == 10
    assert disp.power(False) == 2 and not m.display_on
    # Random drawing: the chip always ends up with the frame.
    rng = random.Random(5)
    disp.power(True)
    for _ in range(40):
        drv.fill_rect(rng.randint(-5, 130), rng.randint(-5, 70), rng.randint(0, 30), rng.randint(0, 20),
                      rng.randint(0, 1))
        drv.text("x%d" % rng.randint(0, 99), rng.randint(-8, 128), rng.randint(-8, 64), 1)
        m.clear_stats()
        assert disp.show() == m.bytes <= FULL
        assert m.gddram == drv.buffer[1:] and drv.buffer[0] == 0x40


def test_display_refuses_a_driver_it_cannot_drive():
    class NoBus:
        width, height, buffer = 128, 64, bytearray(1024)

    with pytest.raises(AttributeError):
        Display(NoBus())


# --- install() --------------------------------------------------------------------


def test_install_is_idempotent_and_provides_the_device_modules():
    simhw.install()
    fb_mod, mp_mod = sys.modules["framebuf"], sys.modules["micropython"]
    path_len = len(sys.path)
    simhw.install()
    assert sys.modules["framebuf"] is fb_mod and sys.modules["micropython"] is mp_mod
    assert len(sys.path) == path_len
    from bower_host import framebuf as shim

    assert fb_mod is shim
    import micropython

    assert micropython.const(0x3C) == 0x3C
    micropython.kbd_intr(-1)
    assert micropython.kbd_intr_char == -1
    micropython.kbd_intr(3)
    assert ssd1306.__file__.replace("\\", "/").endswith("firmware/lib/ssd1306.py")


def test_simulated_display_is_ready_to_draw():
    disp, drv, bus, m = simhw.simulated_display()
    assert isinstance(drv, ssd1306.SSD1306_I2C) and bus.device is m
    drv.text("sim", 0, 0, 1)
    assert disp.show() == FULL and m.gddram == drv.buffer


def test_suit_runs_are_the_suit_bitmaps():
    # bower.gfx draws each suit as precomputed runs of lit dots: they must
    # be exactly the 7x7 bitmaps it documents (bit 6 leftmost, top row first).
    from bower import gfx

    def runs(rows):
        out = []
        for y in range(7):
            x = 0
            while x < 7:
                if rows[y] & (64 >> x):
                    end = x + 1
                    while end < 7 and rows[y] & (64 >> end):
                        end += 1
                    out += (x, y, end - x)
                    x = end
                else:
                    x += 1
        return bytes(out)
    assert gfx._SUIT_RUNS == tuple(runs(b) for b in gfx._SUITS)
    # And the runs light exactly the bitmap's dots.
    for s, rows in enumerate(gfx._SUITS):
        lit = set()
        r = gfx._SUIT_RUNS[s]
        for k in range(0, len(r), 3):
            lit.update((r[k] + i, r[k + 1]) for i in range(r[k + 2]))
        assert lit == {(x, y) for y in range(7) for x in range(7) if rows[y] & (64 >> x)}
