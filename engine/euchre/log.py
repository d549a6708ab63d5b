# Game logs as JSON lines, each line carrying a CRC32 of its payload.
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

import json

try:
    from binascii import crc32 as _crc32
except ImportError:  # pragma: no cover - ports built without binascii.crc32
    _crc32 = None

from euchre.game import game_from_header

FORMAT = 1
UNDO = "undo"


class LogError(ValueError):
    # A log that cannot be read; the message names the line.
    pass


def crc32(data):
    # CRC-32 of bytes (binascii when the port has it, else bitwise).
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    return c ^ 0xFFFFFFFF


def canonical_json(obj):
    # JSON text with dict keys sorted and non-ASCII characters of the basic
    # plane escaped, the same on CPython and MicroPython (whose dicts do not
    # keep insertion order and whose json module writes UTF-8 as is).
    if isinstance(obj, str):
        return _json_str(obj)
    if isinstance(obj, dict):
        return "{" + ", ".join([_json_str(k) + ": " + canonical_json(obj[k]) for k in sorted(obj)]) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join([canonical_json(v) for v in obj]) + "]"
    return json.dumps(obj)


_SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _json_str(text):
    out = []
    for ch in text:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 32 <= o < 127:
            out.append(ch)
        elif ch in _SHORT:
            out.append(_SHORT[ch])
        elif o > 0xFFFF:
            # Raw UTF-8: MicroPython's json does not join surrogate pairs.
            out.append(ch)
        else:
            out.append("\\u%04x" % o)
    return '"' + "".join(out) + '"'


def encode_line(payload):
    # One log line (with the trailing newline) for a JSON-able payload.
    text = canonical_json(payload)
    return '[%s,"%08x"]\n' % (text, crc32(text.encode()))


def decode_line(line, lineno=0):
    # Payload of one line (with or without its newline).
    #
    # :raises LogError: torn line, bad CRC or bad JSON; names ``lineno``.
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    if len(line) < 14 or line[0] != "[" or line[-12:-10] != ',"' or line[-2:] != '"]':
        raise LogError("line %d: not a log line (torn or garbage)" % lineno)
    text = line[1:-12]
    try:
        want = int(line[-10:-2], 16)
    except ValueError:
        raise LogError("line %d: malformed CRC" % lineno)
    if crc32(text.encode()) != want:
        raise LogError("line %d: CRC mismatch (corrupted)" % lineno)
    try:
        return json.loads(text)
    except ValueError:
        raise LogError("line %d: bad JSON" % lineno)


def header_payload(game):
    # The header object written as line 1.
    h = {"format": FORMAT}
    h.update(game.header())
    return h


def dumps(game, extra=None):
    # The whole log of a game as text (header plus one line per event).
    h = header_payload(game)
    if extra:
        h.update(extra)
    out = [encode_line(h)]
    for e in game.events():
        out.append(encode_line(e))
    return "".join(out)


def read_lines(lines):
    # Decode an iterable of lines into ``(header, events, dropped)``.
    #
    # ``events`` has ``undo`` lines applied and holds ``(lineno, event)``;
    # ``dropped`` is ``None`` or the message for a torn/corrupt last line that
    # was dropped.
    #
    # :raises LogError: empty log, bad header, or a corrupt line before the last.
    header = None
    events = []
    dropped = None
    pending = None  # (lineno, line, error) of a bad line that may be the last
    lineno = 0
    for line in lines:
        lineno += 1
        if pending is not None:
            raise LogError(str(pending))
        try:
            payload = decode_line(line, lineno)
        except LogError as e:
            pending = e
            continue
        if header is None:
            if not isinstance(payload, dict) or payload.get("format") != FORMAT:
                raise LogError("line %d: not a Bower game header (format %r)" % (
                    lineno, payload.get("format") if isinstance(payload, dict) else None))
            header = payload
        elif not isinstance(payload, str):
            raise LogError("line %d: an event must be a string" % lineno)
        elif payload == UNDO:
            if not events:
                raise LogError("line %d: undo with nothing to undo" % lineno)
            events.pop()
        else:
            events.append((lineno, payload))
    if pending is not None:
        dropped = str(pending) + "; dropped"
    if header is None:
        raise LogError("empty log: no header" + (" (" + dropped + ")" if dropped else ""))
    return header, events, dropped


def loads(text):
    # Replay a log's text into a Game; returns ``(game, dropped)``.
    #
    # :raises LogError: unreadable log, or an event the rules refuse (named
    #     with its line number).
    return replay_lines(_split_lines(text))


def replay_lines(lines):
    # Like ``loads`` over an iterable of lines (e.g. an open file).
    header, events, dropped = read_lines(lines)
    try:
        game = game_from_header(header)
    except ValueError as e:
        raise LogError("line 1: %s" % e)
    for lineno, event in events:
        try:
            game.apply(event)
        except ValueError as e:
            raise LogError("line %d (%s): %s" % (lineno, event, e))
    return game, dropped


def _split_lines(text):
    start = 0
    n = len(text)
    while start < n:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end + 1]
        start = end + 1
