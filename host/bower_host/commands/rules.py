"""``bower rules ...``: every variant's options, and rules files (presets) checked.

::

    bower rules show                          # every option of every variant: label, values, default, source
    bower rules show --variant three --format json
    bower rules show --write docs/RULES.md    # its generated tables made again (between marker comments)
    bower rules check friday.json             # every problem of a rules file, one line each
    bower rules push friday.json              # its presets onto the device plugged in (--port, --timeout)
    bower rules push --clear                  # the device's presets removed
    bower rules preset list friday.json       # its presets, a line each
    bower rules preset add friday.json "Friday rules" --variant classic --target 11 \
        --option std --option loner_lead=LEFT_OF_LONER --quick    # added (or replaced, by name)
    bower rules preset remove friday.json "Friday rules"

``check`` prints ``FILE: N presets, all playable`` (status 0), or each
problem on standard output, one a line, and ends with one line on
standard error, ``bower: FILE has N problems`` (status 1). A file it cannot
read as a rules file at all is one line on standard error (status 1).
``push`` checks the file as ``check`` does and sends nothing if it finds
a problem (each printed, status 1); else it replaces the device's presets
with the file's and prints ``Presets on device ID: NAME, NAME``. A device's
refusal or a failed link is one line (status 1): the device then keeps the
presets it had (it writes them only when the last one arrives). Nothing
else writes anything but ``show --write`` and ``preset add/remove``.

``preset add`` and ``preset remove`` edit a rules file as a person would
(``add`` makes the file if there is none), and write it only if the file
they make has no problem (the whole of ``check``; a file that had problems
already is refused as it is, its problems printed): through a temporary
file renamed onto it, so an interrupted write leaves the old file. A name
``add`` gives again replaces that preset where it stands. docs/RULES.md says more.
"""

from __future__ import annotations

import json
import os

from euchre.notation import value_label

from bower_host import connect, outputs
from bower_host.errors import CommandError, printable
from bower_host.inputs import load_json, read_input, utf8_text
from bower_host.rulesdoc import MarkerError, option_rows, rewrite, variants
from bower_host.rulesfile import RULES_DEPTH, RULES_LIMIT, problems

#: Most bytes of a file ``show --write`` rewrites (docs/RULES.md is about 30 KB).
DOC_LIMIT = 4 << 20

_HEAD = ("variant", "option", "on the device", "values", "default", "source")


def show_text(only: str | None = None) -> str:
    """The table ``bower rules show`` prints: a row per option of each variant, columns aligned."""
    rows = [_HEAD] + [(r.variant, r.option, r.label, r.values, value_label(r.default), r.source)
                      for r in option_rows(only)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEAD) - 1)]
    return "".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] + "\n" for r in rows)


def show_json(only: str | None = None) -> str:
    """``bower rules show --format json``: ``{"options": [{"variant": ..., "option": ..., ...}, ...]}``."""
    return json.dumps({"options": [r.as_json() for r in option_rows(only)]}, indent=1, ensure_ascii=False) + "\n"


def cmd_show(args) -> int:
    if args.write is None:
        print(show_json(args.variant) if args.format == "json" else show_text(args.variant), end="")
        return 0
    shown = printable(str(args.write))
    outputs.check_output(args.write, library=None, option="--write")
    text = utf8_text(read_input(args.write, DOC_LIMIT, shown), shown)
    try:
        new, done = rewrite(text, args.variant)
    except MarkerError as e:
        raise CommandError(f"cannot write {shown}: {e}; nothing written") from None
    if args.variant is not None and not done:
        raise CommandError(f"cannot write {shown}: it has no generated table of {args.variant}; nothing written")
    if new == text:
        print(f"{shown}: the tables of {', '.join(done)} are up to date")
        return 0
    outputs.write_output(args.write, new, library=None, option="--write")
    print(f"{shown}: the tables of {', '.join(done)} written")
    return 0


def _checked(file) -> tuple[str, dict, int, list[str]]:
    # (the file's name as shown, its JSON, its presets, its problems)
    shown = printable(str(file))
    text = utf8_text(read_input(file, RULES_LIMIT, shown), shown)
    try:
        doc = load_json(text, RULES_DEPTH)
        n, found = problems(doc)
    except CommandError as e:
        raise CommandError(f"{shown}: {e}") from None
    return shown, doc, n, found


