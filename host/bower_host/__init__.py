"""Bower's computer side: the ``bower`` command (simulator, sync, the game
library and its exports, stats and plots, deploy).

The device's code (the engine ``euchre``, the firmware ``bower``, the
display driver ``ssd1306``) keeps its short names, and the host imports it
by them: importing this package puts it first on ``sys.path``. Installed,
it is this package's ``_device`` folder (pyproject.toml's package-dir), so
nothing of Bower's is installed as a top-level ``euchre`` or ``bower`` that
another distribution's files could overwrite (euchre-cli installs an
``euchre`` of its own: tests/host/test_install.py installs the two side by
side). In a checkout (``pip install -e .``, or PYTHONPATH) it is the
checkout's engine/, firmware/ and firmware/lib.

One version number for the whole product, written once: the firmware's
``bower.__version__`` (firmware/bower/__init__.py: the device shows it and
sends it in HELLO). The host takes it from there, and pyproject.toml reads
it from there too (tests/host/test_version.py, tests/test_readme_shape.py).
"""

import os
import sys


def _device_paths() -> list[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    installed = os.path.join(here, "_device")
    if os.path.isdir(os.path.join(installed, "euchre")):
        return [installed]
    root = os.path.dirname(os.path.dirname(here))
    return [os.path.join(root, d) for d in ("engine", "firmware", os.path.join("firmware", "lib"))]


for _p in reversed(_device_paths()):
    if _p in sys.path:
        sys.path.remove(_p)
    sys.path.insert(0, _p)

from bower import __version__  # noqa: E402  (found through the paths above)

__all__ = ["__version__"]
