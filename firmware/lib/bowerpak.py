# The device's modules from one file. `bower deploy` writes every .mpy it
# puts in /lib into /lib/bower.pak as well; main.py mounts that file as a
# read-only filesystem at /pak, first on sys.path, so `import bower.ui`
# reads from one open file. Without it every import walks littlefs's
# directories (/, /lib, /lib/bower) for the .py it looks for first and the
# .mpy it then finds, re-reading and checking their metadata each time:
# some 2,000 block reads (540 KB) before the home screen, most of the boot
# and resume time on a Pico (tools/bench_pico.py). A stock MicroPython UF2
# has neither ROMFS nor frozen modules for this; a Python filesystem object
# works on every build (mpremote's `mount` is one).
#
# The file: a line "BPAK1 INDEX DATA\n" (the byte lengths of the two parts
# that follow), the index, lines "path offset length\n" (offsets into the
# data, paths relative to /lib), then the data. A missing, short or
# malformed file is not mounted: the modules then load from /lib as before.

import io
import sys

_BUF = 249   # the import reader's buffer (MP_STREAM_GET_BUFFER_SIZE), as mpremote's mount


class _Member(io.IOBase):
    # One module of the pack as a read-only binary stream.

    def __init__(self, f, start, n):
        self._f = f
        self._pos = start
        self._end = start + n

    def readinto(self, buf):
        n = self._end - self._pos
        if n > len(buf):
            n = len(buf)
        if n <= 0:
            return 0
        self._f.seek(self._pos)
        n = self._f.readinto(memoryview(buf)[:n])
        self._pos += n
        return n

    def read(self, n=-1):
        left = self._end - self._pos
        if n < 0 or n > left:
            n = left
        b = bytearray(n)
        m = self.readinto(b)
        return bytes(b) if m == n else bytes(b[:m])

    def ioctl(self, req, arg):
        return _BUF if req == 11 else 0

    def close(self):
        self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


class Pack:
    # The filesystem object vfs.mount() takes, with what imports and open()
    # call (stat, open): no listing, no chdir (nothing here needs them).

    def __init__(self, f, ix, n, d):
        # (the file, its index, where its data starts, its folders: _open's;
        # short names, which the firmware has interned already)
        self._f = f
        self._ix = ix        # every entry starts with "\n"
        self._base = n
        self._dirs = d
        self._last = (None, None)

    def _find(self, path):
        # (offset in the file, length) of a member, or None. An import
        # stats the .mpy, then opens it: the second look is the first's.
        if path == self._last[0]:
            return self._last[1]
        ix = self._ix
        key = b"\n" + path.strip("/").encode() + b" "
        i = ix.find(key)
        e = None
        if i >= 0:
            i += len(key)
            j = ix.find(b" ", i)
            k = ix.find(b"\n", j)
            e = self._base + int(ix[i:j]), int(ix[j + 1:k])
        self._last = (path, e)
        return e

    def _isdir(self, path):
        p = path.strip("/")
        return not p or p in self._dirs

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        self._f.close()

    def stat(self, path):
        if path[-3:] == ".py":
            raise OSError(2)    # every import asks for the .py first; the pack holds none
        if path[-4:] == ".mpy":
            e = self._find(path)
            if e is not None:
                return (0x8000, 0, 0, 0, 0, 0, e[1], 0, 0, 0)
        elif self._isdir(path):
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2)

    def open(self, path, mode="r"):
        if "w" in mode or "a" in mode or "+" in mode:
            raise OSError(30)       # EROFS
        e = self._find(path)
        if e is None:
            raise OSError(2)
        return _Member(self._f, e[0], e[1])


def _open(path):
    # (the open file, its index, where the data starts, the folders) of a
    # pack; ValueError if it is not one, or cut short.
    f = open(path, "rb")
    try:
        head = f.readline()
        w = head.split()
        if len(w) != 3 or w[0] != b"BPAK1":
            raise ValueError("not a Bower pack")
        n, d = int(w[1]), int(w[2])
        ix = f.read(n)
        f.seek(0, 2)
        if len(ix) != n or f.tell() != len(head) + n + d:
            raise ValueError("pack cut short")
    except Exception:
        f.close()
        raise
    # The folders (every prefix of a member's path), looked up by every
    # import of a package ("bower") and of a module in one ("bower/ui").
    dirs = []
    for ln in ix.split(b"\n"):
        p = ln.split(b" ")[0].decode()
        i = p.find("/")
        while i > 0:
            if p[:i] not in dirs:
                dirs.append(p[:i])
            i = p.find("/", i + 1)
    return f, b"\n" + ix, len(head) + n, tuple(dirs)


# MicroPython's built-in modules that a file of the same name may extend
# (json, os, ...) are looked for on every sys.path entry first, at every
# `import` that runs, since a built-in gets no sys.modules entry: on the
# Pico six littlefs look-ups each time. Their "u" names bind the built-in
# at once; entered in sys.modules, `import json` finds it there.
_BUILTINS = ("array", "binascii", "io", "json", "os", "select", "struct", "time")


def builtins():
    # sys.modules entries for the built-ins above (MicroPython only).
    if sys.implementation.name != "micropython":
        return
    for n in _BUILTINS:
        if n not in sys.modules:
            try:
                sys.modules[n] = __import__("u" + n)
            except ImportError:
                pass


def mount(path="/lib/bower.pak", at="/pak"):
    # Mount the pack at ``at``, first on sys.path; False (nothing changed)
    # when there is no usable pack. Enters the built-ins in sys.modules too.
    # Mounted, the pack gives back this boot code (firmware/DEVICE.md, 1):
    # the app's heap keeps only what imports call, Pack and _Member.
    builtins()
    try:
        import vfs
        p = Pack(*_open(path))
    except Exception:
        return False
    try:
        vfs.mount(p, at)
    except Exception:
        p.umount()
        return False
    sys.path.insert(0, at)
    g = globals()
    for n in ("_open", "_BUILTINS", "builtins", "mount"):
        del g[n]
    return True