def cmd_check(args) -> int:
    shown, _, n, found = _checked(args.file)
    if not found:
        print(f"{shown}: {n} preset{'' if n == 1 else 's'}, all playable")
        return 0
    for line in found:
        print(line)
    raise CommandError(f"{shown} has {len(found)} problem{'' if len(found) == 1 else 's'}")


def cmd_push(args) -> int:
    from bower_host.framing import DeviceError, ProtocolError
    from bower_host.transport import TransportError

    presets: list = []
    if not args.clear:
        shown, doc, n, found = _checked(args.file)
        if found:
            for line in found:
                print(line)
            raise CommandError(f"{shown} has {len(found)} problem{'' if len(found) == 1 else 's'}: nothing sent")
        presets = doc["presets"]
    t, client = connect.open_client(args)
    try:
        info = client.hello()
        client.presets(presets)
    except DeviceError as e:
        if e.code == "unknown":
            raise CommandError("the device's firmware does not know presets (no PRESET command): update it with "
                               "bower deploy") from None
        raise CommandError(f"the device refused the presets: {e.message or e.code}; it keeps the presets it "
                           "had") from None
    except ValueError as e:
        raise CommandError(f"nothing sent: {e}") from None
    except (ProtocolError, TransportError) as e:
        raise CommandError(f"{e} (the device keeps the presets it had unless the last one reached it: run "
                           "bower rules push again)") from None
    finally:
        t.close()
    names = ", ".join(printable(p["name"]) for p in presets) or "none"
    print(f"Presets on device {info.device}: {names}")
    return 0


def _problems_said(shown: str, found: list[str], what: str, has: str = "has") -> CommandError:
    for line in found:
        print(line)
    return CommandError(f"{shown} {has} {len(found)} problem{'' if len(found) == 1 else 's'}{what}")


def cmd_preset_list(args) -> int:
    shown, doc, n, found = _checked(args.file)
    if found:
        raise _problems_said(shown, found, "")
    for p in doc["presets"]:
        print(preset_line(p))
    return 0


def preset_line(p: dict) -> str:
    """A preset in a line: ``Friday rules: classic, target 11, quick off, canadian on, std on``."""
    parts = [p["variant"]]
    if "target" in p:
        parts.append(f"target {p['target']}")
    parts.append("quick " + ("on" if p.get("quick") else "off"))
    parts += [f"{k} {value_label(v)}" for k, v in sorted(p.get("options", {}).items())]
    return printable(f"{p['name']}: {', '.join(parts)}")


def option_value(text: str):
    """``--option NAME`` (on) or ``NAME=VALUE``: (name, value); VALUE true/false, a whole number, or a word."""
    name, eq, v = text.partition("=")
    if not eq:
        return name, True
    low = v.lower()
    if low in ("true", "on", "yes"):
        return name, True
    if low in ("false", "off", "no"):
        return name, False
    try:
        return name, int(v)
    except ValueError:
        return name, v


def _edited(args, change) -> int:
    # Read the rules file (a new one if there is none), change its presets
    # (``change(presets)`` returns what it did, or raises CommandError),
    # check the whole file as ``check`` does, then write it whole.
    shown = printable(str(args.file))
    outputs.check_output(args.file, library=None, option="FILE")
    if os.path.exists(args.file):
        shown, doc, _, found = _checked(args.file)
        if found:
            raise _problems_said(shown, found, " already: fix them first (bower rules check); nothing written")
    else:
        doc = {"bower_rules": 1, "presets": []}
    said = change(doc["presets"])
    _, found = problems(doc)
    if found:
        raise _problems_said(shown, found, ": nothing written", "would have")
    outputs.write_output(args.file, json.dumps(doc, indent=1, ensure_ascii=False) + "\n", library=None,
                         option="FILE")
    print(f"{shown}: {said}")
    return 0


