# Presets (issue 36): a name and the whole setup a group plays, as a rules
# file shares it (docs/RULES.md "Rules files", host/bower_host/rulesfile.py):
# the variant, its options (the engine's short names), the target (the
# option winning_score) and quick score (true or false; ``setup`` gives the
# device setting ``quick``, 0 or 1).
#
#     ps, refusals = load(st)     # [{"name", "variant", "options", "quick"[, "target"]}, ...]
#     add(st, "Friday rules", {"variant": "classic", "options": {"std": True}, "target": 11})
#     variant, options, quick = setup(ps[0])     # Rules(variant, options); the quick setting
#
# One record in the file ``presets`` beside the settings (firmware/STORAGE.md):
# {"version": 1, "presets": [...]}, in the user's order, replaced whole
# (rec_file: old or new, never torn; synced games removed for room on a full
# flash, bower.prefs.room). Functions of the store that return what they
# read or wrote: nothing here sets the store's state. Imported only where
# presets are used.

from bower import unload
from bower.prefs import room

VERSION = 1   # raised when a file could hold what an older Bower would refuse
MOST = 8
NAME_MAX = 12  # the longest name a row shows (the host's rules files' rule)
SIZE = 4096   # bytes read: 8 presets with every option of the longest variant set fit (tests)
NEWER = "presets: from a newer Bower"
_KEYS = ("name", "variant", "options", "target", "quick")
_MORE = ("three", "six", "two")   # (euchre.morevariants' NAMES: loaded by Rules for one of them only)


def path(st):
    return st.settings_path[:-8] + "presets"


def setup(p):
    # (variant, options, quick setting) of preset ``p``: what Rules and the
    # device setting ``quick`` take; the target is the option winning_score.
    o = dict(p.get("options", {}))
    if "target" in p:
        o["winning_score"] = p["target"]
    return p.get("variant"), o, 1 if p.get("quick") else 0


def check(p):
    # The preset ``p`` as kept: its fields ("options" and "quick" may be left
    # out: none, false; "target": the variant's).
    # :raises ValueError: the rule it breaks.
    if type(p) is not dict:
        raise ValueError("not a preset")
    for k in p:
        if k not in _KEYS:
            raise ValueError("%r: not a field of a preset" % (k,))
    n = p.get("name")
    if not (isinstance(n, str) and 0 < len(n) <= NAME_MAX and n.strip() and min(n.encode()) >= 32
            and max(n.encode()) <= 126):
        raise ValueError("name: 1 to %d printable ASCII characters, not only spaces" % NAME_MAX)
    o = p.get("options", {})
    if type(o) is not dict:
        raise ValueError("options: not a dict")
    if "target" in p and "winning_score" in o:
        raise ValueError("target and options' winning_score are one setting: give it once")
    q = p.get("quick", False)
    if type(q) is not bool:
        raise ValueError("quick must be true or false, not %r" % (q,))
    _rules(*setup(p)[:2])
    out = {"name": n, "variant": p["variant"], "options": dict(o), "quick": q}
    if "target" in p:
        out["target"] = p["target"]
    return out


def _rules(v, o):
    # The engine's check of variant ``v`` with options ``o``, by the short
    # names only (the long ones and the aliases are the host's). The data
    # of the variants for three, six and two players is given back after
    # (the new-game menu loads it for a game of one).
    import sys
    from euchre.rules import Rules, variant_names
    had = "euchre.morevariants" in sys.modules
    try:
        if not (isinstance(v, str) and (v in variant_names() or v in _MORE)):
            raise ValueError("variant %r: not one Bower has" % (v,))
        r = Rules(v)
        for k in o:
            if k not in r.options and k not in r.later:
                from euchre.cards import error_text
                raise ValueError(error_text("option", r.title, k, ", ".join(sorted(list(r.options) + list(r.later)))))
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
    # :raises ValueError: a rule broken, a ninth preset or a newer Bower's
    # file; OSError (see save).
    if type(setup) is not dict:
        raise ValueError("not a preset")
    p = dict(setup)
    p["name"] = name
    ps = _mine(st)
    for i in range(len(ps)):
        if ps[i]["name"] == name:
            ps[i] = p
            return save(st, ps)
    return save(st, ps + [p])   # (a ninth: refused there)


def remove(st, name):
    # Drop preset ``name`` (none of that name: nothing written). Returns the presets.
    # :raises ValueError: a newer Bower's file; OSError (see save).
    ps = _mine(st)
    left = [p for p in ps if p["name"] != name]
    return save(st, left) if len(left) < len(ps) else ps


# ----- the device's "Save as preset" (the game-over menu, bower.screens) ------

def save_played(app, rules):
    # The setup just played as a preset, named by its variant and target
    # ("Classic 11"; a letter after it when another setup has that name;
    # the same setup again: kept once). The note says which.
    from bower.screens import VARIANT_LABELS, storage
    o = dict(rules.options)
    t = o.pop("winning_score")
    p = {"variant": rules.name, "options": o, "target": t, "quick": bool(app.store.settings.get("quick"))}
    try:
        ps, bad = load(app.store)    # (read once: the list is saved whole)
        if NEWER in bad:
            raise ValueError(NEWER)
        base = VARIANT_LABELS[rules.name][:8] + " %d" % t
        name = base
        for c in "bcdefghij":
            q = [x for x in ps if x["name"] == name]
            if not q:
                break
            if check(dict(p, name=name)) == q[0]:
                app.notify("Preset: " + name)     # (kept already: nothing written)
                return
            name = base + c
        if len(ps) >= MOST:
            app.notify("8 presets: delete one first")
            return
        save(app.store, ps + [dict(p, name=name)])
        app.notify("Preset: " + name)
    except OSError as e:
        if e.args[0] != 28:
            raise
        app.push(storage(app, "Not saved"))
    except ValueError as e:
        app.notify(e.args[0] if e.args else "Preset refused")
    finally:
        unload("bower.presets")
