"""The errors every ``bower`` command shares (a leaf: it imports nothing).

``bower_host.cli`` prints a :class:`CommandError` as ``bower: <message>``
with status 1; command modules raise it and import it from here, never from
the cli that loads them. :func:`printable` makes any text safe to echo on
a terminal.
"""


class CommandError(Exception):
    """An expected failure, printed as ``bower: <message>`` with status 1."""


def printable(text: str) -> str:
    """``text`` safe to echo on a terminal, as one line: every character
    that is not printable (Unicode's controls and format characters such as
    ESC, BEL, a newline, U+202E that turns a line around, line separators,
    surrogates) becomes a visible escape (``\\x1b``, ``\\n``, ``\\u202e``)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)    # repr's escape, unquoted
