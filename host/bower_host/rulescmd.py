"""``bower rules ...``: every variant's options, and rules files (presets) checked.

::

    bower rules show                          # every option of every variant: label, values, default, source
    bower rules show --variant three --format json
    bower rules show --write docs/RULES.md    # its generated tables made again (between marker comments)
    bower rules check friday.json             # every problem of a rules file, one line each
    bower rules push friday.json              # its presets onto the device plugged in (--port, --timeout)
    bower rules push --clear                  # the device's presets removed

``check`` prints ``FILE: N presets, all playable`` (status 0), or each
problem on standard output, one a line, and ends with one line on
standard error, ``bower: FILE has N problems`` (status 1). A file it cannot
read as a rules file at all is one line on standard error (status 1).
``push`` checks the file as ``check`` does and sends nothing if it finds
a problem (each printed, status 1); else it replaces the device's presets
with the file's and prints ``Presets on device ID: NAME, NAME``. A device's
refusal or a failed link is one line (status 1): the device then keeps the
presets it had (it writes them only when the last one arrives). Nothing
else writes anything but ``show --write``. docs/RULES.md says more.
"""

from __future__ import annotations

import json

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
    from bower_host.protocol import MAX_PRESETS
    from bower_host.transport import TransportError

    presets: list = []
    if not args.clear:
        shown, doc, n, found = _checked(args.file)
        if found:
            for line in found:
                print(line)
            raise CommandError(f"{shown} has {len(found)} problem{'' if len(found) == 1 else 's'}: nothing sent")
        if n > MAX_PRESETS:
            raise CommandError(f"{shown} has {n} presets, and a device keeps at most {MAX_PRESETS}: nothing sent")
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
