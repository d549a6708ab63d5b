# Game logs as JSON lines, each line carrying a CRC32 of its payload: the
# public face of two modules.
#
# Every line is a two-element JSON array ``[PAYLOAD,"crc32"]``: ``crc32`` is
# eight lower-case hex digits of the CRC-32 (zlib/binascii) of the exact
# PAYLOAD text as it stands in the line. Line 1's payload is the header
# object (``Game.header()``); each further payload is one event in text
# notation, or ``"undo"``. See engine/README.md for the full format.
#
# * One line at a time (``encode_line``, ``decode_line``, ``header_payload``,
#   ``crc32``, ``LogError``, ``FORMAT``, ``UNDO``): ``euchre.logline``, what
#   the device imports (directly, so it does not load this module).
# * Whole logs (``dumps``, ``loads``, ``read_lines``, ``replay_lines``):
#   ``euchre.logfile``, which this module loads the first time one of them
#   is used as ``euchre.log.<name>``.
#
# Both import ``euchre.logline`` and neither imports this module.

# (re-exported: the line codec's public names)
from euchre.logline import (FORMAT, UNDO, LogError, crc32, canonical_json, encode_line,  # noqa: F401
                            decode_line, header_payload)


def __getattr__(name):
    # Module attributes ``dumps``, ``loads``, ``read_lines``, ``replay_lines``
    # (PEP 562; MicroPython has it too): load euchre.logfile on first use.
    if name in ("dumps", "loads", "read_lines", "replay_lines"):
        from euchre import logfile
        return getattr(logfile, name)
    raise AttributeError(name)
