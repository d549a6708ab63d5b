"""Bower firmware for the Raspberry Pi Pico."""

# The product's version, the one place it is written: the host's
# ``bower_host.__version__`` and pyproject.toml (setuptools' dynamic
# version) read it from here, and the device shows it and sends it in HELLO.
__version__ = "0.2.0"


def unload(name):
    # Give the heap of module ``name`` ("bower.past") back: the next
    # import loads it again (firmware/DEVICE.md, 1). The module that loads an optional part calls
    # this for it (the app for its menus, the store for its extras, the
    # link for its protocol, the board for its checker, the new-game menu
    # for the data of the variants for three, six and two players).
    import sys
    if sys.modules.pop(name, None) is not None:
        i = name.rfind(".")
        short = name[i + 1:]
        pkg = sys.modules.get(name[:i])
        if pkg is not None and short in pkg.__dict__:
            delattr(pkg, short)


# The device's rule for a player name, in one place: the roster
# (bower.prefs) and a club round's seats (bower.clubsetup) take names by
# it. Here, in the package every module of the app already has, so the
# boot's check of the roster loads no module of its own (4 ms of a Pico's
# boot) and the club setup imports nothing of the app. The host checks
# names by the same rule before it sends any (host/bower_host/names.py;
# tests/host/test_csv_out.py holds the two to the same decisions).

def check_names(names, most=16):
    # ``names`` if it is a list of at most ``most`` distinct names of 1 to 8
    # printable ASCII characters, no space at either end.
    # :raises ValueError: naming the bad name.
    if type(names) is not list or len(names) > most:
        raise ValueError("at most %d names" % most)
    for n in names:
        # (min and max of the bytes: of the str, each character would be a
        # string of its own on MicroPython)
        if not (isinstance(n, str) and 0 < len(n) < 9 and n.strip() == n and min(n.encode()) >= 32
                and max(n.encode()) <= 126) or names.count(n) > 1:
            raise ValueError("bad name %r" % (n,))
    return names
