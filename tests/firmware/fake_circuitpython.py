"""CircuitPython on CPython, for tests: fake ``board``, ``busio``, ``digitalio``,
``microcontroller``, ``supervisor`` and ``pwmio`` modules, and Adafruit's real
``adafruit_ssd1306`` loaded the way a CircuitPython board loads it.

The fakes behave like CircuitPython 9 on a Raspberry Pi Pico where Bower
relies on it, and refuse what CircuitPython refuses:

* ``board.GP0`` .. ``board.GP28`` and ``board.LED`` are pin objects; a pin
  can be claimed by one ``DigitalInOut`` / ``I2C`` / ``PWMOut`` at a time
  (``ValueError: GP4 in use``).
* ``busio.I2C(scl, sda, *, frequency, timeout)`` checks the RP2040 pin
  functions (SDA on even GPIOs, SCL on odd ones, both of the same I2C unit),
  so swapped arguments fail as they do on the board. ``scan``, ``writeto``
  and ``readfrom_into`` need the lock (``RuntimeError``), an address nobody
  acknowledges raises ``OSError(19)``; writes go to devices with ``addr`` and
  ``write(bytes)`` (``bower_host.oledsim.SSD1306Model``).
* ``digitalio.DigitalInOut``: an input reads the level a test set with
  ``set_level(gpio, 0|1)``, or what its pull resistor gives; ``pull`` on an
  output raises ``AttributeError``.

State for assertions lives in ``STATE`` (a ``State``). ``modules()`` returns the
fake modules by name for ``monkeypatch.setitem(sys.modules, ...)``.

``adafruit()`` imports ``adafruit_ssd1306`` with ``framebuf`` hidden (CircuitPython
has no built-in ``framebuf``: the driver then draws with ``adafruit_framebuf``),
plus a ``bower.cpdisplay`` built on it; ``adafruit(native=True)`` does the same
with the MicroPython ``framebuf`` shim visible, as on a build that has one.
"""

import errno
import importlib
import sys
import types


class State:
    def __init__(self):
        self.claimed = {}       # pin name -> owner object
        self.levels = {}        # gpio -> level driven from outside (buttons)
        self.outputs = []       # (pin name, value) written to outputs (LED)
        self.devices = {}       # I2C address -> device model
        self.i2c = []           # I2C objects made
        self.pwm = []           # PWMOut objects made
        self.reloads = 0
        self.uid = bytearray(b"\xde\x60\x1c\x0f\xfe\xe0\x12\x34")


STATE = State()


def reset(*devices):
    # Forget everything; attach ``devices`` (models with addr/write) to I2C.
    global STATE
    STATE = State()
    for d in devices:
        STATE.devices[d.addr] = d
    return STATE


def set_level(gpio, level):
    STATE.levels[gpio] = 1 if level else 0


# --- board ---------------------------------------------------------------------------


class Pin:
    def __init__(self, name, gpio):
        self.name = name
        self.gpio = gpio

    def __repr__(self):
        return "board." + self.name


def _claim(pin, owner):
    if not isinstance(pin, Pin):
        raise TypeError("pin must be of type Pin, not %s" % type(pin).__name__)
    if pin.name in STATE.claimed:
        raise ValueError("%s in use" % pin.name)
    STATE.claimed[pin.name] = owner


def _release(pin):
    STATE.claimed.pop(pin.name, None)


board = types.ModuleType("board")
board.board_id = "raspberry_pi_pico"
for _n in range(29):
    setattr(board, "GP%d" % _n, Pin("GP%d" % _n, _n))
board.LED = Pin("LED", 25)


# --- digitalio -----------------------------------------------------------------------


class _Enum:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class Direction:
    INPUT = _Enum("digitalio.Direction.INPUT")
    OUTPUT = _Enum("digitalio.Direction.OUTPUT")


class Pull:
    UP = _Enum("digitalio.Pull.UP")
    DOWN = _Enum("digitalio.Pull.DOWN")


class DigitalInOut:
    def __init__(self, pin):
        _claim(pin, self)
        self.pin = pin
        self._direction = Direction.INPUT
        self._pull = None
        self._out = 0

    def deinit(self):
        _release(self.pin)

    @property
    def direction(self):
        return self._direction

    @direction.setter
    def direction(self, d):
        if d not in (Direction.INPUT, Direction.OUTPUT):
            raise ValueError("Invalid direction")
        self._direction = d
        if d is Direction.OUTPUT:
            self._pull = None

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = Direction.OUTPUT
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    @property
    def pull(self):
        if self._direction is Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        return self._pull

    @pull.setter
    def pull(self, p):
        if self._direction is Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        if p not in (None, Pull.UP, Pull.DOWN):
            raise ValueError("Invalid pull")
        self._pull = p

    @property
    def value(self):
        if self._direction is Direction.OUTPUT:
            return bool(self._out)
        level = STATE.levels.get(self.pin.gpio)
        if level is None:
            level = 1 if self._pull is Pull.UP else 0
        return bool(level)

    @value.setter
    def value(self, v):
        if self._direction is not Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._out = 1 if v else 0
        STATE.outputs.append((self.pin.name, self._out))


