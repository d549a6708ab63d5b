#!/usr/bin/env python3
"""Rewrite binary STL files in one canonical order, so a render is reproducible.

OpenSCAD (2021.01, and later releases with the Manifold backend) writes the
same triangles in a different order on every run, each triangle starting at
a different corner, so `make enclosure` changed the STLs although the shape
did not. This puts every triangle's corners in a fixed rotation (smallest
corner first; the winding, and so the facing, is kept), sorts the
triangles, and writes a fixed 80-byte header and zero attribute bytes: the
same shape always gives the same bytes.

    python3 hardware/enclosure/stl_canon.py base.stl lid.stl   # rewrites them in place

Standard library only. ASCII STL is refused (`make enclosure` exports
binary with --export-format binstl).
"""

import struct
import sys

HEADER = b"OpenSCAD Model, canonical order (hardware/enclosure/stl_canon.py)".ljust(80, b"\0")
_TRI = struct.Struct("<12fH")


def canonical(data):
    """The canonical form of a binary STL (bytes); ValueError if it is not one."""
    if len(data) < 84:
        raise ValueError("not a binary STL: %d bytes" % len(data))
    (count,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * count:
        if data[:6] == b"solid ":
            raise ValueError("ASCII STL: export with --export-format binstl")
        raise ValueError("not a binary STL: %d triangles need %d bytes, the file has %d"
                         % (count, 84 + 50 * count, len(data)))
    tris = []
    for i in range(count):
        v = _TRI.unpack_from(data, 84 + 50 * i)
        normal = v[0:3]
        corners = [v[3:6], v[6:9], v[9:12]]
        k = corners.index(min(corners))
        corners = corners[k:] + corners[:k]  # a rotation keeps the winding
        tris.append((corners[0] + corners[1] + corners[2], normal))
    tris.sort()
    out = bytearray(HEADER)
    out += struct.pack("<I", count)
    for corners, normal in tris:
        out += _TRI.pack(*(normal + corners), 0)
    return bytes(out)


def main(argv=None):
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: stl_canon.py FILE.stl ...", file=sys.stderr)
        return 2
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        try:
            out = canonical(data)
        except ValueError as e:
            print("stl_canon: %s: %s" % (path, e), file=sys.stderr)
            return 1
        if out != data:
            with open(path, "wb") as f:
                f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
