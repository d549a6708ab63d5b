# Rule cases kept as data files a reader can scan (tests/engine/cases/*.cases,
# as python-chess keeps its perft positions): the format is in each file's
# head. Runs under MicroPython too (the portable runners copy the files).


def _value(text):
    if text.lstrip("-").isdigit():
        return int(text)
    raise ValueError("not a number: %r" % text)


def _options(text):
    opts = {}
    if text != "-":
        for word in text.split():
            name, _, value = word.partition("=")
            opts[name] = _value(value) if value else True
    return opts


def load_cases(name):
    """The cases of ``cases/NAME.cases``: ``[(id, source, options, events,
    points, outcome words)]``, the source a quote line's text."""
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    quotes = {}
    cases = []
    with open(here + "/cases/" + name + ".cases") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@"):
                key, _, text = line.partition(" ")
                quotes[key] = text
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 6 or parts[1] not in quotes:
                raise ValueError("%s.cases line %d: not a case (id | @KEY | options | events | points | "
                                 "outcome), or an unknown quote" % (name, n))
            cid, key, opts, events, points, words = parts
            cases.append((cid, quotes[key], _options(opts), [e.strip() for e in events.split(";")],
                          [_value(p) for p in points.split()], words))
    return cases
