"""pytest setup shared by every suite: MicroPython's device-only modules on CPython.

Importing ``bower_host`` puts the device's code (engine/, firmware/, firmware/lib) on
sys.path; ``bower_host.simhw.install()`` makes ``framebuf`` (a pure-Python copy of
MicroPython's) and ``micropython`` (``const`` ...) importable, so firmware
code and tests run unchanged under CPython.
"""

from bower_host import simhw

simhw.install()
