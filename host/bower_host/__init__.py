"""Bower's computer side: the ``bower`` command (simulator, sync, storage,
export, stats, deploy). Only the demo simulator exists so far."""

__version__ = "0.1.0"
