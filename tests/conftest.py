"""pytest setup shared by every suite: MicroPython's device-only modules on CPython.

``bower_host.devicesim.install()`` makes ``framebuf`` (a pure-Python copy of
MicroPython's), ``micropython`` (``const`` ...) and the vendored drivers in
``firmware/lib`` (``import ssd1306``) importable, so firmware code and tests
run unchanged under CPython.
"""

from bower_host import devicesim

devicesim.install()
