"""Board configuration: which Pico GPIO drives which part.

The pin map lives in ``board.json`` (the repository keeps it in
``hardware/board.json``; ``bower deploy`` copies it to ``/board.json`` on the
Pico).  ``load()`` reads it, merges it over ``DEFAULTS`` (so a board.json may
contain only the keys that differ), checks it and returns a plain dict.

Runs unchanged on MicroPython and CPython: it only uses ``json`` and never
imports ``machine``, so the host tests and the doc generator
(``hardware/gen_docs.py``) can use the very same checks as the firmware.
"""

import json

# Identical to hardware/board.json (a test keeps the two in step).
DEFAULTS = {
    "board": "pico",
    "display": {
        "driver": "ssd1306",
        "width": 128,
        "height": 64,
        "rotate": 0,
        "i2c": {"bus": 0, "sda": 4, "scl": 5, "addr": 60, "freq": 400000},
    },
    "buttons": {"up": 2, "down": 3, "ok": 6, "back": 7, "active_low": True},
    "encoder": {"enabled": False, "a": 10, "b": 11, "push": 12},
    "buzzer": {"enabled": False, "pin": 15},
}

# Pico, Pico W, Pico 2 and Pico 2 W share the same 40-pin header.
BOARDS = ("pico", "pico_w", "pico2", "pico2_w")
DRIVERS = ("ssd1306",)

# GPIOs brought out to the header: GP0-GP22 and GP26-GP28.
HEADER_GPIOS = tuple(range(0, 23)) + (26, 27, 28)

# GPIOs the RP2040/RP2350 has but the Pico keeps on the board.
INTERNAL_GPIOS = {
    23: "the SMPS power-save control",
    24: "VBUS sense",
    25: "the on-board LED",
    29: "the VSYS/3 ADC input",
}

# Physical header pin of each GPIO (pin 1 = GP0, top left with USB up).
HEADER_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12,
    10: 14, 11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22,
    18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}

# I2C pin functions per hardware block.
I2C_SDA = {0: (0, 4, 8, 12, 16, 20), 1: (2, 6, 10, 14, 18, 26)}
I2C_SCL = {0: (1, 5, 9, 13, 17, 21), 1: (3, 7, 11, 15, 19, 27)}

# The firmware reads these button names; order = order in the docs.
BUTTONS = ("up", "down", "ok", "back")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _gp_list(pins):
    return ", ".join(["GP%d" % p for p in pins])


def _i2c_block(pin, table):
    for bus in (0, 1):
        if pin in table[bus]:
            return bus
    return None


def _merge(base, over):
    """Return a new dict: ``over`` laid over ``base``, nested dicts merged."""
    out = {}
    for k in base:
        v = base[k]
        out[k] = _merge(v, {}) if isinstance(v, dict) else v
    for k in over:
        v = over[k]
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _check_keys(path, cfg, ref):
    if not isinstance(cfg, dict):
        raise ValueError("board.json: %s must be an object, got %r" % (path or "top level", cfg))
    for k in cfg:
        if k not in ref:
            raise ValueError(
                "board.json: unknown key %r%s (known keys: %s)"
                % (k, (" in " + path) if path else "", ", ".join(sorted(ref)))
            )
    for k in ref:
        if k not in cfg:
            raise ValueError("board.json: missing key %r%s" % (k, (" in " + path) if path else ""))
        if isinstance(ref[k], dict):
            _check_keys((path + "." + k) if path else k, cfg[k], ref[k])


def _check_bool(path, v):
    if not isinstance(v, bool):
        raise ValueError("board.json: %s must be true or false, got %r" % (path, v))


def _check_pin(path, v):
    if not _is_int(v):
        raise ValueError("board.json: %s must be a GPIO number (e.g. 4 for GP4), got %r" % (path, v))
    if v in INTERNAL_GPIOS:
        raise ValueError(
            "board.json: %s: GP%d is not on the Pico header (inside the Pico it is %s; "
            "on a Pico W the wireless chip uses it); use GP0-GP22 or GP26-GP28"
            % (path, v, INTERNAL_GPIOS[v])
        )
    if v not in HEADER_PIN:
        raise ValueError(
            "board.json: %s: GP%d is not on the Pico header; use GP0-GP22 or GP26-GP28" % (path, v)
        )


def used_pins(cfg):
    """List of (role, gpio) for every pin the configuration uses, in doc order."""
    i2c = cfg["display"]["i2c"]
    out = [("display.i2c.sda", i2c["sda"]), ("display.i2c.scl", i2c["scl"])]
    for name in BUTTONS:
        out.append(("buttons." + name, cfg["buttons"][name]))
    if cfg["encoder"]["enabled"]:
        for name in ("a", "b", "push"):
            out.append(("encoder." + name, cfg["encoder"][name]))
    if cfg["buzzer"]["enabled"]:
        out.append(("buzzer.pin", cfg["buzzer"]["pin"]))
    return out


