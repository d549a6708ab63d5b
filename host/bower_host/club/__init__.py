"""Club nights: progressive euchre with a Bower on every table (host/CLUB.md).

* ``movement`` -- who sits where: the three movements, as pure functions;
* ``roundlog`` -- the round header a game log carries, and a round's result
  under the night's scoring options;
* ``simulate`` -- round logs played by the engine's bots (tests, bench, demo);
* ``night`` -- the night in the library: making it, attaching round logs
  (idempotent; conflicts refused, corrections logged);
* ``standings``, ``sheet``, ``web`` -- what the organiser and the room see;
* ``push`` -- a table's round as its Bower is sent it (``bower club push``);
* ``common`` -- what every ``bower club`` command shares: the library and
  night it opens, ``--db`` and ``--night``;
The commands, ``bower club ...``, are :mod:`bower_host.commands.club`.
"""
