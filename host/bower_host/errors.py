"""The errors every ``bower`` command shares (a leaf: it imports nothing).

``bower_host.cli`` prints a :class:`CommandError` as ``bower: <message>``
with status 1; command modules raise it and import it from here, never from
the cli that loads them.
"""


class CommandError(Exception):
    """An expected failure, printed as ``bower: <message>`` with status 1."""
