"""Bower's computer side: the ``bower`` command (simulator, sync, the game
library and its exports, stats and plots, deploy).

One version number for the whole product, written once: the firmware's
``bower.__version__`` (firmware/bower/__init__.py: the device shows it and
sends it in HELLO). The host takes it from there, and pyproject.toml reads
it from there too (tests/host/test_version.py, tests/test_readme_shape.py).
"""

from bower import __version__

__all__ = ["__version__"]
