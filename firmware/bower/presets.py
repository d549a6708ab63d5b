# Presets (issue 36): a name and the whole setup a group plays -- the
# variant, its options (the engine's short names; ``winning_score`` is the
# target) and quick score (0 or 1, as the device setting ``quick``).
#
#     ps, refusals = load(st)            # [{"name", "variant", "options", "quick"}, ...]
#     add(st, "Friday", {"variant": "classic", "options": {"std": True, "winning_score": 11}})
#
# One record in the file ``presets`` beside the settings (firmware/STORAGE.md):
# {"version": 1, "presets": [...]}, in the user's order, replaced whole
# (rec_file: old or new, never torn; synced games removed for room on a full
# flash, bower.archive.room). Functions of the store that return what they
# read or wrote: nothing here sets the store's state. Imported only where
# presets are used.

from bower import check_names, unload
from bower.archive import room

VERSION = 1   # raised when a file could hold what an older Bower would refuse
MOST = 8
SIZE = 4096   # bytes read: 8 presets with every option of the longest variant set fit (tests)
NEWER = "presets: from a newer Bower"
_KEYS = ("name", "variant", "options", "quick")


def path(st):
    return st.settings_path[:-8] + "presets"


def check(p):
    # The preset ``p`` as kept: a dict of _KEYS ("options" and "quick" may be
    # left out: none, 0). The setup is what euchre.rules.Rules takes.
    # :raises ValueError: the rule it breaks.
    if type(p) is not dict:
        raise ValueError("not a preset")
    for k in p:
        if k not in _KEYS:
            raise ValueError("%r: not a field of a preset" % (k,))
    n = p.get("name")
    try:
        check_names([n])
    except ValueError:
        raise ValueError("name: 1 to 8 printable ASCII characters, no space at either end")
    v = p.get("variant")
    o = p.get("options", {})
    q = p.get("quick", 0)
    _rules(v, o)
    if type(q) is not int or q not in (0, 1):
        raise ValueError("quick must be 0 or 1, not %r" % (q,))
    return {"name": n, "variant": v, "options": dict(o), "quick": q}


def _rules(v, o):
    # The engine's check of variant ``v`` with options ``o``, by the short
    # names only (the long ones and the aliases are the host's). The data
    # of the variants for three, six and two players is given back after
    # (the new-game menu loads it for a game of one).
    import sys
    from euchre.rules import Rules, OPTIONS, variant_names
    had = "euchre.morevariants" in sys.modules
    try:
        if v not in variant_names():
            from euchre.morevariants import NAMES
            if not (isinstance(v, str) and v in NAMES):
                raise ValueError("variant %r: not one Bower has" % (v,))
        if type(o) is not dict:
            raise ValueError("options: not a dict")
        for k in o:
            if k not in OPTIONS:
                from euchre.cards import error_text
                r = Rules(v)
                raise ValueError(error_text("option", r.title, k, ", ".join(sorted(r.options))))
        Rules(v, o)
    finally:
        if not had:
            unload("euchre.morevariants")


def load(st):
    # (the valid presets in order, one line per refused entry or file: the
    # rule it breaks). A missing file: none.
    try:
        st.fs.remove(path(st) + ".tmp")   # (left by a power cut in a save)
    except OSError:
        pass
    try:
        d = st.rec_file(path(st), None, "", SIZE)
    except ValueError:
        return [], ["presets: file corrupt"]
    if d is None:
        return [], []
    if type(d) is not dict or type(d.get("version")) is not int or type(d.get("presets")) is not list \
            or d["version"] < 1:
        return [], ["presets: file corrupt"]
    if d["version"] > VERSION:
        return [], [NEWER]
    out, bad, names = [], [], []
    for i, p in enumerate(d["presets"]):
        n = p.get("name") if type(p) is dict else None
        who = "preset %r" % (n,) if isinstance(n, str) else "preset %d" % (i + 1)
        try:
            p = check(p)
            if p["name"] in names:
                raise ValueError("name repeated")
            if len(out) == MOST:
                raise ValueError("more than %d presets" % MOST)
        except ValueError as e:
            bad.append("%s: %s" % (who, e.args[0] if e.args else "not a preset"))
            continue
        names.append(p["name"])
        out.append(p)
    return out, bad


def save(st, presets):
    # Replace the presets with ``presets``, in that order; returns them as
    # kept. :raises ValueError: the first rule broken (nothing written);
    # OSError: not written (28: no room even with the synced games removed).
    if type(presets) is not list or len(presets) > MOST:
        raise ValueError("at most %d presets" % MOST)
    out, names = [], []
    for p in presets:
        try:
            p = check(p)
        except ValueError as e:
            n = p.get("name") if type(p) is dict else None
            raise ValueError("preset %r: %s" % (n, e.args[0]))
        if p["name"] in names:
            raise ValueError("preset %r: name repeated" % (p["name"],))
        names.append(p["name"])
        out.append(p)
    room(st, st.rec_file, path(st), {"version": VERSION, "presets": out})
    return out


def _mine(st):
    # The presets on flash, for a change of them.
    # :raises ValueError: a newer Bower's file (kept as it is).
    ps, bad = load(st)
    if NEWER in bad:
        raise ValueError(NEWER)
    return ps


def add(st, name, setup):
    # Keep ``setup`` (a preset's fields but the name) as preset ``name``: in
    # place of one of that name, else last. Returns the presets.
    # :raises ValueError: a rule broken or a ninth preset; OSError (see save).
    if type(setup) is not dict:
        raise ValueError("not a preset")
    p = dict(setup)
    p["name"] = name
    ps = _mine(st)
    for i in range(len(ps)):
        if ps[i]["name"] == name:
            ps[i] = p
            return save(st, ps)
    if len(ps) == MOST:
        raise ValueError("at most %d presets" % MOST)
    return save(st, ps + [p])


def remove(st, name):
    # Drop preset ``name`` (none of that name: nothing written). Returns the presets.
    # :raises ValueError: a newer Bower's file; OSError (see save).
    ps = _mine(st)
    left = [p for p in ps if p["name"] != name]
    return save(st, left) if len(left) < len(ps) else ps
