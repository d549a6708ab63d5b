"""A club pushes to a league served over HTTPS (``bower league serve
--certfile --keyfile``), checking the server's certificate against the
league's own authority (``push --cafile``); without it the push is refused
in one line and nothing is stored."""

from __future__ import annotations

import time

import trustme

from hostile import bower
from leaguenights import NAMES, T0, club_library
from bower_host.league.server import server
from bower_host.league.store import League
from webphone import running


def test_a_push_over_https_checks_the_certificate(tmp_path):
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    cert.private_key_and_cert_chain_pem.write_to_path(str(tmp_path / "cert.pem"))
    cert.private_key_pem.write_to_path(str(tmp_path / "key.pem"))
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    spec = str(tmp_path / "league.sqlite3")
    with League.create(spec, "L") as lg:
        token = lg.add_club("Elks")
    lib = club_library(tmp_path / "elks.sqlite3", [("n1", NAMES[:4], T0)])
    srv = server(spec, "127.0.0.1", 0, certfile=str(tmp_path / "cert.pem"), keyfile=str(tmp_path / "key.pem"))
    with running(srv) as url:
        url = url.replace("http://", "https://")
        t = time.monotonic()
        rc, _, err = bower("league", "push", lib, "--to", url, "--token", token)
        assert rc == 1 and "is not who it says" in err and "--cafile" in err
        assert time.monotonic() - t < 5          # not tried again for a minute: a certificate does not heal
        with League.open(spec) as lg:
            assert lg.db.value("SELECT COUNT(*) FROM nights") == 0
        rc, out, err = bower("league", "push", lib, "--to", url, "--token", token, "--cafile", tmp_path / "ca.pem")
        assert rc == 0 and "1 nights pushed: 1 new" in out, err
        rc, _, err = bower("league", "push", lib, "--to", url, "--token", token, "--cafile", tmp_path / "key.pem")
        assert rc == 1 and "--cafile" in err
