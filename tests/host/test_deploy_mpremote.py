"""bower deploy through the real mpremote (the pinned PyPI version, run as
``python -m mpremote`` exactly as on a real Pico) and pyserial, against a
pretend Pico on a pseudo-terminal.

The pretend Pico speaks MicroPython's REPL protocol: the friendly REPL, the
raw REPL (Ctrl-A) with raw-paste mode, soft reset (Ctrl-D). The Python that
mpremote sends (its fs commands and Bower's scan script) runs in CPython
with ``os``/``open``/``sys`` mapped onto a temporary directory that plays the
Pico's flash. So the command lines, the chaining, the scan parsing and the
soft reset are the real ones; only the interpreter on the far side is not.
"""

import builtins
import contextlib
import errno
import hashlib
import io
import os
import struct
import sys
import threading
import traceback
import tty
from pathlib import Path

import pytest

from bower_host import deploy as D
from bower_host.deploy import build as DB
from bower_host.deploy import device as DV

BANNER = (b"\r\nMicroPython v1.28.0 on 2026-01-01; Raspberry Pi Pico with RP2040\r\n"
          b"Type \"help()\" for more information.\r\n>>> ")
RAW = b"raw REPL; CTRL-B to exit\r\n>"


class PretendPico:
    def __init__(self, flash: Path):
        self.flash = flash
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.mode = "friendly"
        self.ns = None
        self.soft_resets = []         # the mode each soft reset happened in
        self.execs = 0
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # --- the "flash" ---------------------------------------------------------

    def host(self, p):
        p = str(p)
        if not p.startswith("/"):
            p = "/" + p
        return str(self.flash) + p

    def _modules(self):
        pico = self
        real_os = os

        class FakeOs:
            @staticmethod
            def stat(p):
                return tuple(real_os.stat(pico.host(p)))

            @staticmethod
            def ilistdir(p=""):
                for e in sorted(real_os.scandir(pico.host(p)), key=lambda e: e.name):
                    yield (e.name, 0x4000 if e.is_dir() else 0x8000, 0, e.stat().st_size)

            @staticmethod
            def listdir(p=""):
                return sorted(real_os.listdir(pico.host(p)))

            mkdir = staticmethod(lambda p: real_os.mkdir(pico.host(p)))
            remove = staticmethod(lambda p: real_os.remove(pico.host(p)))
            rmdir = staticmethod(lambda p: real_os.rmdir(pico.host(p)))

        class Impl:
            name = "micropython"
            version = (1, 28, 0, "")
            _mpy = 6 | 3 << 8 | 4 << 10      # mpy 6.3, armv6m

        class FakeSys:
            implementation = Impl
            platform = "rp2"

        return {"os": FakeOs, "sys": FakeSys}

    def _namespace(self, out):
        mods = self._modules()
        real_import = builtins.__import__

        def imp(name, *args, **kw):
            return mods[name] if name in mods else real_import(name, *args, **kw)

        def opn(p, mode="r", *args, **kw):
            return open(self.host(p), mode, *args, **kw)

        b = dict(builtins.__dict__)
        b.update(__import__=imp, open=opn)
        return {"__builtins__": b, "__name__": "__main__"}

    # --- the REPL ----------------------------------------------------------------

    def _send(self, data: bytes):
        os.write(self.master, data)

    def _read(self, n=1):
        try:
            return os.read(self.master, n)
        except OSError:
            return b""

    def _serve(self):
        while not self._stop:
            c = self._read(1)
            if not c:
                return
            if self.mode == "friendly":
                self._friendly(c)
            else:
                self._raw(c)

    def _friendly(self, c):
        if c == b"\x01":
            self.mode = "raw"
            self._send(b"\r\n" + RAW)
        elif c == b"\x02":
            self._send(BANNER)
        elif c == b"\x03":
            self._send(b"\r\n>>> ")
        elif c == b"\x04":
            self.soft_resets.append("friendly")        # this one runs main.py
            self.ns = None
            self._send(b"MPY: soft reboot\r\n" + BANNER)

    def _raw(self, c):
        if c == b"\x02":
            self.mode = "friendly"
            self._send(BANNER)
        elif c == b"\x04":
            self.soft_resets.append("raw")
            self.ns = None
            self._send(b"OK\r\nMPY: soft reboot\r\n" + RAW)
        elif c == b"\x05":
            rest = self._read(2)
            assert rest == b"A\x01", rest
            self._send(b"R\x01" + struct.pack("<H", 0xFFFF))
            buf = bytearray()
            while True:
                ch = self._read(1)
                if not ch or ch == b"\x04":
                    break
                buf += ch
            self._send(b"\x04")
            self._exec(bytes(buf))

    def _exec(self, code: bytes):
        self.execs += 1
        out = io.StringIO()
        if self.ns is None:
            self.ns = self._namespace(out)
        err = b""
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(code.decode(), "<stdin>", "exec"), self.ns)
            except OSError as e:
                name = errno.errorcode.get(e.errno, str(e.errno))
                err = ("Traceback (most recent call last):\r\n  File \"<stdin>\", line 1, in <module>\r\n"
                       "OSError: [Errno %d] %s\r\n" % (e.errno, name)).encode()
            except Exception:
                err = traceback.format_exc().replace("\n", "\r\n").encode()
        text = out.getvalue().replace("\n", "\r\n").encode()
        self._send(text + b"\x04" + err + b"\x04>")

    def close(self):
        self._stop = True
        os.close(self.slave)
        os.close(self.master)


