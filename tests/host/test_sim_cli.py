"""`bower sim` refuses bad arguments at once, with one line and no traceback;
its picture fits the terminal it runs in (80x24 included); ``--fresh`` never
erases a game no library has without asking."""

import os
import time

import pytest
from bower.store import extra


def test_scale_out_of_range_is_a_usage_error(bower, tmp_path, capsys):
    for bad in ("0", "-3", "65", "x"):
        with pytest.raises(SystemExit) as e:
            bower("sim", "--flash", tmp_path / "f", "--scale", bad, "--keys", "o",
                  "--screenshot", tmp_path / "s.png")
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert "--scale" in err and "Traceback" not in err
    assert not (tmp_path / "s.png").exists()


def test_a_huge_repeat_count_is_refused_before_the_device_runs(bower, tmp_path):
    t0 = time.monotonic()
    rc, out, err = bower("sim", "--flash", tmp_path / "f", "--keys", "999999999d",
                         "--screenshot", tmp_path / "s.png")
    assert rc == 1 and "more than 100000 key presses" in err and "Traceback" not in err
    assert time.monotonic() - t0 < 5
    assert not (tmp_path / "f").exists() and not (tmp_path / "s.png").exists()


def test_a_scripted_run_still_works(bower, tmp_path):
    rc, out, err = bower("sim", "--flash", tmp_path / "f", "--keys", "3d o", "--scale", "2",
                         "--screenshot", tmp_path / "s.png")
    assert rc == 0, err
    assert (tmp_path / "s.png").stat().st_size > 0


# ----- the picture fits the terminal ---------------------------------------------

GAME = "4o d o  o 2d o 2d o  o  o o 2d o 2d o  o  o 2d o 2d o"   # Classic: three lone marches, 12-0


def _device(tmp_path, keys="o o"):
    from bower_host import simulator
    dev = simulator.Device(str(tmp_path / "flash"))
    simulator.run_script(dev, keys)
    return dev


