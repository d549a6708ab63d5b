# Scripted key strings (the simulator's ``--keys``, tests, benches): never
# loaded on the device, so its heap does not carry them.

from bower.keys import UP, DOWN, OK, BACK, OK_LONG, BACK_LONG

# Letters of scripted key strings (simulator ``--keys``, tests): one letter
# per event, spaces ignored.
LETTERS = {"u": UP, "d": DOWN, "o": OK, "b": BACK, "O": OK_LONG, "B": BACK_LONG}


def parse_keys(text, limit=0):
    # "ddo B" -> [DOWN, DOWN, OK, BACK_LONG]; a digit repeats the next
    # letter ("3d" is three DOWNs). ``limit``: refuse more presses than that
    # (ValueError) before building them.
    out = []
    count = 0
    for ch in text:
        if ch in " \t\n,":
            continue
        if "0" <= ch <= "9":
            count = count * 10 + ord(ch) - 48
            continue
        if ch not in LETTERS:
            raise ValueError("unknown key %r (use u d o b O B)" % ch)
        n = count or 1
        if limit and len(out) + n > limit:
            raise ValueError("more than %d key presses" % limit)
        out += [LETTERS[ch]] * n
        count = 0
    return out