def cmd_preset_add(args) -> int:
    preset: dict = {"name": args.name, "variant": args.variant}
    opts = dict(option_value(o) for o in args.option or ())
    if opts:
        preset["options"] = opts
    if args.target is not None:
        preset["target"] = args.target
    preset["quick"] = bool(args.quick)

    def change(presets: list) -> str:
        for i, p in enumerate(presets):
            if isinstance(p, dict) and p.get("name") == args.name:
                presets[i] = preset
                return f"preset {printable(args.name)} replaced"
        presets.append(preset)
        return f"preset {printable(args.name)} added ({len(presets)} in all)"
    return _edited(args, change)


def cmd_preset_remove(args) -> int:
    def change(presets: list) -> str:
        for i, p in enumerate(presets):
            if isinstance(p, dict) and p.get("name") == args.name:
                if len(presets) == 1:
                    raise CommandError(f"{printable(args.name)} is the file's only preset (a rules file holds one "
                                       "or more): delete the file instead; nothing written")
                del presets[i]
                return f"preset {printable(args.name)} removed ({len(presets)} left)"
        names = ", ".join(printable(str(p.get("name"))) for p in presets if isinstance(p, dict))
        raise CommandError(f"no preset named {printable(args.name)} (the file has: {names}); nothing written")
    if not os.path.exists(args.file):
        raise CommandError(f"{printable(str(args.file))}: no such file; nothing written")
    return _edited(args, change)


def register(sub) -> None:
    p = sub.add_parser("rules", help="every variant's options; rules files (presets) checked",
                       description="The options of every variant, with their defaults and sources, and "
                                   "rules files of presets to share. See docs/RULES.md.")
    rs = p.add_subparsers(dest="rules_command", required=True)
    q = rs.add_parser("show", help="every option of every variant: label, values, default, source")
    q.add_argument("--variant", choices=variants(), help="only this variant")
    q.add_argument("--format", choices=("text", "json"), default="text")
    q.add_argument("--write", metavar="FILE",
                   help="make the generated tables of FILE (docs/RULES.md) again instead of printing")
    q.set_defaults(func=cmd_show)
    q = rs.add_parser("check", help="a rules file's every problem, one a line (none: all playable)")
    q.add_argument("file", metavar="FILE", help="a rules file (JSON: bower_rules 1 and its presets)")
    q.set_defaults(func=cmd_check)
    q = rs.add_parser("push", help="a rules file's presets onto the device (its old ones replaced)",
                      description="Check a rules file as check does, then replace the presets of the Bower "
                                  "plugged in with its presets, in order (nothing is sent if the file has a "
                                  "problem). --clear removes the device's presets.")
    what = q.add_mutually_exclusive_group(required=True)
    what.add_argument("file", metavar="FILE", nargs="?", help="a rules file (JSON: bower_rules 1 and its presets)")
    what.add_argument("--clear", action="store_true", help="remove every preset from the device instead")
    connect.add_link_args(q)
    q.set_defaults(func=cmd_push)
    q = rs.add_parser("preset", help="a rules file's presets listed, added, replaced or removed",
                      description="List, add (or replace, by name) and remove the presets of a rules file; "
                                  "a change is written only if the file then has no problem (as check).")
    ps = q.add_subparsers(dest="preset_command", required=True)
    e = ps.add_parser("list", help="the file's presets, a line each")
    e.add_argument("file", metavar="FILE", help="a rules file")
    e.set_defaults(func=cmd_preset_list)
    e = ps.add_parser("add", help="add a preset (one of the same name is replaced where it stands)")
    e.add_argument("file", metavar="FILE", help="a rules file (made if there is none)")
    e.add_argument("name", metavar="NAME", help="the preset's name (1 to 12 characters the device shows)")
    e.add_argument("--variant", required=True, choices=variants(), help="its variant")
    e.add_argument("--target", type=int, metavar="N", help="the points to win (default: the variant's)")
    e.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                   help="an option: NAME switches it on, NAME=VALUE sets it (true, false, a number, a word); "
                        "again for more (bower rules show lists them)")
    e.add_argument("--quick", action="store_true", help="hands entered as quick score")
    e.set_defaults(func=cmd_preset_add)
    e = ps.add_parser("remove", help="remove the preset of that name")
    e.add_argument("file", metavar="FILE", help="a rules file")
    e.add_argument("name", metavar="NAME", help="the preset's name")
    e.set_defaults(func=cmd_preset_remove)
