"""``bower club serve --certfile F --keyfile K`` (issue 34 point 4): the board
over HTTPS with a certificate the organiser gives. A certificate authority
and a certificate for 127.0.0.1 are made for the test (trustme); the real
command serves, announces https://, and a real HTTPS GET of / verifies with
that authority (and fails without it). Both files or neither, each readable,
a certificate and its own key: otherwise one line, status 1, nothing
served."""

from __future__ import annotations

import ssl
import subprocess
import sys
import time
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

import pytest
import trustme
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower_host.cli import main
from bower_host.club import night as cn
from bower_host.db import Library
from bower_host.serving import ServeError, check_tls

REPO = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture
def tls(tmp_path):
    """A library with a night, and PEM files: (db, CA, cert, key, another certificate's key)."""
    db = tmp_path / "tls.sqlite3"
    with Library(db) as lib:
        cn.create_night(lib, "Secure night", NAMES, 2, "progressive", 3, hands=8, seed=1, key="sec")
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    cert.cert_chain_pems[0].write_to_path(str(tmp_path / "cert.pem"))
    for pem in cert.cert_chain_pems[1:]:
        pem.write_to_path(str(tmp_path / "cert.pem"), append=True)
    cert.private_key_pem.write_to_path(str(tmp_path / "key.pem"))
    ca.issue_cert("127.0.0.1").private_key_pem.write_to_path(str(tmp_path / "other-key.pem"))
    return db, ca, tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "other-key.pem"


def encrypted(pem: bytes) -> bytes:
    """The private key ``pem`` with a password."""
    from cryptography.hazmat.primitives import serialization as ser
    k = ser.load_pem_private_key(pem, None)
    return k.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.BestAvailableEncryption(b"secret"))


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_board_is_served_over_https_with_the_organisers_certificate(tls):
    db, ca, cert, key, _ = tls
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bower_host", "club", "serve", "--db", str(db), "--port", str(port),
                             "--certfile", str(cert), "--keyfile", str(key)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith(f"Club night sec: https://127.0.0.1:{port}/"), line + proc.stderr.read()
        trusted = ssl.create_default_context()
        ca.configure_trust(trusted)
        deadline = time.monotonic() + 10
        while True:
            try:
                with urlopen(f"https://127.0.0.1:{port}/", context=trusted, timeout=5) as r:
                    assert r.status == 200 and "<h1>Secure night</h1>" in r.read().decode()
                break
            except ConnectionError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        # Without the organiser's authority, the same GET does not verify.
        with pytest.raises(URLError) as e:
            urlopen(f"https://127.0.0.1:{port}/", context=ssl.create_default_context(), timeout=5)
        assert isinstance(e.value.reason, ssl.SSLCertVerificationError)
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("case, want", [
    ("cert only", "--certfile and --keyfile go together: give both"),
    ("key only", "--certfile and --keyfile go together: give both"),
    ("no such cert", "--certfile: "),
    ("key is a folder", "--keyfile: "),
    ("not a certificate", "junk.pem: not a PEM certificate"),
    ("key is a certificate", "cert.pem: not a PEM private key"),
    ("a key with a password", "the key has a password"),
    ("another certificate's key", "the key is not this certificate's"),
])
def test_bad_tls_files_are_one_line_and_nothing_is_served(tls, case, want, capsys):
    db, _, cert, key, other = tls
    junk = cert.parent / "junk.pem"
    junk.write_text("not a certificate\n")
    locked = cert.parent / "locked.pem"
    locked.write_bytes(encrypted(key.read_bytes()))
    given = {"cert only": ["--certfile", cert], "key only": ["--keyfile", key],
             "no such cert": ["--certfile", cert.parent / "missing.pem", "--keyfile", key],
             "key is a folder": ["--certfile", cert, "--keyfile", cert.parent],
             "not a certificate": ["--certfile", junk, "--keyfile", key],
             "key is a certificate": ["--certfile", cert, "--keyfile", cert],
             "a key with a password": ["--certfile", cert, "--keyfile", locked],
             "another certificate's key": ["--certfile", cert, "--keyfile", other]}[case]
    port = free_port()
    status = main(["club", "serve", "--db", str(db), "--port", str(port), *map(str, given)])
    out, err = capsys.readouterr()
    assert status == 1 and out == "" and err.count("\n") == 1 and want in err, err
    assert err.startswith("bower: ")


def test_help_says_how(capsys):
    with pytest.raises(SystemExit):
        main(["club", "serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--certfile FILE" in text and "--keyfile FILE" in text and "https" in text


PEM_ISH = st.one_of(st.binary(max_size=300),
                    st.binary(max_size=200).map(lambda b: b"-----BEGIN CERTIFICATE-----\n" + b),
                    st.binary(max_size=200).map(lambda b: b"-----BEGIN PRIVATE KEY-----\n" + b + b"\n-----END"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cert_bytes=PEM_ISH, key_bytes=PEM_ISH, which=st.sampled_from(["cert", "key", "both"]))
def test_any_bytes_as_the_tls_files_are_refused_in_one_line_or_serve(tls, cert_bytes, key_bytes, which):
    # Invariant: whatever the files hold, check_tls says yes or raises
    # ServeError with one line; nothing else escapes (uvicorn would then start
    # on files the check passed, so a yes must be a pair ssl loads).
    _, _, cert, key, _ = tls
    c, k = cert.parent / "h-cert.pem", cert.parent / "h-key.pem"
    c.write_bytes(cert_bytes if which != "key" else cert.read_bytes())
    k.write_bytes(key_bytes if which != "cert" else key.read_bytes())
    try:
        ok = check_tls(str(c), str(k))
    except ServeError as e:
        assert "\n" not in str(e) and len(str(e)) < 400
    else:
        assert ok
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(str(c), str(k))
