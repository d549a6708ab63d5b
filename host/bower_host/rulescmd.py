"""``bower rules ...``: every variant's options, and rules files (presets) checked.

::

    bower rules show                          # every option of every variant: label, values, default, source
    bower rules show --variant three --format json
    bower rules show --write docs/RULES.md    # its generated tables made again (between marker comments)
    bower rules check friday.json             # every problem of a rules file, one line each

``check`` prints ``FILE: N presets, all playable`` (status 0), or each
problem on standard output, one a line, and ends with one line on
standard error, ``bower: FILE has N problems`` (status 1). A file it cannot
read as a rules file at all is one line on standard error (status 1).
Nothing writes anything but ``show --write``. docs/RULES.md says more.
"""

from __future__ import annotations

import json

from euchre.notation import value_label

from bower_host import outputs
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


def cmd_check(args) -> int:
    shown = printable(str(args.file))
    text = utf8_text(read_input(args.file, RULES_LIMIT, shown), shown)
    try:
        n, found = problems(load_json(text, RULES_DEPTH))
    except CommandError as e:
        raise CommandError(f"{shown}: {e}") from None
    if not found:
        print(f"{shown}: {n} preset{'' if n == 1 else 's'}, all playable")
        return 0
    for line in found:
        print(line)
    raise CommandError(f"{shown} has {len(found)} problem{'' if len(found) == 1 else 's'}")


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