def validate(cfg):
    """Check a complete configuration; raise ValueError saying what is wrong.

    Returns ``cfg`` unchanged so it can be chained.
    """
    _check_keys("", cfg, DEFAULTS)

    if cfg["board"] not in BOARDS:
        raise ValueError(
            "board.json: board %r is not supported; use one of %s" % (cfg["board"], ", ".join(BOARDS))
        )

    disp = cfg["display"]
    if disp["driver"] not in DRIVERS:
        if disp["driver"] == "sh1106":
            raise ValueError(
                "board.json: display.driver 'sh1106' is not supported by the firmware yet "
                "(1.3\" SH1106 modules look like SSD1306 ones but need a different driver); "
                "use a 0.96\" SSD1306 module and driver 'ssd1306'"
            )
        raise ValueError(
            "board.json: display.driver %r is not supported; use 'ssd1306'" % (disp["driver"],)
        )
    if disp["width"] != 128 or disp["height"] != 64 or not _is_int(disp["width"]) or not _is_int(disp["height"]):
        raise ValueError(
            "board.json: display must be 128x64 (the Bower screens are drawn for it), got %rx%r"
            % (disp["width"], disp["height"])
        )
    if not _is_int(disp["rotate"]) or disp["rotate"] not in (0, 180):
        raise ValueError(
            "board.json: display.rotate must be 0 or 180 (degrees; 180 turns the picture "
            "upside down, for a module mounted the other way round), got %r" % (disp["rotate"],)
        )

    i2c = disp["i2c"]
    bus = i2c["bus"]
    if not _is_int(bus) or bus not in (0, 1):
        raise ValueError("board.json: display.i2c.bus must be 0 or 1 (I2C0 or I2C1), got %r" % (bus,))
    _check_pin("display.i2c.sda", i2c["sda"])
    _check_pin("display.i2c.scl", i2c["scl"])
    sda, scl = i2c["sda"], i2c["scl"]
    if sda in I2C_SCL[0] + I2C_SCL[1] and scl in I2C_SDA[0] + I2C_SDA[1]:
        raise ValueError(
            "board.json: display.i2c: sda GP%d and scl GP%d are swapped "
            "(GP%d is an SCL pin, GP%d is an SDA pin)" % (sda, scl, sda, scl)
        )
    sda_block = _i2c_block(sda, I2C_SDA)
    scl_block = _i2c_block(scl, I2C_SCL)
    if sda_block is not None and scl_block is not None and sda_block != scl_block:
        raise ValueError(
            "board.json: display.i2c: sda GP%d belongs to I2C%d but scl GP%d belongs to I2C%d; "
            "both must be on the same I2C block" % (sda, sda_block, scl, scl_block)
        )
    for role, pin, block, pins, other in (("SDA", sda, sda_block, I2C_SDA, I2C_SCL),
                                          ("SCL", scl, scl_block, I2C_SCL, I2C_SDA)):
        if pin in pins[bus]:
            continue
        hint = ""
        if block is not None:
            hint = " (GP%d is an I2C%d %s pin: set bus to %d)" % (pin, block, role, block)
        elif _i2c_block(pin, other) is not None:
            hint = " (GP%d is an %s pin)" % (pin, "SCL" if role == "SDA" else "SDA")
        raise ValueError(
            "board.json: display.i2c.%s: GP%d cannot be %s on I2C%d%s; I2C%d %s pins are %s"
            % (role.lower(), pin, role, bus, hint, bus, role, _gp_list(pins[bus]))
        )
    addr = i2c["addr"]
    if not _is_int(addr) or addr < 0x08 or addr > 0x77:
        hint = ""
        if addr in (0x78, 0x7A):
            hint = " (0x%02X is the 8-bit address printed on some modules; use %d = 0x%02X)" % (
                addr, addr >> 1, addr >> 1)
        raise ValueError(
            "board.json: display.i2c.addr %r is out of range; a 7-bit I2C address is 8-119 "
            "(0x08-0x77), SSD1306 modules use 60 (0x3C) or 61 (0x3D)%s" % (addr, hint)
        )
    freq = i2c["freq"]
    if not _is_int(freq) or freq < 10000 or freq > 1000000:
        raise ValueError(
            "board.json: display.i2c.freq must be 10000-1000000 Hz (400000 is usual), got %r" % (freq,)
        )

    for name in BUTTONS:
        _check_pin("buttons." + name, cfg["buttons"][name])
    _check_bool("buttons.active_low", cfg["buttons"]["active_low"])

    _check_bool("encoder.enabled", cfg["encoder"]["enabled"])
    if cfg["encoder"]["enabled"]:
        for name in ("a", "b", "push"):
            _check_pin("encoder." + name, cfg["encoder"][name])

    _check_bool("buzzer.enabled", cfg["buzzer"]["enabled"])
    if cfg["buzzer"]["enabled"]:
        _check_pin("buzzer.pin", cfg["buzzer"]["pin"])

    seen = {}
    for role, pin in used_pins(cfg):
        if pin in seen:
            raise ValueError(
                "board.json: pin GP%d is used twice: %s and %s" % (pin, seen[pin], role)
            )
        seen[pin] = role
    return cfg


def load(path="/board.json"):
    """Read ``path`` (if it exists), merge it over DEFAULTS, validate, return a dict."""
    try:
        f = open(path)
    except OSError:
        return validate(_merge(DEFAULTS, {}))
    try:
        try:
            data = json.load(f)
        except ValueError as e:
            raise ValueError("%s is not valid JSON: %s" % (path, e))
    finally:
        f.close()
    if not isinstance(data, dict):
        raise ValueError("%s must contain a JSON object" % path)
    return validate(_merge(DEFAULTS, data))
