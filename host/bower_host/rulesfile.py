"""Rules files: presets people share ("Friday rules"), checked by the engine's own rules.

A rules file is JSON (docs/RULES.md, "Rules files")::

    {"bower_rules": 1,
     "presets": [{"name": "Friday rules", "variant": "classic",
                  "options": {"std": true, "canadian": true}, "target": 10, "quick": false}]}

A preset is a name (what the device shows: 1 to 12 printable ASCII
characters, one preset each) and a whole setup: the variant (its canonical
name), its options (each checked by ``euchre.Rules``, the very check a
game's setup passes; an option left out keeps its default), the target
(the variant's ``winning_score``) and whether hands are entered as quick
score. ``problems(doc)`` lists every problem of a file, one line each,
naming the preset and the rule it breaks; a file it cannot judge at all
(not an object, no format, a newer format) is a :class:`RulesFileError`.
"""

from __future__ import annotations

from euchre.cards import error_text
from euchre.names import option_key
from euchre.rules import OPTIONS, Rules

from bower_host.argtypes import shown
from bower_host.presetpush import MAX_PRESETS
from bower_host.errors import CommandError, printable
from bower_host.rulesdoc import accepted, variants

#: The format this Bower writes and reads (``bower_rules``).
FORMAT = 1
#: Most bytes of a rules file read (a preset is about 200 bytes).
RULES_LIMIT = 1 << 20
#: Deepest JSON nesting read: a rules file is 3 deep.
RULES_DEPTH = 8
#: The keys of a file and of a preset.
FILE_KEYS = ("bower_rules", "presets")
PRESET_KEYS = ("name", "variant", "options", "target", "quick")
#: The longest name the device shows on a row.
NAME_MAX = 12
#: A club round's settings (euchre.clubround): a night's, never a preset's.
CLUB_OPTIONS = ("round_hands", "lone_march", "set_loner", "renege_points")
#: The longest problem line (a value may be long: its text is cut).
LINE_MAX = 300


#: The engine's rules of options together (farmers_no_call requires farmers).
_TOGETHER = (error_text("farmers"),)


class RulesFileError(CommandError):
    """A file that is no rules file this Bower reads (one line: why)."""


def _json(x) -> str:
    # A value as the file wrote it (true, null, "text"), cut short.
    import json
    text = json.dumps(x, ensure_ascii=False)
    return text if len(text) <= 40 else text[:40] + "..."


def name_problem(name) -> str | None:
    """Why the device cannot show ``name`` as a preset's, or None."""
    if not isinstance(name, str):
        return f"its name must be text, not {_json(name)}"
    rule = f"the device shows a name of 1 to {NAME_MAX} printable ASCII characters"
    bad = next((c for c in name if not " " <= c <= "~"), None)
    if bad is not None:
        return f"its name {shown(name)} has {bad!r}, which the device cannot show: {rule}"
    if not 1 <= len(name) <= NAME_MAX:
        return f"its name {shown(name)} is {len(name):,} characters: {rule}"
    if not name.strip():
        return f"its name is only spaces: {rule}"
    return None


def _engine(variant: str, options: dict) -> str | None:
    # The engine's refusal of ``options`` for ``variant``, or None.
    try:
        Rules(variant, options)
    except ValueError as e:
        return str(e)
    return None


def _option_problem(variant: str, k: str, v) -> str | None:
    # What is wrong with option ``k`` set to ``v`` in ``variant`` (the engine's words where it refuses).
    if k in CLUB_OPTIONS:
        return f"{k} is a club round's setting (bower club push sends it), not a preset's"
    took = accepted(variant)
    short = option_key(k)
    if short is not None and short in took:
        return f"{k} is option {short} by its name in full: write {short}"
    if k not in took:
        # (the engine's refusal, with every option: its message leaves out the later ones, LATER)
        return f"{Rules(variant).title} has no option {shown(k)} (its options: {', '.join(sorted(took))})"
    allowed = OPTIONS.get(k)
    if isinstance(v, float) and isinstance(allowed, tuple) and k in accepted(variant):
        # (the engine's `in` takes 9.0 for 9, then cannot deal with it; the
        # device takes what JSON gives, a float)
        return error_text("value", k, allowed, v)
    why = _engine(variant, {k: v})
    # (a rule of options together is told once, when they are checked together)
    return None if why in _TOGETHER else why


