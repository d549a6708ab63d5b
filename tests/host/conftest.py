"""Fixtures for the host tests: realistic game logs of every variant.

Games are played through the engine the way they happen for real: card-mode
games by the heuristic bot (``euchre.bot``) with seeded shuffles, table-mode
games by seeded random choices among the inputs the device offers (weighted
like a real table: mostly passes and tricks, now and then a misdeal, a claim
or a renege), plus hand-scripted event lists. Logs are written with
``euchre.log.dumps(game, extra={"id", "device", "started"})`` like the device.
"""

from __future__ import annotations

import atexit
import itertools
import os
import random
from types import SimpleNamespace

import pytest

from euchre import Game, Rules, log
from euchre import actions as A
from euchre import hand as H
from euchre.bot import choose
from euchre.cardmode import shuffled_deck

DEVICE = "e6614103e7"
STARTED = 1763700000
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]
VARIANTS = ("classic", "five", "callpartner", "ultimate")

# How often a table enters each kind of input, relative to the others.
_TABLE_WEIGHTS = {"pass": 40, "won": 30, "reveal": 20, "defend": 10, "tricks": 6, "claim": 3,
                  "farmers": 2, "twos": 2, "redeal": 1, "renege": 1, "acenoface": 1, "ninetens": 1,
                  "throwin": 1}


def bot_game(variant: str, seed: int, bold: bool = False, names=None, **options) -> Game:
    """A card-mode game played to the end by the bot. ``bold``: the bot also
    defends alone and takes partner's best at random, which it never does."""
    rules = Rules(variant, **options)
    rng = random.Random(seed)
    n = rules.num_players
    g = Game(rules, (names or NAMES)[:n], dealer=rng.randrange(n), cards=True)
    while not g.is_terminal():
        h = g.hand
        if h.phase == H.P_DEAL:
            g.deal(shuffled_deck(rules, rng.randrange))
            continue
        ids = h.legal_ids()
        if h.phase == H.P_TURN:
            a = ids[rng.randrange(len(ids))]
        elif bold and h.phase == H.P_DEFEND:
            a = ids[0] if rng.random() < 0.5 else ids[-1]
        else:
            a = choose(h)
            if bold and h.phase in (H.P_BID1, H.P_BID2) and A.kind_of(a) in (A.ORDER, A.CALL):
                same = [b for b in ids if A.kind_of(b) == A.kind_of(a) and A.arg_of(b) == A.arg_of(a)]
                a = same[rng.randrange(len(same))]
        g.apply_id(a)
    return g


def table_game(variant: str, seed: int, names=None, max_events: int | None = None, **options) -> Game:
    """A table-mode game from seeded, weighted random device inputs (to the end,
    or ``max_events`` events)."""
    rules = Rules(variant, **options)
    rng = random.Random(seed)
    n = rules.num_players
    g = Game(rules, (names or NAMES)[:n], dealer=rng.randrange(n))
    while not g.is_terminal() and (max_events is None or g.event_count() < max_events):
        legal = [a for a in g.legal_actions() if not a.startswith("quick")]   # (entered in full)
        g.apply(rng.choices(legal, [_TABLE_WEIGHTS.get(a.split()[0], 12) for a in legal])[0])
    return g


def scripted_game(variant: str, events: list[str], names=None, dealer: int = 0, **options) -> Game:
    """A table-mode game from a scripted event list."""
    rules = Rules(variant, **options)
    g = Game(rules, (names or NAMES)[:rules.num_players], dealer=dealer)
    for e in events:
        g.apply(e)
    return g


def log_bytes(game: Game, gid: str, device: str | None = DEVICE, started: int | None = STARTED) -> bytes:
    """The game's log as the device writes it."""
    extra = {"id": gid}
    if device is not None:
        extra["device"] = device
    if started is not None:
        extra["started"] = started
    return log.dumps(game, extra=extra).encode("utf-8")


@pytest.fixture(scope="session")
def kit():
    """The game and log builders above, for tests."""
    return SimpleNamespace(bot_game=bot_game, table_game=table_game, scripted_game=scripted_game,
                           log_bytes=log_bytes, DEVICE=DEVICE, STARTED=STARTED, NAMES=NAMES,
                           VARIANTS=VARIANTS)


@pytest.fixture(scope="session")
def variant_games():
    """``{(variant, mode): Game}``: a finished game of every variant in card
    mode (bot) and table mode (random device inputs)."""
    out = {}
    for i, v in enumerate(VARIANTS):
        out[(v, "cards")] = bot_game(v, 10 + i)
        out[(v, "table")] = table_game(v, 20 + i)
    return out


@pytest.fixture(scope="session")
def variant_logs(variant_games):
    """``{(variant, mode): namespace(game, raw, gid, ref)}``: each game's log
    (ids g0001, g0002, ... in key order) and its ``device/id``."""
    out = {}
    for i, (key, g) in enumerate(sorted(variant_games.items())):
        gid = f"g{i + 1:04d}"
        out[key] = SimpleNamespace(game=g, raw=log_bytes(g, gid, started=STARTED + 3600 * i), gid=gid,
                                   ref=f"{DEVICE}/{gid}")
    return out


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "data" / "bower.sqlite3"


@pytest.fixture
def lib(db_path):
    from bower_host.db import Library
    library = Library(db_path)
    yield library
    library.close()


@pytest.fixture
def filled_db(db_path, variant_logs):
    """A library holding every variant's card and table game; returns its path."""
    from bower_host.db import Library
    with Library(db_path) as library:
        for x in variant_logs.values():
            r = library.add_log(x.raw, DEVICE, x.gid + ".log")
            assert r.status == "new", r
    return db_path


@pytest.fixture
def bower(capsys):
    """Run the ``bower`` command line in-process: ``bower("games", "--db", p)``
    returns ``(status, stdout, stderr)``."""
    from bower_host.cli import main

    def run(*args):
        capsys.readouterr()
        rc = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return rc, out, err
    return run


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The phone build (``bower web build``) served on loopback, for a
    module's Chromium tests: its base URL. (A module may define its own.)"""
    from webphone import build_site, need_chromium, serving
    need_chromium()
    folder = build_site(tmp_path_factory.mktemp("web") / "site")
    with serving(folder) as url:
        yield url


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory):
    """A throw-away PostgreSQL server (tests/host/pgserver.py), one per
    xdist worker; stopped at the end, or at exit when the session crashes."""
    from pgserver import PgServer, find_bin
    if find_bin() is None:
        why = "PostgreSQL is not installed (Debian: postgresql)"
        if os.environ.get("CI"):
            pytest.fail(why + ": .ci/run installs it", pytrace=False)
        pytest.skip(why)
    server = PgServer()
    atexit.register(server.cleanup)
    yield server.start()
    server.cleanup()


_pg_databases = itertools.count(1)


@pytest.fixture
def pg_url(pg_server):
    """A fresh database on ``pg_server`` for the test: its URL."""
    return pg_server.create_database(f"t_{next(_pg_databases)}")
