# Whole game logs: text in and out, and replay into a Game.
#
# The line format is ``euchre.logline``'s (see there and engine/README.md);
# these functions are also reachable as ``euchre.log.dumps`` etc., which
# loads this module on first use. The device never needs them.

from euchre.logline import FORMAT, UNDO, LogError, decode_line, encode_line, header_payload
from euchre.game import game_from_header


def dumps(game, extra=None):
    """The whole log of a game as text (header plus one line per event)."""
    h = header_payload(game)
    if extra:
        h.update(extra)
    out = [encode_line(h)]
    for e in game.events():
        out.append(encode_line(e))
    return "".join(out)


def read_lines(lines):
    """Decode an iterable of lines into ``(header, events, dropped)``.

    ``events`` has ``undo`` lines applied and holds ``(lineno, event)``;
    ``dropped`` is ``None`` or the message for a torn/corrupt last line that
    was dropped.

    :raises LogError: empty log, bad header, or a corrupt line before the last.
    """
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
    """Replay a log's text into a Game; returns ``(game, dropped)``.

    :raises LogError: unreadable log, or an event the rules refuse (named
        with its line number).
    """
    return replay_lines(split_lines(text))


def replay_lines(lines):
    """Like ``loads`` over an iterable of lines (e.g. an open file)."""
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


def split_lines(text):
    """Lines of ``text``, each keeping its newline (only "\n" ends a line)."""
    start = 0
    n = len(text)
    while start < n:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end + 1]
        start = end + 1

