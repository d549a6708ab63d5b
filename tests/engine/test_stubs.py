"""The type stubs beside the engine say what the code does (CPython only).

``euchre/__init__.pyi`` gives type checkers the real classes behind the
lazy package face; ``euchre/rules.pyi`` declares the fields ``Rules`` sets
from its tables with setattr. Neither runs anywhere, so nothing else would
notice when they drift: here every name the face serves is in the stub,
from the module that defines it; every field a ``Rules`` of any variant
holds is declared, with a type its value has, and nothing else is; every
public name of rules.py is in its stub. And no stub is ever deployed.
"""

import ast
import pathlib

import euchre
from euchre import rules as R

ENGINE = pathlib.Path(euchre.__file__).parent


def _stub(name):
    return ast.parse((ENGINE / name).read_text())


def test_the_package_stub_serves_what_the_face_serves():
    stub = {}
    for node in _stub("__init__.pyi").body:
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                assert a.asname == a.name, "re-export as itself: %s" % a.name
                stub[a.name] = node.module
    face = {name: "euchre." + mod for name, mod in euchre._HOME.items()}
    assert stub == face, "engine/euchre/__init__.pyi must re-export exactly __init__.py's _HOME"
    for name, mod in face.items():
        assert getattr(euchre, name) is getattr(__import__(mod, None, None, ["_"]), name)


def _rules_stub():
    tree = _stub("rules.pyi")
    cls = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules"][0]
    fields = {n.target.id: n.annotation for n in cls.body if isinstance(n, ast.AnnAssign)}
    methods = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    top = set()
    for n in tree.body:
        if isinstance(n, ast.AnnAssign):
            top.add(n.target.id)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            top.add(n.name)
    return fields, methods, top


def _every_rules():
    out = []
    for v in tuple(R.variant_names()) + tuple(getattr(R, "MORE_VARIANTS", ())):
        out.append(R.Rules(v))
    # every option away from its default, where the variant allows it
    for r in list(out):
        for k, x in r.options.items():
            allowed = R.OPTIONS.get(k)
            for y in (allowed or (x + 1,)):
                if y != x:
                    try:
                        out.append(R.Rules(r.name, {k: y}))
                    except ValueError:
                        pass
    out.append(R.Rules("classic", round_hands=4, lone_march=5))
    return out


def _has_type(value, ann):
    # Whether ``value`` fits annotation ``ann`` (an ast node of the stub's
    # few forms: names, None, X | Y, tuple[...], dict[K, V], list[T]).
    if isinstance(ann, ast.BinOp):
        return _has_type(value, ann.left) or _has_type(value, ann.right)
    if isinstance(ann, ast.Constant):
        return value is ann.value
    if isinstance(ann, ast.Name):
        kinds = {"int": int, "bool": bool, "str": str, "bytes": bytes, "Any": object, "object": object}
        return isinstance(value, kinds[ann.id])
    base, args = ann.value.id, ann.slice
    args = list(args.elts) if isinstance(args, ast.Tuple) else [args]
    if base == "tuple":
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
            return all(_has_type(x, args[0]) for x in value)
        return len(value) == len(args) and all(_has_type(x, a) for x, a in zip(value, args))
    if base == "list":
        return isinstance(value, list) and all(_has_type(x, args[0]) for x in value)
    if base == "dict":
        return isinstance(value, dict) and all(_has_type(k, args[0]) and _has_type(x, args[1])
                                               for k, x in value.items())
    raise AssertionError("rules.pyi: an annotation this test cannot read: %s" % ast.dump(ann))


def test_the_rules_stub_declares_exactly_the_fields_a_rules_holds():
    fields, _, _ = _rules_stub()
    held = {"round_hands", "set_loner"}   # (class defaults: a club round sets them)
    for r in _every_rules():
        held |= set(vars(r))
        for k, x in vars(r).items():
            assert k in fields, "%s (Rules(%r)) is not declared in engine/euchre/rules.pyi" % (k, r.name)
            assert _has_type(x, fields[k]), "rules.pyi: %s = %r does not fit %s" % (
                k, x, ast.unparse(fields[k]))
    assert set(fields) == held, "declared in rules.pyi but no Rules holds it: %s" % sorted(set(fields) - held)


def test_the_rules_stub_has_every_public_name():
    fields, methods, top = _rules_stub()
    for name in dir(R.Rules):
        if not name.startswith("_") or name in ("__init__", "__eq__"):
            assert name in methods or name in fields, "Rules.%s is not in engine/euchre/rules.pyi" % name
    defined = set()
    for n in ast.parse((ENGINE / "rules.py").read_text()).body:
        if isinstance(n, ast.Assign):
            defined |= {t.id for t in n.targets if isinstance(t, ast.Name)}
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            defined.add(n.name)
    public = {name for name in defined if not name.startswith("_")}
    assert public and public <= top, "not in engine/euchre/rules.pyi: %s" % sorted(public - top)


def test_no_stub_is_deployed():
    from bower_host.deploy import build as deploy_build
    root = ENGINE.parents[1]
    assert list(ENGINE.glob("*.pyi")), "no stub to check"
    sources = [str(src) for src, _, _ in deploy_build._sources(root)]
    assert sources and not [s for s in sources if not s.endswith(".py")]
