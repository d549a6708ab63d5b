"""Bower firmware for the Raspberry Pi Pico."""

__version__ = "0.2.0"


def unload(name):
    # Give the heap of module ``name`` ("bower.archive") back: the next
    # import loads it again. The module that loads an optional part calls
    # this for it (the app for its menus, the store for its archive, the
    # link for its protocol, the board for its checker, the new-game menu
    # for the data of the variants for three, six and two players).
    import sys
    if sys.modules.pop(name, None) is not None:
        i = name.rfind(".")
        short = name[i + 1:]
        pkg = sys.modules.get(name[:i])
        if pkg is not None and short in pkg.__dict__:
            delattr(pkg, short)
