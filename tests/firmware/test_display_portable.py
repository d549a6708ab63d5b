# portable: runs under MicroPython
# bower.display on the vendored micropython-lib ssd1306 driver, behind a fake
# I2C bus with an SSD1306 model that decodes every byte: what reaches the
# chip's RAM must be the frame buffer, sent in as few bytes as possible. The
# same file runs under CPython (pytest; oledsim's model) and the real
# MicroPython 1.27 (tests/mpy; the compact model in ssd1306_model.py).

import ssd1306
from bower.display import Display
from ssd1306_model import FakeI2C

FULL = 7 + 1 + 1024  # window command, data control byte, the frame


def rig():
    bus = FakeI2C()
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    disp = Display(drv)
    disp.show()  # the first show after init sends everything
    model = bus.device
    model.clear_stats()
    return disp, drv, model


def same(drv, model):
    return bytes(model.gddram) == bytes(drv.buffer)


def windows(model):
    # The (0x21, c0, c1) / (0x22, p0, p1) pairs sent since clear_stats().
    return [c for c in model.commands if c[0] in (0x21, 0x22)]


def lcg(seed):
    # Deterministic numbers on both interpreters.
    state = [seed]

    def below(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n

    return below


def test_driver_init_is_decoded_by_the_model():
    bus = FakeI2C()
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    m = bus.device
    assert m.display_on and m.contrast == 0xFF and m.charge_pump
    assert m.mode == 0  # horizontal addressing
    assert not m.inverted and not m.entire_on
    # 27 init commands in [80 cmd] transactions, then the driver's own show():
    # six window commands and the 1024-byte frame (all zero) in one write.
    assert m.transactions == [2] * 33 + [1025]
    assert (0x21, 0, 127) in m.commands and (0x22, 0, 7) in m.commands
    assert m.commands[0] == (0xAE,) and m.commands[-3] == (0xAF,)
    assert same(drv, m) and not any(m.gddram)


def test_first_show_sends_the_whole_frame_once():
    bus = FakeI2C()
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    disp = Display(drv)
    drv.text("Bower", 0, 0, 1)
    m = bus.device
    m.clear_stats()
    assert disp.show() == FULL
    assert m.transactions == [7, 1025] and windows(m) == [(0x21, 0, 127), (0x22, 0, 7)]
    assert same(drv, m)
    m.clear_stats()
    assert disp.show() == 0 and m.transactions == []


def test_partial_show_sends_only_the_changed_spans():
    disp, drv, m = rig()
    drv.pixel(10, 3, 1)  # page 0
    drv.pixel(100, 40, 1)  # page 5
    drv.pixel(103, 44, 1)  # page 5 too: one span, columns 100..103
    sent = disp.show()
    assert windows(m) == [(0x21, 10, 10), (0x22, 0, 0), (0x21, 100, 103), (0x22, 5, 5)]
    assert m.transactions == [7, 2, 7, 5]
    assert sent == 21 == m.bytes
    assert same(drv, m)


def test_bytes_per_show_figures():
    disp, drv, m = rig()
    drv.fill(0)
    for row in range(8):
        drv.text("Row %d: Ann pass" % row, 0, row * 8, 1)
    disp.show()  # the screen as it stands
    m.clear_stats()
    # (a) a full frame: invalidate, as after power-on.
    disp.invalidate()
    assert disp.show() == FULL == m.bytes
    # (b) one 8-pixel text row replaced by a highlighted (inverse) row.
    m.clear_stats()
    drv.fill_rect(0, 16, 128, 8, 1)
    drv.text("Row 2: Bob order", 0, 16, 0)
    assert disp.show() == 7 + 1 + 128 == m.bytes
    # (c) one character: "pass" -> "pasS" on row 5; "s" and "S" differ in
    # columns 1..6 of the 8-pixel cell.
    m.clear_stats()
    drv.fill_rect(120, 40, 8, 8, 0)
    drv.text("S", 120, 40, 1)
    sent = disp.show()
    assert windows(m) == [(0x21, 121, 126), (0x22, 5, 5)]
    assert sent == 7 + 1 + 6 == m.bytes
    assert same(drv, m)


def test_a_band_of_pages_when_that_is_cheaper():
    disp, drv, m = rig()
    # A changed byte at both ends of every page: eight 128-byte spans would
    # cost 8 * 136 bytes; one band of the whole frame costs 1032.
    for p in range(8):
        drv.pixel(0, p * 8, 1)
        drv.pixel(127, p * 8 + 7, 1)
    assert disp.show() == FULL
    assert windows(m) == [(0x21, 0, 127), (0x22, 0, 7)]
    assert same(drv, m)
    # Pages 2..4 changed across their width: one band of three pages.
    m.clear_stats()
    drv.fill_rect(0, 16, 128, 24, 1)
    assert disp.show() == 8 + 3 * 128
    assert windows(m) == [(0x21, 0, 127), (0x22, 2, 4)]
    assert same(drv, m)


def test_random_drawing_always_lands_exactly_and_never_costs_more_than_a_frame():
    disp, drv, m = rig()
    below = lcg(12345)
    total = 0
    for step in range(60):
        for _ in range(1 + below(4)):
            kind = below(5)
            x, y = below(140) - 6, below(76) - 6
            if kind == 0:
                drv.pixel(x, y, below(2))
            elif kind == 1:
                drv.text("K%d" % below(100), x, y, below(2))
            elif kind == 2:
                drv.fill_rect(x, y, below(40), below(20), below(2))
            elif kind == 3:
                drv.line(x, y, below(128), below(64), below(2))
            elif step % 15 == 0:
                drv.fill(below(2))
        m.clear_stats()
        sent = disp.show()
        assert sent == m.bytes, (step, sent, m.bytes)
        assert sent <= FULL
        assert same(drv, m), step
        total += sent
    assert total > 0


def test_contrast_and_power_reach_the_chip_once():
    disp, drv, m = rig()
    assert disp.contrast(40) == 3 and m.contrast == 40
    assert disp.contrast(40) == 0  # unchanged: nothing sent
    assert disp.contrast(300) == 3 and m.contrast == 255  # clamped
    assert disp.contrast(-5) == 3 and m.contrast == 0
    assert disp.power(False) == 2 and not m.display_on
    assert disp.power(False) == 0
    assert m.transactions == [3, 3, 3, 2]
    drv.text("asleep", 0, 0, 1)
    assert 0 < disp.show() < FULL  # the RAM is still written while off
    assert disp.power(True) == 2 and m.display_on
    m.clear_stats()
    assert disp.show() == FULL  # the first show after power-on: everything
    assert same(drv, m)


def test_invalidate_forces_a_full_frame():
    disp, drv, m = rig()
    disp.invalidate()
    assert disp.show() == FULL and same(drv, m)
    assert disp.show() == 0


def test_a_wrong_address_is_refused():
    bus = FakeI2C()
    try:
        ssd1306.SSD1306_I2C(128, 64, bus, 0x3D)
    except OSError:
        pass
    else:
        raise AssertionError("no OSError for a display that is not there")
    assert bus.scan() == [0x3C]


class FlakyBus:
    # Fails the n-th write from now with OSError, as a loose wire would.
    def __init__(self, bus):
        self.bus = bus
        self.fail_in = -1

    def _tick(self):
        self.fail_in -= 1
        if self.fail_in == 0:
            raise OSError(5)

    def writeto(self, addr, buf, stop=True):
        self._tick()
        return self.bus.writeto(addr, buf)

    def writevto(self, addr, vector, stop=True):
        self._tick()
        return self.bus.writevto(addr, vector)


def test_a_failed_transfer_is_sent_again_by_the_next_show():
    bus = FlakyBus(FakeI2C())
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    disp = Display(drv)
    disp.show()
    m = bus.bus.device
    drv.text("lost?", 40, 24, 1)
    bus.fail_in = 2  # the window goes out, the data does not
    try:
        disp.show()
    except OSError:
        pass
    else:
        raise AssertionError("the bus error was swallowed")
    assert not same(drv, m)
    m.clear_stats()
    assert disp.show() > 0
    assert same(drv, m)


def test_a_failed_full_frame_is_sent_in_full_again():
    bus = FlakyBus(FakeI2C())
    drv = ssd1306.SSD1306_I2C(128, 64, bus, 0x3C)
    m = bus.bus.device
    m.gddram[500] = 0x5A  # the chip holds something the frame does not
    disp = Display(drv)
    bus.fail_in = 2
    try:
        disp.show()
    except OSError:
        pass
    else:
        raise AssertionError("the bus error was swallowed")
    m.clear_stats()
    assert disp.show() == FULL
    assert same(drv, m)
