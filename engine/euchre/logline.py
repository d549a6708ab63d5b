# One line of a game log: JSON with a CRC32 of its payload (what the device
# loads: it writes lines one at a time and reads them back one at a time).
#
# Every line is a two-element JSON array ``[PAYLOAD,"crc32"]``: ``crc32`` is
# eight lower-case hex digits of the CRC-32 (zlib/binascii) of the exact
# PAYLOAD text as it stands in the line. Line 1's payload is the header
# object (``Game.header()``); each further payload is one event in text
# notation, or ``"undo"`` (take back the previous event: an append-only file
# can undo without rewriting). See engine/README.md for the full format.
#
# A torn or corrupt *last* line (power cut mid-write) is dropped and reported;
# a corrupt earlier line is a ``LogError`` naming the line.
#
# Whole logs (``dumps``, ``loads``, ...) are ``euchre.logfile``'s, which
# imports this module; ``euchre.log`` offers both (the public API). This
# module imports neither.

import json

from euchre.cards import error_text, _HOST
if _HOST:
    from euchre.cards import _foreign   # (CPython's only: see there)

try:
    from binascii import crc32 as _crc32
except ImportError:  # pragma: no cover - ports built without binascii.crc32
    _crc32 = None

FORMAT = 1
UNDO = "undo"


class LogError(ValueError):
    """A log line that cannot be read."""
    pass


def crc32(data):
    """CRC-32 of bytes: binascii's, or bit by bit on a port built without it
    (every port Bower runs on has it).
    """
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    return c ^ 0xFFFFFFFF


def canonical_json(obj):
    """JSON text with dict keys sorted and non-ASCII characters of the basic
    plane escaped, the same on CPython and MicroPython (whose dicts do not
    keep insertion order and whose json module writes UTF-8 as is).
    """
    if isinstance(obj, str):
        return _json_str(obj)
    if isinstance(obj, dict):
        out = []
        for k in sorted(obj):
            out.append(_json_str(k) + ": " + canonical_json(obj[k]))
        return "{" + ", ".join(out) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(map(canonical_json, obj)) + "]"
    return json.dumps(obj)


def _json_str(text):
    # Printable ASCII without a quote or a backslash (names, events) as it
    # is; looked at as bytes: MicroPython makes each character of a str it
    # iterates a string of its own (a qstr look-up, some 0.1 ms on a Pico).
    b = text.encode()
    if len(b) == len(text) and (not b or (min(b) > 31 and max(b) < 127)) and 34 not in b and 92 not in b:
        return '"' + text + '"'
    out = []
    for c in text:
        o = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif 32 <= o < 127:
            out.append(c)
        elif c in "\b\t\n\f\r":
            out.append("\\" + "btnfr"["\b\t\n\f\r".index(c)])
        elif o > 0xFFFF:
            # Raw UTF-8: MicroPython's json does not join surrogate pairs.
            out.append(c)
        else:
            out.append("\\u%04x" % o)
    return '"' + "".join(out) + '"'


def encode_line(payload):
    """One log line (with the trailing newline) for a JSON-able payload."""
    text = canonical_json(payload)
    return '[%s,"%08x"]\n' % (text, crc32(text.encode()))


def decode_line(line, lineno=0):
    """Payload of one line (with or without its newline).

    :raises LogError: torn line, bad CRC or bad JSON; names ``lineno``.
    """
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    if len(line) < 14 or line[0] != "[" or line[-12:-10] != ',"' or line[-2:] != '"]':
        raise LogError(error_text("torn", lineno))
    text = line[1:-12]
    try:
        crc = int(line[-10:-2], 16)
        if _HOST and _foreign(line[-10:-2]):
            raise ValueError   # (CPython's int() also reads other scripts' digits)
    except ValueError:
        raise LogError(error_text("crc", lineno))
    if crc32(text.encode()) != crc:
        raise LogError(error_text("corrupt", lineno))
    try:
        return json.loads(text)
    except ValueError:
        raise LogError(error_text("json", lineno))


def header_payload(game):
    """The header object written as line 1."""
    h = {"format": FORMAT}
    h.update(game.header())
    return h