def _from_braille(lines):
    # Inverse of screen.braille: 16 lines of 64 cells -> 1024 frame bytes.
    bits = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
    out = bytearray(1024)
    for cy, line in enumerate(lines):
        for cx, ch in enumerate(line):
            v = ord(ch) - 0x2800
            assert 0 <= v < 256, ch
            for r in range(4):
                for c in range(2):
                    if v & bits[r][c]:
                        x, y = 2 * cx + c, 4 * cy + r
                        out[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(out)


def _from_halfblocks(lines):
    out = bytearray(1024)
    for row, line in enumerate(lines):
        for x, ch in enumerate(line):
            v = " \u2580\u2584\u2588".index(ch)
            for k, y in enumerate((2 * row, 2 * row + 1)):
                if v >> k & 1:
                    out[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(out)


def test_an_80x24_terminal_gets_the_whole_screen_in_braille(tmp_path):
    from bower_host.commands import sim
    dev = _device(tmp_path)
    lines = sim.picture(dev, (80, 24), status="USB link: bower sync --port /dev/pts/9")
    assert len(lines) <= 24 and max(map(len, lines)) <= 80
    assert lines[0] == lines[17] == "+" + "-" * 64 + "+"
    # Every pixel of the display RAM is a dot: the picture is lossless.
    assert _from_braille([ln[1:-1] for ln in lines[1:17]]) == dev.gddram()
    assert lines[22] == sim.HELP and lines[23].startswith("USB link")   # the screen's words between


def test_a_large_terminal_and_a_file_get_half_blocks_at_true_size(tmp_path):
    import io
    from bower_host.commands import sim
    dev = _device(tmp_path)
    for size in ((130, 36), None):
        lines = sim.picture(dev, size, status="USB link: x")
        assert lines[0] == "+" + "-" * 128 + "+" and len(lines) == 36
        assert _from_halfblocks([ln[1:-1] for ln in lines[1:33]]) == dev.gddram()
    # One line short of the large view: braille.
    assert len(sim.picture(dev, (130, 35), status="USB link: x")[0]) == 66
    # draw_terminal on something that is no terminal draws the large view.
    buf = io.StringIO()
    sim.draw_terminal(dev, out=buf, clear=False)
    assert buf.getvalue().splitlines()[0] == "+" + "-" * 128 + "+"


def test_a_too_small_terminal_is_told_the_size_needed(tmp_path):
    from bower_host.commands import sim
    dev = _device(tmp_path)
    for size in ((65, 24), (80, 19), (40, 10)):
        lines = sim.picture(dev, size, status="USB link: x")
        text = " ".join(lines)
        assert "at least 66x20" in text and f"{size[0]}x{size[1]}" in text, lines
        assert len(lines) <= size[1] and max(map(len, lines)) <= size[0]


def test_the_interactive_simulator_measures_its_terminal(tmp_path):
    # A real pty of 80x24: the first frame drawn is the braille one.
    import fcntl
    import pty
    import struct
    import termios
    import select
    import subprocess
    import sys
    from pathlib import Path
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    exe = Path(sys.executable).parent / "bower"
    p = subprocess.Popen([str(exe), "sim", "--flash", str(tmp_path / "f")], stdin=slave, stdout=slave,
                         stderr=slave, close_fds=True)
    os.close(slave)
    out = b""
    try:
        end = time.monotonic() + 10
        while b"q quit" not in out and time.monotonic() < end:
            if select.select([master], [], [], 0.2)[0]:
                out += os.read(master, 65536)
        os.write(master, b"q")
        p.wait(10)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    text = out.decode("utf-8", "replace")
    assert p.returncode == 0
    frame = text[text.rindex("\x1b[2J") + 4:]
    lines = frame.replace("\r", "").split("\n")
    assert lines[0] == "+" + "-" * 64 + "+" and max(len(ln) for ln in lines) <= 80, lines


# ----- --fresh never erases a game no library has -------------------------------------


def test_fresh_refuses_to_erase_unsynced_games(bower, tmp_path):
    flash = tmp_path / "flash"
    rc, out, err = bower("sim", "--flash", flash, "--keys", GAME)
    assert rc == 0, err
    log = (flash / "games" / "g0001.log").read_bytes()
    rc, out, err = bower("sim", "--flash", flash, "--fresh", "--keys", "o")
    assert rc == 1 and "Traceback" not in err
    assert "1 game(s) not synced" in err and "g0001" in err and "bower sync" in err
    assert (flash / "games" / "g0001.log").read_bytes() == log


def test_fresh_wipes_a_synced_flash_and_makes_a_new_device(bower, tmp_path):
    from bower_host import simulator
    from bower.store import Store
    flash = tmp_path / "flash"
    assert bower("sim", "--flash", flash, "--keys", GAME)[0] == 0
    old_id = simulator.device_id(str(flash))
    store = Store(str(flash), device=old_id)
    [g] = extra("past").games(store)
    assert extra("past").mark_synced(store, g["id"], g["crc"])          # what bower sync does at the end
    rc, out, err = bower("sim", "--flash", flash, "--fresh", "--keys", "o")
    assert rc == 0, err
    assert not (flash / "games" / "g0001.log").exists()
    assert simulator.device_id(str(flash)) != old_id           # the library keeps the two devices apart


def test_fresh_asks_on_a_terminal(tmp_path):
    import pty
    import select
    import subprocess
    import sys
    from pathlib import Path
    exe = str(Path(sys.executable).parent / "bower")
    flash = tmp_path / "flash"
    subprocess.run([exe, "sim", "--flash", str(flash), "--keys", GAME], check=True, capture_output=True)

    def answer(reply):
        master, slave = pty.openpty()
        p = subprocess.Popen([exe, "sim", "--flash", str(flash), "--fresh"], stdin=slave, stdout=slave,
                             stderr=slave, close_fds=True)
        os.close(slave)
        out = b""
        try:
            end = time.monotonic() + 10
            while b"[y/N]" not in out and time.monotonic() < end:
                if select.select([master], [], [], 0.2)[0]:
                    out += os.read(master, 65536)
            os.write(master, reply)
            if reply.startswith(b"y"):
                while b"q quit" not in out and time.monotonic() < end:
                    if select.select([master], [], [], 0.2)[0]:
                        out += os.read(master, 65536)
                os.write(master, b"q")
            p.wait(10)
            try:
                while select.select([master], [], [], 0.1)[0]:
                    out += os.read(master, 65536)
            except OSError:
                pass
        finally:
            if p.poll() is None:
                p.kill()
            os.close(master)
        return p.returncode, out.decode("utf-8", "replace")

    rc, out = answer(b"\n")
    assert "holds 1 game(s) not synced" in out and "Erase them? [y/N]" in out
    assert rc == 1 and "nothing erased" in out and (flash / "games" / "g0001.log").exists()
    rc, out = answer(b"y\n")
    assert rc == 0 and not (flash / "games" / "g0001.log").exists()
