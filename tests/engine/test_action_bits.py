"""One module owns the action-id bits (CPython only: reads the source tree).

An action id is ``kind | arg << 5 | flag << 11``; euchre.actions builds ids
(``action``) and reads them (``kind_of``, ``arg_of``, ``flag_of``). Shifting
or masking by the layout's numbers anywhere else fails here, with file and
line: in the engine and in every module of firmware/, host/ and tools/ that
imports it (modules that never import the engine hold no action ids; the
display code's own 0x3F masks are not action bits).
"""

import io
import pathlib
import re
import tokenize

ROOT = pathlib.Path(__file__).resolve().parents[2]
OWNER = ROOT / "engine" / "euchre" / "actions.py"
TREES = ("engine", "firmware", "host", "tools")
USES_ENGINE = re.compile(r"^\s*(from|import)\s+euchre\b", re.M)
# Shift and mask operators, and the numbers of the layout: 5 and 11 (the
# argument's and the flag's shifts), 31 and 63 (the kind's and the
# argument's masks), 2047 (kind and argument together).
OPS = {"<<", ">>", "&", "<<=", ">>=", "&="}
BITS = {5, 11, 31, 63, 2047}


def bit_ops(source):
    """(line, text) of each shift or mask by a layout number in ``source``."""
    toks = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)]
    hits = []
    for a, b in zip(toks, toks[1:]):
        for op, num in ((a, b), (b, a)):
            if op.type == tokenize.OP and op.string in OPS and num.type == tokenize.NUMBER:
                try:
                    value = int(num.string, 0)
                except ValueError:
                    continue  # a float or an imaginary number
                if value in BITS:
                    hits.append((op.start[0], op.line.strip()))
    return hits


def test_the_scan_finds_hand_made_bit_arithmetic():
    # The scan itself can fail: each of these decodes or builds an id by hand.
    for line in ("kind = a & 31", "arg = (a >> 5) & 63", "flag = a >> 11", "a = k | x << 5",
                 "b = A.ORDER | f << 11", "m = 0x1f & a", "a >>= 5", "x = a & 0x3F"):
        assert bit_ops(line + "\n"), line
    # ... and these are not action bits.
    for line in ("m >> s & 1", "x ^= y << 13", "n = 5 + 31", "# a >> 5 in a comment",
                 "s = 'a & 31'", "y = a * 32"):
        assert not bit_ops(line + "\n"), line


def test_nothing_outside_actions_shifts_or_masks_action_bits():
    files = [p for tree in TREES for p in sorted((ROOT / tree).rglob("*.py"))
             if p != OWNER and (tree == "engine" or USES_ENGINE.search(p.read_text()))]
    names = {p.name for p in files}
    assert {"hand.py", "cardmode.py", "why.py", "bot.py", "play.py", "ui.py"} <= names, names
    assert bit_ops(OWNER.read_text()), "the scan no longer sees actions.py's own bits"
    bad = ["%s:%d: %s" % (p.relative_to(ROOT), line, text)
           for p in files for line, text in bit_ops(p.read_text())]
    assert not bad, "use euchre.actions (action, kind_of, arg_of, flag_of):\n" + "\n".join(bad)
