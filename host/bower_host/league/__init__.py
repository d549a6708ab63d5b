"""Seasons and leagues: standings across a club's nights and across clubs (host/LEAGUE.md).

* ``sqldb`` -- one database API over SQLite and PostgreSQL (psycopg 3);
* ``schema`` -- the league's tables and their migrations, the same on both;
* ``summary`` -- a club's finished nights as the league takes them, checked;
* ``store`` -- the league: clubs and tokens, the one push, seasons, identity;
* ``rules`` -- how a season ranks (the sources' rules);
* ``standings`` -- a season's standings as text, CSV and JSON;
* ``server``, ``client`` -- ``bower league serve`` and ``push --to``;
The commands, ``bower league ...``, are :mod:`bower_host.commands.league`.
"""
