"""``bower deploy``, steps 5 and 6: the Pico through ``mpremote``.

:class:`MpremoteDevice` scans, applies a plan and soft-resets; tests
substitute any object with the same three methods.
"""

from __future__ import annotations

import subprocess
import sys
import time

from bower_host.deploy.build import DeployError
from bower_host.deploy.plan import DeviceState, Plan, parse_scan, scan_script


class MpremoteDevice:
    """The Pico through ``python -m mpremote`` (one subprocess per step).

    ``run(argv, timeout, echo)`` runs a command and returns (status, output);
    ``open_serial(port)`` opens the port for the final soft reset. Both are
    replaceable for tests.
    """

    def __init__(self, port: str, run=None, open_serial=None, python: str = sys.executable, echo=None):
        self.port = port
        self.python = python
        self.echo = echo        # gets mpremote's output lines while copying
        self._run = run or _run_command
        if open_serial is None:
            from bower_host.transport import open_serial
        self._open_serial = open_serial

    def _mpremote(self, args: list[str], what: str, timeout: float, echo=None) -> str:
        argv = [self.python, "-m", "mpremote", "connect", self.port, *args]
        status, output = self._run(argv, timeout, echo)
        if status != 0:
            tail = "\n".join(output.strip().splitlines()[-8:])
            raise DeployError(f"{what} failed (mpremote exit status {status}):\n{tail}")
        return output

    def scan(self, request: dict) -> DeviceState:
        out = self._mpremote(["exec", scan_script(request)], "scanning the device", 60)
        return parse_scan(out)

    @staticmethod
    def commands(plan: Plan) -> list[str]:
        """The chained mpremote arguments that apply ``plan``."""
        args: list[str] = []

        def add(*cmd):
            if args:
                args.append("+")
            args.extend(cmd)

        for p in plan.remove:
            add("fs", "rm", ":" + p)
        for d in plan.rmdirs:
            add("fs", "rmdir", ":" + d)
        for d in plan.mkdirs:
            add("fs", "mkdir", ":" + d)
        for it in plan.copy:
            add("fs", "cp", "-f", str(it.local), ":" + it.remote)
        return args

    def apply(self, plan: Plan) -> None:
        if plan.empty:
            return
        size = sum(it.size for it in plan.copy)
        self._mpremote(self.commands(plan), "copying to the device", 120 + size / 1000, self.echo)

    def soft_reset(self) -> bool:
        """Ctrl-D at the friendly REPL: MicroPython restarts and runs main.py.

        True when the device answered "soft reboot".
        """
        port = self.port[len("port:"):] if self.port.startswith("port:") else self.port
        try:
            ser = self._open_serial(port)
        except Exception:       # TransportError: gone after the copy; reported as unconfirmed
            return False
        try:
            ser.write(b"\r\x03\x03")     # stop anything that runs
            time.sleep(0.1)
            ser.write(b"\r\x02")         # leave the raw REPL, if in it
            _read_until(ser, b">>> ", 2.0)
            ser.write(b"\x04")
            return b"soft reboot" in _read_until(ser, b"soft reboot", 3.0)
        except (OSError, ValueError):    # serial.SerialException is an OSError
            return False
        finally:
            ser.close()


def _read_until(ser, marker: bytes, timeout: float) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data and time.monotonic() < deadline:
        data += ser.read(256)
    return data


def _run_command(argv: list[str], timeout: float, echo=None) -> tuple[int, str]:
    """Run argv; stream its output lines to ``echo`` as they come."""
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace")
    except OSError as e:
        raise DeployError(f"cannot run mpremote: {e}") from e
    lines = []
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line)
        if echo is not None:
            echo(line.rstrip("\n"))
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise DeployError(f"mpremote took longer than {timeout:.0f} s; is the device responding?")
    try:
        status = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise DeployError(f"mpremote took longer than {timeout:.0f} s; is the device responding?") from None
    return status, "".join(lines)
