"""The serial transport to a Bower device: find the Pico, open it, read lines.

This layer knows about ports and bytes, not about the protocol
(:mod:`bower_host.protocol` builds on it; ``bower deploy`` shares
:func:`find_port`)::

    t = SerialTransport.open()          # the only Pico plugged in
    t.write(b"...\\n")
    line = t.readline(timeout=2.0)      # bytes with the newline, or None

Errors are :class:`TransportError` (no port, several ports, cannot open) and
its subclass :class:`DeviceGone` (the device vanished: unplugged, reset with
the port closed under us).
"""

from __future__ import annotations

import os
import time
from typing import Any, Iterable, Protocol

import serial
import serial.tools.list_ports

_TermiosError: type[Exception]
try:
    from termios import error as _TermiosError   # pyserial's tcdrain on a vanished pty/tty
except ImportError:  # Windows
    class _NoTermios(Exception):
        pass
    _TermiosError = _NoTermios

# What pyserial raises when the port goes away under it.
_GONE = (serial.SerialException, OSError, _TermiosError)

#: Raspberry Pi's USB vendor id: MicroPython on a Pico / Pico 2 enumerates with it.
PICO_VID = 0x2E8A
#: Longest line :meth:`SerialTransport.readline` returns; longer ones are cut
#: there (the rest, up to the newline, is returned as further pieces).
MAX_LINE = 8192


class Transport(Protocol):
    """What ``protocol.Client`` talks through: ``SerialTransport``, or the simulator's and the tests' pipes."""

    def write(self, data: bytes) -> None: ...
    def readline(self, timeout: float) -> bytes | None: ...
    def discard_input(self) -> None: ...


class TransportError(Exception):
    """The serial port cannot be found, opened or used."""


class DeviceGone(TransportError):
    """The device went away in the middle of a conversation."""


def list_picos(ports: Iterable[Any] | None = None) -> list:
    """Serial ports whose USB vendor id is the Pico's (``serial.tools.list_ports`` entries)."""
    if ports is None:
        ports = serial.tools.list_ports.comports()
    return sorted((p for p in ports if p.vid == PICO_VID), key=lambda p: p.device)


def find_port(ports: Iterable[Any] | None = None) -> str:
    """The device path of the one Pico plugged in.

    :raises TransportError: when there is none, or several (then ``--port``
        must choose).
    """
    picos = list_picos(ports)
    if not picos:
        raise TransportError(
            "no Bower device found: plug the Pico in with a data USB cable (no port with USB vendor id "
            "2E8A), or name the port with --port")
    if len(picos) > 1:
        names = ", ".join(f"{p.device} ({p.description})" if p.description and p.description != "n/a"
                          else p.device for p in picos)
        raise TransportError(f"several Picos found: {names}; choose one with --port")
    return picos[0].device


def open_serial(port: str, *, baudrate: int = 115200, write_timeout: float = 5.0,
                exclusive: bool = True) -> serial.SerialBase:
    """Open ``port`` (a device path, or a pyserial URL such as ``socket://host:port``).

    The read timeout is short: :meth:`SerialTransport.readline` keeps its own
    deadline. ``exclusive`` (POSIX): lock the port, so a second program
    opening it (another ``bower sync``, mpremote, a terminal) cannot steal
    the device's replies; it gets a clear error instead.
    """
    try:
        if "://" in port:
            return serial.serial_for_url(port, baudrate=baudrate, timeout=0.05, write_timeout=write_timeout)
        kw: dict[str, Any] = {"exclusive": True} if exclusive and os.name == "posix" else {}
        return serial.Serial(port, baudrate=baudrate, timeout=0.05, write_timeout=write_timeout, **kw)
    except (serial.SerialException, OSError, ValueError) as e:
        if "exclusively lock" in str(e):
            raise TransportError(f"{port} is in use by another program (another bower sync, mpremote or a "
                                 "serial terminal?): close it and try again") from e
        raise TransportError(f"cannot open {port}: {e}") from e


class SerialTransport:
    """Line-oriented reads and whole writes over a pyserial port."""

    def __init__(self, ser: Any, name: str | None = None):     # a pyserial port, or a test's stand-in
        self.ser = ser
        self.name = name or getattr(ser, "port", None) or "serial port"
        self._buf = bytearray()
        self.bytes_in = 0
        self.bytes_out = 0

    @classmethod
    def open(cls, port: str | None = None, **kw: Any) -> SerialTransport:
        """Open ``port``, or the only Pico plugged in when ``port`` is None."""
        port = port or find_port()
        return cls(open_serial(port, **kw), port)

    def write(self, data: bytes) -> None:
        """Send all of ``data``."""
        try:
            self.ser.write(data)
            self.ser.flush()
        except serial.SerialTimeoutException as e:
            raise DeviceGone(f"{self.name}: the device stopped reading (write timed out)") from e
        except _GONE as e:
            raise DeviceGone(f"the device on {self.name} went away ({e})") from e
        self.bytes_out += len(data)

    def readline(self, timeout: float) -> bytes | None:
        """The next line (ending in ``\\n``), or None if none came within ``timeout`` seconds.

        A line longer than :data:`MAX_LINE` is returned in pieces of that size
        (without a newline), so garbage can never grow memory without bound.
        """
        deadline = time.monotonic() + timeout
        while True:
            i = self._buf.find(b"\n")
            if i >= 0 or len(self._buf) >= MAX_LINE:
                end = i + 1 if 0 <= i < MAX_LINE else MAX_LINE
                line = bytes(self._buf[:end])
                del self._buf[:end]
                return line
            if time.monotonic() >= deadline:
                return None
            self._fill()

    def _fill(self) -> None:
        try:
            waiting = self.ser.in_waiting
            chunk = self.ser.read(max(1, min(waiting, 65536)))
        except (*_GONE, TypeError) as e:
            # TypeError: pyserial on a closed/vanished fd (select on None).
            raise DeviceGone(f"the device on {self.name} went away ({e})") from e
        if chunk:
            self.bytes_in += len(chunk)
            self._buf += chunk

    def discard_input(self) -> None:
        """Drop whatever the device sent that was not read yet."""
        self._buf.clear()
        try:
            self.ser.reset_input_buffer()
        except _GONE as e:
            raise DeviceGone(f"the device on {self.name} went away ({e})") from e

    def close(self) -> None:
        try:
            self.ser.close()
        except _GONE:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
