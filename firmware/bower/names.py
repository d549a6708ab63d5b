# The device's rule for a player name, in one place: the roster
# (bower.archive) and a club round's seats (bower.clubsetup) take names by
# it. Imports nothing, so the store and the club setup may load it alone;
# bower.store's ``trim`` gives it back with the archive. The host checks
# names by the same rule before it sends any (host/bower_host/names.py;
# tests/host/test_csv_out.py holds the two to the same decisions).


def check_names(names, most=16):
    # ``names`` if it is a list of at most ``most`` distinct names of 1 to 8
    # printable ASCII characters, no space at either end.
    # :raises ValueError: naming the bad name.
    if type(names) is not list or len(names) > most:
        raise ValueError("at most %d names" % most)
    for n in names:
        # (min and max of the bytes: of the str, each character would be a
        # string of its own on MicroPython)
        if not (isinstance(n, str) and 0 < len(n) < 9 and n.strip() == n and min(n.encode()) >= 32
                and max(n.encode()) <= 126) or names.count(n) > 1:
            raise ValueError("bad name %r" % (n,))
    return names