def check_preset(i: int, p, earlier: dict | None = None) -> tuple[str | None, list[str]]:
    """Preset number ``i`` (from 1): its name if the device can show it, and its problems.

    ``earlier``: the names of the presets before it (name -> number); a name
    given again is a problem, and names its preset by number too.
    """
    if not isinstance(p, dict):
        return None, [f"preset {i} is not an object ({{\"name\": ..., \"variant\": ...}}) but {_json(p)}"]
    bad_name = name_problem(p.get("name")) if "name" in p else "it has no name"
    name = None if bad_name else p["name"]
    again = earlier is not None and name in earlier
    who = f"preset {i}" if name is None else f"preset {i} {shown(name)}" if again else f"preset {shown(name)}"
    out: list[str] = []

    def say(text: str) -> None:
        out.append(f"{who}: {text}")

    if bad_name:
        say(bad_name)
    if again and earlier is not None:
        say(f"preset {earlier[name]} has this name: each preset a name of its own")
    for k in p:
        if k not in PRESET_KEYS:
            say(f"unknown key {shown(k)} (a preset has: {', '.join(PRESET_KEYS)})")
    variant = p.get("variant")
    if "variant" not in p:
        say(f"it has no variant (one of: {', '.join(variants())})")
        variant = None
    elif not isinstance(variant, str) or variant not in variants():
        try:
            other = Rules(variant).name if isinstance(variant, str) else None
        except ValueError:
            other = None
        if other is not None and isinstance(variant, str):
            say(f"variant {shown(variant)} is {other!r} by another name: write {other!r}")
        else:
            say(f"unknown variant {_json(variant)} (one of: {', '.join(variants())})")
        variant = None
    opts = p.get("options", {})
    if not isinstance(opts, dict):
        say(f"options must be an object of option names to values, not {_json(opts)}")
        opts = {}
    good: dict = {}
    failed = False
    if variant is not None:
        for k, v in opts.items():
            why = _option_problem(variant, k, v)
            if why:
                say(why)
                failed = True
            else:
                good[k] = v
    if "target" in p:
        t = p["target"]
        if variant is not None and "winning_score" not in accepted(variant):
            say(f"{Rules(variant).title} has no target")
            failed = True
        elif "winning_score" in opts:
            say("target and options' winning_score are one setting (the points to win): give it once")
            failed = True
        elif variant is not None:
            why = _option_problem(variant, "winning_score", t)
            if why:
                say(f"target {_json(t)}: {why}")
                failed = True
            else:
                good["winning_score"] = t
    if variant is not None and not failed:
        why = _engine(variant, good)       # the options together (farmers_no_call requires farmers)
        if why:
            say(why)
    if "quick" in p and not isinstance(p["quick"], bool):
        say(f"quick (quick score) must be true or false, not {_json(p['quick'])}")
    return name, out


def problems(doc) -> tuple[int, list[str]]:
    """The presets of the rules file ``doc`` (its JSON value) and its every problem, one line each.

    :raises RulesFileError: ``doc`` is not a rules file this Bower reads.
    """
    if not isinstance(doc, dict):
        raise RulesFileError(f"it is not a Bower rules file (a JSON object with {' and '.join(FILE_KEYS)}), "
                             f"but {_json(doc)}")
    if "bower_rules" not in doc:
        raise RulesFileError(f"it is not a Bower rules file: it has no bower_rules (the format, {FORMAT})")
    fmt = doc["bower_rules"]
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > FORMAT:
        raise RulesFileError(f"the file is format {fmt}, from a newer Bower (this one reads format {FORMAT}): "
                             "upgrade bower")
    if fmt != FORMAT or isinstance(fmt, (bool, float)):
        raise RulesFileError(f"bower_rules (the format) must be {FORMAT}, not {_json(fmt)}")
    out = [f"unknown key {shown(k)} (a rules file has: {', '.join(FILE_KEYS)})" for k in doc if k not in FILE_KEYS]
    presets = doc.get("presets")
    if not isinstance(presets, list) or not presets:
        out.append("presets must be a list of one preset or more, not " + _json(presets) if "presets" in doc
                   else "it has no presets (a list of presets)")
        return 0, [_cut(x) for x in out]
    if len(presets) > MAX_PRESETS:
        out.append(f"{len(presets)} presets: a device keeps at most {MAX_PRESETS} (firmware/bower/presets.py)")
    first: dict[str, int] = {}
    for i, p in enumerate(presets, 1):
        name, said = check_preset(i, p, first)
        out += said
        if name is not None and name not in first:
            first[name] = i
    return len(presets), [_cut(x) for x in out]


def _cut(line: str) -> str:
    line = printable(line)
    return line if len(line) <= LINE_MAX else line[:LINE_MAX] + "..."
