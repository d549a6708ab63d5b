"""The simulator's storage screens show a Pico's flash, not the host's disk
(issue 27, point 7): the rp2 RPI_PICO build gives littlefs 1,441,792 bytes
(1408 KB; micropython ports/rp2/boards/RPI_PICO/mpconfigboard.h), less what
the simulated flash holds, less the 32 KB a game start keeps in reserve."""

import re

from bower import keys as K
from bower_host import simhw, simulator


def storage(dev):
    # Home -> Settings -> Free space, by key presses.
    for ev in (K.DOWN, K.OK, K.DOWN, K.DOWN, K.DOWN, K.DOWN, K.OK):
        dev.press(ev, 0)
    m = dev.app.stack[-1]
    assert m.title == "Storage"
    return int(re.match(r"Free: (\d+)K$", m.info[0]).group(1))


def test_the_simulator_shows_the_picos_flash(tmp_path):
    dev = simulator.Device(str(tmp_path / "flash"))
    free = storage(dev)
    # 1408 KB of littlefs, less its metadata blocks, less the reserve.
    assert 1300 < free <= 1408 - 32, free
    assert simhw.FLASH_BYTES == 1_441_792


def test_the_simulated_flash_fills_as_files_are_written(tmp_path):
    flash = tmp_path / "flash"
    dev = simulator.Device(str(flash))
    before = storage(dev)
    (flash / "big").write_bytes(b"x" * 200 * 1024)      # 50 blocks of 4 KB
    dev = simulator.Device(str(flash))
    assert storage(dev) == before - 200
    (flash / "bigger").write_bytes(b"x" * 1400 * 1024)   # more than the flash: full, never negative
    dev = simulator.Device(str(flash))
    assert storage(dev) == 0
    fs = simhw.HostFs(str(flash))
    assert fs.statvfs(str(flash / "games"))[4] == 0
