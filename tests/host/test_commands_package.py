"""The host's commands live in one package, as mpremote keeps its commands.

Every module that adds a ``bower`` parser (``add_parser``) or defines a
command function (``cmd_*``) is a module of ``bower_host.commands``, every
module there has ``register`` and is in ``bower_host.cli.COMMAND_MODULES``
or is part of a command listed there (``clubtables``: under ``bower club``),
and no room (the library, the link, the club, the league, the site) imports
a command module: the arrows run from the commands to the rooms.
"""

import ast
from pathlib import Path

import bower_host
from bower_host.cli import COMMAND_MODULES

HOST = Path(bower_host.__file__).resolve().parent


def _modules():
    for f in sorted(HOST.rglob("*.py")):
        rel = f.relative_to(HOST.parent).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        yield ".".join(parts), ast.parse(f.read_text(), str(f))


def _is_command_module(name: str) -> bool:
    return name.startswith("bower_host.commands.")


def test_every_parser_and_command_function_is_in_the_commands_package():
    outside = []
    for name, tree in _modules():
        if _is_command_module(name) or name in ("bower_host.cli", "bower_host.commands"):
            continue
        for node in ast.walk(tree):
            named = isinstance(node, ast.FunctionDef) and node.name.startswith(("cmd_", "_cmd_", "register"))
            if named:
                outside.append(f"{name}.{node.name}")
            elif isinstance(node, ast.Attribute) and node.attr in ("add_parser", "add_subparsers"):
                outside.append(f"{name}: {node.attr} (line {node.lineno})")
    assert outside == []


def test_every_command_module_is_registered():
    trees = {name: tree for name, tree in _modules() if _is_command_module(name)}
    assert set(COMMAND_MODULES) <= set(trees)
    for name, tree in trees.items():
        assert any(isinstance(n, ast.FunctionDef) and n.name == "register" for n in tree.body), name
    # A module not listed is a part of a listed command, which imports it.
    parts = set(trees) - set(COMMAND_MODULES)
    imported = {f"{node.module}.{a.name}" if node.module == "bower_host.commands" else node.module
                for name in COMMAND_MODULES for node in ast.walk(trees[name]) if isinstance(node, ast.ImportFrom)
                for a in node.names}
    assert parts <= imported, parts - imported
    assert parts == {"bower_host.commands.clubtables"}


def test_no_room_imports_a_command():
    wrong = []
    for name, tree in _modules():
        if _is_command_module(name) or name == "bower_host.cli":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and (
                    node.module.startswith("bower_host.commands")
                    or (node.module == "bower_host" and any(a.name == "commands" for a in node.names))):
                wrong.append(f"{name} line {node.lineno}: from {node.module}")
            elif isinstance(node, ast.Import):
                wrong += [f"{name} line {node.lineno}: import {a.name}" for a in node.names
                          if a.name.startswith("bower_host.commands")]
    assert wrong == []
