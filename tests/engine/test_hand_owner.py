"""One owner for a hand (issue 37, point 2; CPython only: ast).

A ``Hand``'s private fields and methods (``_name``) are euchre.hand's: the
other engine and firmware modules use its public methods and attributes.
And no engine module grows past 600 lines.

Card mode keeps a hand's cards in its own ``Play`` (``h.play``) and goes
back to table mode through the two functions the hand gives it; quick score
returns the table-mode action that scores its end; table mode's legal ids
and the rules are euchre.legal's, reading the hand's public state.
"""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine" / "euchre"
MODULES = sorted(ENGINE.glob("*.py")) + sorted((ROOT / "firmware" / "bower").glob("*.py"))
# The modules converted first (step 1 of issue 37, point 2).
CONVERTED = ("bot.py", "why.py")


def _hand_privates():
    # Hand's private names: its ``_`` methods and the ``self._x`` it sets.
    tree = ast.parse((ENGINE / "hand.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Hand")
    names = set()
    for n in ast.walk(cls):
        if isinstance(n, ast.FunctionDef) and n.name.startswith("_") and not n.name.startswith("__"):
            names.add(n.name)
        if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
                and n.attr.startswith("_") and not n.attr.startswith("__")):
            names.add(n.attr)
    return names


def _reaches(path, privates):
    # ``X._name`` for one of Hand's private names, X not ``self``.
    out = []
    for n in ast.walk(ast.parse(path.read_text(), str(path))):
        if (isinstance(n, ast.Attribute) and n.attr in privates
                and not (isinstance(n.value, ast.Name) and n.value.id == "self")):
            out.append("%s:%d %s" % (path.name, n.lineno, ast.unparse(n)))
    return out


def test_hand_has_private_names_to_guard():
    assert {"_legal", "_over", "_eff"} <= _hand_privates()


def test_converted_modules_use_hands_public_names_only():
    privates = _hand_privates()
    found = []
    for path in MODULES:
        if path.name in CONVERTED:
            found += _reaches(path, privates)
    assert not found, found


def test_no_module_but_euchre_hand_uses_hands_privates():
    privates = _hand_privates()
    found = []
    for path in MODULES:
        if path != ENGINE / "hand.py":
            found += _reaches(path, privates)
    assert not found, found


def _long_modules():
    out = []
    for path in sorted(ENGINE.glob("*.py")):
        n = len(path.read_text().splitlines())
        if n > 600:
            out.append((path.name, n))
    return out


def test_no_engine_module_but_euchre_hand_is_over_600_lines():
    assert [m for m in _long_modules() if m[0] != "hand.py"] == []


def test_no_engine_module_is_over_600_lines():
    assert _long_modules() == []