@pytest.fixture
def pico(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    p = PretendPico(flash)
    yield p
    p.close()


def _files(flash: Path):
    return {"/" + str(f.relative_to(flash)): f.read_bytes() for f in flash.rglob("*") if f.is_file()}


def test_deploy_with_the_real_mpremote(tmp_path, pico):
    (pico.flash / "lib" / "bower").mkdir(parents=True)
    (pico.flash / "lib" / "bower" / "ui.py").write_text("# an old source copy\n")
    (pico.flash / "settings").write_text("{}\n")
    lines = []
    dev = DV.MpremoteDevice(pico.port, echo=lines.append)
    plan = D.deploy(dev, build=tmp_path / "build", out=lines.append)

    on_flash = _files(pico.flash)
    for it in plan.copy:
        assert on_flash[it.remote] == Path(it.local).read_bytes(), it.remote
        assert hashlib.sha256(on_flash[it.remote]).hexdigest() == it.sha256
    assert "/lib/bower/ui.py" not in on_flash and on_flash["/settings"] == b"{}\n"
    assert on_flash["/lib/bower/board.mpy"][:2] == b"M\x06"
    assert "device: MicroPython 1.28.0 on rp2" in lines
    assert any(ln.startswith("copied %d files" % len(plan.copy)) for ln in lines), lines
    # mpremote soft-resets in the raw REPL on connect (scan, copy, verify);
    # the last reset is Bower's own, in the friendly REPL, which runs main.py.
    assert pico.soft_resets == ["raw", "raw", "raw", "friendly"], pico.soft_resets
    assert "restarted: Bower is starting on the device" in lines

    # Again: nothing to copy, two mpremote runs fewer.
    lines.clear()
    plan = D.deploy(dev, build=tmp_path / "build", out=lines.append)
    assert plan.copy == [] and "the device is up to date" in lines
    assert pico.soft_resets[4:] == ["raw", "friendly"]
    assert _files(pico.flash) == on_flash


def test_mpremote_errors_reach_the_user(tmp_path, pico):
    # A file where deploy needs a directory: mpremote's mkdir fails, deploy says so.
    (pico.flash / "lib").mkdir()
    (pico.flash / "lib" / "bower").write_text("not a directory")
    dev = DV.MpremoteDevice(pico.port)
    with pytest.raises(DB.DeployError, match=r"copying to the device failed \(mpremote exit status 1\)"):
        D.deploy(dev, build=tmp_path / "build", out=lambda s: None)
    assert "friendly" not in pico.soft_resets


def test_no_such_port(tmp_path):
    dev = DV.MpremoteDevice(str(tmp_path / "ttyNOPE"))
    with pytest.raises(DB.DeployError, match="failed to access"):
        D.deploy(dev, build=tmp_path / "build", out=lambda s: None)


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("pseudo-terminals are POSIX")
