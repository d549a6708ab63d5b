"""``bower web build`` and ``bower web serve`` as a user runs them (issue 33):
the real commands in a subprocess, real HTTP against the real server.

* Every file of the build is served whole, with the type a browser needs
  (``.mjs`` as JavaScript, ``.wasm`` as WebAssembly, the manifest as one),
  the service worker and the page never kept by the HTTP cache.
* ``--dir`` serves a build; a directory that is none is refused in one line,
  before anything listens; a port in use likewise.
* The address it announces is the one that answers; with ``--host 0.0.0.0``
  it also names this computer's address on its network and says what needs
  HTTPS, and the page opened from that address (plain HTTP, no secure
  context) says it too, in Chromium, and still plays.
* Ctrl-C ends it as every bower command: status 130, ``bower: interrupted``.
* The README's "Bower on a phone" runs as printed.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

import readmewalk as rw

BIN = Path(sys.executable).parent
BOWER = str(BIN / "bower")
#: The type each kind of file must be served with.
TYPES = {".html": "text/html", ".js": ("text/javascript", "application/javascript"), ".mjs": "text/javascript",
         ".wasm": "application/wasm", ".webmanifest": "application/manifest+json", ".css": "text/css",
         ".png": "image/png", ".json": "application/json", ".txt": "text/plain",
         ".pak": "application/octet-stream"}
NOT_CACHED = ("index.html", "sw.js", "version.json")


def _env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOWER_")}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", HOME=str(tmp_path / "home"),
               XDG_DATA_HOME=str(tmp_path / "home" / "data"), TMPDIR=str(_tmp(tmp_path)))
    return env


def _tmp(tmp_path: Path) -> Path:
    d = tmp_path / "tmp"
    d.mkdir(exist_ok=True)
    return d


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(cmd: str, cwd: Path, env: dict, lines: int = 1, timeout: float = 60) -> tuple[subprocess.Popen, list]:
    """Start ``cmd`` in bash (its own process group, as a terminal's job) and
    read its first ``lines`` lines of output (the announcement)."""
    p = subprocess.Popen(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    got: queue.Queue = queue.Queue()
    def read():
        for line in iter(p.stdout.readline, ""):
            got.put(line)
        got.put(None)                   # (its end)
    threading.Thread(target=read, daemon=True).start()
    said = []
    end = time.monotonic() + timeout
    while len(said) < lines:
        try:
            line = got.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            line = None
        if line is None:
            rc, out, err = _stop(p)
            raise AssertionError(f"{cmd}: announced {said} in {timeout} s; status {rc}, {err}")
        said.append(line)
    p.rest = got        # type: ignore[attr-defined]  (what it says after, for _stop)
    return p, said


def _stop(p: subprocess.Popen) -> tuple[int, str, str]:
    """Ctrl-C, as a terminal sends it to its job: (status, the rest of stdout, stderr)."""
    try:
        os.killpg(p.pid, signal.SIGINT)
        p.wait(timeout=15)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    err = p.stderr.read()
    out = []
    rest = getattr(p, "rest", None)
    while rest is not None:
        line = rest.get(timeout=10)
        if line is None:
            break
        out.append(line)
    return p.returncode, "".join(out), err


def _get(url: str, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.status, dict(r.headers.items()), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers.items()), e.read()
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``bower web build -o site`` (the real command), once."""
    work = tmp_path_factory.mktemp("webbuild")
    p = subprocess.run([BOWER, "web", "build", "-o", "site"], cwd=work, env=_env(work), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0 and p.stdout == "", (p.stdout, p.stderr)
    assert re.fullmatch(r"wrote the web build to .*site: serve that directory over HTTPS .*\n", p.stderr), p.stderr
    return work / "site"


def _type_ok(name: str, got: str) -> bool:
    want = TYPES[Path(name).suffix]
    return got.split(";")[0].strip() in ((want,) if isinstance(want, str) else want)


def test_every_file_of_a_build_is_served_whole_with_its_type(built, tmp_path):
    port = _free_port()
    p, said = _serve(f"bower web serve --dir {built} --port {port}", tmp_path, _env(tmp_path))
    try:
        assert said == [f"Bower on a phone: http://localhost:{port}/ (Ctrl-C stops)\n"], said
        names = sorted(f.name for f in built.iterdir())
        assert {"index.html", "app.js", "micropython.mjs", "micropython.wasm", "manifest.webmanifest", "sw.js",
                "bower.pak", "version.json", "LICENSE-micropython.txt"} <= set(names), names
        for name in names:
            status, headers, body = _get(f"http://localhost:{port}/{name}")
            assert status == 200 and body == (built / name).read_bytes(), name
            assert _type_ok(name, headers.get("content-type", "")), (name, headers.get("content-type"))
            keep = headers.get("cache-control")
            assert keep == ("no-cache" if name in NOT_CACHED else "max-age=86400"), (name, keep)
        status, headers, body = _get(f"http://localhost:{port}/")
        assert status == 200 and body == (built / "index.html").read_bytes() and headers["cache-control"] == "no-cache"
        assert _get(f"http://localhost:{port}/no-such-file.js")[0] == 404
    finally:
        rc, out, err = _stop(p)
    # Ctrl-C: as every bower command, one line and the shell's status for it.
    assert (rc, out, err) == (130, "", "bower: interrupted\n")


def test_serve_alone_builds_the_site_from_the_installed_packages_and_leaves_nothing(tmp_path):
    port = _free_port()
    p, said = _serve(f"bower web serve --port {port}", tmp_path, _env(tmp_path))
    try:
        assert said == [f"Bower on a phone: http://localhost:{port}/ (Ctrl-C stops)\n"], said
        from bower_host import __version__
        status, _, body = _get(f"http://localhost:{port}/version.json")
        assert status == 200 and body.decode().startswith('{"version": "%s-' % __version__), body[:80]
        assert _get(f"http://localhost:{port}/bower.pak")[2].startswith(b"BPAK1 ")
    finally:
        rc, out, err = _stop(p)
    assert (rc, out, err) == (130, "", "bower: interrupted\n")
    assert list(_tmp(tmp_path).iterdir()) == [], "the build it served was left behind"


def test_a_directory_that_is_no_build_is_refused_before_anything_listens(built, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    half = tmp_path / "half"
    half.mkdir()
    (half / "index.html").write_bytes((built / "index.html").read_bytes())
    (tmp_path / "notes.txt").write_text("not a build")
    port = _free_port()
    for d, says in ((empty, "holds no web build (no version.json)"), (half, "holds no web build (no version.json)"),
                    (tmp_path / "notes.txt", "is not a directory"), (tmp_path / "gone", "is not a directory")):
        r = subprocess.run([BOWER, "web", "serve", "--dir", str(d), "--port", str(port)], cwd=tmp_path,
                           env=_env(tmp_path), capture_output=True, text=True, timeout=60)
        assert r.returncode == 1 and r.stdout == "", (d, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and says in r.stderr and "bower web build -o" in r.stderr, r.stderr
    # A port in use: one line, nothing announced.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        taken = s.getsockname()[1]
        r = subprocess.run([BOWER, "web", "serve", "--dir", str(built), "--port", str(taken)], cwd=tmp_path,
                           env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    assert r.stderr == f"bower: cannot serve on 127.0.0.1:{taken}: the port is in use (another bower club serve " \
                       "or web server?): give another --port, such as 8081\n", r.stderr


def _lan() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
        except OSError:
            return None
        a = s.getsockname()[0]
    return None if a.startswith("127.") else a


def test_the_rooms_network_is_told_its_address_and_what_needs_https(built, tmp_path):
    from webphone import booted, chromium, need_chromium
    need_chromium()
    lan = _lan()
    port = _free_port()
    p, said = _serve(f"bower web serve --dir {built} --port {port} --host 0.0.0.0", tmp_path, _env(tmp_path),
                     lines=3 if lan else 2)
    try:
        assert said[0] == f"Bower on a phone: http://localhost:{port}/ (Ctrl-C stops)\n", said
        if lan:
            assert said[1] == f"From a phone on this network: http://{lan}:{port}/\n", said
        assert said[-1].startswith("Over plain HTTP from another machine, Bower plays and keeps its games, but "
                                   "starting offline and installing need HTTPS"), said
        here = f"http://localhost:{port}/"
        there = f"http://{lan}:{port}/" if lan else None
        for url in filter(None, (here, there)):
            assert _get(url)[0] == 200
        with chromium() as ctx:
            for url, secure in filter(lambda x: x[0], ((here, True), (there, False))):
                page = ctx.new_page()
                page.goto(url)
                booted(page)
                assert page.evaluate("window.isSecureContext") is secure
                status = page.evaluate("document.getElementById('status').textContent")
                if secure:
                    assert status == "", status
                else:
                    # The page says it too: what plain HTTP gives and what it does not.
                    assert status == ("Plain HTTP: playing and storage work; starting offline and installing "
                                      "need HTTPS (or localhost)."), status
                page.close()
    finally:
        rc, out, err = _stop(p)
    assert (rc, out, err) == (130, "", "bower: interrupted\n")


def _export_zip(folder: Path) -> str:
    # A phone's export as the page writes it: the device's log in a zip,
    # DEVICE/GAME.log (here the simulator's game, the README tour's keys).
    flash = folder / "flash"
    r = subprocess.run([BOWER, "sim", "--flash", str(flash), "--keys", "o o o o d o  o d o 2d o  o"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    device = (flash / "sim-device-id").read_text().strip()
    name = f"bower-{device}-20261201-2000.zip"
    with zipfile.ZipFile(folder / name, "w") as z:
        z.writestr(f"{device}/g0001.log", (flash / "games" / "g0001.log").read_bytes())
    return device


def test_the_readme_phone_section_runs_as_printed(tmp_path):
    blocks = [b for b in rw.blocks() if b.section == "Bower on a phone" and b.lang == "sh"]
    assert len(blocks) == 2, blocks
    build, serve, lan_serve = rw.commands(blocks[0])
    imp, games = rw.commands(blocks[1])
    work = tmp_path / "work"
    work.mkdir()
    env = _env(tmp_path)

    def shell(cmd):
        r = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and "Traceback" not in r.stderr, f"{cmd}\n{r.stdout}\n{r.stderr}"
        return r.stdout

    shell(build)
    assert (work / "phone-site" / "index.html").is_file()
    url = re.search(r"# (http://localhost:(\d+)/), Ctrl-C stops", serve)
    assert url, serve
    port = int(url[2])
    if not _free_port_is(port):
        other = _free_port()
        serve, lan_serve, port = serve.replace(f"--port {port}", f"--port {other}"), \
            lan_serve.replace(f"--port {port}", f"--port {other}"), other
    for cmd, lines in ((serve, 1), (lan_serve, 3 if _lan() else 2)):
        p, said = _serve(cmd, work, env, lines)
        try:
            assert said[0] == f"Bower on a phone: http://localhost:{port}/ (Ctrl-C stops)\n", said
            assert b"Bower" in _get(f"http://localhost:{port}/")[2]
        finally:
            assert _stop(p)[0] == 130
    device = _export_zip(work)
    out = shell(imp)
    assert re.fullmatch(rf"bower-{device}-\d{{8}}-\d{{4}}\.zip: new {device}/g0001: Classic Euchre.*\n", out), out
    assert f"{device}/g0001" in shell(games)
    assert not (tmp_path / "home" / "data" / "bower").exists()


def _free_port_is(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True



def test_make_web_writes_the_site_that_bower_web_serve_serves(built, tmp_path):
    # `make web` as the issue names it: the build in build/web, every file
    # `bower web serve --dir` wants, and the same build as `bower web build`.
    root = Path(__file__).resolve().parents[2]
    venv = Path(sys.executable).parent.parent
    r = subprocess.run(["make", "-s", "web", f"VENV={venv}"], cwd=root, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    site = root / "build" / "web"
    assert sorted(p.name for p in site.iterdir()) == sorted(p.name for p in built.iterdir())
    for p in built.iterdir():
        assert (site / p.name).read_bytes() == p.read_bytes(), p.name
