"""Bower's computer side: the ``bower`` command (simulator, sync, the game
library and its exports, stats and plots, deploy).

One version number for the whole product: this, the firmware's
``bower.__version__`` (shown on the device) and pyproject.toml's agree
(tests/host/test_version.py).
"""

__version__ = "0.2.0"
