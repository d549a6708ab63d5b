# Input events: the small ints the button and encoder adapters produce and the
# UI core consumes. Auto-repeat of a held UP/DOWN arrives as more UP/DOWN.

UP = 1
DOWN = 2
OK = 3
BACK = 4
OK_LONG = 5      # OK held 600 ms or more
BACK_LONG = 6    # BACK held 600 ms or more: undo
BACK_DOWN = 7    # BACK's press edge (its short event comes on release): a
                 # bid's pass acts on it at once (bower.ui.App.handle)

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
