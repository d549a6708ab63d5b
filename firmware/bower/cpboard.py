# The board on CircuitPython (bower.board is the MicroPython one, and asks
# this module for what differs): digitalio buttons, busio I2C, pwmio, and a
# clock with MicroPython's ticks. Not copied to a MicroPython device.

from bower.buttons import Encoder, ticks_diff


def setup(hw, cfg, i, pins, e):
    # Fill in ``hw`` (a bower.board._Hw) from the configuration: i2c, keys,
    # the encoder (polled: no pin interrupts here), the buzzer, id, reset.
    import board
    import busio
    import digitalio
    import microcontroller
    import supervisor

    def pin(n, up):
        p = digitalio.DigitalInOut(getattr(board, "GP%d" % n))
        p.pull = digitalio.Pull.UP if up else digitalio.Pull.DOWN
        return lambda: int(p.value)

    hw.i2c = busio.I2C(getattr(board, "GP%d" % i["scl"]), getattr(board, "GP%d" % i["sda"]),
                       frequency=i["freq"])
    hw.keys = [pin(n, hw.idle) for n in pins]
    if e["enabled"]:
        enc = hw.enc = Encoder()
        a = pin(e["a"], 1)
        b = pin(e["b"], 1)
        hw.push = pin(e["push"], 1)
        hw.turns = lambda: enc.update(a(), b())
    if cfg["buzzer"]["enabled"]:
        import pwmio
        hw.pwm = pwmio.PWMOut(getattr(board, "GP%d" % cfg["buzzer"]["pin"]),
                              frequency=2000, duty_cycle=0)
    hw.id = "".join(["%02x" % x for x in microcontroller.cpu.uid])
    hw.reset = supervisor.reload


class Clock:
    # CircuitPython has no time.ticks_ms: this one wraps at 2**30 like it.
    def __init__(self):
        import time
        self._t = time
        self.time = time.time
        self.ticks_diff = ticks_diff

    def ticks_ms(self):
        return (self._t.monotonic_ns() // 1000000) & 0x3FFFFFFF

    def sleep_ms(self, ms):
        self._t.sleep(ms / 1000)