digitalio = types.ModuleType("digitalio")
digitalio.DigitalInOut = DigitalInOut
digitalio.Direction = Direction
digitalio.Pull = Pull


# --- busio ---------------------------------------------------------------------------


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        # RP2040: GPIO n is I2C unit (n >> 1) & 1, SDA when n is even, SCL when odd.
        if not (isinstance(scl, Pin) and isinstance(sda, Pin)) or scl.gpio % 2 != 1 or sda.gpio % 2 != 0 \
                or (scl.gpio >> 1) & 1 != (sda.gpio >> 1) & 1:
            raise ValueError("Invalid pins")
        _claim(scl, self)
        _claim(sda, self)
        self.scl = scl
        self.sda = sda
        self.frequency = frequency
        self.locked = False
        self.writes = []        # (address, bytes) of every write, probes included
        STATE.i2c.append(self)

    def deinit(self):
        _release(self.scl)
        _release(self.sda)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def _check(self):
        if not self.locked:
            raise RuntimeError("Function requires lock")

    def _dev(self, address):
        dev = STATE.devices.get(address)
        if dev is None:
            raise OSError(errno.ENODEV, "No such device")
        return dev

    def scan(self):
        self._check()
        return sorted(STATE.devices)

    def writeto(self, address, buffer, *, start=0, end=None):
        self._check()
        data = bytes(memoryview(buffer)[start:end])
        dev = self._dev(address)
        self.writes.append((address, data))
        if data:                        # an empty write is only the address (a probe)
            dev.write(data)

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._check()
        mv = memoryview(buffer)[start:end]
        mv[:] = self._dev(address).read(len(mv))

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0, out_end=None,
                              in_start=0, in_end=None):
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)


class SPI:
    # Only named by adafruit_bus_device's annotations; Bower has no SPI device.
    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):
        raise ValueError("no SPI device on this board")


busio = types.ModuleType("busio")
busio.I2C = I2C
busio.SPI = SPI


# --- pwmio, microcontroller, supervisor ----------------------------------------------


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        _claim(pin, self)
        self.pin = pin
        self.frequency = frequency
        self.log = []
        self._duty = 0
        self.duty_cycle = duty_cycle
        STATE.pwm.append(self)

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, d):
        if not 0 <= d <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = d
        self.log.append(d)


pwmio = types.ModuleType("pwmio")
pwmio.PWMOut = PWMOut


class ReloadRequested(SystemExit):
    # supervisor.reload() ends the running code.py on a board too.
    pass


class _Cpu:
    @property
    def uid(self):
        return STATE.uid


microcontroller = types.ModuleType("microcontroller")
microcontroller.cpu = _Cpu()


def _reload():
    STATE.reloads += 1
    raise ReloadRequested("supervisor.reload")


supervisor = types.ModuleType("supervisor")
supervisor.reload = _reload


def modules():
    return {"board": board, "digitalio": digitalio, "busio": busio, "pwmio": pwmio,
            "microcontroller": microcontroller, "supervisor": supervisor}


# --- Adafruit's driver, as CircuitPython loads it -------------------------------------

_LOADED = {}


def adafruit(native=False):
    # (adafruit_ssd1306, bower.cpdisplay) as fresh modules: with framebuf
    # hidden (native=False, CircuitPython: adafruit_framebuf draws) or with
    # the MicroPython framebuf shim visible. Leaves sys.modules as it was.
    if native in _LOADED:
        return _LOADED[native]
    # adafruit_bus_device's annotations name busio.I2C, busio.SPI and
    # digitalio.DigitalInOut: the fakes are visible while it loads (on
    # CPython these are otherwise Adafruit-Blinka's).
    names = ("adafruit_ssd1306", "bower.cpdisplay", "framebuf", "busio", "digitalio")
    saved = {k: sys.modules[k] for k in names if k in sys.modules}
    try:
        sys.modules.pop("adafruit_ssd1306", None)
        sys.modules.pop("bower.cpdisplay", None)
        sys.modules["busio"] = busio
        sys.modules["digitalio"] = digitalio
        if not native:
            sys.modules["framebuf"] = None      # import framebuf -> ImportError
        ada = importlib.import_module("adafruit_ssd1306")
        cpd = importlib.import_module("bower.cpdisplay")
    finally:
        for k in names:
            if k in saved:
                sys.modules[k] = saved[k]
            else:
                sys.modules.pop(k, None)
    _LOADED[native] = (ada, cpd)
    return ada, cpd
