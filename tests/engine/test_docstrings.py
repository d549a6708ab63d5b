"""Every public engine name has a docstring, at no cost to the device (CPython only).

pydoc and editors show a function's, class's or method's docstring; the
MicroPython compiler never keeps a function's, so those are free. A class's
and a module's are kept as ``__doc__`` by a MicroPython built with
MICROPY_ENABLE_DOC_STRING (the WebAssembly port the tests and the bench run
on; not the Pico's rp2 port, and mpy-cross drops them all): so a class's
docstring is one line, the details go in ``__init__``'s, and a module's
overview stays a comment (pydoc shows that too, inspect.getcomments).
"""

import ast
import pathlib

import euchre

ENGINE = pathlib.Path(euchre.__file__).parent
MODULES = sorted(ENGINE.glob("*.py"))


def _public(tree):
    # (qualified name, node) of each public function, class and method,
    # module-level ones under an ``if`` included.
    out = []

    def visit(body, prefix):
        for n in body:
            if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and not n.name.startswith("_"):
                out.append((prefix + n.name, n))
                if isinstance(n, ast.ClassDef):
                    visit(n.body, prefix + n.name + ".")
            elif isinstance(n, ast.If):
                visit(n.body + n.orelse, prefix)

    visit(tree.body, "")
    return out


def test_every_public_name_has_a_docstring_short_where_kept():
    missing, long, count = [], [], 0
    for p in MODULES:
        tree = ast.parse(p.read_text())
        for name, node in _public(tree):
            count += 1
            if not ast.get_docstring(node):
                missing.append("%s: %s" % (p.name, name))
        if ast.get_docstring(tree) is not None:
            long.append("%s: a module docstring (keep the overview a comment)" % p.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                doc = ast.get_docstring(node, clean=False)
                if doc is not None and ("\n" in doc or len(doc) > 72):
                    long.append("%s: class %s's docstring is more than a line" % (p.name, node.name))
    assert count >= 100, count
    assert not missing, "no docstring: " + ", ".join(missing)
    assert not long, "\n".join(long)
