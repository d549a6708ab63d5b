"""The device link as the commands open it: ``--port`` and ``--timeout``,
the port found or checked, the serial transport and its client.

Used by every command that talks to a Bower over USB (``bower sync``,
``roster push``, ``clock``, ``club push``, ``rules push``); it knows none
of them.

::

    add_link_args(parser)               # --port, --timeout
    check_port(args)                    # before anything is created
    t, client = open_client(args)
    try:
        client.hello()
    finally:
        t.close()
"""

from __future__ import annotations

import os

from bower_host.errors import CommandError
from bower_host.protocol import Client
from bower_host.transport import SerialTransport, TransportError

#: ``--timeout``: seconds to wait for each reply (each request is tried up to four times).
TIMEOUT_RANGE = (0.01, 600.0)


def open_client(args) -> tuple[SerialTransport, Client]:
    """The transport on ``args.port`` and a client over it (``args.timeout``).

    :raises CommandError: the port cannot be opened.
    """
    try:
        t = SerialTransport.open(args.port)
    except TransportError as e:
        raise CommandError(str(e)) from None
    return t, Client(t, timeout=args.timeout)


def check_port(args) -> None:
    """Find the device's port, or check the one given, before anything is
    created: a missing Pico or a wrong ``--port`` makes no library.

    :raises CommandError: no Pico found, or ``--port`` is no serial port.
    """
    import stat

    from bower_host.transport import find_port
    if args.port is None:
        try:
            args.port = find_port()
        except TransportError as e:
            raise CommandError(str(e)) from None
        return
    if "://" in args.port or os.name != "posix":       # a pyserial URL; COM3 is no file
        return
    try:
        mode = os.stat(args.port).st_mode
    except OSError as e:
        raise CommandError(f"cannot open {args.port}: {e.strerror or e} (the device's port is a name such as "
                           "/dev/ttyACM0; leave --port out to find the Pico)") from None
    if not stat.S_ISCHR(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "a file"
        raise CommandError(f"{args.port} is not a serial port but {kind}: give the device's port, such as "
                           "/dev/ttyACM0, or leave --port out to find the Pico")


def add_link_args(p) -> None:
    """Add ``--port`` and ``--timeout`` to the parser ``p``."""
    from bower_host import argtypes as at
    p.add_argument("--port", "-p", type=at.text(4096, "--port"),
                   help="serial port of the device (default: the only Pico plugged in)")
    p.add_argument("--timeout", type=at.number(*TIMEOUT_RANGE, "--timeout", "seconds"), default=2.0,
                   help="seconds to wait for each reply (default 2; a request is tried up to 4 times)")
