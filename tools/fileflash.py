# The flash of the device harnesses (tools/pico_harness.py, pico_sync_harness.py,
# soak_harness.py; MicroPython only): a littlefs2 block device kept in a
# host file (off the MicroPython heap), counting what rp2.Flash would see.

class FileFlash:
    # A littlefs2 block device with the extended interface (offsets,
    # explicit erase) kept in a host file (off the MicroPython heap), counting
    # erases and programmed bytes like rp2.Flash would see them.

    def __init__(self, path, blocks=352, size=4096):
        self.size = size
        self.blocks = blocks
        self.ff = bytes([0xFF]) * size
        self.erases = 0
        self.prog = 0
        self.reads = 0
        self.rbytes = 0
        try:
            self.f = open(path, "r+b")    # kept from a run before (a resume)
        except OSError:
            self.f = open(path, "w+b")
            self.reset()

    def reset(self):
        self.erases = 0
        self.prog = 0
        self.reads = 0
        self.rbytes = 0
        self.f.seek(0)
        for _ in range(self.blocks):
            self.f.write(self.ff)
        self.f.flush()

    def readblocks(self, n, buf, off=0):
        self.reads += 1
        self.rbytes += len(buf)
        self.f.seek(n * self.size + off)
        self.f.readinto(buf)

    def noread(self, n, buf, off=0):
        # readblocks' call without its body (see _read_cost).
        return

    def writeblocks(self, n, buf, off=None):
        if off is None:
            self.ioctl(6, n)
            off = 0
        self.f.seek(n * self.size + off)
        self.f.write(buf)
        self.prog += (len(buf) + 255) // 256   # 256-byte page programs

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.size
        if op == 6:
            self.erases += 1
            self.f.seek(arg * self.size)
            self.f.write(self.ff)
        return 0
